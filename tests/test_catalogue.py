"""The hidden suite of bpe_bytes is proven by what it catches.

Reference: full marks. Stub: zero. Every plausible wrong implementation in the
catalogue fails exactly the hidden tests it is listed with, and the feedback
carries the hint that names its misconception.
"""

from __future__ import annotations

import pytest

from autograder import samples
from autograder.grading.batch import grade_batch

BUGGY = samples.catalogue("bpe_bytes", "buggy")


@pytest.fixture(scope="module")
def graded(course, fast_bpe_bytes, tmp_path_factory):
    folder = tmp_path_factory.mktemp("catalogue")
    corpus = [samples.correct("bpe_bytes"), samples.stub(fast_bpe_bytes), *BUGGY]
    paths = [samples.build_notebook(fast_bpe_bytes, s, folder / f"{s.name}.ipynb") for s in corpus]
    results = grade_batch(course, fast_bpe_bytes, paths, jobs=2)
    return {sample.name: result for sample, result in zip(corpus, results)}


def failing(result) -> set[str]:
    """Tests that caught something; error-case tests merely gated by a failed basic test are not counted."""
    return {t.test_id for t in result.tests if not t.passed and t.outcome != "gated"}


def explain(result) -> str:
    return "\n".join(f"{t.test_id}: {t.outcome}: {t.feedback} [{t.instructor_note}]"
                     for t in result.tests if not t.passed)


def test_catalogue_is_large_enough():
    assert len(BUGGY) >= 12
    assert len({s.name for s in BUGGY}) == len(BUGGY)


def test_reference_scores_full_marks(graded):
    result = graded["correct"]
    assert failing(result) == set()
    assert result.score == result.max_score == 100


def test_stub_scores_zero_and_says_not_implemented(graded):
    result = graded["stub"]
    assert result.score == 0
    assert all(t.outcome == "raised" and "NotImplementedError" in t.feedback for t in result.tests)


@pytest.mark.parametrize("sample", BUGGY, ids=lambda s: s.name)
def test_wrong_implementation_is_caught_by_its_test(graded, sample):
    result = graded[sample.name]
    assert "grader_error" not in {t.outcome for t in result.tests}, explain(result)
    assert failing(result) == set(sample.failing), explain(result)
    assert 0 < result.score < result.max_score
    hints = [t.hint for t in result.tests if t.test_id in sample.failing]
    assert any(sample.hint in hint for hint in hints), hints


@pytest.mark.parametrize("sample", BUGGY, ids=lambda s: s.name)
def test_only_the_buggy_function_loses_points(graded, sample):
    result = graded[sample.name]
    (function,) = sample.replace
    for name, (score, maximum) in result.by_function().items():
        if name != function:
            assert score == pytest.approx(maximum), f"{name}\n{explain(result)}"
