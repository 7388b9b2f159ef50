"""Grade one submission: load -> run the hidden suite -> score -> GradeResult.

This runs in a trusted grading process (see batch.py); student code only ever
runs in the sandboxed worker that StudentSession starts.
"""

from __future__ import annotations

import time
from pathlib import Path

from autograder.grading import feedback
from autograder.grading.kit import GradingKit
from autograder.grading.results import GradeResult, LoadSummary, Outcome, TestResult
from autograder.grading.student import StudentSession
from autograder.sandbox.launcher import Worker
from autograder.grading.visible import run_visible_checks
from autograder.notebook.loader import Program, SubmissionError, load_submission

SUITES = ("hidden", "visible")


def read_submission(kit: GradingKit, submission: Path | str) -> Program | SubmissionError:
    """The submission read and parsed, once: what is graded, or why nothing can be."""
    try:
        return load_submission(Path(submission), kit.assignment, kit.release)
    except SubmissionError as error:
        return error


def grade_submission(kit: GradingKit, submission: Path | str, suite: str = "hidden") -> GradeResult:
    """Grade one submission with the hidden suite, or with the release's visible checks."""
    started = time.monotonic()
    return grade_handed_in(kit, str(submission), read_submission(kit, submission), suite, started)


def grade_handed_in(kit: GradingKit, label: str, handed_in: Program | SubmissionError, suite: str = "hidden",
                    started: float | None = None, worker: Worker | None = None) -> GradeResult:
    """Grade what read_submission returned; `label` names the submission in the result. `worker`: the
    first worker, started while the submission was read (student.start_worker_soon)."""
    if suite not in SUITES:
        raise ValueError(f"suite must be one of {SUITES}, not {suite!r}")
    assignment = kit.assignment
    started = time.monotonic() if started is None else started
    if isinstance(handed_in, SubmissionError):
        if worker is not None:
            worker.close()
        return broken_submission(assignment, label, handed_in.student_message, handed_in.instructor_message,
                                 time.monotonic() - started)
    program = handed_in
    session = StudentSession(program, assignment.limits, reference_source=kit.reference_source,
                             served_helpers=kit.served_helpers, mutated_arguments=kit.mutated_arguments,
                             helper_answers=kit.helper_answers, known_callbacks=kit.known_callbacks,
                             probe_calls=kit.probe_calls)
    session.start_soon(worker)
    try:
        if suite == "hidden":
            raw_tests = _run_hidden_suite(kit, session)
        else:
            release = program.release if program.release is not None else kit.release  # completed by the loader
            raw_tests = run_visible_checks(release, assignment.points, session)
    finally:
        session.close()
    load = _load_summary(program, session, assignment)
    tests = score_tests(raw_tests, assignment.points, assignment.visibility_of)
    return GradeResult(assignment.id, label, tests, load, assignment.max_score,
                       duration_seconds=round(time.monotonic() - started, 3), charged_seconds=round(session.spent, 3),
                       suite=suite)


def _run_hidden_suite(kit: GradingKit, session: StudentSession):
    if kit.hidden_suite is None:
        raise ValueError(f"this kit of {kit.assignment.id} was built for the visible checks (build_kit(..., 'hidden'))")
    return kit.hidden_suite.run(session)


def _load_summary(program, session: StudentSession, assignment) -> LoadSummary:
    report = session.load_report or {}
    failed = [_describe_failed_cell(entry) for entry in report.get("failed_cells", [])]
    skipped = report.get("skipped_cells", [])
    defined = report.get("functions", set())
    missing = [name for name in assignment.points if defined and name not in defined]
    return LoadSummary(notes=list(program.notes), failed_cells=failed,
                       skipped_cells=[f"{e['cell']}: se omitió porque {SKIPPED_BECAUSE[e['why']][0]}" for e in skipped],
                       skipped_notes=[f"{e['cell']}: skipped while loading: {SKIPPED_BECAUSE[e['why']][1]}" for e in skipped],
                       missing_functions=missing, output=report.get("output", ""), module=program.notebook is None,
                       graded_file=program.handed_in, file_choice=program.file_choice)


# Why a cell was skipped while loading: (for the student, for the instructor).
SKIPPED_BECAUSE = {"timeout": ("tardó demasiado", "it took too long"),
                   "died": ("terminó el proceso", "it ended its worker process")}


def _describe_failed_cell(entry) -> str:
    error = entry["error"]
    where = f", línea {error.frames[-1][1]}" if error.frames else ""
    message = f": {error.message}" if error.message else ""
    # Cells run before any hidden input exists, so their error messages are safe to show.
    return f"{entry['cell']}{where}: {error.type_name}{message}"


def score_tests(raw_tests, points: dict[str, float], visibility_of=None) -> list[TestResult]:
    """Split each function's points among its tests by weight; apply `requires` gates.

    A failed catch-all (``backstop``) test earns its share in proportion to the weight of
    that function's specific tests that earned their points, but never more than those specific
    tests lost: a student with one bug keeps some of it, and no submission gains by failing one
    test more. (With more credit, a bug that only the catch-all sees, which costs its whole share,
    would cost less once a second bug failed a small specific test.) So a failed catch-all costs
    at least its own share, and a bug that fails more specific tests costs them in proportion.
    Tests of the lesson's published examples (``published``) count on neither side of that
    proportion, since a table of those examples passes them: such a table earns their points and
    nothing of the catch-all. When every specific test passed, the catch-all is the only one to
    see the bug and earns nothing.
    A test gated by `requires` shows no hint of its own: the basic test that failed names
    the misconception.

    `visibility_of(test_id, kind)` gives each test's Gradescope visibility (course.yml).

    The tests come back in the order of course.yml's functions (`points`), each function's in the
    suite's order: every rendering (terminal, pages, results.json) lists functions as the notebook does."""
    weights: dict[str, float] = {}
    for raw in raw_tests:
        weights[raw.function] = weights.get(raw.function, 0.0) + raw.weight
    passed = {raw.test_id for raw in raw_tests if raw.excinfo is None}
    earned = {raw.test_id for raw in raw_tests if raw.excinfo is None and set(raw.requires) <= passed}
    specific = [raw for raw in raw_tests if not raw.backstop]
    specific_weight: dict[str, float] = {}
    earned_weight: dict[str, float] = {}
    for raw in specific:
        if raw.published:
            continue
        specific_weight[raw.function] = specific_weight.get(raw.function, 0.0) + raw.weight
        earned_weight[raw.function] = earned_weight.get(raw.function, 0.0) + raw.weight * (raw.test_id in earned)
    refund = _catch_all_refund(raw_tests, points, weights, earned, earned_weight, specific_weight)
    results = []
    position = {function: index for index, function in enumerate(points)}
    for raw in sorted(raw_tests, key=lambda raw: position.get(raw.function, len(position))):
        if raw.function not in points:
            raise ValueError(f"hidden test {raw.test_id} grades {raw.function!r}, which course.yml does not list")
        share = points[raw.function] * raw.weight / weights[raw.function]
        blocked = [r for r in raw.requires if r not in passed]
        score, hint = 0.0, raw.hint
        if raw.excinfo is None and not blocked:
            outcome, text, note, score, hint = Outcome.PASSED, "", "", share, ""
        elif raw.excinfo is None:
            outcome, note, hint = Outcome.GATED, f"requires {', '.join(blocked)}", ""
            text = "Esta prueba de casos de error solo puntúa cuando tu función también supera sus casos básicos."
        else:
            outcome, text, note = feedback.classify(raw.excinfo, raw.kind, raw.calls)
            fraction = refund.get(raw.function, 0.0)
            if raw.backstop and fraction > 0 and outcome is not Outcome.GRADER_ERROR:
                outcome, score = Outcome.PARTIAL, share * fraction
                note = f"catch-all credited {fraction:.0%}: the share of specific tests earned, at most what they lost ({note})"
                text = (f"Prueba general: se te reconoce una parte ({_percent(fraction)}), en proporción a las "
                        f"pruebas específicas de esta función que superaste y sin pasar de lo que perdiste en las "
                        f"demás. Este ejemplo puede ayudarte a encontrar el fallo.\n" + text)
        results.append(TestResult(
            test_id=raw.test_id, name=f"{raw.function}: {raw.title}", function=raw.function,
            score=score, max_score=share, outcome=outcome, feedback=text, hint=hint, kind=raw.kind,
            instructor_note=note, visibility=visibility_of(raw.test_id, raw.kind) if visibility_of else "visible",
            broad=raw.backstop or raw.published,
        ))
    return results


def _catch_all_refund(raw_tests, points, weights, earned, earned_weight, specific_weight) -> dict[str, float]:
    """Per function, the fraction of its share each failed catch-all earns: the specific tests'
    earned fraction, capped so that all its failed catch-alls together give back no more than the
    points its specific tests (published ones included) lost."""
    lost: dict[str, float] = {}
    failed_catch_alls: dict[str, float] = {}
    for raw in raw_tests:
        share = points.get(raw.function, 0.0) * raw.weight / weights[raw.function]
        if not raw.backstop and raw.test_id not in earned:
            lost[raw.function] = lost.get(raw.function, 0.0) + share
        elif raw.backstop and raw.excinfo is not None:
            failed_catch_alls[raw.function] = failed_catch_alls.get(raw.function, 0.0) + share
    refund = {}
    for function, failed_share in failed_catch_alls.items():
        fraction = earned_weight.get(function, 0.0) / specific_weight.get(function, 1.0)
        refund[function] = min(fraction, lost.get(function, 0.0) / failed_share) if failed_share else 0.0
    return refund


def _percent(fraction: float) -> str:
    return f"{fraction * 100:.0f} %"  # Spanish typography: a space before the sign


def broken_submission(assignment, label: str, student_message: str, instructor_message: str,
                      duration: float = 0.0, grader_fault: bool = False) -> GradeResult:
    """A submission that could not be graded: every function scores zero, with the reason.
    `grader_fault`: the grader lost it (batch.grader_failure), not the student."""
    tests = [TestResult(test_id=f"load_{name}", name=f"{name}: entrega", function=name, score=0.0, max_score=points,
                        outcome=Outcome.BROKEN_SUBMISSION, feedback=student_message, instructor_note=instructor_message)
             for name, points in assignment.points.items()]
    return GradeResult(assignment.id, label, tests, LoadSummary(), assignment.max_score,
                       error_student=student_message, error_instructor=instructor_message,
                       grader_fault=grader_fault, duration_seconds=round(duration, 3))
