"""The pytest plugin that runs a hidden suite against one student session.

A hidden suite is an ordinary pytest module. It gets two session fixtures:

- ``student``: the StudentProxy (``student.encode(text, merges)``);
- ``reference``: the reference solution module, imported in the grader.

and marks each test with what it grades::

    @pytest.mark.grade("merge", weight=2, hint="Los pares no se solapan: ...", backstop=False)
    @pytest.mark.requires("test_merge_basic")   # an error case counts only if the basics pass
    def test_merge_overlap(student): ...

The test's docstring (first line) is its Spanish title. Tests built with
hypothesis are "property" tests: their shrunk counterexample may be shown.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib.util
import io
import os
import tempfile
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

# Quiet, lean and isolated: no cache, no plugins from the environment, no tracebacks to format.
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


def prepare_hypothesis() -> None:
    """Give hypothesis a home outside the working directory and load its Unicode tables.

    Hypothesis computes two tables once per machine (the categories of every Unicode character and
    which characters UTF-8 can encode: about a second) and keeps them in its home folder, by default
    `.hypothesis/` in the working directory. There they would land in a student's repository and be
    computed again by every fresh checkout. In the user's cache they are computed once per machine.
    Loading them here, before a batch forks, leaves each grading process nothing to load.
    An explicit HYPOTHESIS_STORAGE_DIRECTORY still wins."""
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        try:
            cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        except RuntimeError:  # no home folder at all: hypothesis keeps its default
            cache = None
        if cache is not None:
            set_hypothesis_home_dir(cache / "tokens-y-embeddings" / "hypothesis")

    @settings(max_examples=1, database=None, derandomize=True, deadline=None)
    @given(st.text(max_size=1))
    def draw_one_character(_):
        pass

    draw_one_character()


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


class Feedback(AssertionError):
    """An assertion whose message is safe to show the student (no hidden values)."""


def suite_constant(suite_path, name: str) -> dict:
    """A literal dict the suite declares at top level (DEPENDS_ON, MUTATES), read without importing it."""
    import ast

    for node in ast.parse(Path(suite_path).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    return {}


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


def run_pytest(suite_path: Path, plugin: "SuitePlugin") -> tuple[int, str]:
    """Run a hidden suite with a plugin of ours, quietly and in isolation: (exit code, its output).

    The rootdir is one level up: each suite imports as "<assignment>.test_hidden", so that the
    suites of several assignments run in one process never share a module."""
    with tempfile.TemporaryDirectory(prefix="autograder-pytest-") as scratch:
        empty_ini = Path(scratch) / "pytest.ini"
        empty_ini.write_text("[pytest]\n")
        args = [str(suite_path), "-c", str(empty_ini), "--rootdir", str(suite_path.parent.parent),
                "--confcutdir", str(suite_path.parent), *PYTEST_ARGS]
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()), \
                _not_on_ci():
            code = pytest.main(args, plugins=[plugin, plugin.fixtures])
    if code == pytest.ExitCode.INTERRUPTED:
        raise KeyboardInterrupt  # pytest swallowed a Ctrl-C meant for the whole batch
    return code, out.getvalue()


# pytest stops truncating an assertion's explanation where one of these is set, and then diffs a
# student's value of any size in full: a 20-million-line string took minutes and gigabytes of the
# grading process under a CI service (where CI=true), against seconds without it.
PYTEST_CI_VARIABLES = ("CI", "BUILD_NUMBER")


@contextlib.contextmanager
def _not_on_ci():
    saved = {name: os.environ.pop(name) for name in PYTEST_CI_VARIABLES if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


class SuitePlugin:
    """What every run of a hidden suite needs: its markers, and its two fixtures (`fixtures`, a
    plugin of its own: pytest deprecates session-scoped fixtures defined as methods)."""

    def __init__(self, student, reference):
        settings.load_profile(GRADING_PROFILE)

        @pytest.fixture(scope="session", name="student")
        def student_fixture():
            return student

        @pytest.fixture(scope="session", name="reference")
        def reference_fixture():
            return reference

        self.fixtures = types.ModuleType("suite_fixtures")  # pytest reads a plugin module's own attributes
        self.fixtures.student, self.fixtures.reference = student_fixture, reference_fixture

    def pytest_configure(self, config):
        config.addinivalue_line("markers", "grade(function, weight=1, hint=''): what this test grades")
        config.addinivalue_line("markers", "requires(*test_ids): counts only if those tests pass")


class GradingPlugin(SuitePlugin):
    def __init__(self, session, proxy, reference, published=frozenset(), banks=None):
        super().__init__(proxy, reference)
        self.published = published
        self.banks = banks or {}  # test name -> banks.Example, simplest first (banks.py)
        self.session = session
        self.tests: dict[str, RawTest] = {}
        self.fixed_values: tuple = ()  # the suite's own data (feedback.suite_fixed_values): never shown

    @pytest.fixture(autouse=True)
    def _fresh_test(self, request):
        self.session.new_test()
        test = request.function
        if not hasattr(test, "hypothesis"):
            yield
            return
        inner = test.hypothesis.inner_test

        # functools.wraps keeps hypothesis' digest of the test, and so the examples it derives from it.
        @functools.wraps(inner)
        def recorded_example(*args, **kwargs):
            self.session.record_calls()  # each example starts afresh: a failure shows the failing one's calls
            return inner(*args, **kwargs)

        test.hypothesis.inner_test = recorded_example
        try:
            yield
        finally:
            test.hypothesis.inner_test = inner
            self.session.recorded_calls()  # stop recording

    def pytest_collection_modifyitems(self, items):
        from autograder.grading.feedback import suite_fixed_values  # feedback.py builds on this module

        if items:
            self.fixed_values = suite_fixed_values(items[0].module)
        for item in items:  # in the suite's order, which results keep within each function
            mark = item.get_closest_marker("grade")
            if mark is None:
                raise pytest.UsageError(f"{item.nodeid}: every hidden test needs @pytest.mark.grade(function, ...)")
            requires = item.get_closest_marker("requires")
            function = item.obj
            self.tests[item.name] = RawTest(
                test_id=item.name,
                title=((function.__doc__ or item.name).strip().splitlines() or [item.name])[0],
                function=mark.args[0] if mark.args else mark.kwargs["function"],
                weight=float(mark.kwargs.get("weight", 1)),
                hint=mark.kwargs.get("hint", ""),
                requires=tuple(requires.args) if requires else (),
                backstop=bool(mark.kwargs.get("backstop", False)),
                published=item.name in self.published,
                kind="property" if hasattr(function, "hypothesis") else "fixed",
            )
        # Property tests run first: their feedback shows what the student returned, so they must run
        # in a worker that has not yet seen any fixed hidden input (it could stash and replay it).
        items.sort(key=lambda item: 0 if hasattr(item.obj, "hypothesis") else 1)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        raw = self.tests.get(item.name)
        if raw is not None and report.failed and raw.excinfo is None:
            raw.excinfo = call.excinfo
            if raw.kind == "property":
                from autograder.grading.feedback import describe_calls

                raw.calls = describe_calls(self.session.recorded_calls(), self.fixed_values)

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(self, pyfuncitem):
        """A property test with a bank runs on the bank's examples, in order, instead of generating."""
        bank = self.banks.get(pyfuncitem.name)
        if not bank or not hasattr(pyfuncitem.obj, "hypothesis"):
            return None  # pytest runs it as usual: hypothesis generates
        from autograder.grading.banks import run_bank  # banks.py builds on this module

        fixtures = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        run_bank(pyfuncitem.obj, pyfuncitem.name, bank, fixtures, self.session)
        return True

