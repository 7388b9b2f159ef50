"""A hidden suite, collected once per batch and run once per submission.

Collecting a suite (reading pytest's options, importing the module with its assertions
rewritten, expanding `parametrize`, reading the marks) costs as much as running it, and it
depends on nothing a student sends: a suite may rely on fixtures, marks, `parametrize`,
hypothesis and the grader's own declarations, never on per-submission collection. So the
batch's parent collects it before forking, and each grading process runs the items it
inherited, with pytest's own runner (fixtures, setup and teardown, reports) and no new
pytest session::

    suite = collect_suite(path, reference, published, banks)   # once, in the parent
    raw_tests = suite.run(student_session)                      # per submission, in its process

After a run every fixture is torn down (the last item has no next one), so the same items
run again for the next submission, as pytest-rerunfailures reruns them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import sys
from pathlib import Path

import pytest
from _pytest.config import _prepareconfig  # pytest.main's own first step, kept open for the batch
from _pytest.main import Session

from autograder.grading.banks import run_bank
from autograder.grading.feedback import describe_calls, suite_fixed_values
from autograder.grading.plugin import RawTest, SuitePlugin, isolated_pytest, not_on_ci
from autograder.grading.student import StudentProxy

# The session lives as long as the batch, so nothing of it may reach beyond one run: no capture
# (a capture started now would put back, at every test, the stdout it found now), no log handlers
# or debugger hooks installed for good. Each run catches the output itself.
SESSION_ARGS = ("--capture=no", "-p", "no:logging", "-p", "no:debugging")


class SuiteNotCollected(RuntimeError):
    """The hidden suite cannot be collected: nothing can be graded with it."""


class GradingPlugin(SuitePlugin):
    """Reads each test's marks once, at collection; per run, records what each test did to `tests`."""

    def __init__(self, reference, published=frozenset(), banks=None):
        super().__init__(None, reference)  # `student` is set per run (CollectedSuite.run)
        self.published = published
        self.banks = banks or {}  # test name -> banks.Example, simplest first (banks.py)
        self.collected: dict[str, RawTest] = {}  # as collected: no outcome yet
        self.fixed_values: tuple = ()  # the suite's own data (feedback.suite_fixed_values): never shown
        self.session = None  # the student session of the current run
        self.tests: dict[str, RawTest] = {}  # the current run's tests, outcomes filled in as they run

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
        if items:
            self.fixed_values = suite_fixed_values(items[0].module)
        for item in items:  # in the suite's order, which results keep within each function
            mark = item.get_closest_marker("grade")
            if mark is None:
                raise SuiteNotCollected(f"{item.nodeid}: every hidden test needs @pytest.mark.grade(function, ...)")
            requires = item.get_closest_marker("requires")
            function = item.obj
            self.collected[item.name] = RawTest(
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

    def start(self, session) -> None:
        self.session = session
        self.student = StudentProxy(session)
        self.tests = {name: dataclasses.replace(raw) for name, raw in self.collected.items()}

    def finish(self) -> list[RawTest]:
        tests = list(self.tests.values())
        self.session, self.student, self.tests = None, None, {}
        return tests

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        raw = self.tests.get(item.name)
        if raw is not None and report.failed and raw.excinfo is None:
            raw.excinfo = call.excinfo
            if raw.kind == "property":
                raw.calls = describe_calls(self.session.recorded_calls(), self.fixed_values)

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(self, pyfuncitem):
        """A property test with a bank runs on the bank's examples, in order, instead of generating."""
        bank = self.banks.get(pyfuncitem.name)
        if not bank or not hasattr(pyfuncitem.obj, "hypothesis"):
            return None  # pytest runs it as usual: hypothesis generates
        fixtures = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        run_bank(pyfuncitem.obj, pyfuncitem.name, bank, fixtures, self.session)
        return True


@dataclasses.dataclass
class CollectedSuite:
    path: Path
    plugin: GradingPlugin
    session: Session  # pytest's, holding the collected items

    def run(self, student_session) -> list[RawTest]:
        """Run every collected test against one student session: the tests with their outcomes."""
        items = self.session.items
        self.plugin.start(student_session)
        finished = False
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), not_on_ci():
                for index, item in enumerate(items):
                    following = items[index + 1] if index + 1 < len(items) else None
                    item.ihook.pytest_runtest_protocol(item=item, nextitem=following)
            finished = True
        finally:
            if not finished:  # interrupted: tear down what is set up, so the next run starts clean
                with contextlib.suppress(Exception):
                    self.session._setupstate.teardown_exact(None)
            self.session.testsfailed = 0
            reporter = self.session.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:  # its reports of this run would pile up over a batch run in-process
                reporter.stats.clear()
            tests = self.plugin.finish()
        return tests


def collect_suite(suite_path: Path, reference, published=frozenset(), banks=None) -> CollectedSuite:
    """Collect a hidden suite in this process, as `pytest.main` would before running it
    (plugin.isolated_pytest: the same arguments and isolation)."""
    plugin = GradingPlugin(reference, published, banks)
    with isolated_pytest(suite_path, SESSION_ARGS) as (args, output):
        config = _prepareconfig(args, [plugin, plugin.fixtures])
        session = Session.from_config(config)
        try:
            config._do_configure()
            config.hook.pytest_sessionstart(session=session)
            config.hook.pytest_collection(session=session)
        except (pytest.UsageError, SuiteNotCollected) as error:
            raise SuiteNotCollected(f"hidden suite {suite_path} cannot be collected: {error}") from None
    # The suite is imported, its assertions rewritten: pytest's import hook would otherwise stay in
    # sys.meta_path for as long as the batch, rewriting whatever else matches its patterns.
    sys.meta_path[:] = [finder for finder in sys.meta_path if getattr(finder, "config", None) is not config]
    if session.testsfailed or not plugin.collected:
        raise SuiteNotCollected(f"hidden suite {suite_path} collected no tests:\n{output.getvalue()[-3000:]}")
    return CollectedSuite(suite_path, plugin, session)
