"""Hostile samples for `tokenizador_gpt`: segfaults, huge answers and answers that change on replay.

Each attack replaces every graded function (or makes it useless), so a sound grader gives
it exactly 0. tests/test_hostile.py grades them in one batch next to the reference and the
stub, some of them also as a .py module.
"""

import ast
import textwrap

from autograder.samples import Sample, parameter_lists

ASSIGNMENT = "tokenizador_gpt"
_SIGNATURES = parameter_lists(ASSIGNMENT)
_STUB = "raise NotImplementedError()"


def _def(name: str, body: str) -> str:
    lines = textwrap.dedent(body).strip("\n").splitlines()
    return f"def {name}({_SIGNATURES[name]}):\n" + "\n".join("    " + line if line else "" for line in lines)


def _functions(default: str = _STUB, **bodies: str) -> dict:
    """Every graded function: its body from `bodies`, else `default` ({name} is the function's name,
    {args} its parameters as call arguments)."""
    return {name: _def(name, bodies.get(name, default).replace("{name}", name).replace("{args}", _arguments(name)))
            for name in _SIGNATURES}


def _arguments(name: str) -> str:
    signature = ast.parse(f"def f({_SIGNATURES[name]}): pass").body[0].args
    return ", ".join(a.arg for a in signature.posonlyargs + signature.args)


def _cell(source: str) -> str:
    return textwrap.dedent(source).strip("\n")


_FLAKY = _cell('''
    import itertools

    _VECES = itertools.count()
    _ERRORES = [ValueError, KeyError, TypeError, IndexError, RuntimeError, ZeroDivisionError, LookupError]


    def _cambiante():
        """Never the same twice: a different exception, or an answer, on every call."""
        vez = next(_VECES)
        if vez % 3 == 2:
            return []
        raise _ERRORES[vez % len(_ERRORES)]("otra vez distinto")
''')

HOSTILE: list[Sample] = [
    Sample("ctypes_segfault", "hostile",
           "every function dereferences a bad pointer through ctypes (string_at(0), memset on NULL, calling "
           "a NULL function pointer, reading address 8, c_char_p(24)) or calls faulthandler._sigsegv(), and "
           "a load-time cell after the functions segfaults too",
           replace=_functions(
               pretokenize="import ctypes\nreturn ctypes.string_at(0)",
               train_regex_bpe="import ctypes\nctypes.memset(0, 0, 1)\nreturn {}",
               encode_ordinary="import ctypes\nreturn ctypes.CFUNCTYPE(ctypes.c_int)(0)()",
               encode="import ctypes\nreturn ctypes.cast(8, ctypes.POINTER(ctypes.c_long)).contents.value",
               decode="import ctypes\nreturn ctypes.c_char_p(24).value",
               recover_merges="import faulthandler\nfaulthandler._sigsegv()\nreturn {}",
           ), cells=("import ctypes\nctypes.string_at(0)",)),
    Sample("huge_return_values", "hostile",
           "answers far larger than any frame or the worker's memory: [0] * 10**8 (800 MB, too slow to send), "
           "'x' * 3*10**9, 'x' * 2**31 and bytearray(10**10) (MemoryError), and answers small enough to reach "
           "the grader whole: a 60 MB str and 10 MB of bytes",
           replace=_functions(
               pretokenize="return [0] * 10 ** 8",
               train_regex_bpe="return 'x' * (3 * 10 ** 9)",
               encode_ordinary="return 'x' * 2 ** 31",
               encode="return bytearray(10 ** 10)",
               decode="return 'x' * 60_000_000",
               recover_merges="return b'\\0' * 10_000_000",
           )),
    Sample("rewrite_shared_constants", "hostile",
           "no function computes anything: encode_ordinary and encode empty the merges, special tokens and "
           "allowed set they are given (the suite's own HOLA and SPECIALS among them), recover_merges drops every "
           "multi-byte token from its table, and each answers what the emptied arguments give",
           replace=_functions(
               encode_ordinary="merges.clear()\nreturn list(text.encode('utf-8'))",
               encode=("merges.clear()\nspecial_tokens.clear()\n"
                       "if isinstance(allowed_special, set):\n    allowed_special.clear()\n"
                       "return list(text.encode('utf-8'))"),
               recover_merges=("for token in [t for t in mergeable_ranks if len(t) > 1]:\n"
                               "    del mergeable_ranks[token]\nreturn {}"),
           )),
    Sample("flaky_exceptions", "hostile",
           "every call raises a different exception than the last one (or returns [] every third time), so "
           "hypothesis cannot replay a failure the same way twice",
           replace=_functions("return _cambiante()"), first_cells=(_FLAKY,)),
]
