"""Every path of an nbgrader course directory, in one place.

nbgrader keeps its layout in ``CourseDirectory.format_path``; this is the same idea for
everything this grader reads and writes there, so that no other module joins
``"submitted"`` or ``"autograded"`` by hand:

    source/ASSIGNMENT/NOTEBOOK.ipynb                 the instructor's version (release)
    release/ASSIGNMENT/NOTEBOOK.ipynb                what students get
    submitted/STUDENT/ASSIGNMENT/                    what they hand in (+ timestamp.txt)
    autograded/STUDENT/ASSIGNMENT/NOTEBOOK.ipynb     formgrader's copy, and the stored result
    feedback/STUDENT/ASSIGNMENT/NOTEBOOK.html        each student's feedback page
    feedback/STUDENT/ASSIGNMENT/timestamp.txt        ... and what nbgrader's release_feedback needs beside it
    feedback/STUDENT/ASSIGNMENT/submission_secret.txt
    reports/ASSIGNMENT.html                          the instructor's report
    reports/ASSIGNMENT-similarity.json               pairs to look at (autograder similarity)
    exports/grades.csv                               `autograder export` (grades.csv at the root is
                                                     `nbgrader export`'s, in another format)
    exports/canvas-grades.csv, exports/moodle-ASSIGNMENT.csv   `export --format canvas|moodle`
    gradebook.db, nbgrader_config.py

It also reads what the course directory's own ``nbgrader_config.py`` says about it
(``nbgrader_settings``), so that this grader and nbgrader's commands agree on the
course id and the gradebook.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path


TIMESTAMP_FILE = "timestamp.txt"  # nbgrader's submission time, written by `nbgrader submit`/`collect`
SECRET_FILE = "submission_secret.txt"  # nbgrader's per-submission secret: it names the released feedback


class NbgraderConfigError(ValueError):
    """A course directory's nbgrader_config.py that cannot be read (English, for the instructor)."""


@dataclasses.dataclass(frozen=True)
class NbgraderSettings:
    """What a course directory's nbgrader_config.py sets that this grader must agree with ("" or None: unset)."""

    root: Path | None = None
    db_url: str = ""
    course_id: str = ""


def nbgrader_settings(folder: Path) -> NbgraderSettings:
    """`folder`/nbgrader_config.py read the way nbgrader reads it (traitlets runs the file); the
    file is the instructor's own configuration, as trusted as course.yml."""
    from traitlets.config.loader import ConfigFileNotFound, PyFileConfigLoader

    path = Path(folder) / "nbgrader_config.py"
    if not path.is_file():
        return NbgraderSettings()
    try:
        config = PyFileConfigLoader(path.name, path=str(path.parent)).load_config()
    except ConfigFileNotFound:
        return NbgraderSettings()
    except Exception as error:  # the instructor's Python, run as nbgrader runs it
        raise NbgraderConfigError(f"{path}: nbgrader cannot read it either: {type(error).__name__}: {error}") from None
    settings = config.get("CourseDirectory", {})
    root = settings.get("root")
    return NbgraderSettings(root=(path.parent / root).resolve() if root else None,
                            db_url=str(settings.get("db_url") or ""),
                            course_id=str(settings.get("course_id") or ""))


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

    def feedback(self, student: str, assignment_id: str) -> Path:
        return self.feedback_root / student / assignment_id

    def feedback_page(self, student: str, assignment) -> Path:
        return self.feedback(student, assignment.id) / f"{assignment.notebook}.html"

    def report(self, assignment_id: str) -> Path:
        return self.root / "reports" / f"{assignment_id}.html"

    def similarity(self, assignment_id: str) -> Path:
        return self.root / "reports" / f"{assignment_id}-similarity.json"

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
