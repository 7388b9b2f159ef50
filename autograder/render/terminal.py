"""GradeResult -> text for a terminal or a CI log: one submission in detail or in short (Spanish),
a batch table, GitHub workflow-command annotations.

Every function here returns text ready to print: student-derived text (exception messages,
file names, ids) goes through safe_text.ci_log, or safe_text.workflow_data/workflow_property
inside an annotation, so it can neither redraw the terminal nor run as a CI command."""

from __future__ import annotations

from autograder.grading.results import GradeResult, Outcome
from autograder.render.instructor_words import late_words, manual_words, policy_words, problems
from autograder.render.student_text import (late_lines, manual_note, overall_output, score_heading, test_output,
                                            tests_to_explain, unrun_functions)
from autograder.render.safe_text import ci_log, workflow_data, workflow_property


def function_lines(result: GradeResult) -> list[str]:
    """One aligned line per graded function: ✓ or ✗, its name, its points (the instructor's, said so,
    where they graded it by hand)."""
    width = max((len(name) for name in result.by_function()), default=8)
    lines = []
    for name, (score, maximum) in result.by_function().items():
        note = manual_note(result, name)
        lines.append(f"  {'✓' if score >= maximum else '✗'} {name:<{width}}  {score:6.2f} / {maximum:g}"
                     + (f"  — {note}" if note else ""))
    return lines


def submission_report(result: GradeResult) -> str:
    lines = [f"{result.assignment} · {result.submission}", score_heading(result), ""]
    if late_lines(result):
        lines += [*late_lines(result), ""]
    if overall_output(result):
        lines += [overall_output(result), ""]
    lines += function_lines(result)
    unrun = unrun_functions(result)
    if unrun:
        lines += ["", "Funciones que no se pudieron probar:"]
        lines += [f"  ✗ {function}: {why}" for function, why in unrun.items()]
    failed = tests_to_explain(result)
    if failed:
        lines += ["", "Pruebas no superadas:"]
        for test in failed:
            partial = f" ({test.score:.2f} / {test.max_score:.2f})" if test.outcome is Outcome.PARTIAL else ""
            lines.append(f"  ✗ {test.name}{partial}")
            lines += [f"      {line}" for line in test_output(test).splitlines()]
    return ci_log("\n".join(lines))


def batch_table(results: list[GradeResult]) -> str:
    """The batch for the instructor (English): a line per submission, with why its tests failed."""
    if not results:
        return "No submissions graded."
    labels = [r.student or r.submission for r in results]
    width = max(len(label) for label in labels)
    late = any(r.late_penalty for r in results)
    late_header = f"  {'late':>6}  {'final':>7}" if late else ""
    lines = [f"{'submission':<{width}}  {'score':>7}  {'max':>5}{late_header}  {'time':>6}  problems",
             "-" * (width + 40 + len(late_header))]
    for label, r in zip(labels, results):
        note = "BROKEN: " + r.error_instructor if r.error_instructor else "; ".join(problems(r))
        note = "; ".join(part for part in (manual_words(r), note) if part)
        penalty = f"{-r.late_penalty:6.2f}" if r.late_penalty else ""
        late_cells = f"  {penalty:>6}  {r.final_score:7.2f}" if late else ""
        lines.append(f"{label:<{width}}  {r.score:7.2f}  {r.max_score:5g}{late_cells}  {r.duration_seconds:5.1f}s  {note}")
    scores = [r.final_score for r in results]
    lines.append("-" * (width + 40 + len(late_header)))
    lines.append(f"{len(results)} submission{'s' if len(results) != 1 else ''}; mean {sum(scores) / len(scores):.2f}; "
                 f"full marks {sum(r.final_score == r.max_score for r in results)}; "
                 f"zero {sum(r.final_score == 0 for r in results)}"
                 + (f"; late {sum(bool(r.late_penalty) for r in results)}" if late else ""))
    overdue = [(label, r) for label, r in zip(labels, results) if late_words(r)]
    if overdue:
        lines += ["", f"Late submissions ({policy_words(overdue[0][1])}):"]
        lines += [f"  {label}: {late_words(r)}" for label, r in overdue]
    return ci_log("\n".join(lines))


# --- CI logs: a short Spanish summary and GitHub annotations ------------------------------

CI_SUMMARY_LINES = 40  # per submission in a CI log; the reports hold the rest


def _clip_line(text: str, limit: int = 200) -> str:
    """One line of a log, however long the student's exception message."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


def _why(test) -> str:
    """The one line a log shows for a failed test: its hint, else the first line of its feedback."""
    if test.hint:
        return f"Pista: {test.hint}"
    return next((line for line in test.feedback.splitlines() if line.strip()), test.outcome)


def _failed_by_function(result) -> dict[str, list]:
    """The failed tests worth a line each, grouped by function; none for a submission that could not
    be graded at all, nor for a function none of whose tests could run (unrun_functions says why)."""
    failed: dict[str, list] = {}
    for test in tests_to_explain(result):
        failed.setdefault(test.function, []).append(test)
    return failed


def ci_summary(result) -> str:
    """A submission in a CI log (Spanish): score, a line per function, each failed test with its hint.

    At most about CI_SUMMARY_LINES lines: the full text is in results.json, junit.xml and the
    job summary, and a long log is one nobody reads."""
    lines = [f"{result.assignment} · {result.student or result.submission}", score_heading(result)]
    lines += late_lines(result)
    notes = overall_output(result).splitlines()
    lines += [_clip_line(line) for line in notes[:5]] + (["…"] if len(notes) > 5 else [])
    lines += function_lines(result)
    unrun = unrun_functions(result)
    if unrun:
        lines.append("Funciones que no se pudieron probar:")
        lines += [f"  ✗ {function}: {_clip_line(why)}" for function, why in unrun.items()]
    failed = [t for tests in _failed_by_function(result).values() for t in tests]
    if failed:
        lines.append("Pruebas no superadas:")
    room = max(2, (CI_SUMMARY_LINES - len(lines)) // 2)
    for test in failed[:room]:
        lines += [f"  ✗ {_clip_line(test.name)}", f"      {_clip_line(_why(test))}"]
    if len(failed) > room:
        lines.append(f"  … y {len(failed) - room} más: el detalle está en results.json, junit.xml "
                     f"y el resumen del trabajo")
    return ci_log("\n".join(lines))


def _workflow_command(command: str, title: str, message: str) -> str:
    """A GitHub workflow command, escaped as GitHub requires (properties also escape ':' and ',')."""
    return f"::{command} title={workflow_property(title)}::{workflow_data(message)}"


def github_annotations(result, several: bool = False) -> list[str]:
    """An ::error per function with failed tests (or one for a submission that could not be graded),
    then a ::notice with the score: they show on the workflow run's page."""
    prefix = f"{result.student or result.submission}: " if several else ""
    lines = []
    if result.error_student:
        lines.append(_workflow_command("error", f"{prefix}no se pudo calificar la entrega", result.error_student))
    totals = result.by_function()
    for function, why in unrun_functions(result).items():
        score, maximum = totals[function]
        lines.append(_workflow_command("error", f"{prefix}{function}: {score:.2f} / {maximum:g}", why))
    for function, tests in _failed_by_function(result).items():
        score, maximum = totals[function]
        message = "\n".join(f"✗ {_clip_line(t.name)}: {_clip_line(_why(t))}" for t in tests)
        lines.append(_workflow_command("error", f"{prefix}{function}: {score:.2f} / {maximum:g}", message))
    lines.append(_workflow_command("notice", f"{prefix}{result.assignment}", score_heading(result)))
    return lines
