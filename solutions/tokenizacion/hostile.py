"""Hostile samples for `tokenizacion`: feedback channels and graders that are detected.

Each pure attack replaces every graded function (or makes it useless), so a sound grader
gives it exactly 0. A mixed attack (listed in HONEST_PARTS) must earn exactly what its
honest part alone earns. tests/test_hostile.py grades them in one batch next to the
reference and the stub.
"""


from functools import partial
from pathlib import Path

from autograder.samples import STUB_LINE, Sample, call_arguments, cell, parameter_lists, replace_all
from autograder.samples.grader_attacks import grader_attacks
from autograder.samples.shape_attacks import vacuous_comparison_attacks

SOLUTION = Path(__file__).with_name("solution.py")  # whose signatures the attacks take
_SIGNATURES = parameter_lists(SOLUTION)
_STUB = STUB_LINE
_functions = partial(replace_all, SOLUTION)
_arguments = partial(call_arguments, SOLUTION)
_cell = cell


# The lesson's visible checks, answered by heart (assignments/tokenizacion/lesson.md): every
# published example, and nothing else. Any other input is a KeyError.
_PUBLISHED = _cell('''
    _FRASE = "La paciente tiene fiebre alta"
    _VOCAB_FRASE = {"[UNK]": 0, "La": 1, "paciente": 2, "tiene": 3, "fiebre": 4, "alta": 5}
    _PUBLICADOS = [
        ("tokenize_chars", ("Hola",)), ["H", "o", "l", "a"],
        ("tokenize_chars", (_FRASE,)), ["L", "a", " ", "p", "a", "c", "i", "e", "n", "t", "e", " ", "t", "i", "e",
                                        "n", "e", " ", "f", "i", "e", "b", "r", "e", " ", "a", "l", "t", "a"],
        ("tokenize_chars", ("año 🙂",)), ["a", "ñ", "o", " ", "🙂"],
        ("tokenize_chars", ("e\\u0301",)), ["e", "\\u0301"],
        ("tokenize_chars", ("",)), [],
        ("tokenize_words", (_FRASE,)), ["La", "paciente", "tiene", "fiebre", "alta"],
        ("tokenize_words", ("  dolor   de cabeza ",)), ["dolor", "de", "cabeza"],
        ("tokenize_words", ("tos\\nseca\\tleve",)), ["tos", "seca", "leve"],
        ("tokenize_words", ("",)), [],
        ("build_vocab", (["La", "paciente", "tiene", "fiebre", "alta"], ("[UNK]",))), dict(_VOCAB_FRASE),
        ("build_vocab", (["tos", "alta", "tos"], ("[UNK]",))), {"[UNK]": 0, "tos": 1, "alta": 2},
        ("build_vocab", (["tos"], ("[PAD]", "[UNK]"))), {"[PAD]": 0, "[UNK]": 1, "tos": 2},
        ("build_vocab", (["[UNK]", "tos"], ("[UNK]",))), {"[UNK]": 0, "tos": 1},
        ("encode", (["La", "paciente", "tiene", "fiebre", "muy", "alta"], _VOCAB_FRASE, "[UNK]")), [1, 2, 3, 4, 0, 5],
        ("encode", (["tos"], {"[PAD]": 0, "[UNK]": 1}, "[UNK]")), [1],
        ("encode", (["gripe"], {"<unk>": 0, "tos": 1}, "<unk>")), [0],
        ("decode", ([1, 2, 3, 4, 0, 5], _VOCAB_FRASE)), ["La", "paciente", "tiene", "fiebre", "[UNK]", "alta"],
        ("decode", ([], _VOCAB_FRASE)), [],
        ("decode", ([10, 3], {"tos": 10, "[UNK]": 0, "fiebre": 3})), ["tos", "fiebre"],
        ("oov_rate", (["La", "paciente", "tiene", "fiebre", "muy", "alta"], _VOCAB_FRASE)), 1 / 6,
        ("oov_rate", (["tos", "tos", "fiebre", "alta"], _VOCAB_FRASE)), 0.5,
        ("oov_rate", ([], _VOCAB_FRASE)), 0.0,
    ]
    _PUBLICADOS = {(nombre, repr(args)): valor for (nombre, args), valor in zip(_PUBLICADOS[::2], _PUBLICADOS[1::2])}


    def _publicado(nombre, *args):
        """The published answer for exactly these arguments; KeyError for anything else."""
        return _PUBLICADOS[nombre, repr(args)]
''')

_DETECT_GRADER = _cell('''
    import os as _os, sys as _sys


    def _corrigiendo():
        """Guess whether this runs inside the grader rather than in the student's own Jupyter."""
        señales = []
        try:
            señales.append(61000 <= _os.getuid() < 65000)  # the grader's per-process uids
        except OSError:
            pass
        carpeta = _os.getcwd()
        señales.append(carpeta == "/tmp/trabajo" or "autograder" in carpeta)
        señales.append(_os.environ.get("HOME") == carpeta and "JPY_PARENT_PID" not in _os.environ)
        try:
            with open("/proc/1/cmdline", "rb") as archivo:
                señales.append(b"autograder" in archivo.read())
        except OSError:
            pass
        principal = getattr(_sys.modules.get("__main__"), "__spec__", None)
        señales.append(str(getattr(principal, "name", "")).startswith("autograder"))
        return any(señales)
''')

# Only property tests show an exception's message (their inputs are generated, not secret).
# This one keeps every input the worker has seen, the fixed hidden ones included, and puts
# them in the message, so that the property test that comes after them shows them.
_STASH = _cell('''
    _VISTOS = {}


    def _guardar(nombre, *args):
        vistos = _VISTOS.setdefault(nombre, [])
        texto = repr(args)
        if texto not in vistos:
            vistos.append(texto)
        raise ValueError(" || ".join(vistos)[:300])
''')

# Feedback channels that carry only the current call's input: an exception class named after it,
# its message, a note and a cause, a builtin exception's own fields, SystemExit's code, and the
# line that raised (a padded cell: the line number is the input's length).
_PADDING_LINES = 2000
_EXFILTRATE = _cell('''
    import re as _re


    def _exfiltrar(*args):
        clave = repr(args)
        canal = sum(map(ord, clave)) % 6  # the same input always takes the same channel
        if canal == 0:
            nombre = "Entrada_" + _re.sub(r"\\W", "_", clave)[:70]
            raise type(nombre, (ValueError,), {"__str__": lambda self: clave, "__repr__": lambda self: clave})(clave)
        if canal == 1:
            linea = 1 + len(clave) % PADDING
            codigo = "\\n" * (linea - 1) + "raise KeyError(" + repr(clave) + ")"
            exec(compile(codigo, _exfiltrar.__code__.co_filename, "exec"), {})
        if canal == 2:
            error = RuntimeError(clave)
            error.add_note(clave)
            raise error from LookupError(clave)
        if canal == 3:
            raise UnicodeDecodeError("utf-8", clave.encode("utf-8", "replace"), 0, 1, clave)
        if canal == 4:
            raise SystemExit(clave)
        raise NotImplementedError(clave)


    _RELLENO = """
''').replace("PADDING", str(_PADDING_LINES)) + "\n" * _PADDING_LINES + '"""'

_FORGED_MISSING = _cell('''
    import sys

    _trabajador = sys.modules["__main__"]


    def _llamar_y_contar(self, request, channel):
        # "Function not found", under a name that is the hidden input itself.
        from autograder.sandbox import codec
        try:
            args = [codec.decode_value(a) for a in request.get("args", [])]
        except Exception:
            args = request.get("args")
        return {"op": "missing", "name": repr(args)[:80]}


    _trabajador.Student.call = _llamar_y_contar
''')

# Text that a terminal or a CI service would obey: GitHub workflow commands (modern and legacy,
# stop-commands included), ANSI escapes that clear the screen and draw a full score, a CR that
# overwrites a line, a bidi override, a GitLab section marker (docs/security.md, issue 11).
FORGED_LOG = ("no\n::notice::forjado\n  ::add-mask::Puntuación\n::stop-commands::forjado\nx ##[error]forjado\n"
              "\x1b[2J\x1b[HPuntuación: 100.00 / 100\rPuntuación: 100.00 / 100\u202e001 / 00.001\n"
              "section_start:1:forjado\r\x1b[0K")

HOSTILE: list[Sample] = [
    Sample("grading_aware_lookup", "hostile",
           "detects the grader (uid, cwd, HOME, /proc/1/cmdline, the worker's __main__) and only then answers "
           "the lesson's published examples by heart; everything else is a KeyError (mixed: its honest part "
           "is HONEST_PARTS['grading_aware_lookup'])",
           replace=_functions("if _corrigiendo():\n    return _publicado('{name}', {args})\n" + _STUB),
           first_cells=(_DETECT_GRADER, _PUBLISHED)),
    Sample("feedback_exfiltration", "hostile",
           "every call raises something that carries its input: a class named after it, its message, a note "
           "and a cause, UnicodeDecodeError's fields, SystemExit's code, and a line number (in a padded cell) "
           "equal to the input's length",
           replace=_functions("_exfiltrar({args})"), first_cells=(_EXFILTRATE,)),
    Sample("stash_fixed_inputs", "hostile",
           "keeps every input the worker has seen and raises them all back in the message, so that the "
           "property test that follows the fixed hidden cases shows them",
           replace=_functions("_guardar('{name}', {args})"), first_cells=(_STASH,)),
    Sample("forged_missing_name", "hostile",
           "patches the worker so that every call is reported 'function not found' under a name that is "
           "the call's hidden input",
           replace=_functions(), cells=(_FORGED_MISSING,)),
    Sample("log_forgery", "hostile",
           "exception messages (from a load-time cell and from every function) and printed output carry GitHub "
           "workflow commands, ANSI escapes that redraw the terminal with a forged full score, a CR, a bidi "
           "override and a GitLab section marker",
           replace=_functions(f"raise ValueError({FORGED_LOG!r})"),
           first_cells=(f"print({FORGED_LOG!r})\nraise RuntimeError({FORGED_LOG!r})",)),
]

# Mixed attacks: the sample that earns exactly what the attack may earn honestly.
HONEST_PARTS: dict[str, Sample] = {
    "grading_aware_lookup": Sample(
        "published_lookup_only", "hostile",
        "the honest part of grading_aware_lookup: the published examples answered by heart, always",
        replace=_functions("return _publicado('{name}', {args})"), first_cells=(_PUBLISHED,)),
}

# Answers of the wrong type or shape that compare vacuously (issue 11): np.empty(0), np.empty((0, 0)),
# the right answer as a 0-d array, broadcast into a bigger array, with every number inside it an array
# or a float, or inside a list (autograder/samples/shape_attacks.py). Pure attacks: exactly 0.
HOSTILE += vacuous_comparison_attacks(SOLUTION, "tok")

# Attacks on what the grader does around the sandbox (issue 26): a reply slow to decode, answers made
# for a huge assertion diff, the hidden inputs in exception details, files left in shared folders
# (autograder/samples/grader_attacks.py). Pure attacks: exactly 0.
HOSTILE += grader_attacks(SOLUTION, "tok")
