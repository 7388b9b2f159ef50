"""A submission holding both the notebook and the module, as nbgrader's `submit` sends the released
folder: the file the student worked on is graded, and every output says which one and why.

The class is released by `autograder release`, then goes through nbgrader's own exchange
(release_assignment -> fetch_assignment -> submit -> collect, with a local exchange), as
students on a JupyterHub hand it in.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default import (ExchangeCollect, ExchangeFetchAssignment, ExchangeReleaseAssignment,
                                       ExchangeSubmit)
from traitlets.config import Config

from autograder import samples
from autograder.classroom.pipeline import grade_class
from autograder.cli import main
from autograder.notebook.lesson import load_source_notebook, solution_functions, stub_module
from autograder.notebook.loader import load_submission
from autograder.release import release_assignment

FULL = ("get_stats", "merge", "train_bpe", "build_vocab", "encode", "decode", "compression_ratio")


def _exchange_config(course_dir: Path, exchange: Path, student: str = "", home: Path | None = None) -> Config:
    config = Config()
    config.CourseDirectory.root = str(course_dir)
    config.CourseDirectory.course_id = "tokens"
    config.CourseDirectory.assignment_id = "bpe_bytes"
    config.Exchange.root = str(exchange)
    config.Exchange.path_includes_course = False
    if student:
        config.CourseDirectory.student_id = student
        config.Exchange.assignment_dir = str(home)
        config.Exchange.cache = str(home / ".nbgrader-cache")
    return config


def _nbgrader(step, config: Config) -> None:
    step(coursedir=CourseDirectory(config=config), authenticator=Authenticator(config=config), config=config).start()


def _write_in_notebook(path: Path, assignment, functions) -> None:
    """What a student does in Jupyter: type the function's body into its solution cell."""
    reference = solution_functions(assignment.solution_path.read_text(encoding="utf-8"))
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in functions and cell.metadata["nbgrader"].get("solution"):
            cell.source = f"{reference[grade_id].header}\n{reference[grade_id].body}"
    nbformat.write(notebook, path)


def _write_in_module(path: Path, assignment) -> None:
    samples.build_module(assignment, samples.correct(), path)


# who worked where: (in the notebook, in the module)
STUDENTS = {"ana": ((), True), "bruno": (FULL, False), "carla": (("get_stats", "merge"), True)}


@pytest.fixture(scope="module")
def handed_in(tmp_path_factory, course, fast_bpe_bytes):
    """Three students through nbgrader's exchange, graded as a class: (course_dir, results by student)."""
    root = tmp_path_factory.mktemp("exchange")
    course_dir, exchange = root / "course", root / "exchange"
    exchange.mkdir()
    release_assignment(course, fast_bpe_bytes, course_dir)
    _nbgrader(ExchangeReleaseAssignment, _exchange_config(course_dir, exchange))
    for student, (in_notebook, in_module) in STUDENTS.items():
        home = root / student
        home.mkdir()
        config = _exchange_config(course_dir, exchange, student, home)
        _nbgrader(ExchangeFetchAssignment, config)
        folder = home / "bpe_bytes"
        assert {p.name for p in folder.iterdir()} == {"bpe_bytes.ipynb", "bpe_bytes.py"}
        if in_notebook:
            _write_in_notebook(folder / "bpe_bytes.ipynb", fast_bpe_bytes, in_notebook)
        if in_module:
            _write_in_module(folder / "bpe_bytes.py", fast_bpe_bytes)
        _nbgrader(ExchangeSubmit, config)
    _nbgrader(ExchangeCollect, _exchange_config(course_dir, exchange))
    run = grade_class(course, fast_bpe_bytes, course_dir, jobs=2)
    return course_dir, {r.student: r for r in run.results}


def test_the_file_worked_on_is_graded(handed_in):
    course_dir, results = handed_in
    for student in STUDENTS:
        submitted = course_dir / "submitted" / student / "bpe_bytes"
        assert {"bpe_bytes.ipynb", "bpe_bytes.py"} <= {p.name for p in submitted.iterdir()}
    assert results["ana"].load.graded_file == "bpe_bytes.py" and results["ana"].score == 100
    assert results["bruno"].load.graded_file == "bpe_bytes.ipynb" and results["bruno"].score == 100
    # Both worked on: the module implements all seven functions, the notebook two.
    assert results["carla"].load.graded_file == "bpe_bytes.py" and results["carla"].score == 100


def test_the_choice_is_explained_in_spanish(handed_in):
    _, results = handed_in
    assert results["ana"].load.file_choice == (
        "Se calificó bpe_bytes.py, el archivo en el que trabajaste (7 de las 7 funciones implementadas); "
        "bpe_bytes.ipynb no se calificó porque sigue como se publicó (ninguna función implementada).")
    assert results["bruno"].load.file_choice.startswith("Se calificó bpe_bytes.ipynb, el archivo en el que")
    carla = results["carla"].load.file_choice
    assert carla.startswith("Escribiste código en bpe_bytes.py y en bpe_bytes.ipynb: se calificó bpe_bytes.py "
                            "porque tiene más funciones implementadas (7 de las 7 funciones, frente a 2 en "
                            "bpe_bytes.ipynb)")


def test_every_output_names_the_graded_file(handed_in, tmp_path, capsys):
    course_dir, results = handed_in
    assert main(["feedback", "bpe_bytes", "--course-dir", str(course_dir)]) == 0
    for student, result in results.items():
        choice = result.load.file_choice
        page = (course_dir / "feedback" / student / "bpe_bytes" / "bpe_bytes.html").read_text(encoding="utf-8")
        assert choice in page
        formgrader = nbformat.read(course_dir / "autograded" / student / "bpe_bytes" / "bpe_bytes.ipynb", as_version=4)
        assert formgrader.cells[0].cell_type == "markdown" and choice in formgrader.cells[0].source
    # The student's own terminal and results.json, grading the folder as it was handed in.
    folder = course_dir / "submitted" / "ana" / "bpe_bytes"
    capsys.readouterr()
    assert main(["grade", "bpe_bytes", str(folder), "--results", str(tmp_path / "r.json")]) == 0
    assert results["ana"].load.file_choice in capsys.readouterr().out
    document = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert document["output"].startswith(results["ana"].load.file_choice) and document["score"] == 100


# --- the rule, without grading ----------------------------------------------------------------

def _released_folder(assignment, folder: Path, notebook=(), module=()) -> Path:
    """The release as a student has it, with `notebook` and `module` functions written in each."""
    samples.build_notebook(assignment, samples.stub(assignment), folder / "bpe_bytes.ipynb")
    _write_in_notebook(folder / "bpe_bytes.ipynb", assignment, notebook)
    source = assignment.solution_path.read_text(encoding="utf-8")
    (folder / "bpe_bytes.py").write_text(stub_module(source, "Puedes entregar este archivo o el cuaderno."),
                                         encoding="utf-8")
    if module:
        stub = samples.stub(assignment)
        written = samples.Sample("parcial", "buggy", "", replace={k: v for k, v in stub.replace.items()
                                                                  if k not in module})
        samples.build_module(assignment, written, folder / "bpe_bytes.py")
    return folder


@pytest.mark.parametrize("notebook, module, graded, words", [
    ((), (), "bpe_bytes.ipynb", "ni bpe_bytes.ipynb ni bpe_bytes.py tienen todavía ninguna función"),
    (("merge",), ("get_stats",), "bpe_bytes.ipynb", "en un empate se califica el cuaderno"),
    (("merge",), ("get_stats", "encode"), "bpe_bytes.py", "frente a 1 en bpe_bytes.ipynb"),
    (("merge", "encode"), ("get_stats",), "bpe_bytes.ipynb", "frente a 1 en bpe_bytes.py"),
])
def test_the_rule_is_the_same_for_a_folder_and_a_zip(bpe_bytes, tmp_path, notebook, module, graded, words):
    release = load_source_notebook(bpe_bytes)
    folder = _released_folder(bpe_bytes, tmp_path / "bpe_bytes", notebook, module)
    archive = Path(shutil.make_archive(str(tmp_path / "entrega"), "zip", tmp_path, "bpe_bytes"))
    from_folder, from_zip = load_submission(folder, bpe_bytes, release), load_submission(archive, bpe_bytes, release)
    assert from_folder.handed_in == graded and from_zip.handed_in == f"bpe_bytes/{graded}"
    assert words in from_folder.file_choice and from_folder.file_choice == from_zip.file_choice


def test_a_function_defined_again_in_a_later_cell_counts_as_the_notebook_runs_it(bpe_bytes, tmp_path):
    """A student who rewrote merge in a cell of their own, below the stub, did work in the notebook."""
    folder = _released_folder(bpe_bytes, tmp_path / "bpe_bytes")
    notebook = nbformat.read(folder / "bpe_bytes.ipynb", as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell("%%time\ndef merge(ids, pair, idx):\n    return ids\n"))
    nbformat.write(notebook, folder / "bpe_bytes.ipynb")
    program = load_submission(folder, bpe_bytes, load_source_notebook(bpe_bytes))
    assert program.handed_in == "bpe_bytes.ipynb" and "1 de las 7 funciones" in program.file_choice
