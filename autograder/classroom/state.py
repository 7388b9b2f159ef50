"""What was already graded, so an interrupted or repeated run grades only what changed.

Each graded submission leaves ``autograded/STUDENT/ASSIGNMENT/autograder.json``: the
GradeResult and two content hashes. A submission is graded again only when one of
them differs:

- the submission hash covers every file the student handed in (names and bytes,
  not nbgrader's timestamp.txt, which does not change what is graded);
- the suite hash covers everything that decides a score: the hidden suite, the
  reference solution, the lesson the release notebook is built from, the
  assignment's points and limits, the grader's own code and the version of hypothesis
  its example banks are made with.

The late penalty and the instructor's manual grades are not part of either: they are
settled against the gradebook on every run and by every publishing stage
(gradebook.settle), so a due date moved, an extension granted or a grade typed in
formgrader applies without grading anything again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import hypothesis

from autograder.classroom.layout import CourseLayout
from autograder.files import write_atomically
from autograder.grading.results import GradeResult, result_from_dict

STATE_FILE = "autograder.json"
GRADER_ROOT = Path(__file__).resolve().parents[1]


def submission_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and path.name != "timestamp.txt":
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            with path.open("rb") as handle:  # streamed: a huge file costs time, not memory
                digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()


def suite_hash(assignment) -> str:
    digest = hashlib.sha256()
    for path in (assignment.hidden_suite_path, assignment.solution_path, assignment.lesson_path):
        digest.update(path.read_bytes())
    digest.update(repr((sorted(assignment.points.items()), dataclasses.asdict(assignment.limits))).encode())
    digest.update(f"hypothesis {hypothesis.__version__}".encode())  # the banks' examples depend on it
    for path in sorted(GRADER_ROOT.rglob("*.py")):
        digest.update(path.relative_to(GRADER_ROOT).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def state_path(course_dir: Path, student: str, assignment_id: str) -> Path:
    return CourseLayout(course_dir).autograded(student, assignment_id) / STATE_FILE


def load_graded(path: Path, submission_sha: str, suite_sha: str) -> GradeResult | None:
    """The stored result if it was graded from exactly these files with exactly this suite."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["submission_sha256"] != submission_sha or data["suite_sha256"] != suite_sha:
            return None
        return result_from_dict(data["result"])
    except (OSError, ValueError, KeyError, TypeError):
        return None  # absent or damaged: grade again


def graded_submission_hash(path: Path) -> str | None:
    """The hash of the files the stored result was graded from, whatever the suite; None if none."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))["submission_sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load_result(path: Path) -> GradeResult | None:
    """The stored result, whatever it was graded with (for feedback and reports)."""
    try:
        return result_from_dict(json.loads(path.read_text(encoding="utf-8"))["result"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(path: Path, result: GradeResult, submission_sha: str, suite_sha: str) -> None:
    """Written whole, then renamed: an interruption leaves the old state or the new one."""
    payload = {"submission_sha256": submission_sha, "suite_sha256": suite_sha,
               "result": dataclasses.asdict(result)}
    write_atomically(path, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")


def restore(path: Path, result: GradeResult) -> None:
    """Store `result` again under the hashes it was graded with (its lateness or manual grades changed)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        store(path, result, data["submission_sha256"], data["suite_sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # damaged since it was read: the next run grades it again anyway
