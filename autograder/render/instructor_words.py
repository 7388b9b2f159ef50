"""The words an instructor reads for why a test did not pass, in every instructor-facing rendering
(the HTML report, the terminal batch table).

The Outcome values ("raised", "gated", "bad_return"...) are the results file's vocabulary, kept
stable for the programs that read it; an instructor reads these instead. Students never see either:
their pages explain each failure in Spanish."""

from __future__ import annotations

from autograder.grading.results import GradeResult, Outcome, TestResult

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
