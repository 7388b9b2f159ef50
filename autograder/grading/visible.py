"""The release's visible checks, run by the grader against the sandboxed student.

These are the locked ``checks FN`` cells a student runs in the notebook. Here they run
in the grader, with each graded function name bound to the sandbox proxy, so every
comparison happens on plain data that the grader built (a lying ``__eq__`` gains
nothing here either). The checks are public, so their messages are shown in full.

Used for quick public feedback (``autograder grade --visible``, the student-repository
workflow) and by the benchmark, to compare with ``nbgrader autograde`` on the same checks.
"""

from __future__ import annotations

import contextlib
import io

from _pytest._code import ExceptionInfo

from autograder.grading.plugin import RawTest
from autograder.grading.student import StudentProxy

VISIBLE_HINT = "Ejecuta en tu cuaderno la celda de comprobaciones de esta función para ver el detalle."


def _role(cell) -> dict:
    return cell.get("metadata", {}).get("autograder", {})


def run_checks_cells(release, functions: dict, before_each=lambda: None) -> list[tuple[object, str, object]]:
    """Run the release's checks cells in notebook order, after the release's own given code, with
    the graded names bound to `functions`: (cell, the function it checks, ExceptionInfo or None)."""
    namespace: dict = {"__name__": "__visible_checks__"}
    for cell in release.cells:
        if cell.cell_type == "code" and _role(cell).get("role") == "given":
            exec(compile(cell.source, "<enunciado>", "exec"), namespace)  # the release's own code
    namespace.update(functions)
    outcomes = []
    for cell in release.cells:
        role = _role(cell)
        if cell.cell_type != "code" or role.get("role") != "checks":
            continue
        before_each()
        excinfo = None
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(cell.source, f"<comprobaciones de {role['function']}>", "exec"), dict(namespace))
        except Exception:
            excinfo = ExceptionInfo.from_current()
        outcomes.append((cell, role["function"], excinfo))
    return outcomes


def run_visible_checks(release, points: dict[str, float], session) -> list[RawTest]:
    """One RawTest per checks cell of the release, in notebook order."""
    proxy = StudentProxy(session)
    outcomes = run_checks_cells(release, {name: getattr(proxy, name) for name in points}, session.new_test)
    return [RawTest(test_id=cell.metadata["nbgrader"]["grade_id"], title="comprobaciones visibles",
                    function=function, weight=1.0, hint=VISIBLE_HINT, requires=(), kind="visible", excinfo=excinfo)
            for cell, function, excinfo in outcomes]
