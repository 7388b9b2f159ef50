"""Who submitted what.

nbgrader's layout is the record: ``COURSE_DIR/submitted/STUDENT/ASSIGNMENT/`` holds
one student's files and, when nbgrader collected them, ``timestamp.txt``. An LMS
download (a folder or a zip of files named by Canvas or Moodle) is imported into
that same layout first, so everything after this module sees one kind of input.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import shutil
import unicodedata
from pathlib import Path, PurePosixPath

from autograder.classroom.layout import CourseLayout
from autograder.notebook.loader import (MAX_SUBMISSION_BYTES, SubmissionError, open_zip, read_zip_entry,
                                        zip_entries)

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")
# Canvas: "garciaana_12345_678901_bpe_bytes.ipynb", late ones with "_LATE_" after the login.
CANVAS = re.compile(r"^(?P<student>[A-Za-z0-9.@-]+?)_(?:LATE_)?\d+_\d+_(?P<file>.+)$")
# Moodle: "Ana García_123456_assignsubmission_file_bpe_bytes.ipynb", or that prefix as a folder.
MOODLE = re.compile(r"^(?P<name>.+?)_(?P<student>\d+)_assignsubmission_[a-z]+_(?P<file>.*)$")


class DownloadError(ValueError):
    """An LMS download that cannot be imported as a whole (English, for the instructor)."""


@dataclasses.dataclass(frozen=True)
class Submission:
    student: str
    folder: Path  # submitted/STUDENT/ASSIGNMENT
    timestamp: dt.datetime | None  # nbgrader's, UTC; None when not recorded


def submitted_folder(course_dir: Path, student: str, assignment_id: str) -> Path:
    return CourseLayout(course_dir).submitted(student, assignment_id)


def find_submissions(course_dir: Path, assignment_id: str) -> list[Submission]:
    """Every student folder for this assignment in nbgrader's submitted/ tree, by student id."""
    root = CourseLayout(course_dir).submitted_root
    if not root.is_dir():
        return []
    found = []
    for student_dir in sorted(root.iterdir()):
        folder = student_dir / assignment_id
        if student_dir.is_dir() and not student_dir.is_symlink() and folder.is_dir() and not folder.is_symlink():
            found.append(Submission(student_dir.name, folder, read_timestamp(folder)))
    return found


def read_timestamp(folder: Path) -> dt.datetime | None:
    """nbgrader's timestamp.txt as UTC; a missing, empty or unreadable one counts as unknown."""
    from nbgrader.utils import parse_utc

    path = folder / "timestamp.txt"
    try:
        text = path.read_text(encoding="utf-8").strip()
        return parse_utc(text) if text else None
    except (OSError, ValueError, UnicodeDecodeError, OverflowError):
        return None


@dataclasses.dataclass
class ImportReport:
    imported: dict[str, list[str]] = dataclasses.field(default_factory=dict)  # student -> file names
    names: dict[str, str] = dataclasses.field(default_factory=dict)  # student -> full name, when the LMS gives one
    skipped: list[str] = dataclasses.field(default_factory=list)  # English, one line per file left out


def student_for(file_name: str) -> tuple[str, str, str]:
    """(student id, full name or "", file name inside the submission) from an LMS file name.

    >>> student_for("garciaana_LATE_1234_56789_bpe_bytes.ipynb")
    ('garciaana', '', 'bpe_bytes.ipynb')
    >>> student_for("Ana García_123456_assignsubmission_file_/bpe_bytes.ipynb")
    ('123456', 'Ana García', 'bpe_bytes.ipynb')
    >>> student_for("ana/bpe_bytes.ipynb")
    ('ana', '', 'bpe_bytes.ipynb')
    >>> student_for("ana.ipynb")
    ('ana', '', 'ana.ipynb')
    """
    path = PurePosixPath(file_name)
    head, rest = path.parts[0], PurePosixPath(*path.parts[1:]) if len(path.parts) > 1 else None
    moodle = MOODLE.match(head)
    if moodle:
        inner = moodle["file"] or (rest.name if rest else "")
        return moodle["student"], moodle["name"].strip(), PurePosixPath(inner).name or path.name
    canvas = CANVAS.match(head)
    if canvas and rest is None:
        return canvas["student"], "", canvas["file"]
    if rest is not None:
        return head, "", path.name
    return path.stem, "", path.name


def import_lms(source: Path, course_dir: Path, assignment) -> ImportReport:
    """Copy an LMS download (a folder or a .zip) into submitted/STUDENT/ASSIGNMENT/.

    Files are never executed or unpacked beyond their bytes; unsafe archives are refused
    whole; a student already in submitted/ is replaced only by their own new files."""
    files = list(_read_download(source))
    report = ImportReport()
    by_student: dict[str, list[tuple[str, bytes]]] = {}
    for name, raw in files:
        student, full_name, inner = student_for(name)
        student = _safe_student_id(student)
        if not student:
            report.skipped.append(f"{name}: cannot tell whose file this is (no usable student id in its name)")
            continue
        if full_name:
            report.names[student] = full_name
        by_student.setdefault(student, []).append((_safe_file_name(inner), raw))
    for student, entries in sorted(by_student.items()):
        names = [n for n, _ in entries]
        clashes = sorted({n for n in names if names.count(n) > 1})
        if clashes:
            report.skipped.append(f"{student}: several files named {', '.join(clashes)}; "
                                  f"import this student's submission by hand")
            continue
        folder = submitted_folder(course_dir, student, assignment.id)
        partial = folder.with_name(folder.name + ".importing")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        for file_name, raw in entries:
            (partial / file_name).write_bytes(raw)
        # Swapped in whole: an interrupted import never leaves half a submission behind.
        if folder.exists():
            shutil.rmtree(folder)
        partial.rename(folder)
        report.imported[student] = names
    return report


def _read_download(source: Path):
    """(relative POSIX name, bytes) of every file in the download."""
    if source.is_symlink() or not source.exists():
        raise DownloadError(f"{source}: not found (or a symbolic link)")
    if source.is_dir():
        for path in sorted(source.rglob("*")):
            if path.is_file() and not path.is_symlink() and not _ignored(path.relative_to(source).as_posix()):
                if path.stat().st_size > MAX_SUBMISSION_BYTES:
                    raise DownloadError(f"{path}: larger than {MAX_SUBMISSION_BYTES // 2**20} MiB")
                yield path.relative_to(source).as_posix(), path.read_bytes()
        return
    if source.suffix != ".zip":
        raise DownloadError(f"{source}: an LMS download must be a folder or a .zip file")
    try:
        with open_zip(source) as archive:
            for entry in zip_entries(archive, source):
                if not _ignored(entry.filename):
                    yield entry.filename, read_zip_entry(archive, entry, source)
    except SubmissionError as error:
        raise DownloadError(error.instructor_message) from None


def _ignored(name: str) -> bool:
    parts = PurePosixPath(name).parts
    return any(p.startswith(".") or p in ("__MACOSX", "__pycache__") for p in parts)


def _safe_student_id(raw: str) -> str:
    """An id nbgrader can use as a folder name: accents dropped, spaces to dots."""
    text = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode()
    text = re.sub(r"\s+", ".", text.strip())
    return text if STUDENT_ID.match(text) else ""


def _safe_file_name(name: str) -> str:
    name = PurePosixPath(name).name
    return name if name and name not in (".", "..") else "entrega"
