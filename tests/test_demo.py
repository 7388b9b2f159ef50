"""`autograder demo`, the README's main job, runs end to end and leaves every product behind."""

from __future__ import annotations

import csv

from autograder.cli import main


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
    grades = {row["student_id"]: row for row in csv.DictReader((course_dir / "grades.csv").open())}
    assert sorted(grades) == students and grades["correct-2-days-late"]["bpe_bytes (100)"] == "80"
