"""A whole class in an nbgrader course directory: submitted/ -> gradebook, resumable, late policy, exports.

One class is released and graded once per module (the `graded` fixture); each test
reads what that run left behind, or changes one thing and grades again.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder import samples
from autograder.classroom import state
from autograder.classroom.gradebook import open_gradebook
from autograder.classroom.pipeline import grade_class, stored_results
from autograder.classroom.submissions import DownloadError, find_submissions, import_lms, student_for
from autograder.cli import main
from autograder.release import release_assignment
from autograder.render.progress import Progress

from course_content import catalogue

ON_TIME = "2027-03-01 20:00:00.000000 UTC"
TWO_DAYS_LATE = "2027-03-03 10:00:00.000000 UTC"  # due 22:59 UTC on 1 March: 35 h late, two days begun


def buggy(name: str):
    return next(s for s in catalogue("bpe_bytes", "buggy") if s.name == name)


def hand_in(course_dir: Path, student: str, assignment, sample=None, *, timestamp=ON_TIME, files=None) -> Path:
    folder = course_dir / "submitted" / student / assignment.id
    folder.mkdir(parents=True, exist_ok=True)
    if sample is not None:
        samples.build_notebook(assignment, sample, folder / f"{assignment.notebook}.ipynb")
    for name, content in (files or {}).items():
        (folder / name).write_bytes(content)
    if timestamp:
        (folder / "timestamp.txt").write_text(timestamp + "\n")
    return folder


@pytest.fixture(scope="module")
def graded(tmp_path_factory, course, fast_bpe_bytes):
    """A released class of seven, graded once: (course_dir, ClassRun)."""
    course_dir = tmp_path_factory.mktemp("class") / "course"
    assignment = fast_bpe_bytes
    release_assignment(course, assignment, course_dir)
    hand_in(course_dir, "ana", assignment, samples.correct("bpe_bytes"))
    hand_in(course_dir, "bruno", assignment, samples.correct("bpe_bytes"), timestamp=TWO_DAYS_LATE)
    hand_in(course_dir, "carla", assignment, buggy("merge_drops_tail"))
    hand_in(course_dir, "dani", assignment, samples.stub(assignment))
    samples.build_module(assignment, samples.correct("bpe_bytes"),
                         hand_in(course_dir, "elena", assignment) / "bpe_bytes.py")
    hand_in(course_dir, "fede", assignment, files={"bpe_bytes.ipynb": b"{ not json"})
    hand_in(course_dir, "gema", assignment, files={"tarea.pdf": b"%PDF-1.4"}, timestamp="")
    run = grade_class(course, assignment, course_dir, jobs=2)
    return course_dir, run


def scores(run) -> dict[str, float]:
    return {r.student: r.final_score for r in run.results}


def test_every_student_is_graded_with_the_right_score(graded):
    _, run = graded
    assert run.graded == 7 and run.reused == 0
    got = scores(run)
    assert got["ana"] == 100 and got["elena"] == 100  # notebook or module
    assert got["bruno"] == 80  # two days late at 10 % a day
    assert 0 < got["carla"] < 100
    assert got["dani"] == got["fede"] == got["gema"] == 0


def test_broken_and_wrong_files_get_a_spanish_reason(graded):
    _, run = graded
    by_student = {r.student: r for r in run.results}
    assert "JSON está dañado" in by_student["fede"].error_student
    assert "bpe_bytes.ipynb" in by_student["gema"].error_student and "se encontró: tarea.pdf" in by_student["gema"].error_student


def test_gradebook_holds_one_auto_score_per_grade_cell(graded, course, fast_bpe_bytes):
    course_dir, run = graded
    with open_gradebook(course, course_dir) as book:
        for result in run.results:
            for function, (score, maximum) in result.by_function().items():
                grade = book.find_grade(f"checks_{function}", "bpe_bytes", "bpe_bytes", result.student)
                assert grade.auto_score == pytest.approx(score)
                assert grade.max_score == pytest.approx(maximum)
                assert grade.manual_score is None and not grade.needs_manual_grade


def nbgrader_export(course_dir: Path) -> dict[str, dict]:
    out = course_dir / "nbgrader-grades.csv"
    subprocess.run([str(Path(sys.executable).parent / "nbgrader"), "export", f"--to={out}"], cwd=course_dir,
                   check=True, capture_output=True)
    return {row["student_id"]: row for row in csv.DictReader(out.open())}


def our_export(course_dir: Path) -> dict[str, dict]:
    assert main(["export", "--course-dir", str(course_dir)]) == 0
    return {row["student_id"]: row for row in csv.DictReader((course_dir / "exports" / "grades.csv").open())}


def test_nbgrader_export_and_ours_agree_with_the_results(graded):
    course_dir, run = graded
    theirs, ours = nbgrader_export(course_dir), our_export(course_dir)
    for result in run.results:
        assert float(theirs[result.student]["score"]) == pytest.approx(result.final_score, abs=0.01)
        assert float(theirs[result.student]["late_submission_penalty"]) == pytest.approx(result.late_penalty, abs=0.01)
        assert float(ours[result.student]["bpe_bytes (100)"]) == pytest.approx(result.final_score, abs=0.01)
    assert float(theirs["bruno"]["late_submission_penalty"]) == pytest.approx(20)


def test_nbgrader_export_and_ours_never_overwrite_each_other(graded, capsys):
    course_dir, run = graded
    nbgrader = course_dir / "grades.csv"  # `nbgrader export`'s default, in the course directory it runs from
    subprocess.run([str(Path(sys.executable).parent / "nbgrader"), "export"], cwd=course_dir, check=True,
                   capture_output=True)
    theirs = nbgrader.read_bytes()
    assert theirs.startswith(b"assignment,duedate,timestamp,student_id")
    assert main(["export", "--course-dir", str(course_dir)]) == 0
    assert nbgrader.read_bytes() == theirs
    assert set(our_export(course_dir)) == {r.student for r in run.results}
    # Asked to write over nbgrader's file, export refuses and says why; nbgrader's file is left as it was.
    assert main(["export", "--course-dir", str(course_dir), "--output", str(nbgrader)]) == 2
    assert "was not written by `autograder export` (it looks like `nbgrader export`'s)" in capsys.readouterr().err
    assert nbgrader.read_bytes() == theirs
    mine = (course_dir / "exports" / "grades.csv").read_bytes()
    subprocess.run([str(Path(sys.executable).parent / "nbgrader"), "export"], cwd=course_dir, check=True,
                   capture_output=True)
    assert (course_dir / "exports" / "grades.csv").read_bytes() == mine


def test_autograded_notebooks_show_feedback_in_the_check_cells(graded):
    course_dir, run = graded
    release = nbformat.read(course_dir / "release" / "bpe_bytes" / "bpe_bytes.ipynb", as_version=4)
    locked = {c.metadata["nbgrader"]["grade_id"]: c.source for c in release.cells
              if c.metadata.get("nbgrader", {}).get("locked")}
    for result in run.results:
        notebook = nbformat.read(course_dir / "autograded" / result.student / "bpe_bytes" / "bpe_bytes.ipynb",
                                 as_version=4)
        nbformat.validate(notebook)
        checks = {c.metadata["nbgrader"]["grade_id"]: c for c in notebook.cells
                  if c.metadata.get("nbgrader", {}).get("grade")}
        assert set(checks) == {f"checks_{f}" for f in result.by_function()}
        for grade_id, cell in checks.items():
            assert cell.source == locked[grade_id]
            assert cell.outputs[0].text.startswith(f"Corrección automática de {grade_id[len('checks_'):]}")
    carla = nbformat.read(course_dir / "autograded" / "carla" / "bpe_bytes" / "bpe_bytes.ipynb", as_version=4)
    merge_cell = next(c for c in carla.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "checks_merge")
    assert "Pista: No pierdas el último elemento" in merge_cell.outputs[0].text


def test_formgraders_copy_says_each_cause_once_as_the_terminal_does(graded):
    course_dir, run = graded

    def check_cells(student):
        notebook = nbformat.read(course_dir / "autograded" / student / "bpe_bytes" / "bpe_bytes.ipynb", as_version=4)
        return {c.metadata["nbgrader"]["grade_id"]: c.outputs[0].text for c in notebook.cells
                if c.metadata.get("nbgrader", {}).get("grade")}

    for grade_id, text in check_cells("dani").items():  # the untouched stub: one line per function, not per test
        assert text.lower().count("todavía no está implementada") == 1, text
        assert text.count("✗") == 1 and "Pista:" not in text, text
    for grade_id, text in check_cells("fede").items():  # a file that could not be read: said once
        assert text.count("✗") == 1 and "No se pudo calificar la entrega" in text, text


def test_a_second_run_grades_nothing_unless_a_submission_changed(graded, course, fast_bpe_bytes):
    course_dir, first = graded
    again = grade_class(course, fast_bpe_bytes, course_dir)
    assert (again.graded, again.reused) == (0, 7)
    assert scores(again) == scores(first)
    notebook = course_dir / "submitted" / "dani" / "bpe_bytes" / "bpe_bytes.ipynb"
    samples.build_notebook(fast_bpe_bytes, samples.correct("bpe_bytes"), notebook)
    changed = grade_class(course, fast_bpe_bytes, course_dir)
    assert (changed.graded, changed.reused) == (1, 6) and scores(changed)["dani"] == 100
    samples.build_notebook(fast_bpe_bytes, samples.stub(fast_bpe_bytes), notebook)
    assert scores(grade_class(course, fast_bpe_bytes, course_dir))["dani"] == 0


def test_the_suite_hash_covers_points_limits_and_the_grader(fast_bpe_bytes):
    base = state.suite_hash(fast_bpe_bytes)
    assert base == state.suite_hash(fast_bpe_bytes)
    more_points = dataclasses.replace(fast_bpe_bytes, points={**fast_bpe_bytes.points, "merge": 16})
    slower = dataclasses.replace(fast_bpe_bytes, limits=dataclasses.replace(fast_bpe_bytes.limits, call_seconds=4))
    assert len({base, state.suite_hash(more_points), state.suite_hash(slower)}) == 3


def test_a_stored_result_is_used_only_for_the_same_hashes(tmp_path, graded):
    course_dir, run = graded
    path = state.state_path(course_dir, "ana", "bpe_bytes")
    stored = json.loads(path.read_text())
    sub, suite = stored["submission_sha256"], stored["suite_sha256"]
    assert state.load_graded(path, sub, suite) is not None
    assert state.load_graded(path, "0" * 64, suite) is None and state.load_graded(path, sub, "0" * 64) is None
    damaged = tmp_path / "autograder.json"
    damaged.write_text(path.read_text()[:100])
    assert state.load_graded(damaged, sub, suite) is None


def test_manual_grades_survive_a_forced_regrade(graded, course, fast_bpe_bytes):
    course_dir, _ = graded
    with open_gradebook(course, course_dir) as book:
        grade = book.find_grade("checks_merge", "bpe_bytes", "bpe_bytes", "carla")
        grade.manual_score = 1.5
        book.db.commit()
    run = grade_class(course, fast_bpe_bytes, course_dir, force=True)
    assert run.graded == 7
    with open_gradebook(course, course_dir) as book:
        grade = book.find_grade("checks_merge", "bpe_bytes", "bpe_bytes", "carla")
        assert grade.manual_score == 1.5 and grade.auto_score is not None
        expected = book.find_submission("bpe_bytes", "carla").score
    assert float(our_export(course_dir)["carla"]["bpe_bytes (100)"]) == pytest.approx(expected, abs=0.01)
    with open_gradebook(course, course_dir) as book:
        book.find_grade("checks_merge", "bpe_bytes", "bpe_bytes", "carla").manual_score = None
        book.db.commit()


def test_an_extension_granted_in_nbgrader_removes_the_penalty_without_grading_again(graded, course, fast_bpe_bytes):
    course_dir, _ = graded
    with open_gradebook(course, course_dir) as book:
        book.grant_extension("bpe_bytes", "bruno", days=3)
    run = grade_class(course, fast_bpe_bytes, course_dir)
    assert run.graded == 0 and scores(run)["bruno"] == 100
    with open_gradebook(course, course_dir) as book:
        book.grant_extension("bpe_bytes", "bruno")  # no extension again
    assert scores(grade_class(course, fast_bpe_bytes, course_dir))["bruno"] == 80


def test_feedback_report_and_export_commands_write_their_files(graded, fast_bpe_bytes):
    course_dir, run = graded
    assert main(["feedback", "bpe_bytes", "--course-dir", str(course_dir)]) == 0
    pages = sorted(course_dir.glob("feedback/*/bpe_bytes/bpe_bytes.html"))
    assert [p.parts[-3] for p in pages] == sorted(r.student for r in run.results)
    assert main(["report", "bpe_bytes", "--course-dir", str(course_dir)]) == 0
    report = (course_dir / "reports" / "bpe_bytes.html").read_text(encoding="utf-8")
    assert all(r.student in report for r in run.results)
    assert len(stored_results(course_dir, fast_bpe_bytes)) == 7


def test_each_publishing_stage_called_from_python_writes_what_the_command_writes(graded, course, fast_bpe_bytes,
                                                                               tmp_path):
    from autograder.classroom.publish import export_grades, write_feedback_pages, write_report

    course_dir, _ = graded
    cli, python = tmp_path / "cli", tmp_path / "python"
    assert main(["report", "bpe_bytes", "--course-dir", str(course_dir), "--output", str(cli / "report.html")]) == 0
    assert main(["export", "--course-dir", str(course_dir), "--output", str(cli / "grades.csv")]) == 0
    assert main(["feedback", "bpe_bytes", "--course-dir", str(course_dir)]) == 0
    by_command = {p: p.read_bytes() for p in sorted(course_dir.glob("feedback/*/bpe_bytes/bpe_bytes.html"))}
    write_report(course, fast_bpe_bytes, course_dir, python / "report.html")
    export_grades(course, course_dir, python / "grades.csv")
    pages = write_feedback_pages(course, fast_bpe_bytes, course_dir)
    assert {p: p.read_bytes() for p in sorted(pages)} == by_command and len(pages) == 7
    for name in ("report.html", "grades.csv"):
        assert (python / name).read_bytes() == (cli / name).read_bytes(), name


# ---------------------------------------------------------------- interrupting and resuming

def test_an_interrupted_batch_loses_nothing_and_resumes_where_it_stopped(tmp_path, course, bpe_bytes):
    course_dir = tmp_path / "course"
    release_assignment(course, bpe_bytes, course_dir)
    for index in range(8):
        hand_in(course_dir, f"s{index}", bpe_bytes, samples.correct("bpe_bytes"))
    process = subprocess.Popen([sys.executable, "-m", "autograder", "grade", "bpe_bytes", "--course-dir",
                                str(course_dir), "--jobs", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               # A background job may have inherited "ignore Ctrl-C"; a terminal user has not.
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while len(list(course_dir.glob("autograded/*/bpe_bytes/autograder.json"))) < 2:
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err.decode()
    assert "interrupted" in err.decode()
    finished = list(course_dir.glob("autograded/*/bpe_bytes/autograder.json"))
    assert 2 <= len(finished) < 8
    assert not list(course_dir.rglob("*.partial")) and not list(course_dir.rglob("*.importing"))
    # Same assignment settings as the command line used: the same suite hash.
    resumed = grade_class(course, bpe_bytes, course_dir)
    assert resumed.reused == len(finished) and resumed.graded == 8 - len(finished)
    assert set(scores(resumed).values()) == {100}


# ---------------------------------------------------------------- LMS downloads

# Canvas's "Download Submissions" names each file SORTABLENAME[_late]_USERID_ATTACHMENTID_NAME, the
# sortable name ("García, Ana") stripped of non-word characters and lowercased, absent when grading is
# anonymous (canvas-lms app/models/content_zipper.rb: get_filename, sanitize_file_name, add_upload_submission).
@pytest.mark.parametrize("name, expected", [
    ("garcíaana_12345_678901_bpe_bytes.ipynb", ("12345", "garcíaana", "bpe_bytes.ipynb", "canvas:12345")),
    ("garciaana_late_12345_678901_bpe_bytes-1.ipynb", ("12345", "garciaana", "bpe_bytes-1.ipynb", "canvas:12345")),
    ("garciaana_LATE_12345_678901_bpe_bytes.ipynb", ("12345", "garciaana", "bpe_bytes.ipynb", "canvas:12345")),
    ("obrien_ann_2_3_bpe_bytes.ipynb", ("2", "obrien_ann", "bpe_bytes.ipynb", "canvas:2")),
    ("12345_678901_bpe_bytes.ipynb", ("12345", "", "bpe_bytes.ipynb", "canvas:12345")),  # anonymous grading
    ("garci\u0301aana_7_8_bpe_bytes.ipynb", ("7", "garci\u0301aana", "bpe_bytes.ipynb", "canvas:7")),  # NFD
    ("Ana García_123456_assignsubmission_file_bpe_bytes.ipynb", ("123456", "Ana García", "bpe_bytes.ipynb",
                                                                 "moodle:123456")),
    ("Ana García_123456_assignsubmission_file_/bpe_bytes.ipynb", ("123456", "Ana García", "bpe_bytes.ipynb",
                                                                  "moodle:123456")),
    ("ana/bpe_bytes.ipynb", ("ana", "", "bpe_bytes.ipynb", "")),
    ("ana.ipynb", ("ana", "", "ana.ipynb", "")),
])
def test_lms_file_names_map_to_students(name, expected):
    assert dataclasses.astuple(student_for(name)) == expected


def zip_of(path: Path, entries: dict[str, bytes], compression=zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


def zip_without_utf8_flag(path: Path, entries: dict[str, bytes], workdir: Path) -> Path:
    """A zip whose names are UTF-8 bytes without the UTF-8 flag (bit 11), as Info-ZIP's `zip` and
    Windows write them: Debian's Info-ZIP `zip` itself when installed, else zipfile with the flag cleared."""
    if shutil.which("zip"):
        tree = workdir / "tree"
        for name, data in entries.items():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            (tree / name).write_bytes(data)
        subprocess.run(["zip", "-q", "-r", "-D", str(path), "."], cwd=tree, check=True,
                       env={**os.environ, "LC_ALL": "C.UTF-8"})
    else:
        raw = bytearray(zip_of(path, entries).read_bytes())
        for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # local and central headers
            at = raw.find(signature)
            while at >= 0:
                raw[at + flag_at] &= ~0x08  # bit 11 is bit 3 of the flags' second byte
                at = raw.find(signature, at + 4)
        path.write_bytes(bytes(raw))
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        assert infos and not any(info.flag_bits & 0x800 for info in infos)  # really without the flag
        assert any("├" in info.filename for info in infos)  # and zipfile alone reads "García" as cp437
    return path


def test_an_lms_zip_without_the_utf8_flag_is_graded_and_goes_back_to_moodle(tmp_path, course, fast_bpe_bytes,
                                                                             capsys):
    course_dir = tmp_path / "course"
    release_assignment(course, fast_bpe_bytes, course_dir)
    correct = samples.build_notebook(fast_bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "c.ipynb").read_bytes()
    download = zip_without_utf8_flag(tmp_path / "moodle.zip", {
        "Ana García_1001_assignsubmission_file_/bpe_bytes.ipynb": correct,
        "Luis Pérez_1002_assignsubmission_file_bpe_bytes.ipynb": correct,
        "Eva Ruiz_1003_assignsubmission_file_memoria.pdf": b"%PDF-1.4",
        "Ana García_1001_assignsubmission_onlinetext_onlinetext.html": b"<p>hola</p>",
        "Li Wei_1004_assignsubmission_onlinetext_onlinetext.html": b"<p>hola</p>",
        "__MACOSX/._x": b"junk",
    }, tmp_path)
    hand_in(course_dir, "zoe", fast_bpe_bytes, samples.correct("bpe_bytes"))  # collected by nbgrader, not Moodle
    assert main(["grade", "bpe_bytes", "--course-dir", str(course_dir), "--lms", str(download), "--jobs", "2"]) == 0
    out, err = capsys.readouterr()
    assert "imported 3 student(s)" in err
    assert "expected bpe_bytes.ipynb or .py, found: memoria.pdf" in out  # what was found, named
    # Text typed in Moodle's editor is not a hand-in: listed, never graded as a broken submission.
    assert "skipped Li Wei_1004_assignsubmission_onlinetext_onlinetext.html: Moodle's onlinetext submission" in err
    assert [s.student for s in find_submissions(course_dir, "bpe_bytes")] == ["1001", "1002", "1003", "zoe"]
    with open_gradebook(course, course_dir) as book:
        assert (book.find_student("1001").first_name, book.find_student("1001").last_name) == ("Ana", "García")
        assert book.find_student("1001").lms_user_id == "moodle:1001"
        assert book.find_submission("bpe_bytes", "1002").score == 100
        assert book.find_submission("bpe_bytes", "1003").score == 0
    assert main(["export", "bpe_bytes", "--course-dir", str(course_dir), "--format", "moodle"]) == 0
    assert "left out 1 student(s) not imported from Moodle" in capsys.readouterr().err
    with open(course_dir / "exports" / "moodle-bpe_bytes.csv", encoding="utf-8", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    # Moodle's offline grading worksheet, as "Upload grading worksheet" reads it: it finds "Identifier"
    # ("Participant N", N the number of the download's file names), "Grade" and "Last modified (grade)" by
    # name (moodle/moodle mod/assign/feedback/offline/importgradeslib.php; the strings recordid, hiddenuser,
    # grade and lastmodifiedgrade of mod/assign/lang/en); the others are the worksheet's own, for people.
    assert header == ["Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)"]
    assert [row[:5] for row in rows] == [["Participant 1001", "Ana García", "", "100", "100"],
                                         ["Participant 1002", "Luis Pérez", "", "100", "100"],
                                         ["Participant 1003", "Eva Ruiz", "", "0", "100"]]
    assert all(dt.datetime.fromisoformat(row[5]).utcoffset() == dt.timedelta(0) for row in rows)
    assert main(["export", "--course-dir", str(course_dir), "--format", "moodle"]) == 2  # which assignment?
    assert "one assignment at a time" in capsys.readouterr().err


def test_zip_names_without_the_utf8_flag_are_utf8_when_they_can_be_and_cp437_otherwise(tmp_path, fast_bpe_bytes):
    """Windows' own zip writes the OEM code page (cp437, "í" is 0xA1) where Info-ZIP writes UTF-8."""
    download = zip_of(tmp_path / "d.zip", {"Ana GarcXXa_1001_assignsubmission_file_a.pdf": b"%PDF",
                                           "Luis PXrez_1002_assignsubmission_file_b.pdf": b"%PDF"})
    raw = download.read_bytes().replace(b"GarcXXa", "García".encode("utf-8")).replace(b"PXrez", b"P\x82rez")
    download.write_bytes(raw)  # same lengths, names only: the CRCs still hold, and no entry has the flag
    with zipfile.ZipFile(download) as archive:
        assert not any(info.flag_bits & 0x800 for info in archive.infolist())
    report = import_lms(download, tmp_path / "course", fast_bpe_bytes)
    assert report.names == {"1001": "Ana García", "1002": "Luis Pérez"}


def canvas_download(path: Path, notebook: bytes) -> Path:
    """Canvas's "Download Submissions" zip (canvas-lms content_zipper.rb), with two students whose sortable
    names are the same ("García, Ana" twice), one of them late."""
    return zip_of(path, {
        "garcíaana_4101_90001_bpe_bytes.ipynb": notebook,
        "garcíaana_late_4102_90002_bpe_bytes.ipynb": notebook,
        "ruizeva_4103_90003_bpe_bytes.ipynb": b"{ not json",
    })


def test_two_students_with_the_same_name_keep_their_own_lms_ids(tmp_path, fast_bpe_bytes):
    report = import_lms(zip_of(tmp_path / "canvas.zip", {"garciaana_4101_90001_bpe_bytes.ipynb": b"{}",
                                                         "garciaana_4102_90002_bpe_bytes.ipynb": b"{}"}),
                        tmp_path / "course", fast_bpe_bytes)
    assert report.skipped == [] and sorted(report.imported) == ["4101", "4102"]
    assert report.lms_ids == {"4101": "canvas:4101", "4102": "canvas:4102"}
    assert report.names == {"4101": "garciaana", "4102": "garciaana"}


def test_a_canvas_download_is_graded_and_exported_as_canvas_imports_it(tmp_path, course, fast_bpe_bytes, capsys):
    course_dir = tmp_path / "course"
    release_assignment(course, fast_bpe_bytes, course_dir)
    correct = samples.build_notebook(fast_bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "c.ipynb").read_bytes()
    download = canvas_download(tmp_path / "canvas.zip", correct)
    assert main(["grade", "bpe_bytes", "--course-dir", str(course_dir), "--lms", str(download), "--jobs", "2"]) == 0
    assert "imported 3 student(s)" in capsys.readouterr().err
    with open_gradebook(course, course_dir) as book:
        book.update_or_create_student("zoe")  # on the roster, not in this Canvas course
        book.update_or_create_student("4999", lms_user_id="canvas:4999")  # from Canvas, nothing handed in
    assert main(["export", "--course-dir", str(course_dir), "--format", "canvas", "--canvas-id", "bpe_bytes=48213"]) == 0
    assert "left out 1 student(s) not imported from Canvas (autograder grade ID --lms DOWNLOAD): zoe" in \
        capsys.readouterr().err
    with open(course_dir / "exports" / "canvas-grades.csv", encoding="utf-8", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    # Canvas's gradebook import (Grades > Import; e.g. https://teaching.resources.osu.edu/toolsets/carmencanvas/
    # guides/calculating-final-grades/import-csv-file-carmen-grades): "Student", "ID", "SIS User ID",
    # "SIS Login ID", "Section", then one column per assignment, "Title (Canvas assignment id)". canvas-lms
    # app/models/gradebook_importer.rb matches a row by "ID", the Canvas user id, first.
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "BPE a nivel de bytes (48213)"]
    assert {row[1]: row[5] for row in rows} == {"4101": "100", "4102": "100", "4103": "0"}
    assert [row[0] for row in rows] == ["garcíaana", "garcíaana", "ruizeva"]
    assert main(["export", "--course-dir", str(course_dir), "--format", "canvas", "--output",
                 str(tmp_path / "by-title.csv")]) == 0
    assert next(csv.reader((tmp_path / "by-title.csv").open(encoding="utf-8")))[5] == "BPE a nivel de bytes"


@pytest.mark.parametrize("entries, words", [
    ({"../evil.ipynb": b"{}"}, ["unsafe entries"]),
    ({"/abs.ipynb": b"{}"}, ["unsafe entries"]),
])
def test_unsafe_lms_zips_are_refused_whole(tmp_path, fast_bpe_bytes, entries, words):
    with pytest.raises(DownloadError) as error:
        import_lms(zip_of(tmp_path / "d.zip", entries), tmp_path / "course", fast_bpe_bytes)
    assert all(word in str(error.value) for word in words)
    assert not (tmp_path / "course").exists()


def test_a_zip_bomb_is_refused_from_its_headers_before_anything_is_unpacked(tmp_path, fast_bpe_bytes, monkeypatch):
    """A 1.2 MB zip unpacked to 1.2 GB under submitted/ (and 1.3 GB of the grader's memory). The
    declared total is capped before any entry is read; here the cap is lowered to keep the zip small."""
    from autograder.classroom import submissions

    monkeypatch.setattr(submissions, "MAX_DOWNLOAD_BYTES", 3 * 2**20)
    zeros = bytes(2**20)
    bomb = zip_of(tmp_path / "d.zip", {f"s{i}_{i}01_assignsubmission_file_bpe_bytes.ipynb": zeros for i in range(4)},
                  zipfile.ZIP_DEFLATED)
    assert bomb.stat().st_size < 50_000
    with pytest.raises(DownloadError, match="add up to 4 MiB, more than the 3 MiB one import takes"):
        import_lms(bomb, tmp_path / "course", fast_bpe_bytes)
    assert not (tmp_path / "course").exists()
    report = import_lms(zip_of(tmp_path / "ok.zip", {"ana_1001_assignsubmission_file_bpe_bytes.ipynb": zeros}),
                        tmp_path / "course", fast_bpe_bytes)  # under the cap: copied whole, a chunk at a time
    assert list(report.imported) == ["1001"]
    assert (tmp_path / "course" / "submitted" / "1001" / "bpe_bytes" / "bpe_bytes.ipynb").read_bytes() == zeros


def test_a_damaged_entry_leaves_every_submission_as_it_was(tmp_path, fast_bpe_bytes):
    """Each file is staged before any folder is replaced: an archive damaged halfway changes nothing."""
    course_dir = tmp_path / "course"
    import_lms(zip_of(tmp_path / "first.zip", {"ana/bpe_bytes.ipynb": b"first"}), course_dir, fast_bpe_bytes)
    damaged = zip_of(tmp_path / "d.zip", {"ana/bpe_bytes.ipynb": b"second", "luis/bpe_bytes.ipynb": b"L" * 1000})
    raw = damaged.read_bytes()
    damaged.write_bytes(raw.replace(b"L" * 10, b"M" * 10, 1))  # luis's bytes no longer match their CRC
    with pytest.raises(DownloadError, match="not a valid zip"):
        import_lms(damaged, course_dir, fast_bpe_bytes)
    assert (course_dir / "submitted" / "ana" / "bpe_bytes" / "bpe_bytes.ipynb").read_bytes() == b"first"
    assert not (course_dir / "submitted" / "luis").exists()


def test_unclear_files_are_skipped_with_a_reason(tmp_path, fast_bpe_bytes):
    report = import_lms(zip_of(tmp_path / "d.zip", {
        "ana/bpe_bytes.ipynb": b"{}", "ana/sub/bpe_bytes.ipynb": b"{}",  # two files of one name
        "ñ ¿?.ipynb": b"{}",  # no usable id
        "luis.ipynb": b"{}",
    }), tmp_path / "course", fast_bpe_bytes)
    assert list(report.imported) == ["luis"]
    assert any("ana: several files named bpe_bytes.ipynb" in line for line in report.skipped)
    assert any("no usable student id" in line for line in report.skipped)


def test_a_download_that_is_neither_folder_nor_zip_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "grades.xlsx").write_bytes(b"PK")
    assert main(["grade", "bpe_bytes", "--course-dir", str(tmp_path / "c"), "--lms", str(tmp_path / "grades.xlsx")]) == 2
    assert "must be a folder or a .zip" in capsys.readouterr().err


# ---------------------------------------------------------------- instructor mistakes

def test_grading_before_release_says_what_to_do(tmp_path, fast_bpe_bytes, capsys):
    hand_in(tmp_path, "ana", fast_bpe_bytes, samples.correct("bpe_bytes"))
    assert main(["grade", "bpe_bytes", "--course-dir", str(tmp_path)]) == 2
    assert "run `autograder release bpe_bytes` first" in capsys.readouterr().err


def test_nothing_submitted_and_nothing_graded_are_usage_errors(tmp_path, course, fast_bpe_bytes, capsys):
    release_assignment(course, fast_bpe_bytes, tmp_path)
    assert main(["grade", "bpe_bytes", "--course-dir", str(tmp_path)]) == 2
    assert "no submissions in" in capsys.readouterr().err
    assert main(["feedback", "bpe_bytes", "--course-dir", str(tmp_path)]) == 2
    assert "nothing graded yet" in capsys.readouterr().err
    assert main(["export", "--course-dir", str(tmp_path / "elsewhere")]) == 2
    assert "no gradebook" in capsys.readouterr().err


def test_export_leaves_a_missing_submission_empty_and_counts_it_as_zero(graded, course):
    course_dir, _ = graded
    with open_gradebook(course, course_dir) as book:
        book.update_or_create_student("zoe", first_name="Zoe")
    rows = our_export(course_dir)
    assert rows["zoe"]["bpe_bytes (100)"] == "" and rows["zoe"]["total (100)"] == "0"
    assert rows["ana"]["percent"] == "100.0"


# ---------------------------------------------------------------- the progress bar

def test_progress_in_a_log_prints_about_ten_lines_with_time_left():
    stream = io.StringIO()
    progress = Progress(40, "grading", stream=stream)
    assert progress.eta() is None
    for _ in range(40):
        progress.advance()
    lines = stream.getvalue().splitlines()
    assert 10 <= len(lines) <= 12
    assert lines[-1].startswith("grading [") and "40/40" in lines[-1] and "left 0:00" in lines[-1]


def _odd_outputs_notebook(path: Path, count: int) -> None:
    """Append a cell with `count` schema-invalid outputs (an unknown field, a string prompt)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    outputs = [{"output_type": "stream", "name": "stdout", "text": "x" * 100, "campo": i} for i in range(count)]
    data["cells"].append({"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": outputs,
                          "execution_count": "no"})
    path.write_text(json.dumps(data), encoding="utf-8")


def test_the_class_run_opens_no_notebook_in_its_own_process(tmp_path, course, fast_bpe_bytes, monkeypatch):
    # Attack: a 23 MB schema-invalid notebook stalled the batch parent for ~215 s, because the parent
    # read and rewrote it for formgrader, validating it each time (nbformat, on 35 MB: 133 s to read,
    # 156 s to write). The grading process writes formgrader's copy now, under the submission's budget,
    # without schema validation and with a cell's outputs capped.
    from autograder.classroom import autograded, inert

    course_dir = tmp_path / "course"
    release_assignment(course, fast_bpe_bytes, course_dir)
    hand_in(course_dir, "ana", fast_bpe_bytes, samples.correct("bpe_bytes"))
    odd = hand_in(course_dir, "hugo", fast_bpe_bytes, samples.correct("bpe_bytes")) / "bpe_bytes.ipynb"
    _odd_outputs_notebook(odd, 20_000)
    writers, parses = tmp_path / "writers.txt", tmp_path / "parses.txt"

    def spy(real, log):
        def counted(*args, **kwargs):
            with log.open("a") as handle:
                handle.write(f"{os.getpid()}\n")
            return real(*args, **kwargs)
        return counted

    monkeypatch.setattr(autograded, "write_autograded", spy(autograded.write_autograded, writers))
    monkeypatch.setattr(nbformat.reader, "reads", spy(nbformat.reader.reads, parses))  # every parse ends here
    run = grade_class(course, fast_bpe_bytes, course_dir, jobs=2)
    assert scores(run) == {"ana": 100, "hugo": 100}
    pids = writers.read_text().split()
    assert len(pids) == 2 and str(os.getpid()) not in pids
    # Each notebook is parsed once, for grading, and formgrader's copy is made from that parse.
    assert sorted(p for p in parses.read_text().split() if p != str(os.getpid())) == sorted(pids)
    parses.unlink()
    shown = nbformat.read(course_dir / "autograded" / "hugo" / "bpe_bytes" / "bpe_bytes.ipynb", as_version=4)
    flooded = next(c for c in shown.cells if c.get("source") == "x = 1")
    assert len(flooded.outputs) == inert.MAX_OUTPUTS + 1 and "se omitió" in flooded.outputs[-1].text
    writers.unlink()
    again = grade_class(course, fast_bpe_bytes, course_dir, jobs=2)
    assert again.reused == 2 and not writers.exists()  # nothing parsed or written again: only the release is read
    assert set(parses.read_text().split()) == {str(os.getpid())}


def test_reading_a_notebook_never_runs_schema_validation(tmp_path, fast_bpe_bytes, monkeypatch):
    from autograder.notebook.loader import read_notebook

    path = samples.build_notebook(fast_bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "bpe_bytes.ipynb")
    _odd_outputs_notebook(path, 50)

    def validate(*args, **kwargs):
        raise AssertionError("nbformat validated a submission")

    monkeypatch.setattr(nbformat, "validate", validate)
    monkeypatch.setattr(nbformat.validator, "validate", validate)
    assert len(read_notebook(path.read_bytes(), path).cells[-1].outputs) == 50
