"""Turn a failed hidden test into Spanish feedback that reveals no hidden case.

For a fixed hidden case the student sees the test's title, its hint and what kind
of failure it was (wrong value, which builtin exception and on which of *their*
lines, timeout...), never the input, the expected value or any text their own code
produced after seeing the input (an exception message could carry the input).
For a property test the generated, shrunk counterexample is shown: it is the most
useful thing a student can get and it is not secret.
"""

from __future__ import annotations

import re

from autograder.grading import student as st
from autograder.grading.plugin import Feedback
from autograder.grading.results import Outcome, raised_note

MAX_DETAIL = 1500
MAX_LINE_SHOWN = 300  # a line number chosen by padding a cell could encode a hidden input


def classify(excinfo, kind: str) -> tuple[str, str, str]:
    """(outcome, Spanish feedback, English instructor note) for a test that did not pass."""
    error = excinfo.value
    notes = "\n".join(getattr(error, "__notes__", []) or [])
    example = _counterexample(notes) if kind == "property" else ""
    # Inputs the student may see: generated (property) or published (visible). Messages the
    # student's code wrote are shown only for visible checks: in a hidden suite the worker may
    # have seen fixed hidden inputs earlier and could carry them in any text it produces.
    public = kind if kind in ("property", "visible") else ""
    if isinstance(error, st.StudentError):
        return Outcome.RAISED, _raised(error, public) + example, raised_note(error.type_name)
    if isinstance(error, st.FunctionMissing):
        return (Outcome.MISSING, f"No se encontró la función `{error.name}` en tu entrega (¿la borraste o le cambiaste el nombre?).",
                f"function {error.name} not defined")
    if isinstance(error, st.BadReturn):
        return (Outcome.BAD_RETURN, f"Tu función devolvió {_shown_type(error.type_name)}; debe devolver datos "
                "simples (int, float, str, bytes, list, tuple, dict, set o un array de numpy).",
                f"returned unsupported type {error.type_name}")
    if isinstance(error, st.StudentTimeout):
        if error.whole_submission:
            return (Outcome.TIMEOUT, f"Se agotó el tiempo total de tu entrega ({error.seconds:g} s); las pruebas restantes no se pudieron ejecutar.",
                    "submission time budget exhausted")
        if error.probed:
            return (Outcome.TIMEOUT, f"Tu función no terminó en {error.seconds:g} s con un caso sencillo (se probó al "
                    "quedarse bloqueada otra función), así que sus pruebas no se ejecutaron. ¿Hay un bucle que nunca acaba?",
                    "not called: hung on a simple input, tried after another function hung")
        if error.earlier:
            return (Outcome.TIMEOUT, f"Tu función ya superó el límite de {error.seconds:g} s en una prueba anterior, "
                    "así que no se volvió a llamar. ¿Hay un bucle que nunca acaba?",
                    "not called: timed out in an earlier test")
        return (Outcome.TIMEOUT, f"Tu función no terminó en {error.seconds:g} s. ¿Hay un bucle que nunca acaba?" + example,
                "call timed out")
    if isinstance(error, st.HelperOverLimit):
        limit = "tiempo" if error.timed_out else "memoria o de tamaño de la respuesta"
        return (Outcome.TIMEOUT if error.timed_out else Outcome.CRASHED,
                f"Tu código llamó a `{error.helper}` (mientras se califica esta función se usa su versión de "
                f"referencia) con argumentos que la hacen superar el límite de {limit}." + example,
                str(error))  # "reference helper X over its limits: ..."
    if isinstance(error, st.StudentCrashed):
        return (Outcome.CRASHED, "El proceso que ejecuta tu código terminó de forma inesperada (¿sys.exit, os._exit, "
                "memoria agotada o recursión infinita?)." + example, str(error))  # "the worker died...", in English
    if isinstance(error, Feedback):
        return Outcome.WRONG, _clip(str(error).split("\nassert")[0]) + example, "wrong answer (safe message)"
    if isinstance(error, AssertionError) and kind == "visible":
        # The check's own message, whole: the lesson's words, then the call, the value returned and the one
        # expected (lesson.explained_checks), as Jupyter shows them.
        return Outcome.WRONG, f"No supera la comprobación: {_clip(str(error) or '(sin detalles)')}", "visible check failed"
    if isinstance(error, AssertionError):
        detail = f"\n{_clip(_assertion_text(error))}" if public else ""
        return Outcome.WRONG, "El resultado no es el esperado." + detail + example, "wrong answer"
    if type(error).__name__ in ("Flaky", "FlakyFailure", "FlakyReplay"):
        return (Outcome.WRONG, "Tu función no es determinista: con la misma entrada unas veces falla y otras no "
                "(¿estado global, hilos, aleatoriedad o tiempo?)." + example, "flaky: results differ on replay")
    if "DID NOT RAISE" in str(error):
        return (Outcome.WRONG, "En este caso tu función debía lanzar una excepción, y terminó sin lanzarla." + example,
                "expected exception not raised")
    if _raised_by_the_suite(excinfo):
        # The suite choked on what the student returned (list(None), value[key] on a wrong shape...):
        # a wrong answer, not a grader fault. Real suite bugs are caught by the reference scoring 100.
        return (Outcome.WRONG, "El valor que devolviste no tiene la forma esperada (tipo o contenido)." + example,
                f"the test could not examine the returned value: {type(error).__name__}")
    return (Outcome.GRADER_ERROR, "Error interno del corrector en esta prueba; no es culpa tuya. Avisa al profesorado.",
            f"grader error: {type(error).__name__}: {error}")


def _raised_by_the_suite(excinfo) -> bool:
    import os

    from autograder.sandbox import codec, launcher

    if isinstance(excinfo.value, (codec.CodecError, launcher.SandboxError, launcher.WorkerFailure)):
        return False
    innermost = excinfo.traceback[-1].path if excinfo.traceback else None
    return innermost is not None and os.path.basename(str(innermost)).startswith(("test_", "<comprobaciones"))


def _raised(error: st.StudentError, public: str) -> str:
    if error.builtin == "NotImplementedError":
        return "Todavía no está implementada: lanza NotImplementedError."
    if error.builtin == "SystemExit":
        return "Tu código llamó a sys.exit() (o exit()): una función no debe terminar el programa."
    # Only an exception that *is* a builtin is named: a class name is chosen by student code
    # that has seen the hidden input.
    shown = error.builtin if error.type_name == error.builtin else f"una excepción propia (derivada de {error.builtin})"
    text = f"Tu función lanzó {shown}"
    if error.frames and (public or error.frames[-1][1] <= MAX_LINE_SHOWN):
        filename, line, code = error.frames[-1]
        text += f" en {filename}, línea {line}" + (f": `{code}`" if code else "")
    text += "."
    if public == "visible" and error.message:
        text += f"\nMensaje: {_clip(error.message)}"
    return text


COMMON_TYPES = frozenset(["object", "function", "generator", "map", "filter", "zip", "range", "bytearray",
                          "complex", "type", "module", "method", "builtin_function_or_method", "dict_keys",
                          "dict_values", "dict_items", "list_iterator", "enumerate", "reversed", "memoryview"])


def _shown_type(type_name: str) -> str:
    # A class name is chosen by the student, who saw the hidden input: show only a fixed few.
    if type_name in COMMON_TYPES:
        return f"un objeto de tipo `{type_name}`"
    return "un objeto de otra clase (definida en tu código o en una biblioteca)"


FIXTURE_LINE = re.compile(r"^\s*(student|reference)=")


DRAW_LINE = re.compile(r"^Draw \d+( \(.*?\))?: ")


def _counterexample(notes: str) -> str:
    """The generated arguments of hypothesis' report, without the grader's fixtures: the lines of its
    `Falsifying example: test(...)` call up to the closing parenthesis, and the `Draw N: value` lines
    that follow it. Nothing else from the notes, which may hold more than the example (a traceback,
    an explanation naming lines of the suite)."""
    lines = [line for line in notes.splitlines() if line.strip()]
    start = next((i for i, line in enumerate(lines)
                  if line.startswith(("Falsifying example", "Failing test case"))), None)
    if start is None:
        return ""
    arguments, position = [], start + 1
    while position < len(lines) and lines[position] != ")":
        line = lines[position]
        if _indent(line) > 4 and arguments:  # the next line of a long value
            arguments[-1] += " " + line.strip()
        elif not FIXTURE_LINE.match(line) and not line.strip().startswith("#"):
            arguments.append(line.strip())
        position += 1
    arguments = [argument.rstrip(",") for argument in arguments]
    for line in lines[position + 1:]:
        if DRAW_LINE.match(line):
            arguments.append(line.strip())
        elif line[:1].isspace() and DRAW_LINE.match(arguments[-1] if arguments else ""):
            arguments[-1] += " " + line.strip()  # a drawn value printed on several lines
        else:
            break
    return "\nContraejemplo (generado): " + _clip(", ".join(arguments))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _assertion_text(error: AssertionError) -> str:
    """pytest's first line (assert <student value> == <expected value>), without its 'where' lines,
    which name grader objects and memory addresses."""
    lines = str(error).splitlines()
    first = lines[0] if lines else "(sin detalles)"
    # Suites write `assert <student value> == <expected>`: say which side is which.
    parts = first.removeprefix("assert ").split(" == ")
    if first.startswith("assert ") and len(parts) == 2:
        return f"Tu función devolvió: {parts[0]}\nSe esperaba:        {parts[1]}"
    return first


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DETAIL else text[:MAX_DETAIL] + " …"
