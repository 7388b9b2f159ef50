"""How the grader runs pytest on a hidden suite, whatever the environment it runs in."""

from __future__ import annotations

import json
import os
import textwrap

import pytest

from autograder.grading.plugin import PYTEST_CI_VARIABLES, SuitePlugin, run_pytest

SUITE = '''
from pathlib import Path

def test_a_huge_wrong_answer(student):
    try:
        assert "\\n".join(map(str, range(20_000))) == "x"
    except AssertionError as error:
        Path(__file__).with_name("explanation.txt").write_text(str(error))
        raise
'''


@pytest.mark.parametrize("variable", PYTEST_CI_VARIABLES)
def test_an_assertion_is_explained_briefly_even_on_a_ci_service(tmp_path, monkeypatch, variable):
    """pytest diffs a wrong answer in full when CI or BUILD_NUMBER is set: a student's value of any size
    would then cost the grading process minutes and gigabytes. The grader's own run truncates."""
    monkeypatch.setenv(variable, "true")
    suite = tmp_path / f"demo_{variable.lower()}" / "test_hidden.py"  # one module name per run
    suite.parent.mkdir()
    suite.write_text(textwrap.dedent(SUITE))
    code, _ = run_pytest(suite, SuitePlugin(student=None, reference=None))
    explanation = (suite.parent / "explanation.txt").read_text()
    assert code == pytest.ExitCode.TESTS_FAILED
    assert "truncated" in explanation and len(explanation.splitlines()) < 20
    assert os.environ[variable] == "true"  # and the grader's own environment is left as it was


def test_the_grading_modules_import_one_another_in_one_direction():
    """grading/ is a pipeline: the suite's declarations, then the banks recorded from it, the suite
    collected, the kit, one session, the batch. An import back up that order (even one made inside a
    function, to dodge the cycle at import time) is a cycle a maintainer has to keep in their head."""
    import ast
    from pathlib import Path

    import autograder.grading

    folder = Path(autograder.grading.__file__).parent
    imports = {}
    for path in folder.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "autograder.grading":
                    names |= {alias.name for alias in node.names}
                elif node.module.startswith("autograder.grading."):
                    names.add(node.module.rsplit(".", 1)[1])
        imports[path.stem] = names - {path.stem}

    def reaches(start, goal, seen=()):
        return any(n == goal or (n not in seen and reaches(n, goal, (*seen, n))) for n in imports.get(start, ()))

    cycles = sorted(module for module in imports if reaches(module, module))
    assert len(imports) >= 10 and cycles == []
    assert imports["plugin"] == set() and "suite" in imports["kit"] and "kit" not in imports["suite"]


def test_a_suite_collected_once_runs_afresh_for_every_submission(course, tmp_path, monkeypatch):
    """The kit collects the hidden suite once; each grading runs its items again, with no pytest.main,
    and nothing of one run (bpe_palabras' module-scoped `memo` of the 80-merge training, a test's
    outcome) reaches the next."""
    from autograder import samples
    from autograder.grading.kit import build_kit
    from autograder.grading.session import grade_submission

    assignment = course.assignment("bpe_palabras")
    kit = build_kit(assignment)
    monkeypatch.setattr(pytest, "main", lambda *a, **k: pytest.fail("pytest.main called while grading"))
    buggy = next(s for s in samples.catalogue(assignment, "buggy") if s.name == "train_bpe_forgets_end_marker")
    paths = {"reference": assignment.solution_path,
             "buggy": samples.build_notebook(assignment, buggy, tmp_path / "buggy.ipynb")}
    results = [grade_submission(kit, paths[name]) for name in ("reference", "buggy", "reference", "buggy")]
    failed = [{t.test_id for t in result.tests if not t.passed} for result in results]
    assert failed[0] == failed[2] == set() and results[0].score == 100
    # Right after the reference: its memoised 80 merges would pass the buggy sample's published vocabulary.
    assert failed[1] == failed[3] and "test_train_bpe_published_vocabulary" in failed[1]


PLUGINS_SEEN = '''
import json
from pathlib import Path

def test_plugins(request):
    names = [name for name, plugin in request.config.pluginmanager.list_name_plugin() if plugin is not None]
    Path(__file__).with_name("plugins.json").write_text(json.dumps(names))
'''


def test_no_plugin_installed_on_the_machine_joins_a_hidden_suites_run(tmp_path, monkeypatch):
    """Plugins that pip installed along the way (anyio's and platformdirs' come with Jupyter) could change
    what a suite does, and loading them cost a third of every command: none is loaded from entry points."""
    from importlib.metadata import entry_points

    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    installed = {entry.name for entry in entry_points(group="pytest11")}
    assert installed, "this environment has no pytest plugin installed to keep out (anyio comes with Jupyter)"
    suite = tmp_path / "demo_plugins" / "test_hidden.py"
    suite.parent.mkdir()
    suite.write_text(textwrap.dedent(PLUGINS_SEEN))
    code, output = run_pytest(suite, SuitePlugin(student=None, reference=None))
    assert code == pytest.ExitCode.OK, output
    seen = set(json.loads((suite.parent / "plugins.json").read_text()))
    assert "python" in seen and not seen & installed  # pytest's own plugins run, none of the machine's
    assert "PYTEST_DISABLE_PLUGIN_AUTOLOAD" not in os.environ  # the grader's environment is left as it was
