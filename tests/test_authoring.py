"""Adding an assignment touches no file of the engine (docs/authoring.md).

The course is copied to a temporary directory and the small assignment of
tests/authoring_example/ is added to the copy: its lesson, reference, hidden suite
and catalogue, and its entry in course.yml, nothing else. It is then released with
nbgrader, its reference and catalogue are graded, its Gradescope zip and its
students' CI checks are built and run. Every file of `autograder/` is hashed before
and after: the engine is used, never edited or written to.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest
import yaml

from autograder import samples
from autograder.audit.run import audit_assignment
from autograder.cli import main
from autograder.course import PROJECT_ROOT, load_course
from autograder.grading.batch import grade_batch
from autograder.packaging.ci_templates import write_ci_templates
from autograder.packaging.gradescope import build_autograder_zip
from autograder.release import release_assignment

EXAMPLE = Path(__file__).resolve().parent / "authoring_example"
NEW = "contar_tokens"
ENGINE = PROJECT_ROOT / "autograder"


def engine_fingerprint() -> dict[str, str]:
    return {p.relative_to(ENGINE).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(ENGINE.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def engine_before():
    return engine_fingerprint()


@pytest.fixture(scope="module")
def course_root(tmp_path_factory, engine_before) -> Path:
    """A copy of the course (course.yml, assignments/, solutions/) with the new assignment added."""
    root = tmp_path_factory.mktemp("curso")
    for folder in ("assignments", "solutions"):
        shutil.copytree(PROJECT_ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(EXAMPLE / folder, root / folder, dirs_exist_ok=True)
    spec = yaml.safe_load((PROJECT_ROOT / "course.yml").read_text(encoding="utf-8"))
    spec["assignments"][NEW] = {"title": "Contar tokens", "points": {"count_tokens": 60, "most_common": 40}}
    (root / "course.yml").write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def course(course_root):
    return load_course(course_root / "course.yml")


@pytest.fixture(scope="module")
def assignment(course):
    return course.assignment(NEW)


@pytest.fixture(scope="module")
def released(course, assignment, course_root) -> Path:
    return release_assignment(course, assignment, course_root / "course")


def test_every_path_of_the_new_assignment_comes_from_the_course_copy(assignment, course_root):
    for path in (assignment.lesson_path, assignment.solution_path, assignment.hidden_suite_path,
                 assignment.catalogue_path("buggy")):
        assert path.is_file() and path.is_relative_to(course_root), path
    assert not (course_root / "autograder").exists()


def test_check_course_accepts_the_copy(course_root, capsys):
    assert main(["--course", str(course_root / "course.yml"), "check-course"]) == 0
    assert f"{NEW}: Contar tokens — 100 points over 2 functions" in capsys.readouterr().out


def test_release_makes_a_stub_notebook_with_locked_checks(released, assignment):
    notebook = nbformat.read(released / f"{assignment.notebook}.ipynb", as_version=4)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    assert "def count_tokens(tokens):" in code and "raise NotImplementedError()" in code
    assert "counts.get(token, 0) + 1" not in code  # the reference's body stays out of the release
    locked = [cell.metadata["nbgrader"]["grade_id"] for cell in notebook.cells
              if cell.metadata.get("nbgrader", {}).get("locked")]
    assert {"checks_count_tokens", "checks_most_common"} <= set(locked)


def test_reference_full_marks_stub_zero(course, assignment, tmp_path):
    paths = [samples.build_notebook(assignment, sample, tmp_path / f"{sample.name}.ipynb")
             for sample in (samples.correct(assignment), samples.stub(assignment))]
    reference, stub = grade_batch(assignment, paths, jobs=2)
    assert reference.score == reference.max_score == 100, [t.feedback for t in reference.tests if not t.passed]
    assert stub.score == 0 and len(stub.tests) == 6


def test_each_catalogue_entry_is_caught_with_its_hint_and_every_rule_is_pinned(course, assignment):
    audit = audit_assignment(course, assignment, jobs=2, sections=("catalogue", "clause", "domain"))
    checks = audit.section("catalogue")
    assert [c.name for c in checks] == [s.name for s in samples.catalogue(assignment, "buggy")]
    assert all(c.ok for c in audit.checks), [(c.section, c.name, c.detail) for c in audit.checks if not c.ok]
    assert len(audit.section("clause")) == 5 and len(audit.section("domain")) == 2


def test_gradescope_zip_holds_this_assignment_and_no_catalogue(course, assignment, tmp_path):
    built = build_autograder_zip(course, assignment, tmp_path / "contar_tokens.zip")
    with zipfile.ZipFile(built) as archive:
        names = set(archive.namelist())
        shipped = yaml.safe_load(archive.read("course.yml"))
    assert {f"solutions/{NEW}/solution.py", f"solutions/{NEW}/test_hidden.py", f"assignments/{NEW}/lesson.md"} <= names
    assert list(shipped["assignments"]) == [NEW]
    assert not any(name.endswith("buggy.py") or "corpus" in name for name in names)


def test_students_ci_checks_pass_on_the_reference_and_fail_on_the_stub(course, assignment, released, course_root,
                                                                     tmp_path):
    written = write_ci_templates(course, assignment, released, "github", course_root / "course")
    checks = released / "comprobaciones"
    assert checks / "test_visibles.py" in written
    assert not (checks / "test_propiedades.py").exists()  # this assignment publishes no properties
    for kind, sample in (("reference", samples.correct(assignment)), ("stub", None)):
        workspace = tmp_path / kind
        shutil.copytree(released, workspace)
        if sample is not None:
            samples.build_notebook(assignment, sample, workspace / f"{assignment.notebook}.ipynb")
        run = subprocess.run([sys.executable, "-m", "pytest", "comprobaciones", "-q", "-p", "no:cacheprovider"],
                             cwd=workspace, capture_output=True, text=True, timeout=300)
        assert (run.returncode == 0) == (kind == "reference"), run.stdout + run.stderr


def test_the_engine_was_not_touched(released, engine_before, tmp_path):
    """Runs after the others in this module (pytest keeps file order): nothing above wrote into autograder/."""
    assert engine_fingerprint() == engine_before


@pytest.mark.parametrize("missing", ["buggy.py", "test_hidden.py", "solution.py"])
def test_a_missing_catalogue_suite_or_reference_is_an_error(course_root, tmp_path, missing, capsys):
    copy = tmp_path / "curso"
    shutil.copytree(course_root, copy, ignore=shutil.ignore_patterns("course"))
    (copy / "solutions" / NEW / missing).unlink()
    assert main(["--course", str(copy / "course.yml"), "check-course"]) == 2
    error = capsys.readouterr().err
    assert f"solutions/{NEW}/{missing}" in error and "docs/authoring.md" in error
    if missing == "buggy.py":
        with pytest.raises(samples.CatalogueError, match="docs/authoring.md"):
            samples.catalogue(load_course(copy / "course.yml").assignment(NEW), "buggy")


@pytest.mark.parametrize("command", [["grade", NEW, "x.ipynb"], ["release", NEW], ["release", "--all"],
                                     ["gradescope", NEW], ["audit", NEW]])
def test_a_command_on_an_unfinished_assignment_names_what_is_missing(course_root, tmp_path, command, capsys):
    """An assignment still being written (no lesson yet) is a usage error with the file named, not a traceback."""
    copy = tmp_path / "curso"
    shutil.copytree(course_root, copy, ignore=shutil.ignore_patterns("course"))
    (copy / "assignments" / NEW / "lesson.md").unlink()
    assert main(["--course", str(copy / "course.yml"), *command]) == 2
    error = capsys.readouterr().err
    assert f"assignments/{NEW}/lesson.md: missing" in error and "Traceback" not in error


def test_grading_needs_no_catalogue(course_root, tmp_path, capsys):
    """A grading copy (the Gradescope zip) ships no catalogue: grading must not ask for one; the audit must."""
    copy = tmp_path / "curso"
    shutil.copytree(course_root, copy, ignore=shutil.ignore_patterns("course"))
    (copy / "solutions" / NEW / "buggy.py").unlink()
    reference = copy / "solutions" / NEW / "solution.py"
    results = tmp_path / "results.json"
    assert main(["--course", str(copy / "course.yml"), "grade", NEW, str(reference), "--results", str(results)]) == 0
    assert json.loads(results.read_text())["score"] == 100
    capsys.readouterr()
    assert main(["--course", str(copy / "course.yml"), "audit", NEW]) == 2
    assert f"solutions/{NEW}/buggy.py: missing" in capsys.readouterr().err
