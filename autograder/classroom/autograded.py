"""The graded notebook nbgrader's formgrader shows: ``autograded/STUDENT/ASSIGNMENT/NOTEBOOK.ipynb``.

It is the student's notebook as handed in, with the release's locked cells and
grade-cell metadata put back (as nbgrader's autograde does), and each function's
check cell showing the Spanish feedback of that function's hidden tests as its
output. A ``.py`` module or an unreadable file becomes the released notebook with
a note on top saying what was handed in. Nothing here runs student code.

Every cell that is not the release's own is rebuilt inert (autograder/classroom/inert.py):
formgrader shows this file as HTML in the instructor's Jupyter origin. The notebook's
metadata is the release's (a student's widget state or title never reaches the page).
"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
from nbformat.corpus.words import generate_corpus_id

from autograder.classroom.inert import inert_cell, inert_markdown
from autograder.files import write_atomically
from autograder.notebook.lesson import graded_function
from autograder.notebook.loader import SubmissionError, read_notebook, read_submission_file
from autograder.render.student_text import test_output


def write_autograded(folder: Path, destination: Path, assignment, result, release: nbformat.NotebookNode) -> Path:
    notebook = copy.deepcopy(release)
    notebook.cells = _graded_cells(_student_notebook(folder, assignment, release), release)
    for cell in notebook.cells:
        function = graded_function(cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", ""))
        if function is not None and cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=function_feedback(result, function))]
            cell.execution_count = None
    path = destination / f"{assignment.notebook}.ipynb"
    # Written without nbformat's validation, which takes minutes on a large odd notebook; the
    # cells are ours (release cells, inert student cells), so the file is as valid as they are.
    write_atomically(path, nbformat.v4.writes(notebook))
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


def _student_notebook(folder: Path, assignment, release) -> list:
    """The cells handed in; a module or an unreadable file gives the release's cells under a note."""
    try:
        name, raw = read_submission_file(folder, assignment)
        if name.endswith(".ipynb"):
            return read_notebook(raw, Path(name)).cells
        note = f"The student handed in the module `{name}` instead of the notebook; it was graded as such."
    except SubmissionError as error:
        note = f"The submission could not be read as a notebook: {error.instructor_message}"
    # The note quotes file names the student chose: it is made inert like their own markdown.
    return [nbformat.v4.new_markdown_cell(inert_markdown(f"**autograder:** {note}")), *copy.deepcopy(release.cells)]


def _graded_cells(cells: list, release) -> list:
    """The cells formgrader shows: the release's locked cells as released, the student's made inert.

    The release alone says which cells are locked and graded, as in the loader: a cell is the
    instructor's only if it carries a grade id of the release. The first cell with a released
    grade id takes that cell's place (locked) or its nbgrader metadata (a solution); a cell
    with a grade id of its own, or one already taken, is just a student cell."""
    released = {c.metadata["nbgrader"]["grade_id"]: c for c in release.cells if "nbgrader" in c.get("metadata", {})}
    taken, ids, result = set(), set(), []
    for cell in cells:
        metadata = cell.get("metadata") if isinstance(cell, dict) else None
        nbgrader = metadata.get("nbgrader") if isinstance(metadata, dict) else None
        grade_id = nbgrader.get("grade_id") if isinstance(nbgrader, dict) else None
        original = released.get(grade_id) if isinstance(grade_id, str) and grade_id not in taken else None
        if original is not None:
            taken.add(grade_id)
        if original is not None and original.metadata["nbgrader"].get("locked"):
            new = copy.deepcopy(original)
        else:
            cell_id = cell.get("id") if isinstance(cell, dict) else None
            new = inert_cell(cell, cell_id if isinstance(cell_id, str) and cell_id not in ids else None)
            if original is not None:
                new.metadata["nbgrader"] = copy.deepcopy(original.metadata["nbgrader"])
        if new.get("id") in ids:
            new["id"] = generate_corpus_id()
        ids.add(new.get("id"))
        result.append(new)
    # A deleted check cell is added back at the end, so each grade shows somewhere.
    for grade_id, original in released.items():
        if grade_id not in taken and original.metadata["nbgrader"].get("grade"):
            result.append(copy.deepcopy(original))
    return result
