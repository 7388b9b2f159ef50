"""The Spanish notebooks run top to bottom in a real Jupyter kernel.

With the reference solution every visible check passes; with the released stub
every visible check fails (so none of them can pass by accident).
"""

from __future__ import annotations

import copy

import nbformat
import pytest
from nbclient import NotebookClient

from autograder.course import PROJECT_ROOT, load_course
from autograder.notebook.lesson import load_source_notebook, solution_functions, stub_source

ASSIGNMENTS = list(load_course().assignments)


def execute(notebook, tmp_path, allow_errors=False):
    client = NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=allow_errors,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    return notebook


def cells_with_role(notebook, role):
    return [c for c in notebook.cells if c.get("metadata", {}).get("autograder", {}).get("role") == role]


def error_names(cell):
    return [o.get("ename") for o in cell.get("outputs", []) if o.get("output_type") == "error"]


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_reference_notebook_runs_and_passes_every_visible_check(course, assignment_id, tmp_path):
    notebook = execute(load_source_notebook(course.assignment(assignment_id)), tmp_path)
    checks = cells_with_role(notebook, "checks")
    assert len(checks) == len(course.assignment(assignment_id).points)
    for cell in checks:
        printed = "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")
        assert "✓" in printed, cell.source


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_stub_notebook_fails_every_visible_check(course, assignment_id, tmp_path):
    assignment = course.assignment(assignment_id)
    notebook = copy.deepcopy(load_source_notebook(assignment))
    functions = solution_functions(assignment.solution_path.read_text(encoding="utf-8"))
    for cell in cells_with_role(notebook, "solution"):
        cell.source = stub_source(functions[cell.metadata["autograder"]["function"]])
    execute(notebook, tmp_path, allow_errors=True)
    for cell in cells_with_role(notebook, "checks"):
        assert error_names(cell), f"a visible check passed with the stub:\n{cell.source}"
    for cell in cells_with_role(notebook, "given"):
        assert not error_names(cell)
    nbformat.validate(notebook)


def test_a_failing_visible_check_shows_the_call_what_it_returned_and_what_was_expected(course, tmp_path):
    """Jupyter shows an AssertionError's message only: the checks cell's message says the rest."""
    from course_content import catalogue

    assignment = course.assignment("bpe_bytes")
    buggy = next(s for s in catalogue("bpe_bytes", "buggy") if s.name == "merge_overlapping")
    notebook = copy.deepcopy(load_source_notebook(assignment))
    for cell in cells_with_role(notebook, "solution"):
        if cell.metadata["autograder"]["function"] == "merge":
            cell.source = buggy.replace["merge"]
    execute(notebook, tmp_path, allow_errors=True)
    (checks,) = [c for c in cells_with_role(notebook, "checks") if c.metadata["autograder"]["function"] == "merge"]
    (error,) = [o for o in checks.outputs if o.get("output_type") == "error"]
    assert error.ename == "AssertionError"
    assert error.evalue == ("al fusionar no hay solapes: se avanza de izquierda a derecha\n"
                            "  llamada:     merge([97, 97, 97], (97, 97), 256)\n"
                            "  devolvió:    [256, 256]\n"
                            "  se esperaba: [256, 97]")
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    assert f"AssertionError: {error.evalue}\n" in readme  # the students' section shows this very message
