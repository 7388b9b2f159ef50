"""The README's layout table matches the tree: every path it names exists, and every module
of the grader is named in it, so a new maintainer can find where each thing lives."""

from __future__ import annotations

import re
from pathlib import Path

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
