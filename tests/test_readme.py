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
