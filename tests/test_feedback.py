"""The feedback rules of the hidden suites (see autograder/grading/feedback.py).

- A fixed hidden case is never shown: not its input, not its expected value, not any
  text the student's code produced after seeing it (exception messages, prints,
  class names, line numbers).
- A property test shows its generated counterexample ("Contraejemplo").
- A custom exception is described by the builtin it derives from.
- A function that hangs times out with a Spanish message; the rest keep their marks.
- Grading is deterministic: the same notebook gets the same Gradescope output.

Every submission is built once and graded in one batch (module-scoped fixture).
"""

from __future__ import annotations

import re

import pytest

from autograder import samples
from autograder.grading.batch import grade_batch
from autograder.render.gradescope import to_gradescope
from autograder.render.student_text import overall_output
from autograder.samples import Sample

from course_content import parameter_lists

SIGNATURES = parameter_lists("bpe_bytes")
ARGUMENTS = {name: signature.replace("=None", "") for name, signature in SIGNATURES.items()}
WRONG_VALUES = {"get_stats": "{(-1, -1): -1}", "merge": "[-1]", "train_bpe": "{(-1, -1): -1}",
                "build_vocab": "{-1: b'?'}", "encode": "[-1]", "decode": "'?'", "compression_ratio": "-1.0"}
LOAD_MESSAGE = "cuaderno cargado"

# Literal inputs (and one expected value) of fixed hidden tests, from solutions/bpe_bytes/test_hidden.py.
HIDDEN_LITERALS = ["3, 1, 4, 1, 5, 9", "1, 2, 3, 1, 2, 7", "120, 120, 120", "4, 5, 4, 5, 6", "zyxwzyxw",
                   "dcbadcba", "el perro de pedro", "abababc", "xyzxy", "ñandú", "casa", "5000", "hola"]


def _every_function(body: str) -> dict[str, str]:
    return {name: f"def {name}({signature}):\n" + body.format(args=ARGUMENTS[name], wrong=WRONG_VALUES[name])
            for name, signature in SIGNATURES.items()}


LEAKY_RAISE = Sample("leaky_raise", "hostile", "every function raises ValueError with its arguments in the message",
                     replace=_every_function("    raise ValueError(repr(({args},)))\n"),
                     cells=(f"print({LOAD_MESSAGE!r})",))
LEAKY_PRINT = Sample("leaky_print", "hostile", "every function prints its arguments, then returns a wrong value",
                     replace=_every_function("    print({args})\n    return {wrong}\n"),
                     cells=(f"print({LOAD_MESSAGE!r})",))

# Each function smuggles the hidden input out through a different channel.
HOSTILE_NAMES = Sample("hostile_names", "hostile", "data hidden in names and line numbers", replace={
    # an exception class named after the input
    "get_stats": "def get_stats(ids, counts=None):\n"
                 "    raise type('X_' + '_'.join(map(str, ids)), (ValueError,), {})()\n",
    # the same, with the class claiming to be a builtin
    "merge": "def merge(ids, pair, idx):\n"
             "    raise type('X_' + '_'.join(map(str, ids)), (ValueError,), {'__module__': 'builtins'})()\n",
    # an exception class named after a builtin chosen by the input
    "train_bpe": "def train_bpe(text, vocab_size):\n"
                 "    import builtins\n"
                 "    names = sorted(n for n in dir(builtins) if n[0].islower())\n"
                 "    raise type(names[len(text) % len(names)], (ValueError,), {})()\n",
    # a returned object whose class is named after the input
    "build_vocab": "def build_vocab(merges):\n"
                   "    return type('X_' + '_'.join(map(str, merges.values())), (), {})()\n",
    # a returned object whose class claims to be the builtin chosen by the input
    "encode": "def encode(text, merges):\n"
              "    import builtins\n"
              "    names = sorted(n for n in dir(builtins) if n[0].islower())\n"
              "    return type(names[len(text) % len(names)], (), {'__module__': 'builtins'})()\n",
    # a line number chosen by the input
    "decode": "def decode(ids, vocab):\n"
              "    padding = '\\n' * (1000 + ids[0] if ids else 0)\n"
              "    exec(compile(padding + 'raise ValueError()', decode.__code__.co_filename, 'exec'))\n",
})

# Ordinary mistakes (no hostility): a forgotten return, and .get where indexing should raise KeyError.
PLAIN_MISTAKES = Sample("plain_mistakes", "buggy", "train_bpe forgets to return; decode never raises KeyError", replace={
    "train_bpe": "def train_bpe(text, vocab_size):\n"
                 "    if vocab_size < 256:\n"
                 "        raise ValueError('vocab_size < 256')\n"
                 "    ids = list(text.encode('utf-8'))\n"
                 "    merges = {}\n"
                 "    for idx in range(256, vocab_size):\n"
                 "        if len(ids) < 2:\n"
                 "            break\n"
                 "        stats = get_stats(ids)\n"
                 "        pair = max(stats, key=stats.get)\n"
                 "        ids = merge(ids, pair, idx)\n"
                 "        merges[pair] = idx\n",
    "decode": "def decode(ids, vocab):\n"
              "    return b''.join(vocab.get(i, b'') for i in ids).decode('utf-8', errors='replace')\n",
})

HANGS = Sample("hangs", "buggy", "compression_ratio never returns",
               replace={"compression_ratio": "def compression_ratio(text, ids):\n    while True:\n        pass\n"})

# merge empties the list it gets (an in-place change the grader mirrors onto its own list, to judge it)
# and drops the last id: a counterexample shows the list as it was sent, not as the call left it.
EMPTIES_ITS_ARGUMENT = Sample("empties_its_argument", "buggy", "merge empties ids in place and drops the last id",
                              replace={"merge": "def merge(ids, pair, idx):\n    result = list(ids)[:-1]\n"
                                                "    ids.clear()\n    return result\n"})

CORPUS = [HANGS, LEAKY_RAISE, LEAKY_PRINT, HOSTILE_NAMES, PLAIN_MISTAKES, EMPTIES_ITS_ARGUMENT]
AGAIN = [LEAKY_RAISE, LEAKY_PRINT, PLAIN_MISTAKES]  # graded a second time, at the end of the batch, for determinism


@pytest.fixture(scope="module")
def graded(course, fast_bpe_bytes, tmp_path_factory):
    folder = tmp_path_factory.mktemp("feedback")
    paths = {s.name: samples.build_notebook(fast_bpe_bytes, s, folder / f"{s.name}.ipynb") for s in CORPUS}
    order = [paths[s.name] for s in CORPUS] + [paths[s.name] for s in AGAIN]
    results = grade_batch(fast_bpe_bytes, order, jobs=2)
    first = {s.name: r for s, r in zip(CORPUS, results)}
    second = {s.name: r for s, r in zip(AGAIN, results[len(CORPUS):])}
    return first, second


@pytest.fixture(scope="module")
def results(graded):
    return graded[0]


def explain(result) -> str:
    return "\n".join(f"{t.test_id} [{t.kind}]: {t.outcome}: {t.feedback!r} [{t.instructor_note}]"
                     for t in result.tests if t.outcome != "passed")


def graded_tests(result, function: str, kind: str | None = None):
    found = [t for t in result.tests if t.function == function and (kind is None or t.kind == kind)]
    assert found
    return found


def student_texts(result, test) -> list[str]:
    """Everything of one test a student can read, plus the notebook-wide output."""
    (shown,) = [g for g, t in zip(to_gradescope(result)["tests"], result.tests) if t is test]
    return [test.feedback, test.hint, shown["output"], shown["name"], result.load.output, overall_output(result)]


# --- the corpus itself --------------------------------------------------------------------

def test_hidden_literals_are_real_and_not_in_any_hint(fast_bpe_bytes, results):
    suite = fast_bpe_bytes.hidden_suite_path.read_text(encoding="utf-8")
    hints = [t.hint for t in results["leaky_raise"].tests]
    for literal in HIDDEN_LITERALS:
        assert literal in suite, literal
        assert not any(literal in hint for hint in hints), literal


# --- fixed cases are never shown -----------------------------------------------------------

@pytest.mark.parametrize("name", ["leaky_raise", "leaky_print"])
def test_fixed_hidden_inputs_never_reach_the_student(results, name):
    result = results[name]
    fixed = [t for t in result.tests if t.kind == "fixed"]
    assert sum(t.outcome != "passed" for t in fixed) > 20, explain(result)  # the student's code saw the hidden inputs
    for test in fixed:
        for text in student_texts(result, test):
            for literal in HIDDEN_LITERALS:
                assert literal not in text, f"{test.test_id} shows {literal!r}:\n{text}"


@pytest.mark.parametrize("name", ["leaky_raise", "leaky_print"])
def test_load_output_is_kept_but_call_output_is_not(results, name):
    output = results[name].load.output
    assert LOAD_MESSAGE in output  # what cells print while loading is shown...
    assert output.strip() == LOAD_MESSAGE  # ...and nothing printed during the hidden tests


def test_exception_messages_are_never_shown_in_hidden_suites(results):
    # The message is text the student's code wrote after seeing its input; in a hidden suite
    # the worker may have seen fixed inputs earlier, so no message is ever echoed.
    result = results["leaky_raise"]
    raised = [t for t in result.tests if t.outcome == "raised"]
    assert raised
    for test in raised:
        assert "ValueError" in test.feedback and "Mensaje:" not in test.feedback, test.feedback


@pytest.mark.parametrize("name", ["leaky_raise", "leaky_print"])
def test_property_tests_show_their_counterexample(results, name):
    result = results[name]
    failed = [t for t in result.tests if t.kind == "property" and t.outcome != "passed"]
    assert len(failed) == 5, explain(result)
    for test in failed:
        assert "Contraejemplo" in test.feedback, f"{test.test_id}: {test.feedback}"


def test_a_counterexample_is_the_call_of_the_students_function(results):
    # Not the hidden test's own parameters (train='', text='', extra=0): the call the student's code
    # got, as they would write it, with what it returned.
    (test,) = [t for t in results["leaky_print"].tests if t.test_id == "test_encode_matches_reference"]
    assert "Contraejemplo (generado): encode('', {})" in test.feedback, test.feedback
    assert "Tu función devolvió: [-1]" in test.feedback and "Se esperaba:" in test.feedback, test.feedback
    assert "train=" not in test.feedback and "extra=" not in test.feedback, test.feedback
    (raised,) = [t for t in results["leaky_raise"].tests if t.test_id == "test_merge_matches_reference"]
    assert raised.feedback.endswith("\nContraejemplo (generado): merge([], (0, 0), 256)"), raised.feedback


def test_a_counterexample_shows_the_arguments_as_they_were_sent(results):
    (test,) = [t for t in results["empties_its_argument"].tests if t.test_id == "test_merge_matches_reference"]
    assert test.outcome == "wrong"
    assert test.feedback.endswith("\nContraejemplo (generado): merge([0], (0, 0), 256)"), test.feedback


def test_an_argument_the_suite_itself_defines_is_never_shown():
    # tokenizador_gpt's property test of encode passes the suite's own merge table (HOLA), which its
    # fixed cases use too: the call shows a placeholder, not the table.
    from autograder.course import load_course
    from autograder.grading.feedback import FIXED_VALUE, describe_calls, suite_fixed_values
    from autograder.grading.plugin import load_reference
    from autograder.grading.student import CallRecord

    suite = load_reference(load_course().assignment("tokenizador_gpt").hidden_suite_path)
    hola = {(104, 111): 256, (32, 109): 257}
    assert hola in suite_fixed_values(suite)
    record = CallRecord.of("encode", ("ho", dict(hola), {"<|x|>": 999}), {"allowed_special": "all"}, returned=[256])
    ((call, outcome, _),) = describe_calls([record], suite_fixed_values(suite))
    assert call == f"encode('ho', {FIXED_VALUE}, {{'<|x|>': 999}}, allowed_special='all')" and outcome == "devolvió [256]"


def test_property_feedback_shows_no_grader_internals(results):
    result = results["plain_mistakes"]  # train_bpe returns None: pytest explains `None == {...}` with "where" lines
    (test,) = [t for t in result.tests if t.test_id == "test_train_bpe_matches_reference"]
    # Nothing of train_bpe is right, so the catch-all is not excused: it costs its points. The return
    # contract (grading/expect.py) speaks before any comparison, in types only.
    assert test.outcome == "wrong" and "train_bpe debe devolver un dict" in test.feedback, test.feedback
    assert "where" not in test.feedback and "assert" not in test.feedback, test.feedback
    assert not re.search(r"0x[0-9a-f]{6,}", test.feedback), test.feedback
    assert "solution.py" not in test.feedback and "StudentSession" not in test.feedback, test.feedback


# --- names and line numbers the student controls ---------------------------------------------

def test_custom_exception_is_described_by_its_builtin_base(results):
    result = results["hostile_names"]
    for test in graded_tests(result, "get_stats"):
        assert test.outcome == "raised", explain(result)
        assert "Tu función lanzó una excepción propia (derivada de ValueError)" in test.feedback
        assert "X_" not in test.feedback.replace("'X_' + ", "")  # the student's own code line is fine


def test_exception_claiming_to_be_a_builtin_does_not_leak(results):
    result = results["hostile_names"]
    for test in graded_tests(result, "merge", "fixed"):
        assert "Tu función lanzó una excepción propia (derivada de ValueError)" in test.feedback, test.feedback
        assert not re.search(r"X_\d", test.feedback), test.feedback


def test_exception_named_after_a_builtin_does_not_leak(results):
    result = results["hostile_names"]
    for test in graded_tests(result, "train_bpe", "fixed"):
        if test.outcome == "raised":
            assert "Tu función lanzó una excepción propia (derivada de ValueError)" in test.feedback, test.feedback


BAD_RETURN_GENERIC = "Tu función devolvió un objeto de otra clase"


def test_bad_return_does_not_show_the_student_class_name(results):
    result = results["hostile_names"]
    for test in graded_tests(result, "build_vocab"):
        assert test.outcome == "bad_return", explain(result)
        assert test.feedback.startswith(BAD_RETURN_GENERIC), test.feedback
        assert not re.search(r"X_\d", test.feedback), test.feedback


def test_bad_return_claiming_to_be_a_builtin_does_not_leak(results):
    result = results["hostile_names"]
    for test in graded_tests(result, "encode", "fixed"):
        assert test.outcome == "bad_return", explain(result)
        assert test.feedback.startswith(BAD_RETURN_GENERIC), test.feedback


def test_a_hidden_case_never_says_where_the_code_raised(results):
    """Student code that has seen a hidden input chooses the line it raises on (padding a cell), the
    cell and the class: 21 bits per failed test recovered 24 characters of every hidden input of
    `tokenizacion` in eight gradings. A hidden case names none of them; generated cases do."""
    result = results["hostile_names"]
    raised = [test for test in graded_tests(result, "decode", "fixed") if test.outcome == "raised"]
    assert raised, explain(result)
    for test in raised:
        assert not re.search(r"línea \d+|<celda", test.feedback), test.feedback
        assert "no se dice dónde" in test.feedback


@pytest.mark.parametrize("builtin, shown", [("ValueError", "ValueError"), ("UnicodeDecodeError", "una excepción"),
                                            ("LookupError", "una excepción"), ("StopIteration", "una excepción")])
def test_a_hidden_case_names_only_the_exceptions_of_plain_bugs(builtin, shown):
    from autograder.grading import feedback
    from autograder.grading.student import StudentError

    error = StudentError({"type": builtin, "builtin": builtin, "message": "secreto",
                          "frames": [["<celda 3>", 17, "raise X"]]}, {"<celda 3>": "\n" * 16 + "raise X\n"})
    hidden, generated = feedback._raised(error, ""), feedback._raised(error, "property")
    assert hidden.startswith(f"Tu función lanzó {shown} con una entrada oculta") and "17" not in hidden
    assert generated == f"Tu función lanzó {builtin} en <celda 3>, línea 17: `raise X`."


# --- ordinary wrong answers are the student's, not the grader's -------------------------------

@pytest.mark.parametrize("test_id", ["test_train_bpe_tie_rule", "test_decode_unknown_id_raises"])
def test_wrong_answers_are_not_grader_errors(results, test_id):
    (test,) = [t for t in results["plain_mistakes"].tests if t.test_id == test_id]
    assert test.outcome == "wrong", f"{test.outcome}: {test.feedback} [{test.instructor_note}]"
    assert "no es culpa tuya" not in test.feedback


def test_wrong_answers_cost_only_their_function(results):
    result = results["plain_mistakes"]
    for name, (score, maximum) in result.by_function().items():
        if name in ("train_bpe", "decode"):
            assert score < maximum, explain(result)
        else:
            assert score == pytest.approx(maximum), f"{name}\n{explain(result)}"


# --- time-outs -------------------------------------------------------------------------------

def test_hanging_function_times_out_and_the_rest_keep_their_marks(results, fast_bpe_bytes):
    result = results["hangs"]
    seconds = fast_bpe_bytes.limits.call_seconds
    tests = graded_tests(result, "compression_ratio")
    for test in tests:
        assert test.outcome == "timeout", explain(result)
        assert test.score == 0
    # The first call waits out the limit; the function is not called again in its later tests.
    waited = [t for t in tests if re.search(rf"no terminó en {seconds:g} s\b", t.feedback)]
    not_called = [t for t in tests if re.search(rf"ya superó el límite de {seconds:g} s en una prueba anterior", t.feedback)]
    assert len(waited) == 1 and len(not_called) == len(tests) - 1 >= 1, explain(result)
    for name, (score, maximum) in result.by_function().items():
        if name != "compression_ratio":
            assert score == pytest.approx(maximum), f"{name}\n{explain(result)}"
    assert result.score == result.max_score - fast_bpe_bytes.points["compression_ratio"]


# --- determinism -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    "leaky_raise",
    "leaky_print",
    "plain_mistakes",
])
def test_grading_twice_gives_the_same_gradescope_output(graded, name):
    first, second = graded
    one, two = to_gradescope(first[name]), to_gradescope(second[name])
    assert one == two
