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
import tempfile
import unicodedata
from pathlib import Path, PurePosixPath

from autograder.classroom.layout import CourseLayout
from autograder.notebook.loader import (MAX_SUBMISSION_BYTES, SubmissionError, copy_zip_entry, open_zip,
                                        zip_entries)

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")
# Canvas ("Download Submissions"; canvas-lms app/models/content_zipper.rb, get_filename and
# add_upload_submission): SORTABLENAME[_LATE]_USERID_ATTACHMENTID_FILENAME, where the first part is
# the user's sortable name ("García, Ana") with every non-word character dropped and lowercased
# ("garcíaana", the "LATE" too), absent for anonymous grading. USERID is Canvas's numeric user id,
# the one its gradebook import matches on, so it is the student id here.
# Ruby's [[:word:]] keeps combining marks (a decomposed "í"), which Python's \w does not.
CANVAS = re.compile(r"^(?:(?P<name>[\w\u0300-\u036f]*?)_)??(?:late_)?(?P<user_id>\d+)_\d+_(?P<file>.+)$",
                    re.IGNORECASE)
# Moodle: "Ana García_123456_assignsubmission_file_bpe_bytes.ipynb", or that prefix as a folder. The
# number is the assignment's participant number (mod/assign get_uniqueid_for_user), the "Participant N"
# its offline grading worksheet is keyed by.
MOODLE = re.compile(r"^(?P<name>.+?)_(?P<student>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<file>.*)$")
ZIP_UTF8_FLAG = 0x800  # general purpose bit 11: the entry's name is UTF-8
# All the files of one download together, as their headers declare them before anything is read: a
# class's notebooks are megabytes, while a zip of 1.2 MB can unpack to gigabytes (1,000 entries of
# 64 MiB each would be 64 GB). A larger course imports its download in parts.
MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024


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
    lms_ids: dict[str, str] = dataclasses.field(default_factory=dict)  # student -> lms_id(...), when from an LMS
    skipped: list[str] = dataclasses.field(default_factory=list)  # English, one line per file left out


@dataclasses.dataclass(frozen=True)
class FromLms:
    """Whose file this is, read from its name in an LMS download."""
    student: str  # the student id for nbgrader
    name: str  # the display name the LMS put in the file name, or ""
    file: str  # the file's name inside the submission
    lms_id: str = ""  # lms_id(platform, id) when the LMS named the student by an id it can import grades by


def lms_id(platform: str, number: str) -> str:
    """How an LMS identity is kept: in the student's `lms_user_id` in nbgrader's gradebook (its one place)."""
    return f"{platform}:{number}"


def parse_lms_id(value: str | None) -> tuple[str, str]:
    """(platform, id) of a stored lms_id, or ("", "") for a student who did not come from an LMS."""
    platform, _, number = (value or "").partition(":")
    return (platform, number) if platform in ("canvas", "moodle") and number else ("", "")


def student_for(file_name: str) -> FromLms:
    """Whose file this is, and its name inside the submission, from an LMS file name.

    >>> student_for("garcíaana_late_1234_56789_bpe_bytes.ipynb")
    FromLms(student='1234', name='garcíaana', file='bpe_bytes.ipynb', lms_id='canvas:1234')
    >>> student_for("Ana García_123456_assignsubmission_file_/bpe_bytes.ipynb")
    FromLms(student='123456', name='Ana García', file='bpe_bytes.ipynb', lms_id='moodle:123456')
    >>> student_for("ana/bpe_bytes.ipynb")
    FromLms(student='ana', name='', file='bpe_bytes.ipynb', lms_id='')
    >>> student_for("ana.ipynb")
    FromLms(student='ana', name='', file='ana.ipynb', lms_id='')
    """
    path = PurePosixPath(file_name)
    head, rest = path.parts[0], PurePosixPath(*path.parts[1:]) if len(path.parts) > 1 else None
    moodle = MOODLE.match(head)
    if moodle:
        inner = moodle["file"] or (rest.name if rest else "")
        return FromLms(moodle["student"], moodle["name"].strip(), PurePosixPath(inner).name or path.name,
                       lms_id("moodle", moodle["student"]))
    canvas = CANVAS.match(head)
    if canvas and rest is None:
        return FromLms(canvas["user_id"], canvas["name"] or "", canvas["file"], lms_id("canvas", canvas["user_id"]))
    if rest is not None:
        return FromLms(head, "", path.name)
    return FromLms(path.stem, "", path.name)


def import_lms(source: Path, course_dir: Path, assignment) -> ImportReport:
    """Copy an LMS download (a folder or a .zip) into submitted/STUDENT/ASSIGNMENT/.

    Files are never executed or unpacked beyond their bytes; unsafe archives are refused
    whole; a student already in submitted/ is replaced only by their own new files."""
    # Every file is first copied to a scratch folder, one at a time: memory stays small whatever the
    # download holds (its total is capped before anything is read), and a damaged archive is found
    # before any student's folder is replaced.
    with tempfile.TemporaryDirectory(prefix="autograder-lms-import-") as staging:
        return _import_staged(list(_read_download(source, Path(staging))), course_dir, assignment)


def _import_staged(files: list[tuple[str, Path]], course_dir: Path, assignment) -> ImportReport:
    report = ImportReport()
    by_student: dict[str, list[tuple[str, Path]]] = {}
    for name, staged in files:
        moodle = MOODLE.match(PurePosixPath(name).parts[0])
        if moodle and moodle["plugin"] != "file":  # "onlinetext": the text typed in Moodle's own editor
            report.skipped.append(f"{name}: Moodle's {moodle['plugin']} submission, not a file; only handed-in "
                                  f"files are graded")
            continue
        found = student_for(name)
        student = _safe_student_id(found.student)
        if not student:
            report.skipped.append(f"{name}: cannot tell whose file this is (no usable student id in its name)")
            continue
        if found.name:
            report.names[student] = found.name
        if found.lms_id:
            report.lms_ids[student] = found.lms_id
        by_student.setdefault(student, []).append((_safe_file_name(found.file), staged))
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
        for file_name, staged in entries:
            shutil.copyfile(staged, partial / file_name)
        # Swapped in whole: an interrupted import never leaves half a submission behind.
        if folder.exists():
            shutil.rmtree(folder)
        partial.rename(folder)
        report.imported[student] = names
    return report


def remember_lms_students(course, course_dir: Path, report: ImportReport) -> None:
    """Keep each imported student's LMS identity where nbgrader keeps one (Student.lms_user_id), so
    `autograder export --format canvas|moodle` can give the grades back to the ids the LMS knows."""
    from autograder.classroom.gradebook import open_gradebook

    if report.lms_ids:
        with open_gradebook(course, course_dir) as book:
            for student in report.imported:
                if student in report.lms_ids:
                    book.update_or_create_student(student, lms_user_id=report.lms_ids[student])


def zip_entry_name(entry) -> str:
    """The entry's name as its archiver wrote it.

    Without the UTF-8 flag the ZIP format says cp437, and zipfile reads it so; but Info-ZIP's `zip`
    and some Windows archivers (a download re-packed by the instructor, say) store UTF-8 bytes without
    setting the flag, and "García" comes out as "Garc├¡a". A name whose bytes are valid UTF-8 is read
    as UTF-8, the usual guess of unzip tools (cp437 text with accents is almost never valid UTF-8);
    any other stays cp437. UTF-8 never encodes "/" or "." inside a multibyte character, so the path
    checks made on the cp437 name hold for this one too."""
    if entry.flag_bits & ZIP_UTF8_FLAG:
        return entry.filename
    try:
        return entry.filename.encode("cp437").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return entry.filename


def _read_download(source: Path, staging: Path):
    """(relative POSIX name, path of its bytes) of every file in the download; a zip's entries are
    copied into `staging`, one by one."""
    if source.is_symlink() or not source.exists():
        raise DownloadError(f"{source}: not found (or a symbolic link)")
    if source.is_dir():
        files = [path for path in sorted(source.rglob("*")) if path.is_file() and not path.is_symlink()
                 and not _ignored(path.relative_to(source).as_posix())]
        for path in files:
            if path.stat().st_size > MAX_SUBMISSION_BYTES:
                raise DownloadError(f"{path}: larger than {MAX_SUBMISSION_BYTES // 2**20} MiB")
        _refuse_too_large(source, sum(path.stat().st_size for path in files))
        for path in files:
            yield path.relative_to(source).as_posix(), path
        return
    if source.suffix != ".zip":
        raise DownloadError(f"{source}: an LMS download must be a folder or a .zip file")
    try:
        with open_zip(source) as archive:
            entries = [entry for entry in zip_entries(archive, source) if not _ignored(entry.filename)]
            _refuse_too_large(source, sum(entry.file_size for entry in entries))
            for index, entry in enumerate(entries):
                staged = staging / str(index)
                copy_zip_entry(archive, entry, source, staged)
                yield zip_entry_name(entry), staged
    except SubmissionError as error:
        raise DownloadError(error.instructor_message) from None


def _refuse_too_large(source: Path, total: int) -> None:
    if total > MAX_DOWNLOAD_BYTES:
        raise DownloadError(f"{source}: its files add up to {total / 2**20:,.0f} MiB, more than the "
                            f"{MAX_DOWNLOAD_BYTES // 2**20:,} MiB one import takes (split the download in parts)")


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
