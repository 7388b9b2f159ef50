"""The graded notebook nbgrader's formgrader shows: ``autograded/STUDENT/ASSIGNMENT/NOTEBOOK.ipynb``.

It is the student's notebook as handed in, with the release's locked cells and
grade-cell metadata put back (as nbgrader's autograde does), and each function's
check cell showing the Spanish feedback of that function's hidden tests as its
output. A ``.py`` module or an unreadable file becomes the released notebook with
a note on top saying what was handed in. Nothing here runs student code.
"""

from __future__ import annotations

import copy
import warnings
from pathlib import Path

import nbformat

from autograder.notebook.loader import SubmissionError, read_notebook, read_submission_file
from autograder.render.gradescope import test_output


def write_autograded(folder: Path, destination: Path, assignment, result, release: nbformat.NotebookNode) -> Path:
    notebook = _student_notebook(folder, assignment, release)
    _restore_release_cells(notebook, release)
    for cell in notebook.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        if grade_id.startswith("checks_") and cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                                   text=function_feedback(result, grade_id[len("checks_"):]))]
            cell.execution_count = None
    path = destination / f"{assignment.notebook}.ipynb"
    destination.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nbformat repairs duplicate cell ids, and says so
        nbformat.write(notebook, partial)
    partial.replace(path)
    return path


def function_feedback(result, function: str) -> str:
    """What one check cell shows: the function's score, then each hidden test it failed."""
    score, maximum = result.by_function().get(function, (0.0, 0.0))
    lines = [f"Corrección automática de {function}: {score:.2f} / {maximum:g} puntos"]
    for test in result.tests:
        if test.function == function and not test.passed:
            lines.append(f"✗ {test.name}")
            lines += [f"    {line}" for line in test_output(test).splitlines()]
    return "\n".join(lines) + "\n"


def _student_notebook(folder: Path, assignment, release) -> nbformat.NotebookNode:
    try:
        name, raw = read_submission_file(folder, assignment)
        if name.endswith(".ipynb"):
            return read_notebook(raw, Path(name))
        note = f"The student handed in the module `{name}` instead of the notebook; it was graded as such."
    except SubmissionError as error:
        note = f"The submission could not be read as a notebook: {error.instructor_message}"
    notebook = copy.deepcopy(release)
    notebook.cells.insert(0, nbformat.v4.new_markdown_cell(f"**autograder:** {note}"))
    return notebook


def _restore_release_cells(notebook, release) -> None:
    """Locked cells and grade-cell metadata come from the release, whatever the student did."""
    released = {c.metadata["nbgrader"]["grade_id"]: c for c in release.cells if "nbgrader" in c.get("metadata", {})}
    seen = set()
    for index, cell in enumerate(notebook.cells):
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        original = released.get(grade_id)
        if original is None:
            continue
        seen.add(grade_id)
        if original.metadata["nbgrader"].get("locked"):
            notebook.cells[index] = copy.deepcopy(original)
        else:
            cell.metadata["nbgrader"] = copy.deepcopy(original.metadata["nbgrader"])
    # A deleted check cell is added back at the end, so each grade shows somewhere.
    for grade_id, original in released.items():
        if grade_id not in seen and original.metadata["nbgrader"].get("grade"):
            notebook.cells.append(copy.deepcopy(original))
