"""Turn a failed hidden test into Spanish feedback that reveals no hidden case.

For a fixed hidden case the student sees the test's title, its hint and what kind
of failure it was (wrong value, which builtin exception and on which of *their*
lines, timeout...), never the input, the expected value or any text their own code
produced after seeing the input (an exception message could carry the input).
For a property test the generated, shrunk counterexample is shown, as the calls of the
student's own functions that the failing example made (`encode('', {})`, and what each
returned): the most useful thing a student can get, and not secret. An argument equal to
a value the suite itself defines (a module-level constant, which its fixed cases may use
too) is shown as a placeholder, never as its value.
"""

from __future__ import annotations

import re
import reprlib
import typing

from autograder.grading import student as st
from autograder.grading.plugin import Feedback
from autograder.grading.results import Outcome, raised_note
from autograder.sandbox import codec

MAX_DETAIL = 1500
# What a failed hidden fixed case may say about an exception. Student code has seen the hidden input
# when it raises, so everything it chooses there is a channel out: the line (padding a cell), the cell,
# the class. Named: the exceptions a plain bug raises; any other is "una excepción". With the other
# outcomes, a failed fixed case tells one of about 90 messages (under 7 bits); docs/security.md.
EXCEPTIONS_NAMED_IN_HIDDEN_CASES = ("ValueError", "TypeError", "KeyError", "IndexError", "ZeroDivisionError",
                                    "AttributeError", "RecursionError", "AssertionError")


def classify(excinfo, kind: str, calls: tuple = ()) -> tuple[str, str, str]:
    """(outcome, Spanish feedback, English instructor note) for a test that did not pass. `calls`: a
    property test's failing example, as describe_calls shows it."""
    error = excinfo.value
    notes = "\n".join(getattr(error, "__notes__", []) or [])
    example = ""
    if kind == "property":
        said_returned = isinstance(error, AssertionError) and not isinstance(error, Feedback) \
            and _assertion_text(error).startswith("Tu función devolvió")
        example = _shown_calls(calls, said_returned) if calls else _counterexample(notes)
    # Inputs the student may see: generated (property) or published (visible). Messages the
    # student's code wrote are shown only for visible checks: in a hidden suite the worker may
    # have seen fixed hidden inputs earlier and could carry them in any text it produces.
    public = kind if kind in ("property", "visible") else ""
    if isinstance(error, st.StudentError):
        return Outcome.RAISED, _raised(error, public) + example, raised_note(error.type_name)
    if isinstance(error, st.FunctionMissing):
        return (Outcome.MISSING, f"No se encontró la función `{error.name}` en tu entrega (¿la borraste o le cambiaste el nombre?).",
                f"function {error.name} not defined")
    if isinstance(error, st.BadReturn) and error.type_name == codec.TooManyValues.reply_type:
        return (Outcome.BAD_RETURN, f"Tu función devolvió más de {codec.MAX_NODES:_} valores".replace("_", " ")
                + ", demasiados para enviarlos al corrector; ninguna respuesta correcta es tan grande.",
                "returned more values than a frame carries")
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
    if isinstance(error, st.UnreadableReply):
        return (Outcome.BAD_RETURN, "Tu función devolvió un valor que el corrector no reconstruye: un conjunto o "
                "diccionario con muchas claves distintas del mismo hash, o datos fuera del protocolo. Ninguna "
                "respuesta correcta es así." + example, str(error))
    if isinstance(error, st.RepliesTooLarge):
        return (Outcome.BAD_RETURN, f"Tus funciones ya han devuelto al corrector más de {error.values:_} valores en "
                "esta entrega (la solución de referencia no llega a 100 000 en todas las pruebas juntas), así que "
                "sus respuestas ya no se leen y las pruebas restantes fallan. ¿Devuelve alguna función listas, "
                "textos o diccionarios mucho más largos de lo que debería?".replace("_", " "),
                "reply budget of the submission exhausted")
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
    builtin = error.builtin if public or error.builtin in EXCEPTIONS_NAMED_IN_HIDDEN_CASES else ""
    if not builtin:
        shown = "una excepción"
    elif error.type_name == error.builtin:
        shown = builtin
    else:
        shown = f"una excepción propia (derivada de {builtin})"
    text = f"Tu función lanzó {shown}"
    if error.frames and public:
        filename, line, code = error.frames[-1]
        text += f" en {filename}, línea {line}" + (f": `{code}`" if code else "")
    elif error.frames:
        text += (" con una entrada oculta (no se dice dónde: tu código ya la había visto). Las pruebas con "
                 "entradas generadas y las comprobaciones del cuaderno sí muestran la línea")
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


# --- the calls of a failing property example -----------------------------------------------

FIXED_VALUE = "<dato fijo de la prueba>"
MAX_CALLS_SHOWN = 4  # the last ones: the failing call is the last one made


class _ShortRepr(reprlib.Repr):
    """Values as Python writes them, long ones cut (a 256-entry vocabulary would bury the call)."""

    def __init__(self):
        super().__init__()
        self.maxlevel, self.maxdict, self.maxlist, self.maxtuple = 4, 8, 16, 16
        self.maxset = self.maxfrozenset = 12
        self.maxstring, self.maxother = 120, 120

    def repr_bytes(self, value, level):
        text = repr(value)
        return text if len(text) <= self.maxstring else text[:self.maxstring - 4] + "...'"

    def repr_ndarray(self, value, level):
        import numpy as np

        with np.printoptions(threshold=24, edgeitems=3, precision=6):
            text = repr(value)
        return " ".join(text.split())


_short = _ShortRepr()


def shown_value(value) -> str:
    return _short.repr(value)


def suite_fixed_values(module) -> tuple:
    """The plain data a hidden suite defines at module level (its hidden cases' inputs, tables...):
    an argument equal to one of them is not shown (describe_calls)."""
    import numpy as np

    kinds = (str, bytes, int, float, list, tuple, dict, set, frozenset, np.ndarray)
    return tuple(value for name, value in vars(module).items()
                 if not name.startswith("_") and isinstance(value, kinds) and not isinstance(value, bool))


def _is_fixed(value, fixed_values: tuple) -> bool:
    import numpy as np

    if value is None or isinstance(value, bool):
        return False
    for fixed in fixed_values:
        try:
            if isinstance(value, np.ndarray) or isinstance(fixed, np.ndarray):
                same = isinstance(value, np.ndarray) and isinstance(fixed, np.ndarray) and np.array_equal(value, fixed)
            else:
                same = type(value) is type(fixed) and value == fixed or (
                    isinstance(value, (int, float)) and isinstance(fixed, (int, float)) and value == fixed)
        except Exception:
            same = False
        if same:
            return True
    return False


class ShownCall(typing.NamedTuple):
    call: str  # "encode('', {})"
    outcome: str  # "devolvió [0]", "lanzó ValueError"...
    returned: bool  # it returned (its outcome is news: a failure's feedback already says how it failed)


def describe_calls(records, fixed_values: tuple = ()) -> tuple[ShownCall, ...]:
    """Each call a failing property example made to the student's functions (student.CallRecord), in
    Spanish: ShownCall("encode('', {})", "devolvió [0]", True)."""
    described = []
    for record in records:
        if (sent := record.arguments()) is None:
            arguments = "…"
        else:
            args, kwargs = sent
            shown = [FIXED_VALUE if _is_fixed(a, fixed_values) else shown_value(a) for a in args]
            shown += [f"{k}={FIXED_VALUE if _is_fixed(v, fixed_values) else shown_value(v)}" for k, v in kwargs.items()]
            arguments = ", ".join(shown)
        returned = record.problem is None and record.returned is not st.NOT_RETURNED
        described.append(ShownCall(f"{record.name}({arguments})", _call_outcome(record), returned))
    return tuple(described)


def _call_outcome(record) -> str:
    problem = record.problem
    if problem is None:
        return "" if record.returned is st.NOT_RETURNED else f"devolvió {shown_value(record.returned)}"
    if isinstance(problem, st.StudentError):
        return f"lanzó {problem.builtin if problem.type_name == problem.builtin else 'una excepción propia'}"
    if isinstance(problem, st.StudentTimeout):
        return "no terminó a tiempo"
    if isinstance(problem, st.FunctionMissing):
        return "no está definida"
    if isinstance(problem, st.BadReturn):
        return "devolvió un objeto que no es un dato simple"
    return "terminó el proceso"


def _shown_calls(calls: tuple, said_returned: bool) -> str:
    """The failing example as the student's calls: one call on the line, several one per line, each
    with what it gave (a single call's outcome only when the feedback does not already say it)."""
    calls = calls[-MAX_CALLS_SHOWN:]
    if len(calls) == 1:
        call, outcome, returned = calls[0]
        return "\nContraejemplo (generado): " + _clip(call + (f" → {outcome}" if returned and not said_returned else ""))
    lines = [f"  {call}" + (f" → {outcome}" if outcome else "") for call, outcome, _ in calls]
    return "\nContraejemplo (generado), las llamadas a tus funciones:\n" + _clip("\n".join(lines))


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
