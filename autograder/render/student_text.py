"""What a student reads about a graded submission, as plain Spanish text: one place that every
renderer (terminal, CI log, JUnit, Markdown summary, feedback page, Gradescope, formgrader's
notebook) takes it from, and then makes safe for its own medium (safe_text.py)."""

from __future__ import annotations

import datetime as dt

from autograder.grading.results import GradeResult, Outcome
from autograder.late import clock


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


def score_heading(result: GradeResult) -> str:
    """The score line, everywhere a student reads one (terminal, CI annotation, job summary). The
    visible checks' count is not a grade, and is said so where the eye lands first."""
    if result.suite == "visible":
        return (f"Comprobaciones visibles: {result.score:.2f} / {result.max_score:g} "
                "(no es tu nota; la nota sale de las pruebas ocultas)")
    text = f"Puntuación: {result.score:.2f} / {result.max_score:g}"
    if result.late_penalty:
        text += f" (penalización por retraso: −{result.late_penalty:.2f}; nota final: {result.final_score:.2f})"
    return text


def manual_note(result: GradeResult, function: str) -> str:
    """What the instructor's hand-grading of `function` changed, said where its points are shown
    ("" when they did not grade it by hand)."""
    grade = result.manual_grade(function)
    if grade is None:
        return ""
    auto = result.auto_by_function()[function][0]
    parts = []
    if grade.score is not None:
        parts.append(f"revisada por el profesor (la corrección automática dio {auto:.2f})")
        if grade.outdated:
            parts.append("esa revisión es de una entrega anterior; el profesor la revisará de nuevo")
    if grade.extra_credit:
        parts.append(f"{grade.extra_credit:+.2f} de crédito extra del profesor")
    return "; ".join(parts)


def duration(seconds: float) -> str:
    """'1 día, 11 h y 5 min'; under a minute, in seconds."""
    minutes = int(seconds // 60)
    if minutes == 0:
        return f"{int(seconds)} s"
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days} día{'s' if days != 1 else ''}"] if days else []
    parts += [f"{hours} h"] if hours else []
    parts += [f"{minutes} min"] if minutes else []
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " y " + parts[-1]


def due_text(result: GradeResult) -> str:
    """The due date the submission is held to, with the extension that moved it, if any."""
    if not result.extension_seconds:
        return clock(result.due)
    original = dt.datetime.fromisoformat(result.due) - dt.timedelta(seconds=result.extension_seconds)
    return (f"{clock(original.isoformat())}, con una prórroga de {duration(result.extension_seconds)}: "
            f"{clock(result.due)}")


def late_rule(result: GradeResult) -> str:
    """The course's late policy, in a sentence."""
    policy = result.late_policy
    parts = [f"{policy.grace_minutes:g} min de cortesía"] if policy.grace_minutes else []
    if policy.penalty_per_day:
        parts.append(f"se resta un {policy.penalty_per_day:g} % de la puntuación por cada día o fracción de día de retraso")
    if policy.max_days_late is not None:
        parts.append(f"con más de {policy.max_days_late:g} días de retraso no se obtiene ningún punto")
    return "Regla del curso: " + ("; ".join(parts) if parts else "el retraso no se penaliza") + "."


def late_lines(result: GradeResult) -> list[str]:
    """Why a late submission lost points, or did not: its due date (and extension), when it came in,
    how late, the course's rule and the sum. Empty for a submission on time or whose time is unknown."""
    if result.late_seconds <= 0 or not result.due or not result.submitted_at:
        return []
    policy, late = result.late_policy, duration(result.late_seconds)
    lines = [f"Fecha límite: {due_text(result)}", f"Entregada: {clock(result.submitted_at)}"]
    days = policy.days_late(result.late_seconds)
    if days == 0:
        lines.append(f"Retraso: {late}, dentro de los {policy.grace_minutes:g} min de cortesía: sin penalización.")
    elif policy.max_days_late is not None and result.late_seconds > policy.max_days_late * 86400:
        lines.append(f"Retraso: {late}, más de {policy.max_days_late:g} días: se pierden los {result.score:.2f} "
                     f"puntos obtenidos (−{result.late_penalty:.2f}).")
    else:
        share = min(100.0, days * policy.penalty_per_day)
        lines.append(f"Retraso: {late}; cuenta{'n' if days != 1 else ''} {days} día{'s' if days != 1 else ''} "
                     "(un día empezado cuenta entero).")
        if result.late_penalty:
            lines.append(f"Penalización: {days} × {policy.penalty_per_day:g} % = {share:g} % de "
                         f"{result.score:.2f} puntos = −{result.late_penalty:.2f}.")
    lines.append(late_rule(result))
    return lines
