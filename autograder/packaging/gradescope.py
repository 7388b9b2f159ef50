"""The Gradescope autograder zip of one assignment (see docs/gradescope.md).

Gradescope unpacks the zip into /autograder/source, runs ``setup.sh`` once as root to build
its image, then runs ``run_autograder`` as root for every submission. The zip holds:

    setup.sh, run_autograder          from autograder/packaging/gradescope/, with the assignment filled in
    pyproject.toml, autograder/...    the grader, installed by setup.sh with pip (not editable)
    course.yml                        this assignment only, written from the loaded Course
    solutions/ID/solution.py          the reference solution
    solutions/ID/test_hidden.py       the hidden suite
    assignments/ID/lesson.md          the lesson the release notebook is built from

Nothing else of the course goes in: the catalogues, the correct corpus and the other
assignments stay in the instructor's checkout (in the image they would sit in the
world-readable virtualenv, where the sandboxed worker can read them). The package itself
holds no course content, so it ships whole.
The zip is deterministic (sorted entries, fixed timestamps and modes), so rebuilding from the
same files gives the same bytes, and a changed zip means a changed autograder.
"""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile
from pathlib import Path

import yaml

from autograder.files import write_atomically

# autograder/, found from this file: an editable install may import `autograder` as a namespace
# package, whose __file__ is None.
PACKAGE_DIR = Path(__file__).resolve().parents[1]
TEMPLATES = Path(__file__).resolve().parent / "gradescope"
SCRIPTS = ("setup.sh", "run_autograder")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can hold: the same bytes on every build
SAFE_ID = re.compile(r"[A-Za-z0-9_.-]+")


class PackagingError(ValueError):
    """The zip cannot be built from this checkout (an English message for the instructor)."""


def build_autograder_zip(course, assignment, output: Path) -> Path:
    """Write the Gradescope autograder zip of `assignment` to `output` and return its path.

    `assignment` is used as given (it may differ from course.assignments[...], e.g. other limits
    or visibility); `course` gives the course-wide metadata."""
    output = Path(output)
    files = zip_contents(course, assignment)
    output.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.create_system = 3  # Unix, so that unzip honours the modes below
            mode = 0o755 if name in SCRIPTS else 0o644
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    return write_atomically(output, buffer.getvalue())


def zip_contents(course, assignment) -> dict[str, bytes]:
    """Every file of the zip, by its path inside the zip."""
    if not SAFE_ID.fullmatch(assignment.id):
        raise PackagingError(f"assignment id {assignment.id!r}: only letters, digits, '_', '.' and '-' "
                             f"can go into Gradescope's scripts")
    pyproject = PACKAGE_DIR.parent / "pyproject.toml"
    if not pyproject.is_file():
        raise PackagingError(f"no pyproject.toml next to {PACKAGE_DIR}: build the zip from a checkout of the "
                             f"course repository (pip install -e .)")
    files = {"pyproject.toml": pyproject.read_bytes(), "course.yml": course_yaml(course, assignment).encode()}
    for path in sorted(PACKAGE_DIR.rglob("*")):
        relative = path.relative_to(PACKAGE_DIR)
        if (path.is_file() and not path.is_symlink()
                and "__pycache__" not in relative.parts and path.suffix not in (".pyc", ".pyo")
                and not any(part.startswith(".") for part in relative.parts)):
            files[f"autograder/{relative.as_posix()}"] = path.read_bytes()
    wanted = {
        f"solutions/{assignment.id}/solution.py": Path(assignment.solution_path),
        f"solutions/{assignment.id}/test_hidden.py": Path(assignment.hidden_suite_path),
        f"assignments/{assignment.id}/lesson.md": Path(assignment.lesson_path),
    }
    for name, path in wanted.items():
        if not path.is_file():
            raise PackagingError(f"{assignment.id}: {path} is missing")
        files[name] = path.read_bytes()
    values = {"@ASSIGNMENT@": assignment.id, "@MAX_SCORE@": repr(float(assignment.max_score))}
    for script in SCRIPTS:
        text = (TEMPLATES / script).read_text(encoding="utf-8")
        for placeholder, value in values.items():
            text = text.replace(placeholder, value)
        files[script] = text.replace("\r\n", "\n").encode()  # bash refuses CRLF scripts
    return files


def course_yaml(course, assignment) -> str:
    """course.yml holding only `assignment`, with every setting it inherits written out in full.

    Written from the loaded objects (never by editing the instructor's file), so what Gradescope
    grades with is exactly what was validated here. The gradebook URL, which may hold a
    password, is left out: Gradescope keeps its own gradebook."""
    spec = {
        "title": assignment.title,
        "notebook": assignment.notebook,
        "points": {name: _number(value) for name, value in assignment.points.items()},
        "limits": {name: _number(value) for name, value in dataclasses.asdict(assignment.limits).items()},
        "late_policy": {name: _number(value) for name, value in dataclasses.asdict(assignment.late_policy).items()
                        if value is not None},
        "visibility": dict(assignment.visibility),
    }
    if assignment.due is not None:
        spec["due"] = assignment.due.isoformat()
    data = {
        "course": {"id": course.id, "title": course.title, "language": course.language},
        "assignments": {assignment.id: spec},
    }
    header = (f"# Written by `autograder gradescope {assignment.id}` from the course's course.yml:\n"
              f"# this assignment only, with its limits, late policy and visibility in full.\n")
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)


def _number(value):
    """3.0 -> 3, so that course.yml keeps integer settings integers (its loader checks their type)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
