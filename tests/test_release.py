"""`autograder release` goes through nbgrader and leaks nothing secret, for every assignment."""

from __future__ import annotations

import pytest
from nbgrader.api import Gradebook

from autograder.cli import main
from autograder.course import load_course
from autograder.grading.batch import grade_batch
from autograder.notebook.lesson import solution_functions
from autograder.release import nbgrader_config, release_assignment

ASSIGNMENTS = list(load_course().assignments)


@pytest.fixture(scope="module")
def course_dir(tmp_path_factory):
    """One `autograder release --all` for the whole module."""
    folder = tmp_path_factory.mktemp("course")
    assert main(["release", "--all", "--course-dir", str(folder)]) == 0
    return folder


def released_text(release_dir) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(release_dir.rglob("*")) if p.is_file())


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_release_has_the_notebook_and_the_stub_module(course_dir, course, assignment_id):
    notebook = course.assignment(assignment_id).notebook
    release_dir = course_dir / "release" / assignment_id
    assert sorted(p.name for p in release_dir.iterdir()) == [f"{notebook}.ipynb", f"{notebook}.py"]


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_reference_code_reaches_the_release(course_dir, course, assignment_id):
    assignment = course.assignment(assignment_id)
    text = released_text(course_dir / "release" / assignment_id)
    lesson = assignment.lesson_path.read_text(encoding="utf-8")
    functions = solution_functions(assignment.solution_path.read_text(encoding="utf-8"))
    body_lines = {line.strip() for f in functions.values() for line in f.body.splitlines()
                  if len(line.strip()) > 12 and not line.strip().startswith("#")}
    assert len(body_lines) >= 2 * len(functions)  # the check looks at real code
    leaked = {line for line in body_lines if line in text and line not in lesson}
    assert leaked == set()
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
    stub = (course_dir / "release" / assignment_id / f"{assignment.notebook}.py").read_text(encoding="utf-8")
    assert stub.count("raise NotImplementedError()") == len(functions)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_hidden_test_reaches_the_release(course_dir, course, assignment_id):
    assignment = course.assignment(assignment_id)
    text = released_text(course_dir / "release" / assignment_id)
    hidden = assignment.hidden_suite_path.read_text(encoding="utf-8")
    secret_lines = [line.strip() for line in hidden.splitlines() if "student." in line and len(line.strip()) > 25]
    assert len(secret_lines) >= 10
    assert [line for line in secret_lines if line in text] == []
    assert "test_hidden" not in text and "DEPENDS_ON" not in text


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_gradebook_knows_the_assignment_and_its_points(course_dir, course, assignment_id):
    assignment = course.assignment(assignment_id)
    with Gradebook(nbgrader_config(course_dir).CourseDirectory.db_url) as gradebook:
        recorded = gradebook.find_assignment(assignment_id)
        (notebook,) = recorded.notebooks
        cells = {cell.name: cell.max_score for cell in notebook.grade_cells}
        max_score = recorded.max_score
    assert cells == {f"checks_{name}": points for name, points in assignment.points.items()}
    assert max_score == assignment.max_score


def test_release_is_repeatable(course, bpe_bytes, course_dir):
    release_dir = course_dir / "release" / "bpe_bytes"
    before = released_text(release_dir)
    release_assignment(course, bpe_bytes, course_dir)
    assert released_text(release_dir) == before


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_released_stub_scores_zero_without_breaking_anything(course, course_dir, assignment_id):
    assignment = course.assignment(assignment_id)
    release_dir = course_dir / "release" / assignment_id
    results = grade_batch(assignment, sorted(release_dir.iterdir()), jobs=2)
    for result in results:
        assert result.score == 0 and not result.error_instructor
        assert {t.outcome for t in result.tests} == {"raised"}
        assert all("NotImplementedError" in t.feedback for t in result.tests)


def test_release_needs_one_assignment_or_all(capsys):
    assert main(["release"]) == 2
    assert "name one ASSIGNMENT or pass --all" in capsys.readouterr().err
