"""What a graded class gives back, each a stage of its own (after release and grade):

    feedback   one Spanish HTML page per student, where nbgrader's `release_feedback` finds it,
               with the timestamp and submission secret it needs beside the page
    report     the instructor's HTML report of one assignment
    export     the grades as CSV: this grader's table (exports/grades.csv), or the file Canvas's
               gradebook or a Moodle assignment imports as is

Each reads only what grading stored (results, gradebook), settled first against the gradebook
as it is now (manual grades, extensions: gradebook.settle), and writes its files whole.
The CLI and the demo call these; both get the same files.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import secrets
from pathlib import Path

from autograder.classroom.gradebook import grade_rows, open_gradebook
from autograder.classroom.layout import SECRET_FILE, TIMESTAMP_FILE, CourseLayout
from autograder.classroom.pipeline import settled_results
from autograder.classroom.submissions import read_timestamp
from autograder.files import write_atomically


class NothingToPublish(RuntimeError):
    """Nothing graded yet (or no gradebook): say what to run first."""


class WouldOverwrite(RuntimeError):
    """The output exists and this grader did not write it (nbgrader's grades.csv, say): left alone."""


def _graded(course, course_dir: Path, assignment) -> list:
    results = settled_results(course, course_dir, assignment)
    if not results:
        raise NothingToPublish(f"nothing graded yet for {assignment.id} in {course_dir}; run `autograder grade "
                               f"{assignment.id}` first")
    return results


def write_feedback_pages(course, assignment, course_dir: Path) -> list[Path]:
    """Each page, with the two files nbgrader's `release_feedback` reads beside it."""
    from autograder.render.feedback_html import feedback_page

    layout = CourseLayout(course_dir)
    pages = []
    for result in _graded(course, course_dir, assignment):
        pages.append(write_atomically(layout.feedback_page(result.student, assignment),
                                      feedback_page(result, assignment, course.title)))
        _write_release_files(layout, result.student, assignment.id)
    return pages


def _write_release_files(layout: CourseLayout, student: str, assignment_id: str) -> None:
    """nbgrader's `release_feedback` publishes a page under a hash of the submission's secret, the one
    `nbgrader submit` left in the student's own cache, and logs the submission time: both come from
    what was handed in, as nbgrader's own `generate_feedback` takes them. A submission that did not
    come through the exchange (an LMS download) has no secret its student could look the page up
    with; it gets a fresh one, so that `release_feedback` still releases everyone else's."""
    handed_in, feedback = layout.submitted(student, assignment_id), layout.feedback(student, assignment_id)
    # The one kept from an earlier run stays: a fresh one each run would publish the page anew each time.
    secret = _small_text(handed_in / SECRET_FILE) or _small_text(feedback / SECRET_FILE) or secrets.token_hex(64)
    moment = read_timestamp(handed_in)
    write_atomically(feedback / TIMESTAMP_FILE, moment.strftime("%Y-%m-%d %H:%M:%S.%f UTC") if moment else "")
    write_atomically(feedback / SECRET_FILE, secret)


def _small_text(path: Path, limit: int = 1024) -> str:
    """A student-side file's text, byte for byte; "" for a link, a folder, a huge or a binary file."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > limit:
            return ""
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def write_report(course, assignment, course_dir: Path, output: Path | None = None) -> tuple[Path, int]:
    """(the report's path, how many submissions it covers)."""
    from autograder.render.report_html import report_page

    results = _graded(course, course_dir, assignment)
    path = write_atomically(output or CourseLayout(course_dir).report(assignment.id),
                            report_page(results, assignment, course.title,
                                        _similarity_document(CourseLayout(course_dir).similarity(assignment.id))))
    return path, len(results)


def _similarity_document(path: Path) -> dict | None:
    """What `autograder similarity` wrote for the assignment; None when it has not run (or the file is not
    its JSON: the section then says how to make it)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


@dataclasses.dataclass(frozen=True)
class Export:
    path: Path
    students: int
    assignments: int
    left_out: list[str]  # students with no identity in that LMS (not imported from it)


def export_grades(course, course_dir: Path, output: Path | None = None, *, format: str = "grades",
                  assignment_id: str | None = None, canvas_ids: dict[str, str] | None = None) -> Export:
    """Write the gradebook's final scores as CSV in `format`, one of render/grades_csv.FORMATS.

    The LMS formats key each student by the id the LMS download gave them, kept by the import in the
    gradebook (submissions.remember_lms_students), so a grade goes back to the student it came from;
    students without one are `left_out`. Moodle's worksheet is per assignment (`assignment_id`);
    `canvas_ids` maps an assignment id to its Canvas assignment id, for Canvas's "Title (ID)" column."""
    from autograder.classroom.submissions import parse_lms_id
    from autograder.render.grades_csv import canvas_csv, grades_csv, moodle_worksheet

    layout = CourseLayout(course_dir)
    if format == "moodle" and not assignment_id:
        raise ValueError("Moodle imports grades one assignment at a time (its grading worksheet): name the assignment")
    if not course.has_gradebook(course_dir):
        raise NothingToPublish(f"no gradebook in {course_dir}; release and grade an assignment first")
    with open_gradebook(course, course_dir) as book:
        assignment_ids, rows = grade_rows(book, course)
        lms = {student.id: parse_lms_id(student.lms_user_id) for student in book.students}
    if assignment_id:
        if assignment_id not in assignment_ids:
            raise NothingToPublish(f"{assignment_id} is not in the gradebook of {course_dir}; release and grade it first")
        assignment_ids = [assignment_id]
    if format == "grades":
        maxima = {a: course.assignment(a).max_score for a in assignment_ids}
        target, text, left_out = output or layout.grades_csv, grades_csv(assignment_ids, rows, maxima), []
    else:
        ours = [dict(row, lms_id=lms[row["student_id"]][1]) for row in rows if lms[row["student_id"]][0] == format]
        left_out = [row["student_id"] for row in rows if lms[row["student_id"]][0] != format]
        rows = ours
        if format == "canvas":
            columns = {a: _canvas_column(course.assignment(a).title, (canvas_ids or {}).get(a)) for a in assignment_ids}
            target, text = output or layout.lms_grades_csv("canvas"), canvas_csv(columns, rows)
        else:
            target = output or layout.lms_grades_csv("moodle", assignment_id)
            text = moodle_worksheet(assignment_id, rows, course.assignment(assignment_id).max_score,
                                    dt.datetime.now(dt.timezone.utc))
    _refuse_to_overwrite_others(target)
    return Export(write_atomically(target, text), len(rows), len(assignment_ids), left_out)


def _canvas_column(title: str, canvas_id: str | None) -> str:
    """Canvas's importer matches "Title (ID)" by the id; a bare title by the title, else it creates one."""
    return f"{title} ({canvas_id})" if canvas_id else title


def _refuse_to_overwrite_others(path: Path) -> None:
    from autograder.render.grades_csv import header_is_ours

    if not path.exists() or (path.is_file() and path.stat().st_size == 0):  # nothing there to lose
        return
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            first_line = handle.readline()
    except (OSError, UnicodeDecodeError):
        first_line = ""
    if not path.is_file() or not header_is_ours(first_line):
        nbgrader = " (it looks like `nbgrader export`'s)" if first_line.startswith("assignment,duedate,") else ""
        raise WouldOverwrite(f"{path} exists and was not written by `autograder export`{nbgrader}; it is left as it "
                             f"is. Pass another --output, or move that file away first.")
