"""Scores into nbgrader's gradebook, through nbgrader's own API.

The release registered one grade cell per graded function (``checks_FUNCTION``)
with its points. Grading sets each cell's *auto* score and never touches the
*manual* score, so a grade an instructor typed in formgrader wins over ours and
survives any re-grade (nbgrader counts ``manual_score`` when it is set). The late
penalty goes where nbgrader keeps it, on the submitted notebook, so ``nbgrader
export`` and formgrader show the same totals as ``autograder export``.

A manual grade can be typed in formgrader at any time, and it changes what the late
penalty is taken from. So the penalty is priced in one place, ``_store_penalty``, on
the score nbgrader counts, and every stage that reads grades (grade, feedback, report,
export) goes through it first: ``settle`` for a stored result, ``grade_rows`` for the
export. Whatever ran last, the gradebook's penalty is the one every output shows.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import warnings
from pathlib import Path

from sqlalchemy.exc import SAWarning

from autograder.grading.results import ManualGrade
from autograder.late import as_utc, local_iso
from autograder.notebook.lesson import grade_cell_id


class GradebookError(RuntimeError):
    """The gradebook does not match the course (English, for the instructor)."""


@contextlib.contextmanager
def open_gradebook(course, course_dir: Path):
    from nbgrader.api import Gradebook

    url = course.gradebook_url(course_dir)
    create_gradebook(url)
    with Gradebook(url, course.nbgrader_course_id(course_dir)) as gradebook:
        yield gradebook


def create_gradebook(url: str) -> None:
    """Give a gradebook with no tables nbgrader's tables, stamped with nbgrader's schema revision.

    nbgrader's Gradebook does the same for a new database, but learns the revision by running
    `alembic heads` in a subprocess: 2.5 s of CPU on an idle machine, paid by a course's first
    command. Read here from the same migration scripts, in this process, it costs 0.2 s. A
    database that has tables is left as it is; two commands creating the same one at once (each
    having found it empty) both succeed, and it gets one stamp."""
    from nbgrader.api import Base
    from sqlalchemy import create_engine, inspect, text

    engine = create_engine(url, future=True)
    try:
        if inspect(engine).get_table_names():
            return
        with engine.begin() as connection:
            Base.metadata.create_all(bind=connection)  # only the tables not there yet
            connection.execute(text("CREATE TABLE IF NOT EXISTS alembic_version (version_num VARCHAR(32) NOT NULL)"))
            connection.execute(text("INSERT INTO alembic_version (version_num) SELECT :revision "
                                    "WHERE NOT EXISTS (SELECT 1 FROM alembic_version)"),
                               {"revision": nbgrader_schema_revision()})
    finally:
        engine.dispose()


@functools.lru_cache(maxsize=None)
def nbgrader_schema_revision() -> str:
    """The head of the installed nbgrader's migrations: what `alembic heads` prints for it."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR

    config = Config()
    config.set_main_option("script_location", ALEMBIC_DIR)
    (head,) = ScriptDirectory.from_config(config).get_heads()
    return head


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


def record(gradebook, assignment, result, timestamp: dt.datetime | None, full_name: str = "",
           handed_in_again: bool = False):
    """Store one graded submission's auto scores and timestamp; returns the result settled (see settle).

    `handed_in_again`: these files replace others graded before. A manual score typed for those is
    kept (it is the instructor's work) but flagged for review, as nbgrader's own autograde does: formgrader
    lists the cell as needing a manual grade until the instructor saves it again."""
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
    grades = _grades_by_cell(gradebook, notebook_name, assignment_id, student)
    for function, (score, _) in result.auto_by_function().items():
        grade = grades.get(grade_cell_id(function))
        if grade is None:  # not a cell of this release: nbgrader's own error, as before
            grade = gradebook.find_grade(grade_cell_id(function), notebook_name, assignment_id, student)
        grade.auto_score = score
        if grade.manual_score is None:
            grade.needs_manual_grade = False
        elif handed_in_again:
            grade.needs_manual_grade = True  # formgrader clears it when the instructor saves the cell
    gradebook.db.commit()
    return settle(gradebook, assignment, result)


def settle(gradebook, assignment, result):
    """`result` as the gradebook counts it now: the instructor's manual grades, nbgrader's timestamp and
    lateness (the due date stored there plus any extension granted there) in the course's time zone,
    the late policy and the penalty it gives, stored for nbgrader. A result the gradebook does not
    know (graded before the gradebook was moved, say) comes back as it was stored."""
    from nbgrader.api import MissingEntry

    try:
        submission = gradebook.find_submission(assignment.id, result.student)
    except MissingEntry:
        return result
    manual = []
    grades = _grades_by_cell(gradebook, assignment.notebook, assignment.id, result.student)
    for function in result.auto_by_function():
        grade = grades.get(grade_cell_id(function))
        if grade is None:
            continue
        if grade.manual_score is not None or grade.extra_credit:
            outdated = grade.manual_score is not None and bool(grade.needs_manual_grade)
            manual.append(ManualGrade(function, grade.manual_score, grade.extra_credit or 0.0, outdated))
    extension = submission.extension.total_seconds() if submission.extension is not None else 0.0
    settled = dataclasses.replace(
        result, manual=tuple(manual), late_policy=assignment.late_policy, extension_seconds=extension,
        submitted_at=local_iso(submission.timestamp, assignment.timezone),
        due=local_iso(submission.duedate, assignment.timezone), late_seconds=_seconds_late(submission))
    return dataclasses.replace(settled, late_penalty=_store_penalty(gradebook, assignment, submission, settled.score))


def _grades_by_cell(gradebook, notebook: str, assignment_id: str, student: str) -> dict:
    """The grade cells' grades of one submitted notebook, by cell name, in one query: the same rows
    nbgrader's find_grade reads one cell at a time (a dozen joined queries per submission)."""
    from nbgrader.api import (Assignment, Grade, GradeCell, Notebook, Student, SubmittedAssignment,
                              SubmittedNotebook)

    rows = (gradebook.db.query(Grade, GradeCell.name)
            .join(GradeCell, GradeCell.id == Grade.cell_id)
            .join(SubmittedNotebook, SubmittedNotebook.id == Grade.notebook_id)
            .join(Notebook, Notebook.id == SubmittedNotebook.notebook_id)
            .join(SubmittedAssignment, SubmittedAssignment.id == SubmittedNotebook.assignment_id)
            .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)
            .join(Student, Student.id == SubmittedAssignment.student_id)
            .filter(Notebook.name == notebook, Assignment.name == assignment_id, Student.id == student)
            .all())
    return {name: grade for grade, name in rows}


def _seconds_late(submission) -> float:
    return round(submission.total_seconds_late, 3)


def _store_penalty(gradebook, assignment, submission, earned: float) -> float:
    """The late penalty of `submission` on `earned`, the score nbgrader counts (manual grades included),
    written on the submitted notebook, where nbgrader export and formgrader read it, when it changed.
    The only place a penalty is computed for the gradebook."""
    from nbgrader.api import MissingEntry

    penalty = assignment.late_policy.penalty(earned, _seconds_late(submission))
    try:
        notebook = gradebook.find_submission_notebook(assignment.notebook, assignment.id, submission.student.id)
    except MissingEntry:  # not a notebook this course released (renamed since?): nbgrader's penalty stands
        return submission.late_submission_penalty or 0.0
    if (notebook.late_submission_penalty or 0.0) != penalty:
        notebook.late_submission_penalty = penalty or None
        gradebook.db.commit()
    return penalty


def grade_rows(gradebook, course) -> tuple[list[str], list[dict]]:
    """(assignment ids, one row per student) with final scores as nbgrader computes them, each late penalty
    priced again first (a manual grade typed since the last run changes what it is taken from)."""
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
            earned = submission.score
            penalty = _store_penalty(gradebook, course.assignment(assignment_id), submission, earned)
            row["scores"][assignment_id] = round(max(0.0, earned - penalty), 2)
        rows.append(row)
    return assignment_ids, rows


def _known(gradebook, assignment_id: str) -> bool:
    from nbgrader.api import MissingEntry

    try:
        gradebook.find_assignment(assignment_id)
        return True
    except MissingEntry:
        return False
