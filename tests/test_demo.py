"""`autograder demo`, the README's main job, runs end to end and leaves every product behind."""

from __future__ import annotations

import csv
import os
import shlex
import shutil
import sys
from pathlib import Path

from autograder.cli import _parser, main


def test_the_demo_releases_grades_and_reports_a_class(tmp_path, capsys):
    assert main(["demo", "--dir", str(tmp_path), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line[:1].isalpha() and "  " in line}
    assert rows["correct"][1] == "100.00" and rows["untouched-release"][1] == "0.00"
    assert rows["correct-2-days-late"][3:5] == ["-20.00", "80.00"]
    assert all(rows[name][1] == "0.00" for name in rows if name.startswith("hostile-"))
    assert "What one student reads (Spanish feedback)" in out and "Pista:" in out
    course_dir = tmp_path / "course"
    students = sorted(p.name for p in (course_dir / "submitted").iterdir())
    assert sorted(p.parts[-3] for p in course_dir.glob("feedback/*/bpe_bytes/bpe_bytes.html")) == students
    assert (course_dir / "reports" / "bpe_bytes.html").stat().st_size > 10_000
    grades = {row["student_id"]: row for row in csv.DictReader((course_dir / "exports" / "grades.csv").open())}
    assert sorted(grades) == students and grades["correct-2-days-late"]["bpe_bytes (100)"] == "80"
    # It ends with what to do next: pages that exist, and commands this CLI accepts.
    steps = out[out.rindex("Next:"):].splitlines()[1:]
    pages = [Path(line.split()[-1]) for line in steps if line.strip().startswith(("1.", "2."))]
    assert len(pages) == 2 and all(p.is_file() and p.suffix == ".html" for p in pages)
    assert_commands_run_here(steps)


def assert_commands_run_here(steps: list[str]) -> None:
    """Three commands this CLI accepts, each starting with a program that exists from here, as it
    would right after the README's Quickstart (`autograder` itself is not on PATH there)."""
    commands = [line.strip() for line in steps if line.startswith("       ")]
    assert len(commands) == 3, steps
    for command in commands:
        for part in command.split(" && "):
            argv = shlex.split(part)
            assert shutil.which(argv[0]) or Path(argv[0]).is_file(), argv[0]
            if argv[1:3] == ["-m", "autograder"]:
                argv = argv[2:]
            argv = [a for a in argv[1:] if a != "PATH/TO/bpe_bytes.ipynb"]
            _parser().parse_args(argv)  # exits on an unknown option


def test_the_next_steps_name_a_program_that_runs_without_autograder_on_path(tmp_path, course, bpe_bytes,
                                                                           monkeypatch):
    from autograder.classroom.layout import CourseLayout
    from autograder.demo import next_steps

    venv_bin = str(Path(sys.executable).parent)
    monkeypatch.setenv("PATH", os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                                                if p != venv_bin))
    assert_commands_run_here(next_steps(course, bpe_bytes, CourseLayout(tmp_path / "course"), "ana").splitlines())
