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
from autograder.notebook.loader import SubmissionError, match_release
from autograder.render.student_text import test_output, unrun_functions


def write_autograded(handed_in, destination: Path, assignment, result, release: nbformat.NotebookNode) -> Path:
    """`handed_in` is what the grader loaded (a loader.Program) or why it could not (a
    SubmissionError): the file is read and parsed once, for grading, and reused here."""
    notebook = copy.deepcopy(release)
    notebook.cells = _graded_cells(_student_notebook(handed_in, release), release)
    if result.load.file_choice:  # the notebook and the module were both handed in: which one this is
        cell = nbformat.v4.new_markdown_cell(inert_markdown(f"**Archivo calificado:** {result.load.file_choice}"))
        cell.id = "autograder-file-choice"
        notebook.cells.insert(0, cell)
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
    """What one check cell shows: the function's score, then each hidden test it failed; one line for
    a cause that failed them all (a stub, a missing function, a file that could not be graded), as
    the terminal says it."""
    score, maximum = result.auto_by_function().get(function, (0.0, 0.0))
    lines = [f"Corrección automática de {function}: {score:.2f} / {maximum:g} puntos"]
    unrun = unrun_functions(result)
    if result.error_student:
        lines.append(f"✗ No se pudo calificar la entrega: {result.error_student}")
    elif function in unrun:
        lines.append(f"✗ {function}: {unrun[function]}")
    else:
        for test in result.tests:
            if test.function == function and not test.passed:
                lines.append(f"✗ {test.name}")
                lines += [f"    {line}" for line in test_output(test).splitlines()]
    return "\n".join(lines) + "\n"


def _student_notebook(handed_in, release) -> list:
    """The cells handed in; a module or an unreadable file gives the release's cells under a note."""
    if isinstance(handed_in, SubmissionError):
        note = f"The submission could not be read as a notebook: {handed_in.instructor_message}"
    elif handed_in.notebook is not None:
        return handed_in.notebook.cells
    else:
        note = f"The student handed in the module `{handed_in.handed_in}` instead of the notebook; it was graded as such."
    # The note quotes file names the student chose: it is made inert like their own markdown.
    cell = nbformat.v4.new_markdown_cell(inert_markdown(f"**autograder:** {note}"))
    cell.id = "autograder-note"  # not a random one: grading the same file twice writes the same bytes
    return [cell, *copy.deepcopy(release.cells)]


def _graded_cells(cells: list, release) -> list:
    """The cells formgrader shows: the release's locked cells as released, the student's made inert.

    The release alone says which cells are the instructor's (loader.match_release, the grader's
    rule too). The first cell with a released grade id takes that cell's place (locked) or its
    nbgrader metadata (a solution); later copies are just student cells, so formgrader never
    sees one grade id twice."""
    taken, ids, result = set(), set(), []
    for match in match_release(cells, release):
        cell, original = match.cell, match.original if match.first else None
        if original is not None:
            taken.add(original.metadata["nbgrader"]["grade_id"])
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
    for original in release.cells:
        nbgrader = original.get("metadata", {}).get("nbgrader")
        if nbgrader and nbgrader.get("grade") and nbgrader["grade_id"] not in taken:
            result.append(copy.deepcopy(original))
    return result
