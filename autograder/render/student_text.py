"""What a student reads about a graded submission, as plain Spanish text: one place that every
renderer (terminal, CI log, JUnit, Markdown summary, feedback page, Gradescope, formgrader's
notebook) takes it from, and then makes safe for its own medium (safe_text.py)."""

from __future__ import annotations

from autograder.grading.results import GradeResult, Outcome


def test_output(test) -> str:
    """The student-facing text of one test: what went wrong, then the hint."""
    parts = [test.feedback] if test.feedback else []
    if test.hint:
        parts.append(f"Pista: {test.hint}")
    return "\n".join(parts)


def unrun_functions(result: GradeResult) -> dict[str, str]:
    """Functions whose every test failed for one cause, each with that cause: an untouched stub or a
    function that is not there fails every test for the same cause, which is said once, not once
    per test. In the order of the assignment's functions."""
    unwritten = result.unimplemented_functions()
    reasons = {}
    for function in result.by_function():
        if function not in unwritten:
            continue
        tests = [t for t in result.tests if t.function == function]
        if any(t.outcome is Outcome.MISSING for t in tests):
            if result.load.failed_cells and result.load.module:
                why = "no llegó a definirse (tu módulo lanzó un error antes: mira arriba; ¿o le cambiaste el nombre?)"
            elif result.load.failed_cells:
                why = "no se encontró en tu entrega (¿falló la celda que la define? Mira arriba; ¿o le cambiaste el nombre?)"
            else:
                why = "no se encontró en tu entrega (¿la borraste o le cambiaste el nombre?)"
            which = f"ninguna de sus {len(tests)} pruebas" if len(tests) > 1 else "su única prueba"
            reasons[function] = f"{why}, así que no se pudo ejecutar {which}."
        else:
            which = f"sus {len(tests)} pruebas fallan" if len(tests) > 1 else "su prueba falla"
            reasons[function] = f"todavía no está implementada (lanza NotImplementedError), así que {which}."
    return reasons


def tests_to_explain(result: GradeResult) -> list:
    """The failed tests worth a line each: those of functions whose tests did run."""
    unrun = unrun_functions(result)
    return [t for t in result.failed_tests() if t.function not in unrun]


def overall_output(result: GradeResult) -> str:
    lines = []
    if result.error_student:
        lines.append(f"No se pudo calificar la entrega: {result.error_student}")
    if result.load.file_choice:
        lines.append(result.load.file_choice)
    lines += result.load.notes
    if result.load.failed_cells and result.load.module:
        lines.append("Tu módulo lanzó un error al importarse (se calificó lo que llegó a definir antes):")
        lines += [f"  - {line}" for line in result.load.failed_cells]
    elif result.load.failed_cells:
        lines.append("Celdas que lanzaron un error al ejecutarse (las demás se ejecutaron igualmente):")
        lines += [f"  - {line}" for line in result.load.failed_cells]
    if result.load.skipped_cells:
        lines.append("Partes omitidas:" if result.load.module else "Celdas omitidas:")
        lines += [f"  - {line}" for line in result.load.skipped_cells]
    if result.load.missing_functions:
        lines.append("Funciones que no se encontraron: " + ", ".join(result.load.missing_functions))
    return "\n".join(lines)
