"""Release: lesson + reference solution -> nbgrader source -> student version.

1. build the nbgrader *source* notebook (autograder.notebook.lesson) into
   ``COURSE_DIR/source/ID/``;
2. run nbgrader's own ``generate_assignment``, which strips the solutions, locks
   the read-only cells, records the assignment and its grade cells in the
   gradebook and writes ``COURSE_DIR/release/ID/``;
3. add the stub module ``NOTEBOOK.py`` beside the released notebook, for students
   who prefer to work in an editor.

The hidden suites and reference solutions never enter the course directory's
``release/`` folder; tests/test_release.py checks that nothing of them leaks.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import nbformat
from traitlets.config import Config

from autograder.classroom.gradebook import create_gradebook, open_gradebook, register_due_date
from autograder.classroom.layout import CourseLayout
from autograder.classroom.nbgrader_autograde import config_lines
from autograder.notebook.lesson import STUB_BODY, load_source_notebook, stub_module


class ReleaseError(RuntimeError):
    pass


def nbgrader_config(course_dir: Path, db_url: str = "", course_id: str = "") -> Config:
    # nbgrader runs `alembic` to set up the gradebook: it must find this environment's scripts.
    scripts = str(Path(sys.executable).parent)
    if scripts not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")
    config = Config()
    config.CourseDirectory.root = str(course_dir)
    config.CourseDirectory.db_url = db_url or f"sqlite:///{CourseLayout(Path(course_dir).resolve()).gradebook}"
    if course_id:
        config.CourseDirectory.course_id = course_id
    config.ClearSolutions.code_stub = {"python": STUB_BODY}
    config.ClearSolutions.text_stub = "ESCRIBE AQUÍ TU RESPUESTA"
    return config


def release_assignment(course, assignment, course_dir: Path | None = None) -> Path:
    """Build and release one assignment; returns the release folder."""
    from nbgrader.apps import NbGraderAPI

    course_dir = Path(course_dir or course.course_dir).resolve()
    layout = CourseLayout(course_dir)
    source_dir = layout.source(assignment.id)
    source_dir.mkdir(parents=True, exist_ok=True)
    notebook = load_source_notebook(assignment)
    nbformat.write(notebook, source_dir / f"{assignment.notebook}.ipynb")
    _write_nbgrader_config(course, course_dir)
    gradebook_url = course.gradebook_url(course_dir)
    create_gradebook(gradebook_url)
    api = NbGraderAPI(config=nbgrader_config(course_dir, gradebook_url, course.nbgrader_course_id(course_dir)))
    outcome = api.generate_assignment(assignment.id, force=True, create=True)
    if not outcome.get("success"):
        raise ReleaseError(f"nbgrader generate_assignment failed for {assignment.id}:\n{outcome.get('log', '')}"
                           f"\n{outcome.get('error', '')}")
    with open_gradebook(course, course_dir) as book:
        register_due_date(book, assignment)  # nbgrader computes lateness from it
    release_dir = layout.release(assignment.id)
    solution_source = assignment.solution_path.read_text(encoding="utf-8")
    module_doc = ast.get_docstring(ast.parse(solution_source)) or assignment.title
    stub = stub_module(solution_source, _student_docstring(module_doc, assignment))
    (release_dir / f"{assignment.notebook}.py").write_text(stub, encoding="utf-8")
    return release_dir


def _write_nbgrader_config(course, course_dir: Path) -> None:
    """So that nbgrader's own commands (export, formgrader, collect, the exchange's) run from the course
    directory as-is, and its autograde grades with this grader (classroom/nbgrader_autograde.py)."""
    path = CourseLayout(course_dir).nbgrader_config
    if path.exists():
        return  # the instructor's own; never overwritten
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# Written by `autograder release`; edit freely, it is not written again.",
             "import os", "c = get_config()  # noqa: F821",
             "c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))",
             f"c.CourseDirectory.course_id = {course.id!r}  # the exchange's name for the course"]
    if course.gradebook:
        lines.append(f"c.CourseDirectory.db_url = {course.gradebook!r}")
    lines += config_lines(course)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _student_docstring(module_doc: str, assignment) -> str:
    first = module_doc.splitlines()[0].split(":")[0].strip()
    return (f"{first}: módulo para completar.\n\n"
            f"Implementa cada función donde dice «TU CÓDIGO AQUÍ» sin cambiar su nombre ni sus parámetros.\n"
            f"Puedes entregar este archivo o el cuaderno {assignment.notebook}.ipynb.\n")
