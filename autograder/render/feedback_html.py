"""GradeResult -> one student's feedback page (Spanish, self-contained HTML).

It shows only what the Gradescope and terminal renderings already show (the texts come from
gradescope.overall_output and gradescope.test_output), laid out for a phone or for print.
Test ids and instructor notes are the instructor's: they never appear here.
"""

from __future__ import annotations

from autograder.grading.results import GradeResult
from autograder.late import clock
from autograder.render.student_text import (due_text, late_lines, manual_note, overall_output, test_output,
                                            tests_to_explain, unrun_functions)
from autograder.render.html_page import card, esc, meter, page, points, submission_label, table


def feedback_page(result: GradeResult, assignment, course_title: str) -> str:
    """The whole page for one submission of `assignment`."""
    body = "\n".join([
        _header(result, assignment, course_title),
        _score_cards(result),
        _late(result),
        _functions_table(result),
        _load_notes(result),
        _failed_tests(result),
        _passed_tests(result),
        '<footer>Página generada por el corrector automático. Las pruebas ocultas no se muestran: '
        "solo qué falló y una pista.</footer>",
    ])
    return page(f"{assignment.title} · Retroalimentación", body, "es")


def _header(result: GradeResult, assignment, course_title: str) -> str:
    meta = [f"Estudiante: <strong>{esc(submission_label(result))}</strong>"]
    if result.due:
        meta.append(f"Fecha límite: {esc(due_text(result))}")
    if result.submitted_at:
        meta.append(f"Entregada: {esc(clock(result.submitted_at))}")
    return (f'<header class="page"><p class="eyebrow">{esc(course_title)}</p>'
            f"<h1>{esc(assignment.title)}</h1>"
            f'<p class="meta">{" · ".join(meta)}</p></header>')


def _score_cards(result: GradeResult) -> str:
    """The score first: it is what every student looks for; the penalty only when there is one."""
    maximum = points(result.max_score)
    if result.late_penalty <= 0:
        return f'<div class="cards">{card("Puntuación", f"{points(result.score)} / {maximum}", "final")}</div>'
    return ('<div class="cards">'
            + card("Puntuación", f"{points(result.score)} / {maximum}")
            + card("Penalización por retraso", f"−{points(result.late_penalty)}", "penalty")
            + card("Nota final", f"{points(result.final_score)} / {maximum}", "final")
            + "</div>")


def _late(result: GradeResult) -> str:
    lines = late_lines(result)
    if not lines:
        return ""
    items = "".join(f"<li>{esc(line)}</li>" for line in lines)
    return f'<h2>Entrega con retraso</h2><div class="box late"><ul class="compact sentences">{items}</ul></div>'


def _functions_table(result: GradeResult) -> str:
    rows = []
    for name, (score, maximum) in result.by_function().items():
        mark = ('<span class="mark-ok" aria-label="completa">✓</span>' if score >= maximum
                else '<span class="mark-bad" aria-label="incompleta">✗</span>')
        note = manual_note(result, name)
        reviewed = f'<br><span class="sub manual">{esc(note)}</span>' if note else ""
        rows.append(f'<tr><td>{mark}</td><td class="code">{esc(name)}{reviewed}</td>'
                    f'<td class="num">{points(score)} / {points(maximum)}</td>'
                    f'<td class="bar">{meter(score / maximum if maximum else 0.0)}</td></tr>')
    headers = [("", ""), ("Función", ""), ("Puntos", "num"), ("", "bar")]
    return "<h2>Puntuación por función</h2>" + table("functions", headers, rows)


def _load_notes(result: GradeResult) -> str:
    text = overall_output(result)
    if not text:
        return ""
    return f'<h2>Al cargar tu entrega</h2><div class="box load"><p class="text">{esc(text)}</p></div>'


def _test_box(test, kind: str) -> str:
    """One test's name and its test_output(): what went wrong in monospace (so the returned and
    expected values line up), the closing "Pista: ..." in the body font, since it is prose."""
    text, hint = test_output(test), ""
    if test.hint and text.endswith(f"Pista: {test.hint}"):
        text, hint = text[: -len(f"Pista: {test.hint}")], test.hint
    parts = [f'<p class="text">{esc(text.rstrip())}</p>'] if text.strip() else []
    if hint:
        parts.append(f'<p class="pista"><strong>Pista:</strong> {esc(hint)}</p>')
    return f'<article class="box {kind}"><h3>{esc(test.name)}</h3>{"".join(parts)}</article>'


def _failed_tests(result: GradeResult) -> str:
    # A submission that could not be loaded fails every test for one reason, already shown above;
    # a function that is not there or not written yet, for one reason each, said once.
    unrun, failed = unrun_functions(result), tests_to_explain(result)
    parts = []
    if unrun:
        items = "".join(f'<li><span class="mark-bad">✗</span> <strong>{esc(function)}</strong>: {esc(why)}</li>'
                        for function, why in unrun.items())
        parts.append(f'<h2>Funciones que no se pudieron probar ({len(unrun)})</h2>'
                     f'<ul class="compact sentences">{items}</ul>')
    if failed:
        parts.append(f'<h2>Pruebas no superadas ({len(failed)})</h2>' + "".join(_test_box(t, "bad") for t in failed))
    return "".join(parts)


def _passed_tests(result: GradeResult) -> str:
    passed = [t for t in result.tests if t.passed]
    if not passed:
        return ""
    items = "".join(f'<li><span class="mark-ok">✓</span> {esc(t.name)}</li>' for t in passed)
    return f'<h2>Pruebas superadas ({len(passed)})</h2><ul class="compact">{items}</ul>'
