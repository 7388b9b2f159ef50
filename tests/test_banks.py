"""Example banks and calls sent ahead (autograder/grading/banks.py, StudentSession.send_ahead).

A bank must change how fast a submission is graded, never what it gets:
- each bank holds the examples hypothesis draws for the reference, simplest first;
- grading with banks gives the same scores, outcomes and hints as generating for each submission
  (the counterexample shown may differ: hypothesis shrinks from another start);
- calls sent ahead are answered exactly as calls made one by one, and a call the test never makes
  (a hang among them included) costs the student nothing;
- a bank is made once per suite, reference and hypothesis version, and kept in the user's cache.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from autograder import samples
from autograder.grading import banks
from autograder.grading.kit import build_kit
from autograder.grading.plugin import UNICODE_TABLE_NAMES, UNICODE_TABLES, suite_dependencies
from autograder.grading.session import grade_submission
from autograder.notebook.loader import Cell, Program
from autograder.sandbox import codec, launcher
from autograder.grading.student import StudentSession, StudentTimeout


@pytest.fixture(scope="module")
def kits(course):
    return {name: build_kit(course.assignment(name)) for name in ("bpe_bytes", "embeddings")}


# --- what a bank holds ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["bpe_bytes", "embeddings"])
def test_banks_hold_distinct_examples_simplest_first(kits, name):
    kit = kits[name]
    assert kit.banks and all(kit.banks.values())
    for test, bank in kit.banks.items():
        lengths = [len(example.choices) for example in bank]
        assert lengths == sorted(lengths), test  # hypothesis' order: fewer choices first
        assert len({example.choices for example in bank}) == len(bank), test
        assert all(example.calls for example in bank), f"{test}: an example that asks the student nothing"
        assert all(call.wire is not None for example in bank for call in example.calls), test
    # The zero example (every choice at its simplest) is what hypothesis tries first: first in the bank.
    assert all(bank[0].simplest for bank in kits["bpe_bytes"].banks.values())


def test_recorded_calls_are_the_calls_the_test_makes(kits):
    (example,) = [e for e in kits["bpe_bytes"].banks["test_merge_matches_reference"] if e.arguments["ids"]][:1]
    (call,) = example.calls
    ids, pair = example.arguments["ids"], example.arguments["pair"]
    assert call.name == "merge"
    assert call.wire == codec.wire_of((list(ids), pair, 256), {})


# --- same grades ------------------------------------------------------------------------------

EXAMPLE_LINES = ("Tu función devolvió:", "Se esperaba:", "Contraejemplo (generado)")


def _graded(kit, notebook):
    """Each test's outcome, score, hint and feedback, leaving out the lines about the counterexample
    (what it is, what the function returned on it, what was expected): shrinking from another
    start may find another example of the same size."""
    result = grade_submission(kit, notebook)
    return [(t.test_id, t.outcome, t.score, t.hint, _without_example(t.feedback)) for t in result.tests], \
        {t.test_id: t.feedback for t in result.tests}


def _without_example(feedback: str) -> list[str]:
    """The feedback's lines but those of the example (several calls are listed one per indented line)."""
    kept, in_calls = [], False
    for line in feedback.splitlines():
        in_calls = in_calls and line.startswith("  ") or line.startswith("Contraejemplo (generado), ")
        if not (in_calls or line.startswith(EXAMPLE_LINES)):
            kept.append(line)
    return kept


@pytest.mark.parametrize("name, every", [("bpe_bytes", 2), ("embeddings", 6)])
def test_banks_grade_as_generating_does(kits, course, tmp_path, name, every):
    """Catalogue entries and the reference: identical tests, outcomes, scores and hints with banks as
    without them (hypothesis generating for each submission, as before banks existed). A sample of
    each catalogue (generating is what banks made slow to run); bench/bench_banks.py compares the
    whole catalogue of every assignment."""
    kit = kits[name]
    generating = dataclasses.replace(kit, banks={}, helper_answers={})
    assignment = course.assignment(name)
    entries = [samples.correct(name), *samples.catalogue(assignment, "buggy")[::every]]
    for index, entry in enumerate(entries):
        notebook = samples.build_notebook(assignment, entry, tmp_path / f"{index}.ipynb")
        with_banks, shown = _graded(kit, notebook)
        without, shown_before = _graded(generating, notebook)
        assert with_banks == without, getattr(entry, "name", "correct")
        for test_id, text in shown.items():
            assert ("Contraejemplo" in text) == ("Contraejemplo" in shown_before[test_id]), test_id


def _counterexample(feedback: str) -> str:
    return feedback.split("Contraejemplo (generado): ", 1)[1]


def test_the_counterexample_is_the_simplest_failing_example(kits, course, tmp_path):
    """get_stats that skips overlapping pairs: the smallest list it gets wrong is [0, 0, 0]."""
    assignment = course.assignment("bpe_bytes")
    entry = next(s for s in samples.catalogue(assignment, "buggy") if s.name == "get_stats_skips_overlaps")
    notebook = samples.build_notebook(assignment, entry, tmp_path / "overlaps.ipynb")
    _, shown = _graded(kits["bpe_bytes"], notebook)
    assert _counterexample(shown["test_get_stats_matches_reference"]) == "get_stats([0, 0, 0])"


def test_a_stub_fails_on_the_first_example_without_shrinking(kits, course, tmp_path, monkeypatch):
    def no_shrinking(*args):
        raise AssertionError("the simplest example cannot shrink: hypothesis must not be asked to")

    monkeypatch.setattr(banks, "shrink_from", no_shrinking)
    assignment = course.assignment("bpe_bytes")
    notebook = samples.build_notebook(assignment, samples.stub(assignment), tmp_path / "stub.ipynb")
    result = grade_submission(kits["bpe_bytes"], notebook)
    assert result.score == 0
    merge = next(t for t in result.tests if t.test_id == "test_merge_matches_reference")
    assert _counterexample(merge.feedback) == "merge([], (0, 0), 256)"


# --- served helpers ---------------------------------------------------------------------------

def test_a_correct_submission_needs_no_reference_worker(kits, course, tmp_path, monkeypatch):
    """The reference's helpers answer the calls a correct train_bpe makes from what was written down;
    its worker starts only for arguments the reference never gave its own helpers."""
    roles = []
    original = launcher.Worker.__init__

    def counting(self, limits, role="student"):
        roles.append(role)
        original(self, limits, role)

    monkeypatch.setattr(launcher.Worker, "__init__", counting)
    assignment = course.assignment("bpe_bytes")
    notebook = samples.build_notebook(assignment, samples.correct("bpe_bytes"), tmp_path / "correct.ipynb")
    assert grade_submission(kits["bpe_bytes"], notebook).score == 100
    assert roles == ["student"]
    assert len(kits["bpe_bytes"].helper_answers) > 100


# --- calls sent ahead -------------------------------------------------------------------------

COUNTER = '''
import time
CALLS = []

def f(x):
    CALLS.append(x)
    if x == "hang":
        time.sleep(60)
    return [x, len(CALLS)]
'''


@pytest.fixture
def session():
    limits = dataclasses.replace(launcher.Limits(), call_seconds=1.5, load_seconds=10, submission_seconds=60)
    opened = StudentSession(Program([Cell("entrega.py", COUNTER)], module_name="entrega"), limits)
    yield opened
    opened.close()


def _calls(*arguments):
    return [banks.Call("f", codec.wire_of((argument,), {})) for argument in arguments]


def test_calls_sent_ahead_are_answered_in_order(session):
    assert session.send_ahead(_calls("a", "b", "c"))
    assert [session.call("f", x) for x in ("a", "b", "c")] == [["a", 1], ["b", 2], ["c", 3]]
    assert session.call("f", "d") == ["d", 4]  # then one by one, as before


def test_a_different_call_is_answered_afresh_after_the_rest(session):
    session.send_ahead(_calls("a", "b", "c"))
    assert session.call("f", "a") == ["a", 1]
    # The test asked for something else: what was sent ahead still ran (in order), then this call.
    assert session.call("f", "z") == ["z", 4]


def test_an_argument_of_another_type_is_another_call(session):
    session.send_ahead(_calls(1))
    assert session.call("f", 1.0) == [1.0, 2]  # 1.0 == 1, but the worker was sent the int


def test_a_hang_among_calls_never_made_costs_nothing(session):
    session.send_ahead(_calls("a", "hang"))
    assert session.call("f", "a") == ["a", 1]
    session.new_test()  # the test ended: the answer it never asked for is waited out and dropped
    assert session.failure is None and not session.timed_out
    assert session.call("f", "b") == ["b", 1]  # a new worker


def test_a_hang_in_a_call_made_is_a_timeout(session):
    session.send_ahead(_calls("hang", "a"))
    with pytest.raises(StudentTimeout):
        session.call("f", "hang")
    assert session.timed_out == {"f"}


def test_nothing_is_sent_ahead_for_a_function_that_timed_out(session):
    session.timed_out.add("f")
    assert not session.send_ahead(_calls("a"))


# --- the cache --------------------------------------------------------------------------------

def test_a_recording_is_made_once_and_kept_in_the_cache(course, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assignment = course.assignment("bpe_bytes")
    kit = build_kit(assignment)
    (kept,) = (tmp_path / "tokens-y-embeddings" / "banks").glob("bpe_bytes-*.pickle")

    def no_recording(*args):
        raise AssertionError("the cached recording should have been used")

    monkeypatch.setattr(banks, "record", no_recording)
    again = banks.load_recording(assignment, kit.reference, suite_dependencies(assignment.hidden_suite_path),
                                 kit.release)
    assert again == banks.Recording(kit.banks, kit.helper_answers, kit.probe_calls)
    kept.write_bytes(b"not a pickle")
    with pytest.raises(AssertionError, match="cached recording"):  # a damaged file is made again
        banks.load_recording(assignment, kit.reference, {}, kit.release)
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for version in range(6):  # recordings of older versions of the suite: only the newest few stay
        (kept.parent / f"bpe_bytes-old{version}.pickle").write_bytes(b"")
    kept.unlink()
    build_kit(assignment)
    assert len(list(kept.parent.glob("bpe_bytes-*.pickle"))) == banks.KEPT_PER_ASSIGNMENT
    assert kept.exists()


def test_the_cache_key_changes_with_the_suite_and_the_reference(course, tmp_path):
    assignment = course.assignment("bpe_bytes")
    suite, reference = tmp_path / "test_hidden.py", tmp_path / "solution.py"
    suite.write_bytes(assignment.hidden_suite_path.read_bytes())
    reference.write_bytes(assignment.solution_path.read_bytes())
    before = banks.bank_digest(suite, reference, assignment.lesson_path)
    assert before == banks.bank_digest(assignment.hidden_suite_path, assignment.solution_path, assignment.lesson_path)
    suite.write_text(suite.read_text() + "\n# a change\n")
    assert banks.bank_digest(suite, reference, assignment.lesson_path) != before
    suite.write_bytes(assignment.hidden_suite_path.read_bytes())
    reference.write_text(reference.read_text() + "\n")
    assert banks.bank_digest(suite, reference, assignment.lesson_path) != before
    reference.write_bytes(assignment.solution_path.read_bytes())
    assert banks.bank_digest(suite, reference, tmp_path / "no-lesson.md") != before


def test_feedback_shows_the_example_and_nothing_after_it():
    from autograder.grading.feedback import _counterexample as shown

    notes = ("Falsifying example: test_x(\n    student=<proxy>,\n    ids=[0,\n        0],\n    data=data(...),\n)\n"
             "Draw 1 (W): [[1,\n  2]]\nTraceback (most recent call last):\n"
             "    assert student.f(ids) == reference.f(ids)\nExplanation: test_hidden.py:12")
    assert shown(notes) == "\nContraejemplo (generado): ids=[0, 0], data=data(...), Draw 1 (W): [[1, 2]]"


def test_wire_of_tells_apart_what_equality_does_not():
    assert codec.wire_of((1,), {}) != codec.wire_of((1.0,), {}) != codec.wire_of((True,), {})
    assert codec.wire_of((0.0,), {}) != codec.wire_of((-0.0,), {})
    assert codec.wire_of((object(),), {}) is None
    assert json.loads(codec.wire_of(((1, "a"),), {"k": b"x"}))[1] == {"k": codec.encode_value(b"x")}


# --- a submission that hangs everywhere -------------------------------------------------------

def test_once_a_function_hangs_the_others_are_probed_together(fast_bpe_bytes, tmp_path):
    """Every function loops forever except `decode`, which is correct: one function's limit is waited
    out in a test, the others are tried at once on a simple input, and only `decode` is graded."""
    from course_content import reference_functions

    kit = build_kit(fast_bpe_bytes)
    decode = reference_functions("bpe_bytes")["decode"]
    source = [f"{decode.header}\n{decode.body}"]
    for name in fast_bpe_bytes.points:
        if name != "decode":
            source.append(f"def {name}(*args, **kwargs):\n    while True:\n        pass\n")
    module = tmp_path / "entrega.py"
    module.write_text("\n\n".join(source))
    result = grade_submission(kit, module)
    by_function = {}
    for test in result.tests:
        by_function.setdefault(test.function, set()).add(test.outcome)
    assert by_function.pop("decode") == {"passed"}
    assert all(outcomes == {"timeout"} for outcomes in by_function.values())
    waited = {t.function for t in result.tests if t.feedback.startswith("Tu función no terminó en 3 s.")}
    probed = {t.function for t in result.tests if "con un caso sencillo" in t.feedback}
    assert len(waited) == 1 and probed == set(by_function) - waited, (waited, probed)
    assert result.score == fast_bpe_bytes.points["decode"]


def test_a_suite_whose_property_fails_on_the_reference_is_a_grader_error(course, tmp_path, monkeypatch):
    """No bank can be made then: the command says why, as the self-check does, instead of a traceback."""
    from autograder.grading.plugin import SelfCheckFailed

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assignment = course.assignment("bpe_bytes")
    suite = tmp_path / "bpe_bytes_broken" / "test_hidden.py"  # its own module name: not the real suite's
    suite.parent.mkdir()
    suite.write_text(assignment.hidden_suite_path.read_text().replace(
        "assert student.get_stats(list(ids)) == reference.get_stats(list(ids))",
        "assert student.get_stats(list(ids)) == {}"))
    with pytest.raises(SelfCheckFailed, match="test_get_stats_matches_reference"):
        banks.record(suite, build_kit(assignment).reference, {})


def test_the_pinned_hypothesis_is_the_one_the_banks_are_made_with():
    """pyproject.toml installs the version banks.py checks for: one version, every install."""
    import tomllib

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    pins = [d for d in project["project"]["dependencies"] if d.startswith("hypothesis")]
    assert pins == [f"hypothesis=={banks.HYPOTHESIS_VERSION}"]


def test_another_hypothesis_is_a_grader_error_not_a_different_score(monkeypatch, bpe_bytes, capsys):
    from autograder.cli import EXIT_GRADER_ERROR, main

    monkeypatch.setattr(banks.hypothesis, "__version__", "6.999.0")
    assert main(["grade", "bpe_bytes", str(bpe_bytes.solution_path), "--quiet"]) == EXIT_GRADER_ERROR
    error = capsys.readouterr().err
    assert "hypothesis 6.999.0 is installed" in error and f"hypothesis=={banks.HYPOTHESIS_VERSION}" in error


# --- hypothesis' Unicode tables, shipped ---------------------------------------------------------

def _python(code: str, **environment) -> None:
    subprocess.run([sys.executable, "-c", code], env={**os.environ, **environment}, capture_output=True, check=True)


def _table(path: Path):
    return json.loads(gzip.open(path).read())


@pytest.fixture
def shipped_tables() -> Path:
    shipped = UNICODE_TABLES / unicodedata.unidata_version
    if not shipped.is_dir():
        pytest.skip(f"no tables shipped for Unicode {unicodedata.unidata_version}: hypothesis computes them, as before")
    return shipped


def test_the_shipped_unicode_tables_are_what_hypothesis_computes(shipped_tables, tmp_path):
    _python("from hypothesis.internal.charmap import charmap, intervals_from_codec\n"
            "charmap(); intervals_from_codec('utf-8')", HYPOTHESIS_STORAGE_DIRECTORY=str(tmp_path))
    computed = tmp_path / "unicode_data" / unicodedata.unidata_version
    for name in UNICODE_TABLE_NAMES:
        assert _table(computed / f"{name}.json.gz") == _table(shipped_tables / f"{name}.json.gz"), name


def test_a_fresh_machine_takes_the_shipped_tables_instead_of_computing_them(shipped_tables, tmp_path):
    """Here hypothesis would compute its tables over code point 0 alone: a fresh cache ends with the whole
    tables only if they were taken from the project."""
    _python("import types\nimport hypothesis.internal.charmap as tables\n"
            "tables.sys = types.SimpleNamespace(maxunicode=0)\n"
            "from autograder.grading.plugin import prepare_hypothesis\nprepare_hypothesis()",
            XDG_CACHE_HOME=str(tmp_path), HYPOTHESIS_STORAGE_DIRECTORY="")
    installed = tmp_path / "tokens-y-embeddings" / "hypothesis" / "unicode_data" / unicodedata.unidata_version
    for name in UNICODE_TABLE_NAMES:
        assert _table(installed / f"{name}.json.gz") == _table(shipped_tables / f"{name}.json.gz"), name
