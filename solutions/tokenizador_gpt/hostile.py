"""Hostile samples for `tokenizador_gpt`: segfaults, huge answers and answers that change on replay.

Each attack replaces every graded function (or makes it useless), so a sound grader gives
it exactly 0. tests/test_hostile.py grades them in one batch next to the reference and the
stub, some of them also as a .py module.
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
    Sample("served_helper_overload", "hostile",
           "while encode_ordinary and encode are graded, pretokenize is the reference's: they call it with a catastrophic-backtracking pattern ((a|aa)+$ on 40 a's and a !: minutes), "
           "and, in a loop, with a text whose answer is 2.2 million one-character strings (past the frame's "
           "value cap); once this hung the grader 300 s or cost it 4 GB. Only a few calls attack (the rest "
           "raise at once), so that the corpus stays quick to grade",
           replace=_functions(
               encode_ordinary="if not text:\n    return pretokenize('a' * 40 + '!', r'(a|aa)+$')\nraise ValueError('no')",
               encode="if allowed_special == 'all':\n    for _ in range(10 ** 6):\n"
                      "        pretokenize('ab' * 1_100_000, r'.')\nraise ValueError('no')",
           )),
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
    Sample("gpt_oracle_through_served_pretokenize", "hostile",
           "train_regex_bpe's property test runs before pretokenize's fixed tests, with the reference's "
           "pretokenize served: the attack asks it about those tests' hidden inputs (learnt elsewhere; written "
           "here), keeps the answers in a global, and its pretokenize answers from them",
           replace=_functions(
               train_regex_bpe="kept = globals().setdefault('KEPT', {})\n"
                               "for chunk_text in ['Lote12345, I\\'LL', 'hola   mundo\\n\\n', '  ', 'Olé 안녕 🙂🙂']:\n"
                               "    kept[repr((chunk_text, GPT4_SPLIT_PATTERN))] = pretokenize(chunk_text)\n"
                               "for chunk_text, chunk_pattern in [('Lote12345, I\\'LL', GPT2_SPLIT_PATTERN), "
                               "('ab, cd', r'\\p{L}+')]:\n"
                               "    kept[repr((chunk_text, chunk_pattern))] = pretokenize(chunk_text, chunk_pattern)\n"
                               "return {}",
               pretokenize="return globals().get('KEPT', {}).get(repr((text, pattern)), ['?'])",
           )),
    Sample("flaky_exceptions", "hostile",
           "every call raises a different exception than the last one (or returns [] every third time), so "
           "hypothesis cannot replay a failure the same way twice",
           replace=_functions("return _cambiante()"), first_cells=(_FLAKY,)),
]

# Answers of the wrong type or shape that compare vacuously (issue 11): np.empty(0), np.empty((0, 0)),
# the right answer as a 0-d array, broadcast into a bigger array, with every number inside it an array
# or a float, or inside a list (autograder/samples/shape_attacks.py). Pure attacks: exactly 0.
HOSTILE += vacuous_comparison_attacks(SOLUTION, "gpt")

# Attacks on what the grader does around the sandbox (issue 26): a reply slow to decode, answers made
# for a huge assertion diff, the hidden inputs in exception details, files left in shared folders
# (autograder/samples/grader_attacks.py). Pure attacks: exactly 0.
HOSTILE += grader_attacks(SOLUTION, "gpt")
