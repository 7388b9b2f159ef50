"""The results model: one GradeResult per graded submission.

Every output format (Gradescope JSON, terminal table, and later Markdown, HTML,
JUnit, CSV) is rendered from these objects and from nothing else.
"""

from __future__ import annotations

import dataclasses

# Why a test did not pass; the renderers and reports group by these.
OUTCOMES = ("passed", "partial", "wrong", "raised", "missing", "bad_return", "timeout", "crashed", "gated",
            "broken_submission", "grader_error")
# Outcomes the instructor report lists as incidents rather than as plain wrong answers.
INCIDENTS = {"timeout": "timed out", "crashed": "the worker died", "bad_return": "returned a non-data object",
             "grader_error": "grader error"}


@dataclasses.dataclass
class TestResult:
    test_id: str  # the hidden test's function name, stable across runs
    name: str  # Spanish title shown to the student
    function: str
    score: float
    max_score: float
    outcome: str
    feedback: str = ""  # Spanish, safe to show: never a hidden input or expected value
    hint: str = ""  # the misconception this test catches, in Spanish
    kind: str = "fixed"  # "fixed" (hidden case) or "property" (generated counterexample may be shown)
    visibility: str = "visible"
    instructor_note: str = ""  # English, for the instructor log only
    broad: bool = False  # checks many things at once (a catch-all, a whole published example): read after the rest

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"


@dataclasses.dataclass
class LoadSummary:
    notes: list[str] = dataclasses.field(default_factory=list)  # Spanish
    failed_cells: list[str] = dataclasses.field(default_factory=list)  # Spanish, one line per cell
    skipped_cells: list[str] = dataclasses.field(default_factory=list)
    missing_functions: list[str] = dataclasses.field(default_factory=list)
    output: str = ""  # what the cells printed while loading (before any hidden input existed)


@dataclasses.dataclass
class GradeResult:
    assignment: str
    submission: str
    tests: list[TestResult]
    load: LoadSummary
    max_score: float
    error_student: str = ""  # set when the submission could not be graded at all
    error_instructor: str = ""
    duration_seconds: float = 0.0
    student: str = ""  # nbgrader student id, when graded from a course directory
    submitted_at: str = ""  # ISO 8601 UTC, from nbgrader's timestamp.txt; "" when unknown
    late_seconds: float = 0.0  # past the due date, grace period included
    late_penalty: float = 0.0  # points taken off by the course's late policy

    @property
    def score(self) -> float:
        """Points earned by the tests, before any late penalty."""
        return round(sum(t.score for t in self.tests), 4)

    @property
    def final_score(self) -> float:
        return round(max(0.0, self.score - self.late_penalty), 4)

    def lost_to_grader(self) -> bool:
        """The whole submission was lost to a grader fault (batch.grader_failure), not to the student."""
        return self.error_instructor.startswith("grader error")

    def grader_failed(self) -> bool:
        """The grader, not the student, failed somewhere: the whole submission or one test."""
        return self.lost_to_grader() or any(t.outcome == "grader_error" for t in self.tests)

    def incidents(self) -> list[str]:
        """English lines for the instructor: time-outs, crashes and objects the sandbox refused.

        These are where an attack on the grader, or a runaway submission, shows up."""
        lines = [f"{cell} (while loading)" for cell in self.load.skipped_cells]
        lines += [f"{t.test_id}: {INCIDENTS[t.outcome]} ({t.instructor_note})"
                  for t in self.tests if t.outcome in INCIDENTS]
        if self.error_instructor:
            lines.append(self.error_instructor)
        return lines

    def failed_tests(self) -> list[TestResult]:
        """Tests that did not pass, in the order a student should read them: narrow fixed cases first (each
        names one misconception), then generated properties, then broad tests (whole published examples,
        catch-alls). None for a submission that could not be loaded (its error says why, once)."""
        failed = [t for t in self.tests if not t.passed and t.outcome != "broken_submission"]
        return sorted(failed, key=lambda t: (t.outcome == "partial", t.broad, t.kind == "property"))

    def by_function(self) -> dict[str, tuple[float, float]]:
        totals: dict[str, list[float]] = {}
        for test in self.tests:
            entry = totals.setdefault(test.function, [0.0, 0.0])
            entry[0] += test.score
            entry[1] += test.max_score
        return {name: (round(s, 4), round(m, 4)) for name, (s, m) in totals.items()}


def result_from_dict(data: dict) -> GradeResult:
    """The inverse of dataclasses.asdict(result): how results travel between processes and runs."""
    data = dict(data)
    tests = [TestResult(**t) for t in data.pop("tests")]
    load = LoadSummary(**data.pop("load"))
    return GradeResult(tests=tests, load=load, **data)
