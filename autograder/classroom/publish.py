"""What a graded class gives back, each a stage of its own (after release and grade):

    feedback   one Spanish HTML page per student, where nbgrader's `release_feedback` finds it
    report     the instructor's HTML report of one assignment
    export     grades.csv for the LMS: a row per student, a column per assignment

Each reads only what grading stored (results, gradebook), settled first against the gradebook
as it is now (manual grades, extensions: gradebook.settle), and writes its files whole.
The CLI and the demo call these; both get the same files.
"""

from __future__ import annotations

from pathlib import Path

from autograder.classroom.gradebook import grade_rows, open_gradebook
from autograder.classroom.layout import CourseLayout
from autograder.classroom.pipeline import settled_results
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
    from autograder.render.feedback_html import feedback_page

    layout = CourseLayout(course_dir)
    return [write_atomically(layout.feedback_page(result.student, assignment),
                             feedback_page(result, assignment, course.title))
            for result in _graded(course, course_dir, assignment)]


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
