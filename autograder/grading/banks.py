"""Example banks: each property test's examples, generated once per suite and reference.

Hypothesis is the generator, but it need not generate anew for every student. Run once
against the reference, a property test draws the same examples a correct submission would
get (grading is derandomized), so they are written down with the calls the test made to the
student's functions, and sorted from simplest to most complex in hypothesis' own order:

    bank = record(suite, reference, served, args).banks["test_merge_matches_reference"]
    bank[0].arguments        # {'ids': [], 'pair': (0, 0)}: the simplest example first
    bank[0].calls            # (Call(name='merge', wire='[[["l", []], ...'),)

Grading replays a bank (suite.GradingPlugin): the calls of a few examples are sent to the
worker in one frame, and the test body runs on each example, taking the answers as it makes
the same calls. The first example that fails is then the simplest failing one in the bank;
hypothesis shrinks from it (only if something simpler can exist) to the counterexample shown.

A bank depends on the suite, the reference and hypothesis, and on nothing a student sends:
every submission of a class is graded on the same examples. Banks are kept in the user's
cache, under a name made of the hash of all three.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import hashlib
import io
import json
import os
import pickle
import sys
import tempfile
import warnings
from pathlib import Path

import hypothesis
import pytest
from hypothesis import settings
from hypothesis.control import current_build_context
from hypothesis.errors import UnsatisfiedAssumption
from hypothesis.internal.conjecture.choice import choice_to_index
from hypothesis.internal.conjecture.shrinker import sort_key
from hypothesis.strategies._internal.core import DataObject
from hypothesis.vendor.pretty import pretty

from autograder.grading.plugin import SelfCheckFailed, SuitePlugin, run_pytest
from autograder.grading.student import StudentCrashed, StudentTimeout
from autograder.sandbox.codec import decode_value, wire_of
from autograder.sandbox.worker import reply_with

BANK_FORMAT = 2  # bump when Example changes: older cache files are then ignored
FIRST_CHUNK, CHUNK_GROWTH = 1, 4  # examples sent ahead: 1, then 4, 16, 64...
KEPT_PER_ASSIGNMENT = 4  # recordings kept in the cache per assignment (one per version of its suite)


@dataclasses.dataclass(frozen=True)
class Call:
    """One call a test made to the student's functions, as it crosses to the worker."""

    name: str
    wire: str | None  # the arguments as the worker receives them (codec.wire_of); None: cannot be sent ahead


@dataclasses.dataclass(frozen=True)
class Example:
    arguments: dict  # the @given arguments, as drawn (not the fixtures; `data` is left out)
    data_name: str | None  # the argument that takes st.data(), if the test has one
    draws: tuple  # (label, value) for each data.draw(), in order
    calls: tuple[Call, ...]  # what the test asked of the student's functions, with the reference answering
    choices: tuple  # hypothesis' choice sequence: replayed to shrink from this example
    simplest: bool  # every choice is its simplest value: nothing can shrink below it

    def run(self, test, fixtures: dict) -> None:
        """Run the body of a property test on this example (the fixtures given by pytest)."""
        arguments = copy.deepcopy(self.arguments)
        if self.data_name is not None:
            arguments[self.data_name] = ReplayedData(self.draws)
        with warnings.catch_warnings():
            # `assume` outside hypothesis' own loop works as inside it, with a deprecation warning.
            warnings.simplefilter("ignore", hypothesis.errors.HypothesisDeprecationWarning)
            test(**fixtures, **arguments)

    def report(self, test_name: str) -> str:
        """This example as hypothesis reports a falsifying one (feedback.py reads that form)."""
        lines = [f"Falsifying example: {test_name}("]
        lines += [f"    {name}={pretty(value)}," for name, value in self.arguments.items()]
        if self.data_name is not None:
            lines.append(f"    {self.data_name}=data(...),")
        lines.append(")")
        for count, (label, value) in enumerate(self.draws, start=1):
            lines.append(f"Draw {count}{'' if label is None else f' ({label})'}: {pretty(value)}")
        return "\n".join(lines)


class BankMismatch(Exception):
    """A replay asked for more draws than were recorded: the test draws differently now."""


class ReplayedData:
    """Stands for st.data() in a replay: each draw returns the value drawn when the bank was made."""

    def __init__(self, draws: tuple):
        self._values = iter(copy.deepcopy([value for _, value in draws]))

    def draw(self, strategy, label=None):
        try:
            return next(self._values)
        except StopIteration:
            raise BankMismatch("more draws than recorded") from None

    def __repr__(self) -> str:
        return "data(...)"


def chunks(examples: tuple[Example, ...]):
    """The bank in growing slices: a failing submission wastes few calls sent ahead, a passing one
    crosses to the worker a handful of times per test instead of once per call."""
    start, size = 0, FIRST_CHUNK
    while start < len(examples):
        yield examples[start:start + size]
        start, size = start + size, size * CHUNK_GROWTH


# --- grading on a bank --------------------------------------------------------------------

def run_bank(wrapped_test, test_name: str, bank, fixtures: dict, session) -> None:
    """Run a property test on its bank. The first failing example is the simplest of the bank that
    fails; hypothesis then shrinks from it, unless nothing simpler can exist or the failure is a hang
    or a crash (shrinking would only repeat it), and reports the counterexample as it always does."""
    inner = wrapped_test.hypothesis.inner_test
    for chunk in chunks(bank):
        session.send_ahead([call for example in chunk for call in example.calls])
        for example in chunk:
            try:
                example.run(inner, fixtures)
            except UnsatisfiedAssumption:
                continue
            except BankMismatch:
                session.discard_ahead()
                wrapped_test(**fixtures)  # the test no longer draws as recorded: let hypothesis generate
                return
            except (Exception, pytest.fail.Exception) as failure:
                session.discard_ahead()
                if not (example.simplest or isinstance(failure, (StudentTimeout, StudentCrashed))):
                    shrink_from(wrapped_test, example, fixtures)
                failure.add_note(example.report(test_name))
                raise


# --- making banks -------------------------------------------------------------------------

class _RecordingStudent:
    """The `student` fixture while banks are made: the reference, in-process, each call written down.

    While a function runs, the reference helpers it is served when graded (DEPENDS_ON) answer
    through `served_answer`, which also writes down the answer the reference's worker would give."""

    def __init__(self, reference, served_helpers: dict):
        self._reference = reference
        self._served = served_helpers
        self.calls: list[Call] = []
        self.helper_answers: dict[tuple[str, str], dict] = {}

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        function = getattr(self._reference, name)

        def call(*args, **kwargs):
            self.calls.append(Call(name, wire_of(args, kwargs)))
            helpers = {helper: getattr(self._reference, helper) for helper in self._served.get(name, ())}
            for helper, own in helpers.items():
                setattr(self._reference, helper, self._answering(helper, own))
            try:
                return function(*args, **kwargs)
            finally:
                for helper, own in helpers.items():
                    setattr(self._reference, helper, own)

        return call

    def _answering(self, name: str, helper):
        def served_answer(*args, **kwargs):
            wire = wire_of(args, kwargs)
            if wire is not None and (name, wire) not in self.helper_answers:
                # What the reference's worker does with a callback: run on decoded copies, reply as data.
                copies, kwarg_copies = json.loads(wire)
                copies = [decode_value(a) for a in copies]
                kwarg_copies = {k: decode_value(v) for k, v in kwarg_copies.items()}
                with contextlib.suppress(Exception):  # a helper that raises is left to the worker
                    reply = reply_with(helper(*copies, **kwarg_copies), copies)
                    if reply["op"] == "return":
                        self.helper_answers[(name, wire)] = {"op": "callback_result", "args_after": reply["args_after"],
                                                             "same_as": reply["same_as"], "value": reply["value"]}
            return helper(*args, **kwargs)

        return served_answer


class _RecordingData:
    def __init__(self, data: DataObject):
        self._data = data
        self.draws: list = []

    def draw(self, strategy, label=None):
        value = self._data.draw(strategy, label=label)
        self.draws.append((label, copy.deepcopy(value)))
        return value

    def __repr__(self) -> str:
        return "data(...)"


@dataclasses.dataclass(frozen=True)
class Recording:
    """What a suite asks of the reference, written down once: the grading kit keeps it."""

    banks: dict  # property test -> tuple[Example, ...], simplest first
    helper_answers: dict  # (helper, wire) -> the reply a served helper gets (see StudentSession._serve_callback)
    probe_calls: dict  # function -> a simple call on public input (see StudentSession.probe)


class _Recorder(SuitePlugin):
    """A pytest plugin that runs a suite against the reference and writes down what it asked."""

    def __init__(self, reference, served_helpers: dict):
        self.student_recorder = _RecordingStudent(reference, served_helpers)
        super().__init__(self.student_recorder, reference)
        self.banks: dict[str, tuple[Example, ...]] = {}
        self.failed: list[str] = []

    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.failed.append(report.nodeid)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_pyfunc_call(self, pyfuncitem):
        wrapped = pyfuncitem.obj
        if not hasattr(wrapped, "hypothesis"):
            yield  # a fixed case: run for the helpers' answers it asks for
            return
        inner = wrapped.hypothesis.inner_test
        fixtures = set(pyfuncitem._fixtureinfo.argnames)
        examples: dict[tuple, Example] = {}
        recorder = self.student_recorder

        # functools.wraps keeps hypothesis' digest of the test, and so the examples it derives from it.
        @functools.wraps(inner)
        def record(*args, **kwargs):
            drawn = {k: copy.deepcopy(v) for k, v in kwargs.items() if k not in fixtures and not isinstance(v, DataObject)}
            data_name = next((k for k, v in kwargs.items() if isinstance(v, DataObject)), None)
            data = _RecordingData(kwargs[data_name]) if data_name else None
            if data is not None:
                kwargs[data_name] = data
            recorder.calls = []
            inner(*args, **kwargs)  # an unmet `assume` raises here: such examples are not kept
            nodes = current_build_context().data.nodes
            examples.setdefault(sort_key(nodes), Example(
                arguments=drawn, data_name=data_name, draws=tuple(data.draws) if data else (),
                calls=tuple(recorder.calls), choices=tuple(node.value for node in nodes),
                simplest=all(choice_to_index(node.value, node.constraints) == 0 for node in nodes)))

        wrapped.hypothesis.inner_test = record
        try:
            yield
        finally:
            wrapped.hypothesis.inner_test = inner
        self.banks[pyfuncitem.name] = tuple(examples[key] for key in sorted(examples))


def record(suite_path: Path, reference, served_helpers: dict, release=None, functions=()) -> Recording:
    """Run the suite against the reference, in-process, and write down its banks and helper answers;
    and, for each of `functions`, a simple public call: the first it gets in the simplest example of
    a bank, or else in the release's visible checks."""
    recorder = _Recorder(reference, served_helpers)  # with the grading profile: the examples grading draws
    code, output = run_pytest(suite_path, recorder)
    broken = [nodeid for nodeid in recorder.failed if nodeid.rsplit("::", 1)[-1] in recorder.banks]
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) or broken:
        # A fixed case may fail here (it ran in-process, not through the sandbox's copies); the
        # self-check judges it. A property test that fails on the reference leaves no usable bank.
        raise SelfCheckFailed(f"the reference solution fails property tests of {suite_path} "
                              f"(pytest exit {int(code)}): {', '.join(broken) or 'see below'}\n{output[-2000:]}")
    probe_calls: dict[str, Call] = {}
    for bank in recorder.banks.values():
        for call in bank[0].calls if bank else ():
            probe_calls.setdefault(call.name, call)
    missing = [name for name in functions if name not in probe_calls]
    if missing and release is not None:
        from autograder.grading.visible import run_checks_cells

        checks = _RecordingStudent(reference, {})
        with contextlib.redirect_stdout(io.StringIO()):
            run_checks_cells(release, {name: getattr(checks, name) for name in functions})
        for call in checks.calls:
            if call.name in missing and call.wire is not None:
                probe_calls.setdefault(call.name, call)
    return Recording(recorder.banks, recorder.student_recorder.helper_answers,
                     {name: call for name, call in probe_calls.items() if name in functions and call.wire is not None})


# --- the hypothesis they are made with -------------------------------------------------------

# Banks are made with hypothesis' internals (choice sequences, its shrinker's order), which any release
# may change: another version would grade the class on other examples, or not at all. pyproject.toml
# pins this version (tests/test_banks.py checks they agree); any other is a grader error, never a score.
HYPOTHESIS_VERSION = "6.170.27"


def check_hypothesis_version() -> None:
    if hypothesis.__version__ != HYPOTHESIS_VERSION:
        raise SelfCheckFailed(
            f"hypothesis {hypothesis.__version__} is installed, but the example banks are made with hypothesis "
            f"{HYPOTHESIS_VERSION}: another version would grade on other examples. Install the pinned version "
            f"(pip install -e . in the project, or pip install hypothesis=={HYPOTHESIS_VERSION})")


# --- the cache ----------------------------------------------------------------------------

def bank_digest(suite_path: Path, reference_path: Path, lesson_path: Path | None = None) -> str:
    digest = hashlib.sha256()
    lesson = lesson_path.read_bytes() if lesson_path is not None and lesson_path.exists() else b""
    for part in (suite_path.read_bytes(), reference_path.read_bytes(), lesson, hypothesis.__version__.encode(),
                 f"{BANK_FORMAT} {sys.version_info[:2]}".encode()):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()[:24]


def bank_cache_dir() -> Path | None:
    """Where banks are kept between runs: next to hypothesis' own tables (plugin.prepare_hypothesis)."""
    try:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # no home folder: banks are made in every run
        return None
    return cache / "tokens-y-embeddings" / "banks"


def load_recording(assignment, reference, served_helpers: dict, release=None) -> Recording:
    """The assignment's recording: from the cache when its suite, reference, lesson and hypothesis
    are unchanged."""
    suite_path, reference_path = assignment.hidden_suite_path, assignment.solution_path
    folder = bank_cache_dir()
    digest = bank_digest(suite_path, reference_path, assignment.lesson_path)
    cached = folder / f"{assignment.id}-{digest}.pickle" if folder else None
    if cached is not None:
        try:
            with open(cached, "rb") as stream:
                recording = pickle.load(stream)  # written by this code into the user's own cache
            if isinstance(recording, Recording):
                return recording
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            pass
    recording = record(suite_path, reference, served_helpers, release, tuple(assignment.points))
    if cached is not None:
        with contextlib.suppress(OSError):
            cached.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("wb", dir=cached.parent, delete=False, suffix=".tmp") as stream:
                pickle.dump(recording, stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(stream.name, cached)
            # Each edit of a suite leaves a recording behind: keep the few most recent of this assignment.
            older = sorted(cached.parent.glob(f"{assignment.id}-*.pickle"), key=lambda p: p.stat().st_mtime)
            for stale in older[:-KEPT_PER_ASSIGNMENT]:
                stale.unlink(missing_ok=True)
    return recording


# --- shrinking from a bank's failing example ------------------------------------------------

SHRINK_KEY = b"bank-example"


def shrink_from(wrapped_test, example: Example, fixtures: dict) -> None:
    """Let hypothesis replay `example` and shrink it, as if it had found it: raises what the test
    raises on the smallest failing example (with hypothesis' report). Returns if the example no
    longer fails (the submission is not deterministic)."""
    database = hypothesis.database.InMemoryExampleDatabase()
    # In the secondary corpus: hypothesis takes an example of the primary one as already shrunk.
    database.save(SHRINK_KEY + b".secondary", hypothesis.database.choices_to_bytes(example.choices))
    own = getattr(wrapped_test, "_hypothesis_internal_use_settings", settings())
    saved = {name: getattr(wrapped_test, name) for name in
             ("_hypothesis_internal_use_settings", "_hypothesis_internal_use_seed", "_hypothesis_internal_database_key")
             if hasattr(wrapped_test, name)}
    wrapped_test._hypothesis_internal_use_settings = settings(
        own, database=database, derandomize=False,
        phases=(hypothesis.Phase.reuse, hypothesis.Phase.shrink))
    wrapped_test._hypothesis_internal_use_seed = 0  # shrinking is deterministic too
    wrapped_test._hypothesis_internal_database_key = SHRINK_KEY
    try:
        wrapped_test(**fixtures)
    finally:
        for name in ("_hypothesis_internal_use_settings", "_hypothesis_internal_use_seed",
                     "_hypothesis_internal_database_key"):
            if name in saved:
                setattr(wrapped_test, name, saved[name])
            elif hasattr(wrapped_test, name):
                delattr(wrapped_test, name)
