"""How submissions are loaded: notebooks, modules, folders, and everything broken in between.

Behaviour is checked through the public path (``grade_submission`` / ``grade_batch``):
what matters is the score and the Spanish feedback a student gets. Unit-level checks
go through ``load_submission``, ``program_from_notebook`` and the worker's ``magics.neutralize``.

All graded submissions are built once and graded in one batch (module-scoped fixture);
the slow one (a cell that loops forever at load, ~10 s with ``fast_bpe_bytes``) is
queued first so that it overlaps with the others.
"""

from __future__ import annotations

import ast
import copy
import json
import keyword
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder import samples
from autograder.cli import main
from autograder.grading.batch import grade_batch
from autograder.grading.kit import build_kit
from autograder.grading.session import grade_submission
from autograder.notebook.lesson import load_source_notebook
from autograder.notebook.loader import Cell, SubmissionError, cell_label, load_submission, program_from_notebook
from autograder.sandbox.magics import neutralize as neutralize_magics
from autograder.samples import Sample

CORRECT = samples.correct("bpe_bytes")
MISSING_MERGE = "No se encontró la función `merge`"


# --- building submissions -----------------------------------------------------------------

def _role(cell) -> dict:
    role = cell.get("metadata", {}).get("autograder", {})
    return role if isinstance(role, dict) else {}


def _index_of(notebook, role: str, function: str) -> int:
    return next(i for i, cell in enumerate(notebook.cells)
                if _role(cell).get("role") == role and _role(cell).get("function") == function)


def build(assignment, path: Path, sample: Sample = CORRECT, *, after: dict | None = None, edit=None) -> Path:
    """A sample notebook, with extra code cells right after some solution cells and any other edit."""
    samples.build_notebook(assignment, sample, path)
    notebook = nbformat.read(path, as_version=4)
    for function, codes in (after or {}).items():
        index = _index_of(notebook, "solution", function)
        notebook.cells[index + 1:index + 1] = [nbformat.v4.new_code_cell(code) for code in codes]
    if edit is not None:
        edit(notebook)
    nbformat.write(notebook, path)
    return path


def cell_name(path: Path, source: str) -> str:
    """How the loader names the cell of `path` whose source is `source` (test_cells_are_named_as_a_student_finds_them)."""
    notebook = nbformat.read(path, as_version=4)
    taken: set[str] = set()
    for cell in notebook.cells:
        if cell.cell_type == "code":
            label = cell_label(cell.source, taken)
            if cell.source == source:
                return label
    raise LookupError(source)


def _delete(role: str, function: str):
    def edit(notebook):
        del notebook.cells[_index_of(notebook, role, function)]
    return edit


def _replace_source(role: str, function: str, source: str):
    def edit(notebook):
        notebook.cells[_index_of(notebook, role, function)].source = source
    return edit


def _huge_outputs(assignment, path: Path, size: int) -> Path:
    """The reference notebook with `size` characters of stored output in its first code cell."""
    reference = samples.build_notebook(assignment, CORRECT, path.with_name("for_huge.ipynb"))
    data = json.loads(reference.read_text(encoding="utf-8"))
    cell = next(c for c in data["cells"] if c["cell_type"] == "code")
    cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x" * size}]
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _nbformat_v3(assignment, path: Path) -> Path:
    reference = nbformat.read(samples.build_notebook(assignment, CORRECT, path.with_name("for_v3.ipynb")), as_version=4)
    path.write_text(nbformat.writes(nbformat.convert(reference, 3), version=3), encoding="utf-8")
    return path


MAGICS_FIRST = ("%timeit 1+1", "!pip install numpy")
MAGICS_AFTER = {
    "get_stats": ("%%bash\necho hi",),
    "merge": ("files = !ls",),
    "train_bpe": ('get_ipython().run_line_magic("matplotlib", "inline")', "%matplotlib inline"),
}
SYNTAX_ERROR = "def roto(:\n    pass"
RAISES = "raise RuntimeError('esta celda falla')"
EXITS = "import sys\nsys.exit()"
BLANK_LINES_THEN_RAISE = "\n\n\nraise LookupError('tras tres líneas en blanco')"  # the raise is line 4
LOOPS = "while True:\n    pass"
KILLS = "import os\nos._exit(3)"
HUGE_OUTPUT = 50 * 10**6


@pytest.fixture(scope="module")
def built(fast_bpe_bytes, tmp_path_factory) -> dict[str, Path]:
    a, folder = fast_bpe_bytes, tmp_path_factory.mktemp("loader")
    folder_ok = folder / "carpeta_ok"
    folder_ok.mkdir()
    build(a, folder_ok / "bpe_bytes.ipynb")
    (folder_ok / "borrador.ipynb").write_text("{}", encoding="utf-8")  # must be ignored: the right name wins
    return {
        # the slow one first, so it overlaps with the rest of the batch
        "hangs_and_exits": build(a, folder / "hangs.ipynb", after={"merge": (LOOPS, KILLS)}),
        # 4 cells of 4000 magic lines: ~25 s each of IPython's transformer here, spent in the worker
        "magic_flood": build(a, folder / "magic_flood.ipynb", Sample("flood", "hostile", "slow magics",
                                                                     cells=("\n".join(["%timeit x = 1"] * 4000),) * 4)),
        "magics": build(a, folder / "magics.ipynb", Sample("magics", "buggy", "IPython syntax", first_cells=MAGICS_FIRST),
                        after=MAGICS_AFTER),
        "failing_cells": build(a, folder / "failing.ipynb",
                               Sample("failing", "buggy", "cells that fail", first_cells=(SYNTAX_ERROR,),
                                      cells=(BLANK_LINES_THEN_RAISE,)),
                               after={"get_stats": (RAISES,), "merge": (EXITS,)}),
        "merge_deleted": build(a, folder / "merge_deleted.ipynb", edit=_delete("solution", "merge")),
        "merge_renamed": build(a, folder / "merge_renamed.ipynb", Sample(
            "merge2", "buggy", "renamed", replace={"merge": "def merge2(ids, pair, idx):\n    return list(ids)\n"})),
        "merge_signature": build(a, folder / "merge_signature.ipynb", Sample(
            "merge_sig", "buggy", "wrong signature", replace={"merge": "def merge(ids, pair):\n    return list(ids)\n"})),
        "checks_edited": build(a, folder / "checks_edited.ipynb", edit=_replace_source("checks", "merge", "assert True")),
        "checks_deleted": build(a, folder / "checks_deleted.ipynb", edit=_delete("checks", "merge")),
        "nbformat_v3": _nbformat_v3(a, folder / "v3.ipynb"),
        "folder": folder_ok,
        "module": samples.build_module(a, CORRECT, folder / "modulo" / "bpe_bytes.py"),
        "huge_outputs": _huge_outputs(a, folder / "huge.ipynb", HUGE_OUTPUT),
    }


@pytest.fixture(scope="module")
def graded(course, fast_bpe_bytes, built):
    results = grade_batch(fast_bpe_bytes, list(built.values()), jobs=2)
    return dict(zip(built, results))


def explain(result) -> str:
    lines = [f"score {result.score}/{result.max_score}; error: {result.error_instructor}; load: {result.load}"]
    lines += [f"{t.test_id}: {t.outcome}: {t.feedback} [{t.instructor_note}]" for t in result.tests if not t.passed]
    return "\n".join(lines)


def assert_full_marks(result):
    assert result.error_student == "", explain(result)
    assert result.score == result.max_score == 100, explain(result)


def assert_only_merge_lost(result):
    for name, (score, maximum) in result.by_function().items():
        if name == "merge":
            assert score == 0, explain(result)
        else:
            assert score == pytest.approx(maximum), f"{name}\n{explain(result)}"


# --- IPython syntax -----------------------------------------------------------------------

def test_ipython_syntax_is_neutralized_and_grades_full_marks(graded):
    result = graded["magics"]
    assert_full_marks(result)
    assert result.load.failed_cells == () and result.load.skipped_cells == ()


@pytest.mark.parametrize("source", [*MAGICS_FIRST, *(c for cs in MAGICS_AFTER.values() for c in cs), "len?"])
def test_neutralized_magics_are_plain_python(source):
    out = neutralize_magics(source)
    ast.parse(out)  # compiles as plain Python
    if not source.startswith("get_ipython()"):
        assert "get_ipython()" in out


def test_neutralize_magics_leaves_broken_python_for_the_worker_to_report():
    assert neutralize_magics(SYNTAX_ERROR).rstrip("\n") == SYNTAX_ERROR


_plain_line = st.from_regex(r"[a-z]{1,8} = (0|[1-9][0-9]{0,4})", fullmatch=True).filter(
    lambda line: not keyword.iskeyword(line.split(" ")[0]))
_plain_snippet = st.lists(_plain_line, min_size=1, max_size=8).map("\n".join)


@settings(max_examples=150, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=_plain_snippet, final_newline=st.booleans())
def test_neutralize_magics_leaves_plain_python_untouched(source, final_newline):
    source += "\n" if final_newline else ""
    out = neutralize_magics(source)
    assert out == source


@pytest.mark.parametrize("source", [
    "\n\nx = 1\n",
    "   \nx = 1\n",
    's = """a\n   \nb"""\n',
], ids=["leading-blank-lines", "leading-whitespace-line", "whitespace-line-in-string"])
def test_neutralize_magics_leaves_valid_python_with_blank_lines_untouched(source):
    assert neutralize_magics(source) == source


# --- cells that fail, hang or kill the worker while loading -------------------------------

def test_slow_ipython_syntax_costs_the_submission_not_the_grader(graded, fast_bpe_bytes):
    # Attack: thousands of %timeit lines once cost ~100 s per cell of IPython's transformer in the
    # grading process. The transformer now runs in the worker, so a slow cell is a slow cell.
    # Then 4 such cells cost 124 s: each had load_seconds of its own. They share it now. The time is
    # the one the limits are held to: wall-clock time grows with the machine's load (30.9 s in a CI run).
    result = graded["magic_flood"]
    assert_full_marks(result)
    skipped = result.load.skipped_cells
    assert len(skipped) == 4 and all(s.endswith("se omitió porque tardó demasiado") for s in skipped), explain(result)
    load_seconds = fast_bpe_bytes.limits.load_seconds
    assert load_seconds <= result.charged_seconds < load_seconds * 3, (result.charged_seconds, result.duration_seconds)


def test_failing_cells_do_not_hide_other_functions(graded, built):
    result = graded["failing_cells"]
    assert_full_marks(result)
    path = built["failing_cells"]
    expected = {SYNTAX_ERROR: "SyntaxError", RAISES: "RuntimeError", EXITS: "SystemExit",
                BLANK_LINES_THEN_RAISE: "LookupError"}
    failed = result.load.failed_cells
    assert len(failed) == len(expected), failed
    for source, error in expected.items():
        name = cell_name(path, source)
        lines = [line for line in failed if line.startswith(name)]
        assert len(lines) == 1 and error in lines[0] and "celda" in lines[0], (name, failed)
    assert all("celda" in line for line in failed)


def test_failed_cell_reports_the_line_the_student_sees(graded, built):
    name = cell_name(built["failing_cells"], BLANK_LINES_THEN_RAISE)
    (line,) = [line for line in graded["failing_cells"].load.failed_cells if line.startswith(name)]
    assert line.startswith(f"{name}, línea 4: LookupError"), line


def test_cells_that_hang_or_kill_the_worker_are_skipped(graded, built):
    result = graded["hangs_and_exits"]
    # get_stats and merge are defined before the two cells, the other five after: all of them work
    assert_full_marks(result)
    path = built["hangs_and_exits"]
    skipped = list(result.load.skipped_cells)
    assert skipped == [f"{cell_name(path, LOOPS)}: se omitió porque tardó demasiado",
                       f"{cell_name(path, KILLS)}: se omitió porque terminó el proceso"], skipped
    assert result.load.failed_cells == ()


# --- functions deleted, renamed or with the wrong signature --------------------------------

@pytest.mark.parametrize("case", ["merge_deleted", "merge_renamed"])
def test_missing_merge_costs_only_merge(graded, case):
    result = graded[case]
    merge_tests = [t for t in result.tests if t.function == "merge"]
    assert merge_tests
    for test in merge_tests:
        assert test.outcome == "missing", explain(result)
        assert MISSING_MERGE in test.feedback
    assert result.load.missing_functions == ("merge",)
    # train_bpe and encode are graded with the reference merge (DEPENDS_ON): no double charge
    assert_only_merge_lost(result)


def test_wrong_signature_fails_merge_with_a_type_error(graded):
    result = graded["merge_signature"]
    merge_tests = [t for t in result.tests if t.function == "merge"]
    for test in merge_tests:
        assert test.outcome == "raised", explain(result)
        assert "TypeError" in test.feedback and test.feedback.startswith("Tu función lanzó")
    assert result.load.missing_functions == ()
    assert_only_merge_lost(result)


# --- locked cells -------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["checks_edited", "checks_deleted"])
def test_edited_or_deleted_visible_checks_do_not_matter(graded, built, bpe_bytes, case):
    assert_full_marks(graded[case])
    assert graded[case].load.notes == ()
    program = load_submission(built[case], bpe_bytes, load_source_notebook(bpe_bytes))
    release = load_source_notebook(bpe_bytes)
    checks = release.cells[_index_of(release, "checks", "merge")].source
    assert all(cell.source.strip() not in ("assert True", checks.strip()) for cell in program.cells)


GIVEN_SOURCE = "%matplotlib inline\nBASE = 256\n"


@pytest.fixture
def release_with_given(bpe_bytes):
    release = copy.deepcopy(load_source_notebook(bpe_bytes))
    given_cell = nbformat.v4.new_code_cell(GIVEN_SOURCE, metadata={
        "nbgrader": {"grade_id": "given_1", "locked": True, "solution": False, "grade": False},
        "autograder": {"role": "given"},
    })
    release.cells.insert(1, given_cell)
    return release


def _given_index(notebook) -> int:
    return next(i for i, c in enumerate(notebook.cells) if _role(c).get("role") == "given")


def test_untouched_given_cell_runs_without_notes(release_with_given):
    program = program_from_notebook(copy.deepcopy(release_with_given), release_with_given)
    assert program.notes == []
    assert program.cells[0] == Cell("<celda «%matplotlib inline»>", GIVEN_SOURCE)


def test_edited_given_cell_uses_the_release_version(release_with_given):
    submission = copy.deepcopy(release_with_given)
    submission.cells[_given_index(submission)].source = "BASE = 0\n"
    program = program_from_notebook(submission, release_with_given)
    assert program.cells[0] == Cell("<celda «BASE = 0»>", GIVEN_SOURCE)  # named as the student's copy reads
    assert not any("BASE = 0" in cell.source for cell in program.cells)
    assert program.notes == ["La celda bloqueada «BASE = 0» fue modificada: se usó la versión original."]


def test_deleted_given_cell_is_restored(release_with_given):
    submission = copy.deepcopy(release_with_given)
    del submission.cells[_given_index(submission)]
    program = program_from_notebook(submission, release_with_given)
    assert program.cells[0].filename == "<enunciado given_1>"
    assert "BASE = 256" in program.cells[0].source
    assert sum("BASE = 256" in cell.source for cell in program.cells) == 1
    assert len(program.notes) == 1 and "se restauraron" in program.notes[0] and "bloqueadas" in program.notes[0]


def test_restored_given_cell_is_neutralized_like_the_others(release_with_given):
    submission = copy.deepcopy(release_with_given)
    del submission.cells[_given_index(submission)]
    program = program_from_notebook(submission, release_with_given)
    assert program.ipython_syntax
    ast.parse(neutralize_magics(program.cells[0].source))


# --- what can be submitted ----------------------------------------------------------------

def test_nbformat_v3_notebook_is_converted_and_graded(graded, built, bpe_bytes):
    assert json.loads(built["nbformat_v3"].read_text(encoding="utf-8"))["nbformat"] == 3
    assert_full_marks(graded["nbformat_v3"])
    # the converted notebook yields the same program as the v4 original (checks and demos dropped)
    release = load_source_notebook(bpe_bytes)
    v3 = load_submission(built["nbformat_v3"], bpe_bytes, release)
    v4 = program_from_notebook(release, release)
    assert [c.source for c in v3.cells] == [c.source for c in v4.cells]


def test_folder_with_the_assignment_notebook_is_graded(graded):
    assert_full_marks(graded["folder"])


def test_python_module_is_graded(graded, built, bpe_bytes):
    assert_full_marks(graded["module"])
    program = load_submission(built["module"], bpe_bytes, load_source_notebook(bpe_bytes))
    assert program.module_name == "bpe_bytes" and [c.filename for c in program.cells] == ["bpe_bytes.py"]


def test_huge_outputs_are_ignored(graded, built, bpe_bytes):
    path = built["huge_outputs"]
    assert path.stat().st_size > HUGE_OUTPUT
    started = time.monotonic()
    program = load_submission(path, bpe_bytes, load_source_notebook(bpe_bytes))
    assert time.monotonic() - started < 15
    assert all("x" * 1000 not in cell.source for cell in program.cells)
    result = graded["huge_outputs"]
    assert_full_marks(result)
    assert result.duration_seconds < 30


def test_folder_with_one_notebook_of_another_name_uses_it(bpe_bytes, tmp_path):
    build(bpe_bytes, tmp_path / "mi_entrega.ipynb")
    program = load_submission(tmp_path, bpe_bytes, load_source_notebook(bpe_bytes))
    assert any("def merge(" in cell.source for cell in program.cells)


@pytest.mark.parametrize("layout", ["entrega/bpe_bytes.ipynb", "entrega/sub/bpe_bytes.ipynb", "entrega/otro_nombre.ipynb"])
def test_a_folder_is_searched_as_a_zip_is(bpe_bytes, tmp_path, layout):
    """Gradescope unpacks a zipped folder into the submission folder: the notebook one level down."""
    release = load_source_notebook(bpe_bytes)
    build(bpe_bytes, tmp_path / "dir" / layout)
    (tmp_path / "dir" / "entrega" / ".ipynb_checkpoints").mkdir(parents=True)
    build(bpe_bytes, tmp_path / "dir" / "entrega" / ".ipynb_checkpoints" / "bpe_bytes-checkpoint.ipynb")
    (tmp_path / "dir" / "LEEME.txt").write_text("hola", encoding="utf-8")
    shutil.make_archive(str(tmp_path / "entrega"), "zip", tmp_path / "dir")
    from_folder = load_submission(tmp_path / "dir", bpe_bytes, release)
    from_zip = load_submission(tmp_path / "entrega.zip", bpe_bytes, release)
    assert from_folder.handed_in == Path(layout).name and from_zip.handed_in == layout
    assert [c.source for c in from_folder.cells] == [c.source for c in from_zip.cells]
    assert any("def merge(" in cell.source for cell in from_folder.cells)


def test_a_folder_with_two_candidates_deep_down_is_refused_as_a_zip_is(bpe_bytes, tmp_path):
    for name in ("a/borrador.ipynb", "b/copia.ipynb"):
        build(bpe_bytes, tmp_path / "dir" / name)
    shutil.make_archive(str(tmp_path / "entrega"), "zip", tmp_path / "dir")
    release = load_source_notebook(bpe_bytes)
    messages = []
    for path in (tmp_path / "dir", tmp_path / "entrega.zip"):
        with pytest.raises(SubmissionError) as caught:
            load_submission(path, bpe_bytes, release)
        messages.append(caught.value.student_message)
    assert messages[0] == messages[1] and "a/borrador.ipynb, b/copia.ipynb" in messages[0]


# --- a file of another assignment ------------------------------------------------------------

@pytest.fixture(scope="module")
def released_notebooks(course, tmp_path_factory):
    """Each assignment's released notebook (every function a stub) and its reference as a module."""
    folder = tmp_path_factory.mktemp("released")
    for assignment in course.assignments.values():
        nbformat.write(load_source_notebook(assignment), folder / f"{assignment.notebook}.ipynb")
        shutil.copy(assignment.solution_path, folder / f"{assignment.notebook}.py")
    return folder


@pytest.mark.parametrize("suffix", [".ipynb", ".py"])
def test_a_file_of_another_assignment_is_named_in_one_sentence(course, released_notebooks, suffix):
    for graded in course.assignments.values():
        release = load_source_notebook(graded)
        for handed_in in course.assignments.values():
            path = released_notebooks / f"{handed_in.notebook}{suffix}"
            if handed_in is graded:
                load_submission(path, graded, release)  # its own file: graded
                continue
            with pytest.raises(SubmissionError) as caught:
                load_submission(path, graded, release)
            message = caught.value.student_message
            assert message.count(".") <= 3 and "\n" not in message  # one sentence, plus file names
            assert f"«{handed_in.title}»" in message and f"entrega tu {graded.notebook}.ipynb" in message
            assert f"assignment {handed_in.id}" in caught.value.instructor_message


def test_a_partial_notebook_is_never_taken_for_another_assignment(bpe_bytes, tmp_path):
    """bpe_bytes shares encode and decode with tokenizacion: a student who wrote only those is graded."""
    path = tmp_path / "bpe_bytes.py"
    path.write_text("def encode(text, merges):\n    return []\n\ndef decode(ids, vocab):\n    return ''\n")
    program = load_submission(path, bpe_bytes, load_source_notebook(bpe_bytes))
    assert program.module_name == "bpe_bytes"


def test_another_assignments_notebook_gets_one_line_from_the_cli(course, released_notebooks, tmp_path, capsys):
    code = main(["grade", "bpe_bytes", str(released_notebooks / "tokenizacion.ipynb"),
                 "--results", str(tmp_path / "r.json")])
    out = capsys.readouterr().out
    assert code == 1 and "Este archivo es de otra tarea" in out
    assert "No se encontró la función" not in out and "Todavía no está implementada" not in out


# --- cells are named as a student finds them -----------------------------------------------

@pytest.mark.parametrize("source, label", [
    ("def merge(ids, pair, idx):\n    return ids\n", "<celda de merge>"),
    ("import re\n\ndef helper():\n    pass\n\ndef encode(text):\n    pass\n", "<celda de helper>"),
    ("def roto(:\n    pass\n", "<celda de roto>"),  # does not parse: read line by line
    ("\n\n  vocab = build_vocab(merges)\n", "<celda «vocab = build_vocab(merges)»>"),
    ("print('una línea muy larga que no cabe en una etiqueta de celda')", "<celda «print('una línea muy larga que no cabe e…»>"),
    ("x = '\x1b[2Jborrado'", "<celda «x = '[2Jborrado'»>"),
    ("   \n", "<celda vacía>"),
])
def test_cells_are_named_as_a_student_finds_them(source, label):
    assert cell_label(source, set()) == label


def test_cell_names_are_unique_in_a_notebook():
    taken: set[str] = set()
    names = [cell_label("def merge():\n    pass\n", taken) for _ in range(3)]
    assert names == ["<celda de merge>", "<celda de merge, 2.ª>", "<celda de merge, 3.ª>"]


# --- broken submissions: a Spanish reason for the student, never an exception ---------------

def _reference_bytes(assignment, folder: Path) -> bytes:
    return samples.build_notebook(assignment, CORRECT, folder / "ref" / "ref.ipynb").read_bytes()


def _write(name: str, content: bytes):
    def make(assignment, folder: Path) -> Path:
        path = folder / name
        path.write_bytes(content)
        return path
    return make


def _truncated(assignment, folder):
    raw = _reference_bytes(assignment, folder)
    return _write("truncado.ipynb", raw[: len(raw) // 2])(assignment, folder)


def _txt(assignment, folder):
    return _write("bpe_bytes.txt", _reference_bytes(assignment, folder))(assignment, folder)


def _two_notebooks(assignment, folder):
    raw = _reference_bytes(assignment, folder)
    entrega = folder / "entrega"
    entrega.mkdir()
    (entrega / "copia.ipynb").write_bytes(raw)
    (entrega / "borrador.ipynb").write_bytes(raw)
    return entrega


def _symlink(assignment, folder):
    real = folder / "ref" / "real.ipynb"
    real.parent.mkdir(exist_ok=True)
    real.write_bytes(_reference_bytes(assignment, folder))
    link = folder / "bpe_bytes.ipynb"
    link.symlink_to(real)
    return link


def _with_extra_cells(name: str, cells: list[str]):
    def make(assignment, folder: Path) -> Path:
        sample = Sample(name, "hostile", "extra cells", cells=tuple(cells))
        return samples.build_notebook(assignment, sample, folder / f"{name}.ipynb")
    return make


def _too_large(assignment, folder):
    path = folder / "enorme.ipynb"
    with path.open("wb") as handle:  # sparse: costs no disk
        handle.truncate(65 * 2**20)
    return path


BROKEN = {
    # case: (builder, Spanish fragment for the student, English fragment for the instructor)
    "invalid-json": (_write("roto.ipynb", b'{"cells": [}'), "el JSON está dañado", "invalid JSON"),
    "truncated": (_truncated, "el JSON está dañado", "invalid JSON"),
    "json-list": (_write("lista.ipynb", b"[]"), "no tiene la estructura de un cuaderno", "JSON is not a notebook"),
    "json-dict": (_write("dict.ipynb", b'{"a": 1}'), "no tiene la estructura de un cuaderno", "JSON is not a notebook"),
    "not-utf8": (_write("latin.ipynb", b"\xff\xfe{\x00}\x00"), "no está guardado en UTF-8", "not UTF-8"),
    "empty": (_write("vacio.ipynb", b""), "vacio.ipynb está vacío (0 bytes)", "empty file (0 bytes)"),
    "blank": (_write("blanco.ipynb", b"\n \n"), "blanco.ipynb está vacío (3 bytes)", "empty file (3 bytes)"),
    "empty-module": (_write("vacio.py", b""), "vacio.py está vacío (0 bytes): no contiene ninguna función",
                     "empty file (0 bytes)"),
    "txt": (_txt, "no es un cuaderno (.ipynb), un módulo (.py) ni un .zip", "expected a .ipynb, .py or .zip file"),
    "folder-two-notebooks": (_two_notebooks, "La entrega debe contener bpe_bytes.ipynb",
                             "expected bpe_bytes.ipynb or .py, found: borrador.ipynb, copia.ipynb"),
    "symlink": (_symlink, "enlace simbólico", "symbolic link"),
    "too-large": (_too_large, "demasiado grande", "larger than 64 MiB"),
    "unsupported-version": (_write("v5.ipynb", b'{"cells": [], "nbformat": 5, "nbformat_minor": 0, "metadata": {}}'),
                            "usa un formato de cuaderno que no se puede leer", "nbformat cannot read it"),
    "missing": (lambda assignment, folder: folder / "no_existe.ipynb", "No se encontró el archivo", "no such file"),
    # Bounded before anything runs: the work a notebook may ask for.
    "too-many-cells": (_with_extra_cells("celdas", ["x = 1"] * 1001), "celdas de código; el máximo", "code cells (limit"),
    "too-much-code": (_with_extra_cells("codigo", ["# " + "x" * 3_000_000]), "caracteres; el máximo",
                      "characters of code (limit"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_submission_gets_a_reason_and_zero(course, fast_bpe_bytes, tmp_path, case):
    make, student_fragment, instructor_fragment = BROKEN[case]
    path = make(fast_bpe_bytes, tmp_path)

    with pytest.raises(SubmissionError) as caught:
        load_submission(path, fast_bpe_bytes, load_source_notebook(fast_bpe_bytes))
    error = caught.value
    assert student_fragment in error.student_message
    assert instructor_fragment in error.instructor_message
    assert error.student_message != error.instructor_message
    assert str(path) not in error.student_message  # the student sees a file name, not the grader's paths

    result = grade_submission(build_kit(fast_bpe_bytes), path)
    assert result.score == 0
    assert result.error_student == error.student_message
    assert result.error_instructor == error.instructor_message
    assert {t.function for t in result.tests} == set(fast_bpe_bytes.points)
    assert all(t.outcome == "broken_submission" and t.feedback == error.student_message for t in result.tests)
    assert sum(t.max_score for t in result.tests) == result.max_score == 100


def test_reading_notebooks_skips_the_iri_grammars_that_cost_a_second_per_command():
    """jsonschema imports rfc3987_syntax, when installed, for a string format no notebook schema uses;
    its import compiles lark grammars for about a second (autograder/__init__.py)."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        distribution("rfc3987-syntax")
    except PackageNotFoundError:
        pytest.skip("rfc3987-syntax is not installed here: jsonschema has nothing slow to import")
    code = ("import autograder.notebook.loader, nbformat, sys; nbformat.validate(nbformat.v4.new_notebook()); "
            "print(sorted(name for name in ('lark', 'rfc3987_syntax') if sys.modules.get(name) is not None))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"
