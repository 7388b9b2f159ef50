"""Scores into nbgrader's gradebook, through nbgrader's own API.

The release registered one grade cell per graded function (``checks_FUNCTION``)
with its points. Grading sets each cell's *auto* score and never touches the
*manual* score, so a grade an instructor typed in formgrader wins over ours and
survives any re-grade (nbgrader counts ``manual_score`` when it is set). The late
penalty goes where nbgrader keeps it, on the submitted notebook, so ``nbgrader
export`` and formgrader show the same totals as ``autograder export``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import warnings
from pathlib import Path

from sqlalchemy.exc import SAWarning

from autograder.late import as_utc
from autograder.notebook.lesson import grade_cell_id


class GradebookError(RuntimeError):
    """The gradebook does not match the course (English, for the instructor)."""


@contextlib.contextmanager
def open_gradebook(course, course_dir: Path):
    from nbgrader.api import Gradebook

    with Gradebook(course.gradebook_url(course_dir), course.nbgrader_course_id(course_dir)) as gradebook:
        yield gradebook


def naive_utc(moment: dt.datetime | None) -> dt.datetime | None:
    """nbgrader stores naive UTC datetimes."""
    return None if moment is None else as_utc(moment).replace(tzinfo=None)


def register_due_date(gradebook, assignment) -> None:
    gradebook.update_or_create_assignment(assignment.id, duedate=naive_utc(assignment.due))


def check_released(gradebook, assignment) -> None:
    from nbgrader.api import MissingEntry

    try:
        notebook = gradebook.find_notebook(assignment.notebook, assignment.id)
    except MissingEntry:
        raise GradebookError(f"assignment {assignment.id} (notebook {assignment.notebook}) is not in the gradebook; "
                             f"run `autograder release {assignment.id}` first") from None
    cells = {cell.name for cell in notebook.grade_cells}
    missing = sorted(grade_cell_id(name) for name in assignment.points if grade_cell_id(name) not in cells)
    if missing:
        raise GradebookError(f"the gradebook's {assignment.id} has no grade cell {', '.join(missing)}; "
                             f"release it again with `autograder release {assignment.id}`")


def record(gradebook, assignment, result, timestamp: dt.datetime | None, full_name: str = ""):
    """Store one graded submission; returns the result with nbgrader's lateness and the penalty."""
    from nbgrader.api import MissingEntry

    student, assignment_id, notebook_name = result.student, assignment.id, assignment.notebook
    first, _, last = full_name.partition(" ")
    names = {"first_name": first, "last_name": last} if full_name else {}
    gradebook.update_or_create_student(student, **names)
    try:
        submission = gradebook.find_submission(assignment_id, student)
        submission.timestamp = naive_utc(timestamp)
    except MissingEntry:
        with warnings.catch_warnings():
            # nbgrader's add_submission builds its rows before adding them; SQLAlchemy warns, harmlessly.
            warnings.simplefilter("ignore", category=SAWarning)
            submission = gradebook.add_submission(assignment_id, student, timestamp=naive_utc(timestamp))
    effective = 0.0
    for function, (score, _) in result.by_function().items():
        grade = gradebook.find_grade(grade_cell_id(function), notebook_name, assignment_id, student)
        grade.auto_score = score
        grade.needs_manual_grade = False
        effective += grade.manual_score if grade.manual_score is not None else score
    gradebook.db.commit()
    # nbgrader's own lateness: the due date stored in the gradebook plus any extension granted there.
    late_seconds = round(submission.total_seconds_late, 3)
    penalty = assignment.late_policy.penalty(effective, late_seconds)
    notebook = gradebook.find_submission_notebook(notebook_name, assignment_id, student)
    notebook.late_submission_penalty = penalty or None
    gradebook.db.commit()
    return dataclasses.replace(result, late_seconds=late_seconds, late_penalty=penalty)


def grade_rows(gradebook, course) -> tuple[list[str], list[dict]]:
    """(assignment ids, one row per student) with final scores as nbgrader computes them."""
    from nbgrader.api import MissingEntry

    assignment_ids = [a for a in course.assignments if _known(gradebook, a)]
    rows = []
    for student in sorted(gradebook.students, key=lambda s: s.id):
        row = {"student_id": student.id, "last_name": student.last_name or "", "first_name": student.first_name or "",
               "email": student.email or "", "scores": {}}
        for assignment_id in assignment_ids:
            try:
                submission = gradebook.find_submission(assignment_id, student.id)
            except MissingEntry:
                row["scores"][assignment_id] = None  # no submission: an empty cell, not a zero the LMS would average
                continue
            penalty = submission.late_submission_penalty or 0.0
            row["scores"][assignment_id] = round(max(0.0, submission.score - penalty), 2)
        rows.append(row)
    return assignment_ids, rows


def _known(gradebook, assignment_id: str) -> bool:
    from nbgrader.api import MissingEntry

    try:
        gradebook.find_assignment(assignment_id)
        return True
    except MissingEntry:
        return False
