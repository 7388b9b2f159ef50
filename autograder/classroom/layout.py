"""Every path of an nbgrader course directory, in one place.

nbgrader keeps its layout in ``CourseDirectory.format_path``; this is the same idea for
everything this grader reads and writes there, so that no other module joins
``"submitted"`` or ``"autograded"`` by hand:

    source/ASSIGNMENT/NOTEBOOK.ipynb                 the instructor's version (release)
    release/ASSIGNMENT/NOTEBOOK.ipynb                what students get
    submitted/STUDENT/ASSIGNMENT/                    what they hand in (+ timestamp.txt)
    autograded/STUDENT/ASSIGNMENT/NOTEBOOK.ipynb     formgrader's copy, and the stored result
    feedback/STUDENT/ASSIGNMENT/NOTEBOOK.html        each student's feedback page
    reports/ASSIGNMENT.html                          the instructor's report
    exports/grades.csv                               `autograder export` (grades.csv at the root is
                                                     `nbgrader export`'s, in another format)
    exports/canvas-grades.csv, exports/moodle-ASSIGNMENT.csv   `export --format canvas|moodle`
    gradebook.db, nbgrader_config.py
"""

from __future__ import annotations

import dataclasses
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class CourseLayout:
    root: Path

    def source(self, assignment_id: str) -> Path:
        return self.root / "source" / assignment_id

    def release(self, assignment_id: str) -> Path:
        return self.root / "release" / assignment_id

    def released_notebook(self, assignment) -> Path:
        return self.release(assignment.id) / f"{assignment.notebook}.ipynb"

    @property
    def submitted_root(self) -> Path:
        return self.root / "submitted"

    def submitted(self, student: str, assignment_id: str) -> Path:
        return self.submitted_root / student / assignment_id

    def autograded(self, student: str, assignment_id: str) -> Path:
        return self.root / "autograded" / student / assignment_id

    def autograded_notebook(self, student: str, assignment) -> Path:
        return self.autograded(student, assignment.id) / f"{assignment.notebook}.ipynb"

    @property
    def feedback_root(self) -> Path:
        return self.root / "feedback"

    def feedback_page(self, student: str, assignment) -> Path:
        return self.feedback_root / student / assignment.id / f"{assignment.notebook}.html"

    def report(self, assignment_id: str) -> Path:
        return self.root / "reports" / f"{assignment_id}.html"

    @property
    def grades_csv(self) -> Path:
        return self.exports / "grades.csv"

    @property
    def exports(self) -> Path:
        return self.root / "exports"

    def lms_grades_csv(self, platform: str, assignment_id: str | None = None) -> Path:
        """Canvas imports one file for the whole gradebook; Moodle one worksheet per assignment."""
        return self.exports / (f"{platform}-{assignment_id}.csv" if assignment_id else f"{platform}-grades.csv")

    @property
    def gradebook(self) -> Path:
        return self.root / "gradebook.db"

    @property
    def nbgrader_config(self) -> Path:
        return self.root / "nbgrader_config.py"
