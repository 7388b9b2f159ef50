"""The words an instructor reads for why a test did not pass, in every instructor-facing rendering
(the HTML report, the terminal batch table).

The Outcome values ("raised", "gated", "bad_return"...) are the results file's vocabulary, kept
stable for the programs that read it; an instructor reads these instead. Students never see either:
their pages explain each failure in Spanish."""

from __future__ import annotations

from autograder.grading.results import GradeResult, Outcome, TestResult
from autograder.late import clock

OUTCOME_WORDS = {
    Outcome.PASSED: "passed",
    Outcome.PARTIAL: "catch-all test partly credited",
    Outcome.WRONG: "wrong answer",
    Outcome.RAISED: "raised an exception",
    Outcome.MISSING: "function not defined",
    Outcome.BAD_RETURN: "returned an object that is not plain data",
    Outcome.TIMEOUT: "timed out",
    Outcome.CRASHED: "crashed its sandbox process",
    # The test passed, but it is an error case that counts only once the basic tests it requires pass.
    Outcome.GATED: "error case not counted: a basic test failed",
    Outcome.BROKEN_SUBMISSION: "could not be loaded",
    Outcome.GRADER_ERROR: "grader error (not the student's fault)",
}
# A RAISED test whose exception is NotImplementedError: the released stub, said as such, since
# "raised an exception" would read as a bug in code the student never wrote.
NOT_IMPLEMENTED = "not implemented (still raises NotImplementedError)"


def why_failed(test: TestResult) -> str:
    return NOT_IMPLEMENTED if test.not_implemented else OUTCOME_WORDS[test.outcome]


def problems(result: GradeResult) -> list[str]:
    """Why the submission's tests did not pass, each reason once, in a fixed order."""
    return sorted({why_failed(t) for t in result.tests if not t.passed})


def manual_words(result: GradeResult) -> str:
    """The functions an instructor graded by hand, with what they gave and what the tests gave ("" if none)."""
    auto = result.auto_by_function()
    parts = []
    for grade in result.manual:
        given = [] if grade.score is None else [f"{grade.score:g} (tests: {auto.get(grade.function, (0.0,))[0]:g})"]
        given += ["typed for an earlier submission: review it in formgrader"] if grade.outdated else []
        given += [f"{grade.extra_credit:+g} extra credit"] if grade.extra_credit else []
        parts.append(f"{grade.function} {' '.join(given)}")
    return "graded by the instructor: " + ", ".join(parts) if parts else ""


def _span(seconds: float) -> str:
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return " ".join(f"{n} {unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "min")) if n) or f"{int(seconds)} s"


def late_words(result: GradeResult) -> str:
    """A late submission in one line: due date (and extension), submitted, how late, days charged, penalty."""
    if result.late_seconds <= 0 or not result.due:
        return ""
    extension = f" after an extension of {_span(result.extension_seconds)}" if result.extension_seconds else ""
    days = result.late_policy.days_late(result.late_seconds)
    charged = f"{days} day{'s' if days != 1 else ''} charged" if days else "within the grace period"
    return (f"due {clock(result.due)}{extension}, submitted {clock(result.submitted_at)}: "
            f"{_span(result.late_seconds)} late, {charged}, -{result.late_penalty:.2f}")


def policy_words(result: GradeResult) -> str:
    policy = result.late_policy
    parts = [f"{policy.grace_minutes:g} min grace"] if policy.grace_minutes else []
    parts += [f"-{policy.penalty_per_day:g}% of the score per day or part of a day"] if policy.penalty_per_day else []
    parts += [f"nothing after {policy.max_days_late:g} days"] if policy.max_days_late is not None else []
    return "late policy: " + (", ".join(parts) or "no penalty")
