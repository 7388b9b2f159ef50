"""Grades as CSV, in three formats from the same gradebook rows (publish.export_grades):

    grades_csv       this grader's own: one row per student, one column per assignment, then the
                     totals. A missing submission is an empty cell, not a zero, so the LMS (and the
                     instructor) can tell "did not hand in" from "handed in and scored nothing"; the
                     total counts it as zero.
    canvas_csv       what Canvas's gradebook import reads as is (Grades > Import): its student
                     columns, then one column per assignment, keyed by Canvas's user id.
    moodle_worksheet what a Moodle assignment's "Upload grading worksheet" reads as is (the offline
                     grading worksheet), keyed by the assignment's "Participant N".

Each header starts differently, so `header_is_ours` can tell our files from others (nbgrader's
`grades.csv`, an LMS's own export) before one is overwritten.

Ids, names and emails come from nbgrader's gradebook, filled from LMS downloads (a display
name is whatever the student typed), so each of those text cells goes through
safe_text.csv_cell: a spreadsheet must not run `=HYPERLINK(...)` as a formula. The score
cells are numbers the grader formats itself and stay numbers.
"""

from __future__ import annotations

import csv
import datetime as dt
import io

from autograder.render.safe_text import csv_cell

FORMATS = ("grades", "canvas", "moodle")  # `autograder export --format`, in the order of this module
GRADES_HEADER = ["student_id", "last_name", "first_name", "email"]
# Canvas's gradebook importer (canvas-lms app/models/gradebook_importer.rb): "Student" and "ID" first,
# "SIS User ID" then "SIS Login ID", and "Section" as the last student column; every column after it is
# an assignment, "Title (ASSIGNMENT_ID)" or, without the id, a title it matches (or creates).
CANVAS_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
# Moodle's offline grading worksheet (mod/assign/feedback/offline/importgradeslib.php): the import finds
# "Identifier" ("Participant N"), "Grade" and "Last modified (grade)" by name; the others are for people.
MOODLE_HEADER = ["Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)"]
MOODLE_PARTICIPANT = "Participant "  # Moodle's string hiddenuser, which its import strips off


def header_is_ours(first_line: str) -> bool:
    cells = next(csv.reader([first_line]), [])
    return any(cells[:len(header)] == header for header in (GRADES_HEADER, CANVAS_HEADER, MOODLE_HEADER))


def _score(score: float | None) -> str:
    return "" if score is None else f"{score:g}"


def grades_csv(assignment_ids: list[str], rows: list[dict], max_scores: dict[str, float]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    possible = sum(max_scores[a] for a in assignment_ids)
    writer.writerow([*GRADES_HEADER, *[f"{a} ({max_scores[a]:g})" for a in assignment_ids],
                     f"total ({possible:g})", "percent"])
    for row in rows:
        scores = [row["scores"].get(a) for a in assignment_ids]
        total = round(sum(s or 0.0 for s in scores), 2)
        writer.writerow([*(csv_cell(row[key]) for key in GRADES_HEADER), *map(_score, scores), f"{total:g}",
                         f"{100 * total / possible:.1f}" if possible else ""])
    return out.getvalue()


def canvas_csv(columns: dict[str, str], rows: list[dict]) -> str:
    """`columns`: assignment id -> its Canvas column title; each row has `lms_id`, Canvas's user id.

    A student with no submission in any of these columns gets no row: Canvas leaves the grades of a
    student missing from the file as they are. An empty cell is "no submission here"; Canvas's importer
    counts it as a change where Canvas holds a grade, so export one assignment at a time to send only it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CANVAS_HEADER, *columns.values()])
    for row in rows:
        if all(row["scores"].get(a) is None for a in columns):
            continue
        name = ", ".join(part for part in (row["last_name"], row["first_name"]) if part)
        writer.writerow([csv_cell(name), csv_cell(row["lms_id"]), "", "", "",
                         *(_score(row["scores"].get(a)) for a in columns)])
    return out.getvalue()


def moodle_worksheet(assignment_id: str, rows: list[dict], max_score: float, when: dt.datetime) -> str:
    """One assignment's worksheet; each row has `lms_id`, the participant number of that assignment
    (digits, as the import read them from the download's file names).

    Only submissions that have a grade: Moodle skips an empty one anyway. "Last modified (grade)" is when
    this file was written (ISO 8601 with its offset, which PHP's strtotime reads exactly): Moodle leaves a
    grade changed in Moodle after that alone unless the instructor ticks "Allow updating records that have
    been modified more recently in Moodle than in the spreadsheet"."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MOODLE_HEADER)
    stamp = when.astimezone(dt.timezone.utc).isoformat(timespec="seconds")
    for row in rows:
        score = row["scores"].get(assignment_id)
        if score is None:
            continue
        name = " ".join(part for part in (row["first_name"], row["last_name"]) if part)
        writer.writerow([MOODLE_PARTICIPANT + row["lms_id"], csv_cell(name), csv_cell(row["email"]),
                         _score(score), f"{max_score:g}", stamp])
    return out.getvalue()
