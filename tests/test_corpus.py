"""Correct code written by other hands gets exactly full marks, on every path.

solutions/ID/corpus/ holds, per assignment, at least ten correct implementations written from
the spec and the lesson alone (not from the suite), in deliberately different styles, plus
reimplementations of third-party designs (karpathy/minbpe's tokenizers, the Hugging Face
course's BPE) with only the patches the spec forces, each named. They follow those designs
without copying their code, which this project does not commit.
Each one is graded as a `.py` module and as a notebook (samples.from_module), through the
hidden suite and the visible checks (`grade --visible`); and once, as a module or a notebook in
turn, through the student-side CI checks that `release --ci` writes into the student's repository.
"""

from __future__ import annotations

import concurrent.futures
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from autograder import samples
from autograder.audit.run import audit_assignment
from autograder.course import load_course
from autograder.cli import main

COURSE = load_course()
ASSIGNMENTS = list(COURSE.assignments)
CORPUS = {a: sorted(COURSE.assignment(a).corpus_folder.glob("*.py")) for a in ASSIGNMENTS}
THIRD_PARTY = {"bpe_bytes": "karpathy/minbpe", "tokenizador_gpt": "karpathy/minbpe", "bpe_palabras": "Hugging Face"}
PATHS = [(a, form, suite) for a in ASSIGNMENTS for form in ("module", "notebook") for suite in ("hidden", "visible")]


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_assignment_has_ten_correct_implementations_in_different_hands(assignment_id):
    files = CORPUS[assignment_id]
    assert len(files) >= 10, f"{COURSE.assignment(assignment_id).corpus_folder} holds {len(files)} implementations"
    docstrings = [f.read_text(encoding="utf-8").lstrip().startswith(('"""', "'''")) for f in files]
    assert all(docstrings), "each implementation starts with a docstring that says what makes it different"
    if assignment_id in THIRD_PARTY:
        assert any(THIRD_PARTY[assignment_id] in f.read_text(encoding="utf-8") for f in files)


@pytest.fixture(scope="module")
def audited():
    cache: dict = {}

    def checks(assignment_id: str) -> dict:
        if assignment_id not in cache:
            audit = audit_assignment(COURSE, COURSE.assignment(assignment_id), jobs=2, sections=("corpus",))
            cache[assignment_id] = audit.section("corpus")
        return cache[assignment_id]

    return checks


@pytest.mark.parametrize("assignment_id, form, suite", PATHS, ids=["-".join(p) for p in PATHS])
def test_correct_implementations_get_full_marks(audited, assignment_id, form, suite):
    checks = [c for c in audited(assignment_id) if c.form == form and c.suite == suite]
    assert len(checks) == len(CORPUS[assignment_id])
    lost = [f"{c.name}: {c.score:.2f}/{c.max_score:g}: {c.detail}" for c in checks if not c.ok]
    assert not lost, "\n".join(lost)


# --- the student-side CI checks --------------------------------------------------------------

@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    course_dir = tmp_path_factory.mktemp("corpus-course")
    assert main(["release", "--all", "--course-dir", str(course_dir), "--ci", "github"]) == 0
    return {a: course_dir / "release" / a for a in ASSIGNMENTS}


def student_checks(release: Path, workspace: Path, submission: Path, notebook: str) -> dict[str, str]:
    """`python -m pytest comprobaciones` in a student's repository holding `submission`: {case: failure}."""
    shutil.copytree(release, workspace)
    (workspace / f"{notebook}.ipynb").unlink()
    shutil.copy2(submission, workspace / f"{notebook}{submission.suffix}")
    subprocess.run([sys.executable, "-m", "pytest", "comprobaciones", "-q", "-p", "no:cacheprovider",
                    "--junitxml=junit.xml"], cwd=workspace, capture_output=True, text=True, timeout=300)
    assert not (workspace / ".hypothesis").exists()  # the checks write nothing into the student's repository
    cases = ET.parse(workspace / "junit.xml").getroot().iter("testcase")
    return {c.get("name"): (c.find("failure") if c.find("failure") is not None else c.find("error")) is not None
            for c in cases}


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_correct_implementations_pass_the_student_side_checks(releases, tmp_path, assignment_id):
    """Each implementation once, as a module or as a notebook in turn: the code is the same in both
    forms (samples.from_module), and each form is loaded by the checks for half the corpus (the hidden
    suite and the visible checks grade every implementation in both forms, above)."""
    assignment = COURSE.assignment(assignment_id)
    submissions = []
    for index, path in enumerate(CORPUS[assignment_id]):
        if index % 2:
            notebook = tmp_path / "nb" / path.stem / f"{assignment.notebook}.ipynb"
            path = samples.build_notebook(assignment, samples.from_module(assignment, path), notebook)
        submissions.append(path)
    assert {p.suffix for p in submissions} == {".py", ".ipynb"}

    def run(index_and_path):
        index, path = index_and_path
        return path, student_checks(releases[assignment_id], tmp_path / f"repo{index}", path, assignment.notebook)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(run, enumerate(submissions)))
    failed = {f"{path.parent.name}/{path.name}": [case for case, bad in cases.items() if bad]
              for path, cases in outcomes if any(cases.values()) or not cases}
    assert not failed, failed


OWN_CLASSES = samples.cell('''
    import functools


    class Vocabulario(dict):
        pass


    class Lista(list):
        pass


    class Par(tuple):
        pass


    class Texto(str):
        pass


    class Numero(float):
        pass


    class Entero(int):
        pass


    def _propio(valor, argumentos=()):
        """The same value, made of the student's own subclasses (an argument handed back stays itself)."""
        if any(valor is a for a in argumentos):
            return valor
        if type(valor) is dict:
            return Vocabulario({_propio(k): _propio(v) for k, v in valor.items()})
        if type(valor) is list:
            return Lista(_propio(v) for v in valor)
        if type(valor) is tuple:
            return Par(_propio(v) for v in valor)
        kinds = {str: Texto, float: Numero, int: Entero}
        return kinds[type(valor)](valor) if type(valor) in kinds else valor


    def _envolver(funcion):
        @functools.wraps(funcion)
        def envuelta(*args, **kwargs):
            return _propio(funcion(*args, **kwargs), (*args, *kwargs.values()))
        return envuelta


    for _nombre in NAMES:
        globals()[_nombre] = _envolver(globals()[_nombre])
''')


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_correct_code_that_returns_its_own_subclasses_gets_full_marks(assignment_id, tmp_path):
    """The lessons say a subclass of the asked type is graded by its value: the reference, with every
    answer rebuilt from the student's own `class Vocabulario(dict)`, `Lista(list)`, `Par(tuple)`,
    `Texto(str)`, `Numero(float)` and `Entero(int)`, scores exactly what the reference does."""
    from autograder.grading.batch import grade_batch

    assignment = COURSE.assignment(assignment_id)
    sample = samples.Sample("own_classes", "correct", "the reference, answering with its own subclasses",
                            cells=(OWN_CLASSES.replace("NAMES", repr(list(assignment.points))),))
    (result,) = grade_batch(assignment, [samples.build_notebook(assignment, sample, tmp_path / "own.ipynb")], jobs=1)
    assert result.score == result.max_score == 100, [f"{t.test_id}: {t.feedback}" for t in result.tests if not t.passed]
