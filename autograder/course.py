"""course.yml: the course's metadata, loaded once and validated strictly.

An instructor who mistypes a key or a value gets one English sentence naming the
file, the key and what is allowed, never a traceback.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import yaml

from autograder.late import LatePolicy, as_utc, time_zone
from autograder.sandbox.launcher import Limits

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_COURSE_FILE = PROJECT_ROOT / "course.yml"
LANGUAGES = ("es",)
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")  # Gradescope's words
TEST_KINDS = ("fixed", "property")


class CourseError(ValueError):
    """course.yml is missing or invalid."""


@dataclasses.dataclass(frozen=True)
class Sibling:
    """Another assignment of the same course, as far as a file handed in can show it."""

    id: str
    title: str
    notebook: str
    functions: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Assignment:
    id: str
    title: str
    notebook: str
    points: dict[str, float]
    limits: Limits
    root: Path
    due: dt.datetime | None = None  # UTC
    timezone: dt.tzinfo = dt.timezone.utc  # the course's clock, in which students and instructors read times
    late_policy: LatePolicy = LatePolicy()
    visibility: tuple[tuple[str, str], ...] = (("default", "visible"),)  # see visibility_of
    siblings: tuple[Sibling, ...] = ()  # the course's other assignments, to recognise their files

    def visibility_of(self, test_id: str, kind: str) -> str:
        """Gradescope visibility of one test: by its name, else by its kind, else the default."""
        rules = dict(self.visibility)
        return rules.get(test_id) or rules.get(kind) or rules.get("default", "visible")

    # Everything about one assignment lives in two folders (docs/authoring.md): what students may
    # see in assignments/ID/, what only instructors may see in solutions/ID/.
    @property
    def student_folder(self) -> Path:
        return self.root / "assignments" / self.id

    @property
    def instructor_folder(self) -> Path:
        return self.root / "solutions" / self.id

    @property
    def lesson_path(self) -> Path:
        return self.student_folder / "lesson.md"

    @property
    def public_properties_path(self) -> Path:
        """Hypothesis properties students run in CI (optional): rules, never the reference."""
        return self.student_folder / "propiedades.py"

    @property
    def solution_path(self) -> Path:
        return self.instructor_folder / "solution.py"

    @property
    def hidden_suite_path(self) -> Path:
        return self.instructor_folder / "test_hidden.py"

    def catalogue_path(self, kind: str) -> Path:
        """solutions/ID/buggy.py or hostile.py: the samples the suite is proven with."""
        return self.instructor_folder / f"{kind}.py"

    @property
    def corpus_folder(self) -> Path:
        """Independent correct implementations, one .py each, that must all score full marks."""
        return self.instructor_folder / "corpus"

    def missing_files(self, to_prove: bool = True) -> list[str]:
        """What the instructor still has to write before this assignment can be released and graded
        and, `to_prove`, proven (docs/authoring.md): one English sentence per missing file. A grading
        copy (the Gradescope zip, a CI image) has no catalogue: it grades, it does not prove."""
        needed = [(self.lesson_path, "the lesson the notebook is built from"),
                  (self.solution_path, "the reference solution"),
                  (self.hidden_suite_path, "the hidden suite")]
        if to_prove:
            needed.append((self.catalogue_path("buggy"), "the catalogue of wrong implementations the suite must catch"))
        return [f"{path}: missing ({why}; see docs/authoring.md)" for path, why in needed if not path.is_file()]

    @property
    def max_score(self) -> float:
        return float(sum(self.points.values()))


@dataclasses.dataclass(frozen=True)
class Course:
    id: str
    title: str
    language: str
    course_dir: Path
    assignments: dict[str, Assignment]
    path: Path
    gradebook: str = ""  # SQLAlchemy URL; "" means nbgrader's default, COURSE_DIR/gradebook.db
    cluster: str = ""  # a Dask scheduler's address to grade classes on (docs/cluster.md); "" means this machine
    similarity_threshold: float = 0.55  # a pair scoring this or more is flagged (`autograder similarity`)

    # Where nbgrader's commands and this grader meet, one rule each (README, "A semester in an
    # nbgrader course directory"): the course directory, its gradebook and its course id.

    def course_directory(self, explicit: Path | None = None, cwd: Path | None = None) -> Path:
        """The course directory a command works in: `explicit` (--course-dir); else the current
        directory when it holds an nbgrader_config.py, as nbgrader's own commands take it (its
        CourseDirectory.root if it sets one); else course.yml's course_dir."""
        if explicit is not None:
            return Path(explicit).resolve()
        here = Path(cwd or Path.cwd()).resolve()
        if (here / "nbgrader_config.py").is_file():
            return _nbgrader_settings(here).root or here
        return Path(self.course_dir).resolve()

    def gradebook_url(self, course_dir: Path | None = None) -> str:
        """The gradebook nbgrader's commands use in `course_dir`: its nbgrader_config.py's
        CourseDirectory.db_url, else course.yml's gradebook, else nbgrader's default. Both set and
        different is an error: grades would go where formgrader does not look."""
        from autograder.classroom.layout import CourseLayout

        course_dir = Path(course_dir or self.course_dir).resolve()
        configured = _absolute_sqlite(_nbgrader_settings(course_dir).db_url, course_dir)
        if configured and self.gradebook and configured != _absolute_sqlite(self.gradebook, course_dir):
            raise CourseError(f"{course_dir / 'nbgrader_config.py'} sets c.CourseDirectory.db_url = {configured!r} but "
                              f"{self.path.name} sets course.gradebook: {self.gradebook!r}; make them the same "
                              f"(or remove one) so that nbgrader and this grader use one gradebook")
        return configured or self.gradebook or f"sqlite:///{CourseLayout(course_dir).gradebook}"

    def has_gradebook(self, course_dir: Path | None = None) -> bool:
        """Whether the gradebook exists yet: opening a SQLite one that does not would create it empty.
        A server's (any other SQLAlchemy URL) is taken to exist."""
        url, prefix = self.gradebook_url(course_dir), "sqlite:///"
        return not url.startswith(prefix) or url == prefix + ":memory:" or Path(url[len(prefix):]).is_file()

    def nbgrader_course_id(self, course_dir: Path | None = None) -> str:
        """The course id nbgrader's commands use in `course_dir`: its nbgrader_config.py's, else course.yml's id."""
        return _nbgrader_settings(Path(course_dir or self.course_dir).resolve()).course_id or self.id

    def assignment(self, assignment_id: str) -> Assignment:
        try:
            return self.assignments[assignment_id]
        except KeyError:
            known = ", ".join(self.assignments) or "none"
            raise CourseError(f"unknown assignment {assignment_id!r}; {self.path.name} defines: {known}") from None


def _nbgrader_settings(folder: Path):
    from autograder.classroom.layout import NbgraderConfigError, nbgrader_settings

    try:
        return nbgrader_settings(folder)
    except NbgraderConfigError as error:
        raise CourseError(str(error)) from None


def _absolute_sqlite(url: str, course_dir: Path) -> str:
    """A relative SQLite path is relative to where nbgrader runs: the course directory."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and url != prefix + ":memory:":
        return f"{prefix}{(course_dir / url[len(prefix):]).resolve()}"
    return url


def _mapping(value, where: str, allowed: set[str], required: set[str], path: Path) -> dict:
    if not isinstance(value, dict):
        raise CourseError(f"{path}: {where} must be a mapping")
    for key in value:
        if key not in allowed:
            raise CourseError(f"{path}: unknown key {where}.{key}; allowed: {', '.join(sorted(allowed))}")
    for key in required:
        if key not in value:
            raise CourseError(f"{path}: missing key {where}.{key}")
    return value


def _text(value, where: str, path: Path) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CourseError(f"{path}: {where} must be a non-empty string")
    return value


def _positive(value, where: str, path: Path, integer: bool = False):
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or value <= 0:
        raise CourseError(f"{path}: {where} must be a positive {'integer' if integer else 'number'}, not {value!r}")
    return value


def _limits(value, where: str, base: Limits, path: Path) -> Limits:
    fields = {f.name: f for f in dataclasses.fields(Limits)}
    given = _mapping(value or {}, where, set(fields), set(), path)
    checked = {k: _positive(v, f"{where}.{k}", path, integer=fields[k].type == "int") for k, v in given.items()}
    return dataclasses.replace(base, **checked)


def _due(value, where: str, path: Path) -> dt.datetime | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        moment = value
    else:
        try:
            moment = dt.datetime.fromisoformat(str(value))
        except ValueError:
            moment = None
    if moment is None or moment.tzinfo is None:
        raise CourseError(f"{path}: {where} must be a date and time with its UTC offset, "
                          f"like 2026-12-14T23:59:00+01:00, not {value!r}")
    return moment  # as written, offset kept: without course.timezone, times are shown on it


def _time_zone(meta: dict, path: Path) -> dt.tzinfo | None:
    """course.timezone, checked; None when it is not set (each assignment then uses its due date's offset)."""
    if "timezone" not in meta:
        return None
    name = _text(meta["timezone"], "course.timezone", path)
    try:
        return time_zone(name)
    except ValueError:
        raise CourseError(f"{path}: course.timezone must be a time zone name like Europe/Madrid, UTC, or an "
                          f"offset like +01:00, not {meta['timezone']!r}") from None


def _late_policy(value, where: str, base: LatePolicy, path: Path) -> LatePolicy:
    given = _mapping(value or {}, where, {"grace_minutes", "penalty_per_day", "max_days_late"}, set(), path)
    checked = {}
    for key, number in given.items():
        if isinstance(number, bool) or not isinstance(number, (int, float)) or number < 0:
            raise CourseError(f"{path}: {where}.{key} must be a number of at least 0, not {number!r}")
        checked[key] = float(number)
    if checked.get("penalty_per_day", 0) > 100:
        raise CourseError(f"{path}: {where}.penalty_per_day is a percentage of the score: at most 100")
    return dataclasses.replace(base, **checked)


def _visibility(value, where: str, base: dict, path: Path) -> dict:
    given = _mapping(value or {}, where, set(value or {}), set(), path)
    for key, shown in given.items():
        if shown not in VISIBILITIES:
            raise CourseError(f"{path}: {where}.{key} must be one of {', '.join(VISIBILITIES)}, not {shown!r}")
        if key not in ("default", *TEST_KINDS) and not key.startswith("test_"):
            raise CourseError(f"{path}: {where}.{key}: keys are default, {', '.join(TEST_KINDS)} "
                              f"or the name of a hidden test (test_...)")
    return {**base, **given}


def load_course(path: Path | str = DEFAULT_COURSE_FILE) -> Course:
    path = Path(path).resolve()
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CourseError(f"{path}: file not found") from None
    except yaml.YAMLError as exc:
        raise CourseError(f"{path}: not valid YAML ({exc})") from None
    top = _mapping(raw, "(top level)", {"course", "limits", "late_policy", "visibility", "similarity", "assignments"},
                   {"course", "assignments"}, path)
    meta = _mapping(top["course"], "course", {"id", "title", "language", "course_dir", "gradebook", "cluster", "timezone"},
                    {"id", "title", "language"}, path)
    if meta["language"] not in LANGUAGES:
        raise CourseError(f"{path}: course.language must be one of {', '.join(LANGUAGES)}, not {meta['language']!r}")
    limits = _limits(top.get("limits"), "limits", Limits(), path)
    late_policy = _late_policy(top.get("late_policy"), "late_policy", LatePolicy(), path)
    visibility = _visibility(top.get("visibility"), "visibility", {"default": "visible"}, path)
    root = path.parent
    specs = _mapping(top["assignments"], "assignments", set(top["assignments"] or {}), set(), path)
    dues = {}
    for assignment_id, spec in specs.items():
        spec = _mapping(spec, f"assignments.{assignment_id}",
                        {"title", "notebook", "points", "limits", "due", "late_policy", "visibility"}, {"title", "points"}, path)
        dues[assignment_id] = _due(spec.get("due"), f"assignments.{assignment_id}.due", path)
    zone = _time_zone(meta, path)
    # Without course.timezone, an assignment's times are shown on the offset its due date was written
    # with; one without a due date takes the first due date's offset (UTC when there is none at all).
    fallback = next((d.tzinfo for d in dues.values() if d), dt.timezone.utc)
    assignments = {}
    for assignment_id, spec in specs.items():
        where = f"assignments.{assignment_id}"
        points = _mapping(spec["points"], f"{where}.points", set(spec["points"] or {}), set(), path)
        if not points:
            raise CourseError(f"{path}: {where}.points must list at least one function")
        due = dues[assignment_id]
        assignments[assignment_id] = Assignment(
            id=assignment_id,
            title=_text(spec["title"], f"{where}.title", path),
            notebook=_text(spec.get("notebook", assignment_id), f"{where}.notebook", path),
            points={name: _positive(v, f"{where}.points.{name}", path) for name, v in points.items()},
            limits=_limits(spec.get("limits"), f"{where}.limits", limits, path),
            root=root,
            due=None if due is None else as_utc(due),
            timezone=zone or (due.tzinfo if due else fallback),
            late_policy=_late_policy(spec.get("late_policy"), f"{where}.late_policy", late_policy, path),
            visibility=tuple(_visibility(spec.get("visibility"), f"{where}.visibility", visibility, path).items()),
        )
    if not assignments:
        raise CourseError(f"{path}: assignments must define at least one assignment")
    briefs = [Sibling(a.id, a.title, a.notebook, tuple(a.points)) for a in assignments.values()]
    assignments = {key: dataclasses.replace(a, siblings=tuple(b for b in briefs if b.id != key))
                   for key, a in assignments.items()}
    return Course(
        id=_text(meta["id"], "course.id", path),
        title=_text(meta["title"], "course.title", path),
        language=meta["language"],
        course_dir=root / _text(meta.get("course_dir", "course"), "course.course_dir", path),
        assignments=assignments,
        path=path,
        gradebook=_text(meta["gradebook"], "course.gradebook", path) if "gradebook" in meta else "",
        cluster=_text(meta["cluster"], "course.cluster", path) if "cluster" in meta else "",
        similarity_threshold=_similarity_threshold(top.get("similarity"), path),
    )


def _similarity_threshold(value, path: Path) -> float:
    given = _mapping(value or {}, "similarity", {"threshold"}, set(), path)
    threshold = given.get("threshold", Course.similarity_threshold)
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 < threshold <= 1:
        raise CourseError(f"{path}: similarity.threshold is the share of code two submissions have in common: "
                          f"a number above 0 and at most 1, not {threshold!r}")
    return float(threshold)
