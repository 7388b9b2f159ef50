"""What a student wrote, function by function, with the code every student was given taken out.

A submission is read with the grader's own loader (the same cells the grader runs), then split:
each graded function's last definition (the one that runs) is a unit of its own, and everything
else the student wrote (helpers, classes, constants, cells of their own) is one more unit, REST.
The template is what the release hands every student: its given cells, its demos and checks,
and the stub of each graded function. A cell that is exactly a template cell is dropped; what is
left of the template inside a student's cell is dropped later, by its fingerprints (compare.py).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from autograder.notebook.lesson import load_source_notebook, solution_functions, stub_source
from autograder.notebook.loader import SubmissionError, load_submission, parse_ignoring_ipython, release_role

REST = "(resto)"  # the unit holding everything but the graded functions


@dataclasses.dataclass(frozen=True)
class StudentCode:
    student: str
    units: dict[str, str]  # graded function (or REST) -> the code the student wrote for it
    problem: str = ""  # English, for the instructor: why nothing could be read ("" when read)


def template_sources(assignment, notebook=None) -> list[str]:
    """The code every student starts from: the release's code cells other than the solutions, and
    each graded function's stub as released. `notebook`: the source notebook, if already loaded."""
    notebook = notebook if notebook is not None else load_source_notebook(assignment)
    sources = [c.source for c in notebook.cells if c.cell_type == "code" and release_role(c) != "solution"]
    functions = solution_functions(Path(assignment.solution_path).read_text(encoding="utf-8"))
    return sources + [stub_source(f) for name, f in functions.items() if name in assignment.points]


def read_student_code(student: str, path: Path, assignment, release, template: list[str]) -> StudentCode:
    """The units of one submission (a notebook, a .py module, or a folder or .zip holding one)."""
    try:
        program = load_submission(path, assignment, release)
    except SubmissionError as error:
        return StudentCode(student, {}, error.instructor_message)
    given = {source.strip() for source in template}
    functions: dict[str, str] = {}
    rest: list[str] = []
    for cell in program.cells:
        if cell.source.strip() in given:
            continue
        tree = parse_ignoring_ipython(cell.source)
        if tree is None:
            rest.append(cell.source)
            continue
        for node in tree.body:
            text = _segment(cell.source, node)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in assignment.points:
                functions[node.name] = text  # a later definition replaces an earlier one, as when it runs
            elif text.strip():
                rest.append(text)
    units = {name: code for name, code in functions.items() if code.strip() not in given}
    if rest:
        units[REST] = "\n\n".join(rest)
    return StudentCode(student, units)


def _segment(source: str, node) -> str:
    """A top-level statement's source with its decorators, as written."""
    lines = source.splitlines()
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
    return "\n".join(lines[start:node.end_lineno])
