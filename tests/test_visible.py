"""The visible-checks suite: the release's checks, run by the grader against the sandbox."""

from __future__ import annotations

import pytest

from autograder import samples
from autograder.grading.batch import grade_batch

from course_content import catalogue


@pytest.fixture(scope="module")
def graded(course, fast_bpe_bytes, tmp_path_factory):
    folder = tmp_path_factory.mktemp("visible")
    hostile = {s.name: s for s in catalogue("bpe_bytes", "hostile")}
    buggy = {s.name: s for s in catalogue("bpe_bytes", "buggy")}
    corpus = [samples.correct("bpe_bytes"), samples.stub(fast_bpe_bytes), hostile["lying_eq_object"],
              buggy["merge_overlapping"], buggy["decode_strict_utf8"]]
    paths = [samples.build_notebook(fast_bpe_bytes, s, folder / f"{s.name}.ipynb") for s in corpus]
    results = grade_batch(fast_bpe_bytes, paths, jobs=2, suite="visible", warm_up=True)
    return {s.name: r for s, r in zip(corpus, results)}


def test_one_test_per_visible_checks_cell(graded, fast_bpe_bytes):
    result = graded["correct"]
    assert [t.test_id for t in result.tests] == [f"checks_{name}" for name in fast_bpe_bytes.points]
    assert result.score == result.max_score


def test_stub_and_liar_score_zero(graded):
    assert graded["stub"].score == 0
    assert graded["lying_eq_object"].score == 0


@pytest.mark.parametrize("name, function, message", [
    ("merge_overlapping", "merge", "al fusionar no hay solapes"),
    ("decode_strict_utf8", "decode", "UnicodeDecodeError"),
])
def test_a_failed_visible_check_says_why_in_spanish(graded, name, function, message):
    result = graded[name]
    (failed,) = [t for t in result.tests if not t.passed]
    assert failed.function == function and message in failed.feedback


def test_cli_grades_visible_checks(tmp_path, fast_bpe_bytes, capsys):
    from autograder.cli import main

    path = samples.build_notebook(fast_bpe_bytes, samples.stub(fast_bpe_bytes), tmp_path / "entrega.ipynb")
    assert main(["grade", "bpe_bytes", str(path), "--visible", "--results", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "Comprobaciones visibles: 0.00 / 100 (no es tu nota" in out and "Puntuación" not in out
