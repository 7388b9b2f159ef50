"""A similarity run as JSON (for scripts and the report), and the report's section (for people).

Both say the same thing the same careful way: a flagged pair shares more code than the
independent solutions of this course ever do, which is a reason to read both, not a finding.
"""

from __future__ import annotations

from autograder.render.html_page import esc
from autograder.similarity.code import REST

CAUTION = ("Pairs to read, not verdicts. A pair is flagged when the share of code the two submissions have "
           "in common (after removing the release's code and idioms found in many submissions) reaches the "
           "threshold. Short functions written the obvious way can match by chance; the evidence is the "
           "matching code, shown side by side.")
THRESHOLD_NOTE = ("course.yml similarity.threshold (default 0.55): midway between the highest score of two "
                  "independent correct solutions in the course's corpora and the lowest of a disguised copy "
                  "(bench/README.md, 'Similarity').")


def similarity_document(run) -> dict:
    """The JSON written by `autograder similarity`: every pair scoring at least half the threshold;
    the code of the matching units for the flagged ones."""
    units = {code.student: code.units for code in [*run.codes, *run.earlier]}
    pairs = []
    for pair in run.pairs:
        entry = {"a": pair.a, "b": pair.b, "score": pair.score, "flagged": pair.flagged,
                 "functions": [m.unit for m in pair.units]}
        if pair.flagged:
            entry["matches"] = [{"unit": m.unit, "score": m.score, "code_a": units[pair.a][m.unit],
                                 "code_b": units[pair.b][m.unit], "spans_a": m.spans_a, "spans_b": m.spans_b}
                                for m in pair.units]
        pairs.append(entry)
    return {
        "assignment": run.assignment,
        "threshold": run.threshold,
        "threshold_source": THRESHOLD_NOTE,
        "note": CAUTION,
        "compared": len(run.codes),
        "earlier_semesters": len(run.earlier),
        "unreadable": [{"student": c.student, "why": c.problem} for c in run.codes if c.problem],
        "seconds": round(run.seconds, 2),
        "pairs": pairs,
    }


def flagged_pairs_section(document: dict | None) -> str:
    """The instructor report's section: each flagged pair's matching units, side by side."""
    title = '<h2 id="similarity">Similar submissions</h2>'
    if document is None:
        return (title + '<p class="note">Not computed for this assignment: run <span class="code">autograder '
                'similarity ASSIGNMENT</span>, then this report again.</p>')
    flagged = [p for p in document.get("pairs", []) if p.get("flagged")]
    intro = (f'<p class="note">{esc(document.get("note", CAUTION))} Threshold '
             f'{_percent(document.get("threshold", 0))}, from {esc(document.get("threshold_source", THRESHOLD_NOTE))} '
             f'{esc(document.get("compared"))} submissions compared'
             + (f', and {esc(document["earlier_semesters"])} from earlier semesters' if document.get("earlier_semesters")
                else "") + ".</p>")
    if not flagged:
        return title + intro + '<p class="note">No pair reaches the threshold.</p>'
    blocks = []
    for number, pair in enumerate(flagged):
        units = "".join(
            f'<h4>{esc(_unit_name(match["unit"]))} · {_percent(match["score"])} in common</h4><div class="side-by-side">'
            f'<figure><figcaption>{esc(pair["a"])}</figcaption>{marked_code(match["code_a"], match["spans_a"])}</figure>'
            f'<figure><figcaption>{esc(pair["b"])}</figcaption>{marked_code(match["code_b"], match["spans_b"])}</figure>'
            "</div>"
            for match in pair.get("matches", []))
        shown = ", ".join(_unit_name(unit) for unit in pair["functions"]) or "spread over several functions"
        blocks.append(f'<details class="pair"{" open" if number == 0 else ""}><summary><strong>{esc(pair["a"])}'
                      f'</strong> and <strong>{esc(pair["b"])}</strong>: {_percent(pair["score"])} of their code in '
                      f'common ({esc(shown)})</summary>{units or _none_matching()}</details>')
    return title + intro + "".join(blocks)


def _unit_name(unit: str) -> str:
    return "other code (helpers, classes, constants)" if unit == REST else unit


def _percent(score) -> str:
    return f"{round(100 * float(score))}%"


def _none_matching() -> str:
    return '<p class="note">No single function reaches the threshold: the shared code is spread out.</p>'


def marked_code(code: str, spans: list) -> str:
    """The code with the spans the other submission also has in <mark>, everything escaped."""
    out, at = [], 0
    for start, end in sorted((max(0, int(s)), min(len(code), int(e))) for s, e in spans):
        if start < at:
            start = at
        if start >= end:
            continue
        out.append(esc(code[at:start]))
        out.append(f"<mark>{esc(code[start:end])}</mark>")
        at = end
    out.append(esc(code[at:]))
    return f'<pre class="code-block">{"".join(out)}</pre>'
