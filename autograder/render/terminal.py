"""GradeResult -> text for a terminal: one submission in detail (Spanish), or a batch table."""

from __future__ import annotations

from autograder.grading.results import GradeResult
from autograder.render.gradescope import overall_output, test_output


def submission_report(result: GradeResult) -> str:
    lines = [f"{result.assignment} · {result.submission}",
             f"Puntuación: {result.score:.2f} / {result.max_score:g}", ""]
    if overall_output(result):
        lines += [overall_output(result), ""]
    width = max((len(name) for name in result.by_function()), default=8)
    for name, (score, maximum) in result.by_function().items():
        mark = "✓" if score == maximum else "✗"
        lines.append(f"  {mark} {name:<{width}}  {score:6.2f} / {maximum:g}")
    failed = [t for t in result.tests if not t.passed and t.outcome != "broken_submission"]
    if failed:
        lines += ["", "Pruebas no superadas:"]
        for test in failed:
            lines.append(f"  ✗ {test.name}")
            lines += [f"      {line}" for line in test_output(test).splitlines()]
    covered = [t for t in result.tests if t.outcome == "covered"]
    if covered:
        lines += ["", "Pistas adicionales (sin descontar de nuevo):"]
        for test in covered:
            lines.append(f"  · {test.name}")
            lines += [f"      {line}" for line in test_output(test).splitlines()]
    return "\n".join(lines)


def batch_table(results: list[GradeResult]) -> str:
    if not results:
        return "No submissions graded."
    labels = [r.student or r.submission for r in results]
    width = max(len(label) for label in labels)
    late = any(r.late_penalty for r in results)
    late_header = f"  {'late':>6}  {'final':>7}" if late else ""
    lines = [f"{'submission':<{width}}  {'score':>7}  {'max':>5}{late_header}  {'time':>6}  problems",
             "-" * (width + 40 + len(late_header))]
    for label, r in zip(labels, results):
        problems = sorted({t.outcome for t in r.tests if not t.passed})
        note = "BROKEN: " + r.error_instructor if r.error_instructor else ", ".join(problems)
        penalty = f"{-r.late_penalty:6.2f}" if r.late_penalty else ""
        late_cells = f"  {penalty:>6}  {r.final_score:7.2f}" if late else ""
        lines.append(f"{label:<{width}}  {r.score:7.2f}  {r.max_score:5g}{late_cells}  {r.duration_seconds:5.1f}s  {note}")
    scores = [r.final_score for r in results]
    lines.append("-" * (width + 40 + len(late_header)))
    lines.append(f"{len(results)} graded; mean {sum(scores) / len(scores):.2f}; "
                 f"full marks {sum(r.final_score == r.max_score for r in results)}; "
                 f"zero {sum(r.final_score == 0 for r in results)}"
                 + (f"; late {sum(bool(r.late_penalty) for r in results)}" if late else ""))
    return "\n".join(lines)
