"""What a hidden suite is: its fixtures, its marks, its declarations, and how pytest runs it.

A hidden suite is an ordinary pytest module. It gets two session fixtures:

- ``student``: the StudentProxy (``student.encode(text, merges)``);
- ``reference``: the reference solution module, imported in the grader.

and marks each test with what it grades::

    @pytest.mark.grade("merge", weight=2, hint="Los pares no se solapan: ...", backstop=False)
    @pytest.mark.requires("test_merge_basic")   # an error case counts only if the basics pass
    def test_merge_overlap(student): ...

The test's docstring (first line) is its Spanish title. Tests built with
hypothesis are "property" tests: their shrunk counterexample may be shown.

Everything that grades builds on this module: the example banks (banks.py) record a
suite's run against the reference, and suite.py collects it once per batch to run it
against every submission.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib.util
import io
import os
import shutil
import tempfile
import types
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.internal.charmap import charmap_file
from hypothesis.internal.conjecture import utils as conjecture_utils
from hypothesis.internal.conjecture.utils import calc_label_from_name
from hypothesis.strategies._internal import strategies as strategies_module

# Quiet, lean and isolated: no cache, no plugins from the environment (none is loaded from entry points:
# isolated_pytest), no tracebacks to format.
# Hypothesis' own pytest plugin is left out too: on a failure it imports libcst (half a second) to
# write a patch file that adds the counterexample to the suite, which grading has no use for.
PYTEST_ARGS = ["-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:hypothesispytest", "-p", "no:unraisableexception",
               "-p", "no:threadexception", "-p", "no:faulthandler", "-p", "no:junitxml", "-p", "no:doctest",
               "-p", "no:pastebin", "-p", "no:stepwise", "-q", "--no-header", "--tb=no", "--import-mode=importlib",
               "-W", "ignore::pytest.PytestAssertRewriteWarning"]

GRADING_PROFILE = "grading"
settings.register_profile(
    GRADING_PROFILE,
    derandomize=True,  # same examples on every run: grading is deterministic
    database=None,  # and writes nothing to disk
    deadline=None,
    max_examples=30,
    print_blob=False,
    report_multiple_bugs=False,
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
    suppress_health_check=list(HealthCheck),
)


# Hypothesis names some strategies by Python's hash() of a value (each element of a sampled_from; the
# function given to map, filter, flatmap or composite), and its shrinker orders its work by those names.
# hash() of a string is different in every process (PYTHONHASHSEED), so one failing example shrank to
# different counterexamples in different runs: the same score, other feedback. Here a name comes from a
# text that is the same in every process: plain values as written, containers item by item, a strategy
# by its own name, anything else (a function, a bound method and the object it is bound to) by its
# qualified name only. Never by repr(): a bound method's repr holds its object's, and names made by
# repr() took tests/test_audit.py's process from 250 MB to 1 GB, and a whole test run out of memory.
# Hypothesis is pinned to one version (pyproject.toml), and tests/test_determinism.py grades under
# several hash seeds.
_PLAIN = (str, bytes, int, float, complex, bool, type(None), range)


def _stable_text(value) -> str:
    if isinstance(value, _PLAIN):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, strategies_module.SearchStrategy):
        return f"strategy:{value.label}"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(map(_stable_text, value)) + ")"
    if isinstance(value, (set, frozenset)):  # iterated in hash order: sorted by text instead
        return "{" + ",".join(sorted(map(_stable_text, value))) + "}"
    named = getattr(value, "__func__", value)  # a bound method: its function, never its object
    name = getattr(named, "__qualname__", None)
    return f"{getattr(named, '__module__', '')}.{name}" if isinstance(name, str) else type(value).__qualname__


def _label_from_text(value) -> int:
    return calc_label_from_name(_stable_text(value))


def _sampled_from_label(self) -> int:
    return conjecture_utils.combine_labels(self.class_label, _label_from_text(self.elements))


conjecture_utils.calc_label_from_hash = _label_from_text  # what calc_label_from_callable calls
strategies_module.calc_label_from_hash = _label_from_text
strategies_module.SampledFromStrategy.calc_label = _sampled_from_label  # it hashed its elements itself


def prepare_hypothesis() -> None:
    """Give hypothesis a home outside the working directory and load its Unicode tables.

    Hypothesis computes two tables once per machine (the categories of every Unicode character and
    which characters UTF-8 can encode: about a second) and keeps them in its home folder, by default
    `.hypothesis/` in the working directory. There they would land in a student's repository and be
    computed again by every fresh checkout. In the user's cache they are computed once per machine.
    Loading them here, before a batch forks, leaves each grading process nothing to load.
    An explicit HYPOTHESIS_STORAGE_DIRECTORY still wins. On a fresh machine (a CI runner) the tables
    come from the project itself, where it ships them for this Python's Unicode version."""
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        try:
            cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        except RuntimeError:  # no home folder at all: hypothesis keeps its default
            cache = None
        if cache is not None:
            set_hypothesis_home_dir(cache / "tokens-y-embeddings" / "hypothesis")
    install_unicode_tables()

    @settings(max_examples=1, database=None, derandomize=True, deadline=None)
    @given(st.text(max_size=1))
    def draw_one_character(_):
        pass

    draw_one_character()


# Hypothesis' two Unicode tables as it writes them (gzipped JSON, no file name, mtime 1), for the Unicode
# version of each Python they were made with. They are facts about that version, the same on every
# machine, and computing them took 1.4 s of a fresh runner's only submission. tests/test_banks.py checks
# that they are what hypothesis computes.
UNICODE_TABLES = Path(__file__).with_name("unicode_tables")
UNICODE_TABLE_NAMES = ("charmap", "codec-v2-utf-8")


def install_unicode_tables() -> None:
    """Put the shipped tables where hypothesis looks for them, unless it has them already."""
    shipped = UNICODE_TABLES / unicodedata.unidata_version
    for name in UNICODE_TABLE_NAMES:
        source, target = shipped / f"{name}.json.gz", Path(charmap_file(name))
        if not source.is_file() or target.exists():
            continue
        with contextlib.suppress(OSError):  # hypothesis computes them, as before, where they cannot be written
            target.parent.mkdir(parents=True, exist_ok=True)
            staged = target.with_name(f".{target.name}.{os.getpid()}")
            shutil.copyfile(source, staged)
            os.replace(staged, target)


@dataclasses.dataclass
class RawTest:
    test_id: str
    title: str
    function: str
    weight: float
    hint: str
    requires: tuple[str, ...]
    kind: str
    backstop: bool = False  # a catch-all: credited in proportion to the specific tests passed (score_tests)
    published: bool = False  # checks only the lesson's published examples (PUBLISHED_EXAMPLES in the suite)
    excinfo: object = None  # pytest ExceptionInfo of the first failing phase, or None
    calls: tuple = ()  # a failed property test: its failing example's calls, as shown (feedback.describe_calls)


class SelfCheckFailed(RuntimeError):
    """The reference solution does not get full marks here: no grade would mean anything."""


class Feedback(AssertionError):
    """An assertion whose message is safe to show the student (no hidden values)."""


def suite_constant(suite_path, name: str) -> dict:
    """A literal dict the suite declares at top level (DEPENDS_ON, MUTATES), read without importing it."""
    import ast

    value = _top_level_assignments(Path(suite_path).read_text(encoding="utf-8")).get(name)
    return {} if value is None else ast.literal_eval(value)


@functools.lru_cache(maxsize=16)
def _top_level_assignments(source: str) -> dict:
    """name -> the expression first assigned to it at the top of a suite's text. Parsed once per text:
    every kit reads three of them, and parsing the suite three times was a third of building a kit."""
    import ast

    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if getattr(target, "id", None) is not None:
                    found.setdefault(target.id, node.value)
    return found


def suite_dependencies(suite_path) -> dict[str, tuple[str, ...]]:
    """DEPENDS_ON: which helpers the reference serves while a function is graded."""
    return {name: tuple(helpers) for name, helpers in suite_constant(suite_path, "DEPENDS_ON").items()}


def suite_mutations(suite_path, reference) -> dict[str, tuple[int, ...]]:
    """MUTATES: the arguments (by name) each function may change in place, as positions."""
    import inspect

    out = {}
    for name, parameters in suite_constant(suite_path, "MUTATES").items():
        order = list(inspect.signature(getattr(reference, name)).parameters)
        out[name] = tuple(order.index(p) for p in parameters)
    return out


def suite_published_examples(suite_path) -> frozenset[str]:
    """PUBLISHED_EXAMPLES: the tests whose inputs are the lesson's own worked examples. Passing
    them is no evidence beyond those examples (a table of them passes), so they earn their own
    points but no share of a catch-all."""
    return frozenset(suite_constant(suite_path, "PUBLISHED_EXAMPLES") or ())


def load_reference(path) -> object:
    spec = importlib.util.spec_from_file_location(f"reference_{path.parent.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def isolated_pytest(suite_path: Path, extra_args=()):
    """pytest's arguments for one hidden suite, run quietly and in isolation, and the output it prints:
    an empty ini (none of the project's settings), no CI variables, stdout and stderr caught.

    The rootdir is one level up: each suite imports as "<assignment>.test_hidden", so that the
    suites of several assignments run in one process never share a module."""
    with tempfile.TemporaryDirectory(prefix="autograder-pytest-") as scratch, \
            contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(out), not_on_ci(), \
            _no_installed_plugins():
        empty_ini = Path(scratch) / "pytest.ini"
        empty_ini.write_text("[pytest]\n")
        yield [str(suite_path), "-c", str(empty_ini), "--rootdir", str(suite_path.parent.parent),
               "--confcutdir", str(suite_path.parent), *PYTEST_ARGS, *extra_args], out


def run_pytest(suite_path: Path, plugin: "SuitePlugin") -> tuple[int, str]:
    """Run a hidden suite with a plugin of ours (isolated_pytest): (exit code, its output)."""
    with isolated_pytest(suite_path) as (args, out):
        code = pytest.main(args, plugins=[plugin, plugin.fixtures])
    if code == pytest.ExitCode.INTERRUPTED:
        raise KeyboardInterrupt  # pytest swallowed a Ctrl-C meant for the whole batch
    return code, out.getvalue()


# pytest stops truncating an assertion's explanation where one of these is set, and then diffs a
# student's value of any size in full: a 20-million-line string took minutes and gigabytes of the
# grading process under a CI service (where CI=true), against seconds without it.
PYTEST_CI_VARIABLES = ("CI", "BUILD_NUMBER")


@contextlib.contextmanager
def not_on_ci():
    saved = {name: os.environ.pop(name) for name in PYTEST_CI_VARIABLES if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


@contextlib.contextmanager
def _no_installed_plugins():
    """Whatever plugins the machine has installed (anyio's and platformdirs' come with Jupyter) stay out
    of a hidden suite's run: they could change what it does, and loading anyio's, with the assertion
    rewriting of its package, cost a third of a second of every command."""
    saved = os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"]
        else:
            os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = saved


class SuitePlugin:
    """What every run of a hidden suite needs: its markers, and its two fixtures (`fixtures`, a
    plugin of its own: pytest deprecates session-scoped fixtures defined as methods)."""

    def __init__(self, student, reference):
        settings.load_profile(GRADING_PROFILE)

        self.student, self.reference = student, reference

        @pytest.fixture(scope="session", name="student")
        def student_fixture():
            return self.student

        @pytest.fixture(scope="session", name="reference")
        def reference_fixture():
            return self.reference

        self.fixtures = types.ModuleType("suite_fixtures")  # pytest reads a plugin module's own attributes
        self.fixtures.student, self.fixtures.reference = student_fixture, reference_fixture

    def pytest_configure(self, config):
        config.addinivalue_line("markers", "grade(function, weight=1, hint=''): what this test grades")
        config.addinivalue_line("markers", "requires(*test_ids): counts only if those tests pass")
