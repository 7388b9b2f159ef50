"""What a student reads about a graded submission, as plain Spanish text: one place that every
renderer (terminal, CI log, JUnit, Markdown summary, feedback page, Gradescope, formgrader's
notebook) takes it from, and then makes safe for its own medium (safe_text.py)."""

from __future__ import annotations

from autograder.grading.results import GradeResult


def test_output(test) -> str:
    """The student-facing text of one test: what went wrong, then the hint."""
    parts = [test.feedback] if test.feedback else []
    if test.hint:
        parts.append(f"Pista: {test.hint}")
    return "\n".join(parts)


def overall_output(result: GradeResult) -> str:
    lines = []
    if result.error_student:
        lines.append(f"No se pudo calificar la entrega: {result.error_student}")
    lines += result.load.notes
    if result.load.failed_cells:
        lines.append("Celdas que lanzaron un error al ejecutarse (las demás se ejecutaron igualmente):")
        lines += [f"  - {line}" for line in result.load.failed_cells]
    if result.load.skipped_cells:
        lines.append("Celdas omitidas:")
        lines += [f"  - {line}" for line in result.load.skipped_cells]
    if result.load.missing_functions:
        lines.append("Funciones que no se encontraron: " + ", ".join(result.load.missing_functions))
    return "\n".join(lines)
