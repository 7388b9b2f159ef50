"""What a graded class gives back, each a stage of its own (after release and grade):

    feedback   one Spanish HTML page per student, where nbgrader's `release_feedback` finds it,
               with the timestamp and submission secret it needs beside the page
    report     the instructor's HTML report of one assignment
    export     grades.csv for the LMS: a row per student, a column per assignment

Each reads only what grading stored (results, gradebook), settled first against the gradebook
as it is now (manual grades, extensions: gradebook.settle), and writes its files whole.
The CLI and the demo call these; both get the same files.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from autograder.classroom.gradebook import grade_rows, open_gradebook
from autograder.classroom.layout import SECRET_FILE, TIMESTAMP_FILE, CourseLayout
from autograder.classroom.pipeline import settled_results
from autograder.classroom.submissions import read_timestamp
from autograder.files import write_atomically


class NothingToPublish(RuntimeError):
    """Nothing graded yet (or no gradebook): say what to run first."""


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
    secret = _small_text(handed_in / SECRET_FILE) or secrets.token_hex(64)
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
                            report_page(results, assignment, course.title))
    return path, len(results)


def export_grades(course, course_dir: Path, output: Path | None = None) -> tuple[Path, int, int]:
    """(grades.csv's path, students, assignments)."""
    from autograder.render.grades_csv import grades_csv

    layout = CourseLayout(course_dir)
    if not course.gradebook and not layout.gradebook.is_file():
        raise NothingToPublish(f"no gradebook in {course_dir}; release and grade an assignment first")
    with open_gradebook(course, course_dir) as book:
        assignment_ids, rows = grade_rows(book, course)
    maxima = {a: course.assignment(a).max_score for a in assignment_ids}
    return write_atomically(output or layout.grades_csv, grades_csv(assignment_ids, rows, maxima)), len(rows), len(assignment_ids)
