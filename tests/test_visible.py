"""The visible-checks suite: the release's checks, run by the grader against the sandbox."""

from __future__ import annotations

import shutil

import pytest

from autograder import samples
from autograder.cli import main
from autograder.course import PROJECT_ROOT
from autograder.grading.batch import grade_batch

from course_content import catalogue


@pytest.fixture(scope="module")
def graded(course, fast_bpe_bytes, tmp_path_factory):
    folder = tmp_path_factory.mktemp("visible")
    hostile = {s.name: s for s in catalogue("bpe_bytes", "hostile")}
    buggy = {s.name: s for s in catalogue("bpe_bytes", "buggy")}
    corpus = [samples.correct("bpe_bytes"), samples.stub(fast_bpe_bytes), hostile["lying_eq_object"],
              buggy["merge_overlapping"], buggy["decode_strict_utf8"]]
    paths = [samples.build_notebook(fast_bpe_bytes, s, folder / f"{s.name}.ipynb") for s in corpus]
    results = grade_batch(fast_bpe_bytes, paths, jobs=2, suite="visible", warm_up=True)
    return {s.name: r for s, r in zip(corpus, results)}


def test_one_test_per_visible_checks_cell(graded, fast_bpe_bytes):
    result = graded["correct"]
    assert [t.test_id for t in result.tests] == [f"checks_{name}" for name in fast_bpe_bytes.points]
    assert result.score == result.max_score


def test_stub_and_liar_score_zero(graded):
    assert graded["stub"].score == 0
    assert graded["lying_eq_object"].score == 0


@pytest.mark.parametrize("name, function, message", [
    ("merge_overlapping", "merge", "al fusionar no hay solapes"),
    ("decode_strict_utf8", "decode", "UnicodeDecodeError"),
])
def test_a_failed_visible_check_says_why_in_spanish(graded, name, function, message):
    result = graded[name]
    (failed,) = [t for t in result.tests if not t.passed]
    assert failed.function == function and message in failed.feedback


def test_a_failed_visible_check_shows_what_the_function_returned(graded):
    """The same message as in Jupyter (tests/test_notebooks_run.py), from the grader's own run of the check."""
    (failed,) = [t for t in graded["merge_overlapping"].tests if not t.passed]
    assert ("  llamada:     merge([97, 97, 97], (97, 97), 256)\n  devolvió:    [256, 256]\n"
            "  se esperaba: [256, 97]") in failed.feedback


def test_cli_grades_visible_checks(tmp_path, fast_bpe_bytes, capsys):
    from autograder.cli import main

    path = samples.build_notebook(fast_bpe_bytes, samples.stub(fast_bpe_bytes), tmp_path / "entrega.ipynb")
    assert main(["grade", "bpe_bytes", str(path), "--visible", "--results", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "Comprobaciones visibles: 0.00 / 100 (no es tu nota" in out and "Puntuación" not in out


def test_in_ci_the_visible_checks_are_never_called_a_grade_and_leave_nothing_to_hand_in(
        tmp_path, fast_bpe_bytes, capsys, monkeypatch):
    """The job log, its annotation and the job summary all say it is not the grade; no junit.xml lands
    in the folder the student hands in (nbgrader submit would send it)."""
    folder = tmp_path / "bpe_bytes"
    folder.mkdir()
    path = samples.build_notebook(fast_bpe_bytes, samples.stub(fast_bpe_bytes), folder / "bpe_bytes.ipynb")
    summary = tmp_path / "summary.md"
    monkeypatch.chdir(folder)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert main(["grade", "bpe_bytes", str(path), "--visible", "--ci"]) == 0
    out = capsys.readouterr().out
    (notice,) = [line for line in out.splitlines() if line.startswith("::notice")]
    for text in (out, notice, summary.read_text(encoding="utf-8")):
        assert "Comprobaciones visibles: 0.00 / 100 (no es tu nota" in text and "Puntuación" not in text
    assert sorted(p.name for p in folder.iterdir()) == ["bpe_bytes.ipynb"]


# --- in a student's checkout: the lesson and the release, no solutions/ ------------------------

@pytest.fixture
def student_checkout(tmp_path):
    """The project as a student has it: course.yml and assignments/, but no solutions/."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    shutil.copy(PROJECT_ROOT / "course.yml", checkout)
    shutil.copytree(PROJECT_ROOT / "assignments", checkout / "assignments")
    return checkout / "course.yml"


@pytest.mark.parametrize("worked_in", ["embeddings.py", "embeddings.ipynb"])
def test_visible_checks_run_with_only_the_release_and_write_nothing_in_the_folder(
        course, student_checkout, tmp_path, monkeypatch, capsys, worked_in):
    """embeddings' given code is the reference's imports (numpy as np), which its checks use: here it
    comes from the student's own file, the reference being out of reach."""
    assignment = course.assignment("embeddings")
    folder = tmp_path / "embeddings"
    untouched = samples.stub(assignment)
    samples.build_notebook(assignment, samples.correct() if worked_in.endswith(".ipynb") else untouched,
                           folder / "embeddings.ipynb")
    samples.build_module(assignment, samples.correct() if worked_in.endswith(".py") else untouched,
                         folder / "embeddings.py")
    before = sorted(p.name for p in tmp_path.rglob("*") if "checkout" not in p.parts)
    monkeypatch.chdir(folder)
    assert main(["grade", "embeddings", ".", "--visible", "--course", str(student_checkout)]) == 0
    out = capsys.readouterr().out
    assert "Comprobaciones visibles: 100.00 / 100 (no es tu nota" in out and f"Se calificó {worked_in}" in out
    assert sorted(p.name for p in tmp_path.rglob("*") if "checkout" not in p.parts) == before


def test_the_given_code_taken_from_a_submission_is_only_what_is_safe_to_run_in_the_grader(tmp_path, monkeypatch):
    from autograder.notebook.loader import public_preamble

    (tmp_path / "mi_modulo.py").write_text("raise SystemExit('ran in the grader')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # as `python -m autograder` run from the student's folder
    given = ("import numpy as np\nfrom collections.abc import Mapping\nimport mi_modulo\nfrom . import vecino\n"
             "PATRON = r'\\s+'\nPESOS: dict = {'a': 1}\nimport os; os.system('touch /tmp/x')\n"
             "DATOS = open('/etc/passwd').read()\n")
    assert public_preamble([given]) == ("import numpy as np\nfrom collections.abc import Mapping\n"
                                        "PATRON = '\\\\s+'\nPESOS: dict = {'a': 1}\nimport os")
