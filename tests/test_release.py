"""`autograder release` goes through nbgrader and leaks nothing secret."""

from __future__ import annotations

import pytest
from nbgrader.api import Gradebook

from autograder.grading.batch import grade_batch
from autograder.release import nbgrader_config, release_assignment


@pytest.fixture(scope="module")
def released(course, bpe_bytes, tmp_path_factory):
    course_dir = tmp_path_factory.mktemp("course")
    release_dir = release_assignment(course, bpe_bytes, course_dir)
    return course_dir, release_dir


def released_text(release_dir) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(release_dir.rglob("*")) if p.is_file())


def test_release_has_the_notebook_and_the_stub_module(released, bpe_bytes):
    _, release_dir = released
    assert sorted(p.name for p in release_dir.iterdir()) == [f"{bpe_bytes.notebook}.ipynb", f"{bpe_bytes.notebook}.py"]


def test_no_reference_code_reaches_the_release(released, bpe_bytes):
    _, release_dir = released
    text = released_text(release_dir)
    lesson = bpe_bytes.lesson_path.read_text(encoding="utf-8")
    from autograder.notebook.lesson import solution_functions

    functions = solution_functions(bpe_bytes.solution_path.read_text(encoding="utf-8"))
    body_lines = {line.strip() for f in functions.values() for line in f.body.splitlines()
                  if len(line.strip()) > 12 and not line.strip().startswith("#")}
    assert len(body_lines) > 15  # the check looks at real code
    leaked = {line for line in body_lines if line in text and line not in lesson}
    assert leaked == set()
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
    stub_module_text = (release_dir / f"{bpe_bytes.notebook}.py").read_text(encoding="utf-8")
    assert stub_module_text.count("raise NotImplementedError()") == len(functions)


def test_no_hidden_test_reaches_the_release(released, bpe_bytes):
    _, release_dir = released
    text = released_text(release_dir)
    hidden = bpe_bytes.hidden_suite_path.read_text(encoding="utf-8")
    secret_lines = [line.strip() for line in hidden.splitlines() if line.strip().startswith("assert student.")]
    assert len(secret_lines) > 20
    assert [line for line in secret_lines if line in text] == []
    assert "test_hidden" not in text and "DEPENDS_ON" not in text


def test_gradebook_knows_the_assignment_and_its_points(released, bpe_bytes):
    course_dir, _ = released
    config = nbgrader_config(course_dir)
    with Gradebook(config.CourseDirectory.db_url) as gradebook:
        assignment = gradebook.find_assignment("bpe_bytes")
        (notebook,) = assignment.notebooks
        cells = {cell.name: cell.max_score for cell in notebook.grade_cells}
    assert cells == {f"checks_{name}": points for name, points in bpe_bytes.points.items()}
    assert assignment.max_score == bpe_bytes.max_score


def test_release_is_repeatable(course, bpe_bytes, released):
    course_dir, release_dir = released
    before = released_text(release_dir)
    release_assignment(course, bpe_bytes, course_dir)
    assert released_text(release_dir) == before


def test_released_stub_scores_zero_without_breaking_anything(course, fast_bpe_bytes, released):
    _, release_dir = released
    results = grade_batch(course, fast_bpe_bytes, sorted(release_dir.iterdir()), jobs=2)
    for result in results:
        assert result.score == 0 and not result.error_instructor
        assert {t.outcome for t in result.tests} == {"raised"}
        assert all("NotImplementedError" in t.feedback for t in result.tests)
