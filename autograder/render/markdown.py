"""GradeResult -> a GitHub Actions job summary: GitHub-flavoured Markdown, in Spanish.

One submission: a heading with the score, a table per function, then a folded
<details> block per function with failures (each failed test: its name, what went
wrong, the hint). Several submissions: a class table first, then a section per
submission.

GitHub refuses a step summary over 1 MiB ("upload aborted"), and earlier steps may have
written to the same file already. So the summary is assembled from whole blocks within
a byte budget: details go first, then per-submission sections, and what was left out
is said in a "(recortado: ...)" note; a Markdown structure is never cut in half. Every
text that can come from a student (feedback quotes their exception messages, file
names are theirs) is escaped, so it renders as text and cannot break a table or a fold.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from autograder.grading.results import GradeResult, Outcome, TestResult
from autograder.render.student_text import overall_output, score_heading, test_output
from autograder.render.safe_text import html_text, markdown_line as md_escape

GITHUB_SUMMARY_LIMIT = 1024 * 1024  # bytes per step; GitHub aborts the upload above it
TEST_CHARS = 2000  # per test: results.json and junit.xml keep the full text
NOTES_CHARS = 3000  # the load notes (failed cells can quote long tracebacks)
NOTE_RESERVE = 600  # bytes kept free for the "(recortado: ...)" note

def _lines(text: str, limit: int) -> list[str]:
    """`text` clipped to `limit` characters (before escaping, so no entity is cut), one escaped line each."""
    if len(text) > limit:
        text = text[:limit] + "… (texto recortado)"
    return [md_escape(line) for line in text.splitlines() if line.strip()]


def _code(name: str) -> str:
    """An identifier as a code span, or as escaped text if it could break out of one."""
    return f"`{name}`" if re.fullmatch(r"[\w.]+", name) else md_escape(name)


def _label(result: GradeResult) -> str:
    return result.student or result.submission


def _score_line(result: GradeResult) -> str:
    if result.suite == "visible":
        return f"**{score_heading(result)}**"
    score = f"**Puntuación: {result.score:.2f} / {result.max_score:g}**"
    if result.late_penalty:
        score += (f" · penalización por entrega tardía: −{result.late_penalty:.2f}"
                  f" · **nota final: {result.final_score:.2f}**")
    return score


def _function_table(result: GradeResult) -> str:
    rows = ["| Función | | Puntos | Máximo |", "|---|:-:|--:|--:|"]
    for name, (score, maximum) in result.by_function().items():
        rows.append(f"| {_code(name)} | {'✅' if score == maximum else '❌'} | {score:.2f} | {maximum:g} |")
    return "\n".join(rows)


def _notes(result: GradeResult) -> str:
    """The load notes (overall_output) as a quote; "" when there are none."""
    return "\n".join(f"> {line}<br>" for line in _lines(overall_output(result), NOTES_CHARS)).removesuffix("<br>")


def _test_item(test: TestResult) -> str:
    """One list item: the test's name, then what went wrong and the hint (test_output), line by line."""
    partial = f" ({test.score:.2f} / {test.max_score:.2f})" if test.outcome is Outcome.PARTIAL else ""
    return "<br>\n  ".join([f"- ❌ **{md_escape(test.name)}**{partial}", *_lines(test_output(test), TEST_CHARS)])


def _details(result: GradeResult, function: str, tests: list[TestResult]) -> str:
    """A folded block for one function: its failed tests."""
    failed = sum(not t.passed for t in tests)
    score, maximum = result.by_function()[function]
    summary = (f"❌ <code>{html_text(function)}</code>: "
               f"{_count(failed, 'prueba no superada', 'pruebas no superadas')} ({score:.2f} / {maximum:g})")
    items = "\n".join(_test_item(t) for t in tests)
    return f"<details><summary>{summary}</summary>\n\n{items}\n\n</details>"


def _function_details(result: GradeResult) -> list[str]:
    """A <details> block per function with a failed test; a broken submission has none (its notes say why)."""
    by_function: dict[str, list[TestResult]] = {}
    for test in result.failed_tests():
        by_function.setdefault(test.function, []).append(test)
    return [_details(result, name, tests) for name, tests in by_function.items()]


def _section(result: GradeResult, alone: bool) -> str:
    """A submission's heading, score, load notes and function table (under the class table unless `alone`)."""
    heading = f"## {_code(result.assignment)} · {md_escape(_label(result))}" if alone else \
        f"### {md_escape(_label(result))}"
    return "\n\n".join(part for part in (heading, _score_line(result), _notes(result), _function_table(result)) if part)


def _class_table(results: list[GradeResult]) -> str:
    rows = ["| | Estudiante | Puntuación | Nota final |", "|:-:|---|--:|--:|"]
    for r in results:
        mark = "⚠️" if r.error_student else "✅" if r.final_score == r.max_score else "❌"
        rows.append(f"| {mark} | {md_escape(_label(r))} | {r.score:.2f} / {r.max_score:g} | {r.final_score:.2f} |")
    return "\n".join(rows)


def _class_heading(results: list[GradeResult]) -> str:
    scores = [r.final_score for r in results]
    return (f"## {_code(results[0].assignment)}: {len(results)} entregas\n\n"
            f"Media: {sum(scores) / len(scores):.2f} / {results[0].max_score:g} · "
            f"puntuación completa: {sum(r.final_score == r.max_score for r in results)} · "
            f"no se pudieron calificar: {sum(bool(r.error_student) for r in results)}")


@dataclasses.dataclass
class _Block:
    text: str
    tier: int  # 0 always kept; 1 a submission's section; 2 a function's details (dropped first)
    section: int  # which submission it belongs to: details go when their section goes

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8")) + 2  # the blank line that separates blocks


def _blocks(results: list[GradeResult]) -> list[_Block]:
    """The whole summary as blocks in document order."""
    several = len(results) > 1
    blocks = [_Block(_class_heading(results), 0, -1), _Block(_class_table(results), 0, -1)] if several else []
    for index, result in enumerate(results):
        blocks.append(_Block(_section(result, alone=not several), 1 if several else 0, index))
        blocks += [_Block(text, 2, index) for text in _function_details(result)]
    return blocks


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _trim_note(dropped_sections: int, dropped_details: int) -> str:
    parts = []
    if dropped_sections:
        parts.append("se omitió la sección de 1 entrega" if dropped_sections == 1 else
                     f"se omitieron las secciones de {dropped_sections} entregas")
    if dropped_details:
        parts.append(f"se omitió el detalle de {_count(dropped_details, 'función', 'funciones')} "
                     f"con pruebas no superadas")
    return (f"*(recortado: {' y '.join(parts)} para no superar el límite de tamaño del resumen de GitHub; "
            f"el detalle completo está en el informe JUnit y en los resultados de cada entrega)*") if parts else ""


def _fit(blocks: list[_Block], budget: int) -> list[_Block] | None:
    """The blocks kept within `budget` bytes (NOTE_RESERVE left for the note), or None if not even tier 0 fits.

    Within a tier, blocks are kept in order up to the first that does not fit, so what is left
    out is always "the rest": the last submissions, the last functions."""
    used = NOTE_RESERVE + sum(b.size for b in blocks if b.tier == 0)
    if used > budget:
        return None
    kept = {id(b) for b in blocks if b.tier == 0}
    sections = {b.section for b in blocks if b.tier == 0}
    for tier in (1, 2):
        for block in (b for b in blocks if b.tier == tier and (tier == 1 or b.section in sections)):
            if used + block.size > budget:
                break
            kept.add(id(block))
            sections.add(block.section)
            used += block.size
    return [b for b in blocks if id(b) in kept]


def job_summary(results: list[GradeResult], limit_bytes: int = GITHUB_SUMMARY_LIMIT) -> str:
    """The summary in at most `limit_bytes` UTF-8 bytes; "" when not even the heading and score table fit."""
    if not results:
        return ""
    blocks = _blocks(results)
    kept = _fit(blocks, limit_bytes)
    if kept is None:
        return ""
    kept_ids = {id(b) for b in kept}
    dropped = [b for b in blocks if id(b) not in kept_ids]
    note = _trim_note(sum(b.tier == 1 for b in dropped), sum(b.tier == 2 for b in dropped))
    text = "\n\n".join([b.text for b in kept] + ([note] if note else [])) + "\n"
    return text if len(text.encode("utf-8")) <= limit_bytes else ""


def append_job_summary(path: Path, results: list[GradeResult], limit_bytes: int = GITHUB_SUMMARY_LIMIT) -> int:
    """Append the summary to `path` (earlier steps' content is kept), counting its current size
    against the limit; returns the bytes written, 0 when there was no room left."""
    existing = path.stat().st_size if path.is_file() else 0
    separator = ""
    if existing:
        with path.open("rb") as handle:
            handle.seek(-1, 2)
            separator = "\n" if handle.read(1) == b"\n" else "\n\n"  # a blank line: a new Markdown block
    text = job_summary(results, limit_bytes - existing - len(separator))
    if not text:
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8", newline="") as handle:  # newline="": no \r\n growth on Windows
        handle.write(separator + text)
    return len((separator + text).encode("utf-8"))
