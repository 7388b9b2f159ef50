"""Grades for an LMS: one row per student, one column per assignment, then the totals.

A missing submission is an empty cell, not a zero, so the LMS (and the instructor)
can tell "did not hand in" from "handed in and scored nothing"; the total counts
it as zero.

Ids, names and emails come from nbgrader's gradebook, filled from LMS downloads (a display
name is whatever the student typed), so each of those text cells goes through
safe_text.csv_cell: a spreadsheet must not run `=HYPERLINK(...)` as a formula. The score
cells are numbers the grader formats itself and stay numbers.
"""

from __future__ import annotations

import csv
import io

from autograder.render.safe_text import csv_cell


def grades_csv(assignment_ids: list[str], rows: list[dict], max_scores: dict[str, float]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    possible = sum(max_scores[a] for a in assignment_ids)
    writer.writerow(["student_id", "last_name", "first_name", "email",
                     *[f"{a} ({max_scores[a]:g})" for a in assignment_ids], f"total ({possible:g})", "percent"])
    for row in rows:
        scores = [row["scores"].get(a) for a in assignment_ids]
        total = round(sum(s or 0.0 for s in scores), 2)
        writer.writerow([*(csv_cell(row[key]) for key in ("student_id", "last_name", "first_name", "email")),
                         *["" if s is None else f"{s:g}" for s in scores], f"{total:g}",
                         f"{100 * total / possible:.1f}" if possible else ""])
    return out.getvalue()
