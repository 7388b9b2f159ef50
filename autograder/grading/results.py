"""The results model: one GradeResult per graded submission.

Every output format (Gradescope JSON, terminal table, and later Markdown, HTML,
JUnit, CSV) is rendered from these objects and from nothing else.
"""

from __future__ import annotations

import dataclasses
import enum

from autograder.late import LatePolicy


class Outcome(enum.StrEnum):
    """Why a test passed or did not; the renderers and reports group by these.

    A StrEnum: it is written to JSON and compared as its plain value ("passed")."""

    PASSED = "passed"
    PARTIAL = "partial"  # a catch-all credited in proportion to the specific tests passed
    WRONG = "wrong"
    RAISED = "raised"
    MISSING = "missing"  # the function is not defined
    BAD_RETURN = "bad_return"  # returned something that is not plain data
    TIMEOUT = "timeout"
    CRASHED = "crashed"  # the worker died
    GATED = "gated"  # an error case, counted only once the basic tests pass
    BROKEN_SUBMISSION = "broken_submission"  # nothing could be loaded
    GRADER_ERROR = "grader_error"  # the grader failed, never the student's fault


OUTCOMES = tuple(Outcome)
# Outcomes the instructor report lists as incidents rather than as plain wrong answers.
INCIDENTS = frozenset({Outcome.TIMEOUT, Outcome.CRASHED, Outcome.BAD_RETURN, Outcome.GRADER_ERROR})


def raised_note(exception: str) -> str:
    """The instructor note of a test whose student code raised `exception` (feedback.classify writes it;
    TestResult.not_implemented reads it)."""
    return f"student raised {exception}"


def _freeze(instance, **fields) -> None:
    # Frozen dataclasses normalise their containers once, so that two equal results compare equal
    # whether they were built here or read back from JSON.
    for name, value in fields.items():
        object.__setattr__(instance, name, value)


@dataclasses.dataclass(frozen=True)
class TestResult:
    test_id: str  # the hidden test's function name, stable across runs
    name: str  # Spanish title shown to the student
    function: str
    score: float
    max_score: float
    outcome: Outcome
    feedback: str = ""  # Spanish, safe to show: never a hidden input or expected value
    hint: str = ""  # the misconception this test catches, in Spanish
    kind: str = "fixed"  # "fixed" (hidden case) or "property" (generated counterexample may be shown)
    visibility: str = "visible"
    instructor_note: str = ""  # English, for the instructor log only
    broad: bool = False  # checks many things at once (a catch-all, a whole published example): read after the rest

    def __post_init__(self):
        _freeze(self, outcome=Outcome(self.outcome))

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.PASSED

    @property
    def not_implemented(self) -> bool:
        """The student's function raised NotImplementedError, as the released stub does.

        No outcome of its own: feedback.classify records it as RAISED, and names the exception only
        in the instructor note."""
        return self.outcome is Outcome.RAISED and self.instructor_note == raised_note("NotImplementedError")


@dataclasses.dataclass(frozen=True)
class LoadSummary:
    notes: tuple[str, ...] = ()  # Spanish
    failed_cells: tuple[str, ...] = ()  # Spanish, one line per cell
    skipped_cells: tuple[str, ...] = ()
    skipped_notes: tuple[str, ...] = ()  # the same cells, for the instructor (English)
    missing_functions: tuple[str, ...] = ()
    output: str = ""  # what the cells printed while loading (before any hidden input existed)
    module: bool = False  # a .py module was handed in: it has no cells, one file
    graded_file: str = ""  # the file graded, as named in the submission (a zip's entry with its folder)
    file_choice: str = ""  # Spanish: why graded_file and not the other candidate (notebook or module); "" if one only

    def __post_init__(self):
        _freeze(self, notes=tuple(self.notes), failed_cells=tuple(self.failed_cells),
                skipped_cells=tuple(self.skipped_cells), skipped_notes=tuple(self.skipped_notes),
                missing_functions=tuple(self.missing_functions))


@dataclasses.dataclass(frozen=True)
class ManualGrade:
    """What an instructor typed in formgrader on one function's grade cell (nbgrader's Grade row).

    nbgrader's rule, which its export and formgrader apply and so every output here applies too: the
    manual score, when set, counts instead of the tests' points; extra credit is added either way."""

    function: str
    score: float | None = None  # nbgrader's manual_score; None: the tests' points stand
    extra_credit: float = 0.0
    # Typed for an earlier submission: the student handed in again since, and the instructor has not
    # reviewed it in formgrader yet (nbgrader's needs_manual_grade). It still counts, as in nbgrader.
    outdated: bool = False


@dataclasses.dataclass(frozen=True)
class GradeResult:
    """One graded submission. Immutable: a stage that knows more (the student, the lateness)
    makes a new one with dataclasses.replace, so a result never changes under its reader."""

    assignment: str
    submission: str
    tests: tuple[TestResult, ...]
    load: LoadSummary
    max_score: float
    error_student: str = ""  # set when the submission could not be graded at all
    error_instructor: str = ""
    grader_fault: bool = False  # the whole submission was lost to the grader, not to the student
    duration_seconds: float = 0.0
    # The submission's own time against its `submission_seconds` limit, as on an idle machine
    # (launcher.Clock): unlike duration_seconds, a loaded machine does not change it.
    charged_seconds: float = 0.0
    student: str = ""  # nbgrader student id, when graded from a course directory
    suite: str = "hidden"  # or "visible": the release's visible checks, which are not the grade
    # What the course's gradebook adds (classroom/gradebook.settle, its one writer), so that every
    # rendering shows the grade nbgrader counts: times are ISO 8601 in the course's time zone.
    submitted_at: str = ""  # nbgrader's timestamp; "" when unknown
    due: str = ""  # the due date this submission is held to, any extension included; "" when none
    extension_seconds: float = 0.0  # the extension granted in the gradebook
    late_seconds: float = 0.0  # past that due date (the grace period is the policy's to forgive)
    late_policy: LatePolicy = LatePolicy()  # the rule that priced the lateness
    late_penalty: float = 0.0  # points taken off by that rule, from `score`
    manual: tuple[ManualGrade, ...] = ()  # grade cells an instructor graded by hand

    def __post_init__(self):
        _freeze(self, tests=tuple(self.tests), manual=tuple(self.manual))

    @property
    def auto_score(self) -> float:
        """Points earned by the tests alone."""
        return round(sum(t.score for t in self.tests), 4)

    @property
    def score(self) -> float:
        """Points earned before any late penalty: the tests' points, with an instructor's manual
        grades counted instead where there are any (nbgrader's rule, see ManualGrade)."""
        auto, counted = self.auto_by_function(), self.by_function()
        return round(self.auto_score + sum(counted[name][0] - auto[name][0] for name in counted), 4)

    @property
    def final_score(self) -> float:
        return round(max(0.0, self.score - self.late_penalty), 4)

    def lost_to_grader(self) -> bool:
        """The whole submission was lost to a grader fault (batch.grader_failure), not to the student."""
        return self.grader_fault

    def grader_failed(self) -> bool:
        """The grader, not the student, failed somewhere: the whole submission or one test."""
        return self.grader_fault or any(t.outcome is Outcome.GRADER_ERROR for t in self.tests)

    def failed_tests(self) -> list[TestResult]:
        """Tests that did not pass, function by function (in the order of the tests: course.yml's), each
        function's in the order a student should read them: narrow fixed cases first (each names one
        misconception), then generated properties, then broad tests (whole published examples,
        catch-alls). None for a submission that could not be loaded (its error says why, once)."""
        position = {function: index for index, function in enumerate(self.by_function())}
        failed = [t for t in self.tests if not t.passed and t.outcome is not Outcome.BROKEN_SUBMISSION]
        return sorted(failed, key=lambda t: (position[t.function], t.outcome is Outcome.PARTIAL, t.broad,
                                             t.kind == "property"))

    def unimplemented_functions(self) -> set[str]:
        """Functions the student has not written: every test found them not defined, or raising
        NotImplementedError. An error case gated behind a basic test says nothing either way."""
        unwritten: dict[str, bool] = {}
        for test in self.tests:
            if test.outcome is not Outcome.GATED:
                unwritten[test.function] = unwritten.get(test.function, True) and (
                    test.outcome is Outcome.MISSING or test.not_implemented)
        return {function for function, never_written in unwritten.items() if never_written}

    def auto_by_function(self) -> dict[str, tuple[float, float]]:
        """(points the tests earned, maximum) per function."""
        totals: dict[str, list[float]] = {}
        for test in self.tests:
            entry = totals.setdefault(test.function, [0.0, 0.0])
            entry[0] += test.score
            entry[1] += test.max_score
        return {name: (round(s, 4), round(m, 4)) for name, (s, m) in totals.items()}

    def by_function(self) -> dict[str, tuple[float, float]]:
        """(points that count, maximum) per function: the tests' points, or the instructor's."""
        totals = self.auto_by_function()
        for grade in self.manual:
            if grade.function in totals:
                auto, maximum = totals[grade.function]
                counted = grade.score if grade.score is not None else auto
                totals[grade.function] = (round(counted + grade.extra_credit, 4), maximum)
        return totals

    def manual_grade(self, function: str) -> ManualGrade | None:
        """The instructor's grade of `function`, if they graded it by hand."""
        return next((grade for grade in self.manual if grade.function == function), None)


def result_from_dict(data: dict) -> GradeResult:
    """The inverse of dataclasses.asdict(result): how a stored result is read back."""
    data = dict(data)
    tests = [TestResult(**t) for t in data.pop("tests")]
    load = LoadSummary(**data.pop("load"))
    manual = [ManualGrade(**m) for m in data.pop("manual", ())]
    policy = LatePolicy(**data.pop("late_policy", {}))
    return GradeResult(tests=tests, load=load, manual=manual, late_policy=policy, **data)
