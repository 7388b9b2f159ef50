"""Every hidden suite is proven by what it catches.

Reference: full marks. Stub: zero. Every plausible wrong implementation in an
assignment's catalogue (solutions/ID/buggy.py) fails exactly the hidden
tests it is listed with, the feedback carries the hint that names its misconception,
and no other function loses points.
"""

from __future__ import annotations

import dataclasses

import pytest

from autograder import samples
from autograder.course import load_course
from autograder.grading.batch import grade_batch

from course_content import catalogue

COURSE = load_course()
ASSIGNMENTS = list(COURSE.assignments)  # an assignment without a catalogue is an error here, never a skip
CASES = [(a, s) for a in ASSIGNMENTS for s in catalogue(a, "buggy")]
MINIMUM = {"bpe_bytes": 12}  # the foundation's bar; every other assignment: 8


@pytest.fixture(scope="module")
def graded(course, tmp_path_factory):
    """graded(assignment_id) -> {sample name: result}: each assignment's samples in one batch,
    graded the first time a test asks (so `-k ID` grades only that assignment)."""
    cache: dict[str, dict] = {}

    def results(assignment_id: str) -> dict:
        if assignment_id not in cache:
            assignment = course.assignment(assignment_id)
            # 5 s a call: bpe_palabras' 80-merge trainings cross the sandbox thousands of times and must finish
            # on a busy 2-core machine; a sample that hangs costs 5 s per test.
            limits = dataclasses.replace(assignment.limits, call_seconds=5, load_seconds=10, submission_seconds=90)
            assignment = dataclasses.replace(assignment, limits=limits)
            folder = tmp_path_factory.mktemp(assignment_id)
            corpus = [samples.correct(assignment_id), samples.stub(assignment),
                      *samples.catalogue(assignment, "buggy")]
            paths = [samples.build_notebook(assignment, s, folder / f"{s.name}.ipynb") for s in corpus]
            batch = grade_batch(assignment, paths, jobs=2)
            cache[assignment_id] = {s.name: r for s, r in zip(corpus, batch)}
        return cache[assignment_id]

    return results


def failing(result) -> set[str]:
    """Tests that charged the bug: error-case tests merely gated by a failed basic test, and catch-alls
    credited in proportion to the specific tests passed, are not counted."""
    return {t.test_id for t in result.tests if not t.passed and t.outcome not in ("gated", "partial")}


def explain(result) -> str:
    return "\n".join(f"{t.test_id}: {t.outcome}: {t.feedback} [{t.instructor_note}]"
                     for t in result.tests if not t.passed)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_catalogue_is_large_enough(assignment_id):
    buggy = catalogue(assignment_id, "buggy")
    assert len(buggy) >= MINIMUM.get(assignment_id, 8)
    assert len({s.name for s in buggy}) == len(buggy)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_reference_scores_full_marks(graded, assignment_id):
    result = graded(assignment_id)["correct"]
    assert failing(result) == set(), explain(result)
    assert result.score == result.max_score == 100


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_stub_scores_zero_and_says_not_implemented(graded, assignment_id):
    result = graded(assignment_id)["stub"]
    assert result.score == 0
    assert all(t.outcome == "raised" and "NotImplementedError" in t.feedback for t in result.tests), explain(result)


@pytest.mark.parametrize("assignment_id, sample", CASES, ids=[f"{a}-{s.name}" for a, s in CASES])
def test_wrong_implementation_is_caught_by_its_test(graded, assignment_id, sample):
    result = graded(assignment_id)[sample.name]
    assert "grader_error" not in {t.outcome for t in result.tests}, explain(result)
    assert failing(result) == set(sample.failing), explain(result)
    assert 0 < result.score < result.max_score
    hints = [t.hint for t in result.tests if t.test_id in sample.failing]
    assert any(sample.hint in hint for hint in hints), hints


@pytest.mark.parametrize("assignment_id, sample", CASES, ids=[f"{a}-{s.name}" for a, s in CASES])
def test_only_the_buggy_function_loses_points(graded, assignment_id, sample):
    result = graded(assignment_id)[sample.name]
    for name, (score, maximum) in result.by_function().items():
        if name not in sample.replace:
            assert score == pytest.approx(maximum), f"{name}\n{explain(result)}"
