"""The broken-input corpus: every way a submission can arrive damaged, and what the student gets.

One table, ``CORPUS``, is the catalogue of broken inputs: files that cannot be read at all,
notebooks damaged in one place, archives that are hostile, folders with the wrong thing in
them. Each entry says what the student must read (a Spanish fragment), what the instructor
log must say (an English fragment) and what the submission must score:

- ``REFUSED``: nothing can be graded. Score 0, every test "broken_submission", the reason in
  ``error_student`` / ``error_instructor``;
- a set of lost functions: the rest is graded as usual, and the score is exactly the full
  marks minus those functions' points (``frozenset()`` = full marks). A zero only for what is
  really missing.

Every case is built once and all of them are graded in ONE ``grade_batch`` call. The batch
turns an exception escaping ``grade_submission`` into a "grader error" result, so every case
also checks that no exception escaped.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import shutil
import stat
import struct
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from autograder import samples
from autograder.classroom.gradebook import open_gradebook
from autograder.classroom.pipeline import grade_class
from autograder.grading.batch import grade_batch
from autograder.release import release_assignment
from autograder.notebook.lesson import load_source_notebook
from autograder.notebook.loader import MAX_SUBMISSION_BYTES, SubmissionError, load_submission
from autograder.render.gradescope import to_gradescope
from autograder.render.student_text import overall_output

from course_content import reference_functions

CORRECT = samples.correct("bpe_bytes")
REFUSED = "refused"
MiB = 2**20


@dataclasses.dataclass(frozen=True)
class Case:
    build: Callable  # (assignment, empty folder of its own) -> the path to grade
    student: tuple[str, ...] | None  # (where, Spanish fragments...); None: graded cleanly, nothing to tell
    instructor: str | None  # English fragment of the instructor log; None: no instructor message at all
    lost: object = frozenset()  # REFUSED, or the functions that score zero (the rest: full marks)
    lost_outcome: str = ""  # the outcome of every test of a lost function


# --- building blocks ---------------------------------------------------------------------

def _reference(assignment, folder: Path, name: str = "bpe_bytes.ipynb") -> Path:
    return samples.build_notebook(assignment, CORRECT, folder / name)


def _reference_json(assignment, folder: Path) -> dict:
    return json.loads(_reference(assignment, folder / "ref").read_text(encoding="utf-8"))


def _role(cell) -> dict:
    role = cell.get("metadata", {}).get("autograder", {})
    return role if isinstance(role, dict) else {}


def _index(cells, role: str, function: str | None = None, grade_id: str | None = None) -> int:
    for i, cell in enumerate(cells):
        if grade_id is not None and cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id:
            return i
        if grade_id is None and _role(cell).get("role") == role and _role(cell).get("function") == function:
            return i
    raise LookupError((role, function, grade_id))


def _write_bytes(name: str, content: bytes):
    def build(assignment, folder: Path) -> Path:
        (folder / name).write_bytes(content)
        return folder / name
    return build


def _json_edit(edit, name: str = "bpe_bytes.ipynb"):
    """The reference notebook as raw JSON, changed by `edit(data)` (no nbformat normalising)."""
    def build(assignment, folder: Path) -> Path:
        data = _reference_json(assignment, folder)
        edit(data)
        (folder / name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return folder / name
    return build


def _sample(sample: samples.Sample):
    return lambda assignment, folder: samples.build_notebook(assignment, sample, folder / "bpe_bytes.ipynb")


def _zip(name: str, entries, compression=zipfile.ZIP_DEFLATED):
    """A zip of (name or ZipInfo, bytes or builder) entries; a builder gets (assignment, folder)."""
    def build(assignment, folder: Path) -> Path:
        path = folder / name
        with zipfile.ZipFile(path, "w", compression) as archive:
            for entry, content in entries:
                data = content(assignment, folder) if callable(content) else content
                archive.writestr(entry, data)
        return path
    return build


def _reference_bytes(assignment, folder: Path) -> bytes:
    return _reference(assignment, folder / "ref").read_bytes()


# --- notebooks damaged as files ----------------------------------------------------------

def _truncated(assignment, folder):
    raw = _reference_bytes(assignment, folder)
    return _write_bytes("bpe_bytes.ipynb", raw[: len(raw) // 2])(assignment, folder)


def _windows_1252(assignment, folder):
    """Re-saved by an editor in Windows-1252: ñ, á, « are single bytes, invalid in UTF-8."""
    text = _reference_bytes(assignment, folder).decode("utf-8")
    return _write_bytes("bpe_bytes.ipynb", text.encode("cp1252", errors="replace"))(assignment, folder)


def _too_large(assignment, folder):
    path = folder / "bpe_bytes.ipynb"
    with path.open("wb") as handle:  # sparse: costs no disk
        handle.truncate(MAX_SUBMISSION_BYTES + MiB)
    return path


HUGE_OUTPUT = 50 * 10**6


def _huge_outputs(assignment, folder):
    """~50 MB of stored output in the first code cell: nothing to grade there, must not slow anything."""
    def edit(data):
        cell = next(c for c in data["cells"] if c["cell_type"] == "code")
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x" * HUGE_OUTPUT}]
    return _json_edit(edit)(assignment, folder)


def _set_version(major, minor=0):
    def edit(data):
        data["nbformat"], data["nbformat_minor"] = major, minor
    return _json_edit(edit)


def _nbformat_v3(assignment, folder):
    reference = nbformat.read(_reference(assignment, folder / "ref"), as_version=4)
    path = folder / "bpe_bytes.ipynb"
    path.write_text(nbformat.writes(nbformat.convert(reference, 3), version=3), encoding="utf-8")
    return path


# --- notebooks damaged inside -------------------------------------------------------------

def _empty_notebook(assignment, folder):
    path = folder / "bpe_bytes.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), path)
    return path


def _duplicated_grade_ids(data):
    """merge's solution cell and its checks duplicated (copy and paste keeps the metadata): the
    first copy still holds the stub, the student answered in the second one."""
    cells = data["cells"]
    at = _index(cells, "solution", "merge")
    stub_copy = copy.deepcopy(cells[at])
    stub_copy["id"] += "-copia"
    stub_copy["source"] = "def merge(ids, pair, idx):\n    raise NotImplementedError\n"
    cells.insert(at, stub_copy)
    checks = _index(cells, "checks", "merge")
    checks_copy = copy.deepcopy(cells[checks])
    checks_copy["id"] += "-copia"
    cells.insert(checks + 1, checks_copy)


def _strip_metadata(data):
    """Re-saved by a tool that keeps no metadata: no nbgrader, no autograder roles, no cell ids."""
    data["metadata"] = {}
    for cell in data["cells"]:
        cell["metadata"] = {}
        cell.pop("id", None)
    data["nbformat_minor"] = 4


def _solution_to_markdown(data):
    cell = data["cells"][_index(data["cells"], "solution", "merge")]
    cell["cell_type"] = "markdown"
    cell.pop("outputs", None)
    cell.pop("execution_count", None)


MARKDOWN_BEFORE_MERGE = "md_13"


def _markdown_to_code(data):
    cell = data["cells"][_index(data["cells"], "", grade_id=MARKDOWN_BEFORE_MERGE)]
    cell["cell_type"] = "code"
    cell["outputs"], cell["execution_count"] = [], None


def _delete_checks(data):
    del data["cells"][_index(data["cells"], "checks", "merge")]


def _edit_checks(data):
    data["cells"][_index(data["cells"], "checks", "merge")]["source"] = "assert True"


BROKEN_LINE = "            i += 2\n"  # in merge: gets an unmatched ")"


def _merge_source() -> str:
    reference = reference_functions("bpe_bytes")["merge"]
    return f"{reference.header}\n{reference.body}"


def _syntax_error_in_merge(data):
    cell = data["cells"][_index(data["cells"], "solution", "merge")]
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    assert source.count(BROKEN_LINE) == 1
    cell["source"] = source.replace(BROKEN_LINE, BROKEN_LINE.rstrip("\n") + ")\n")


def _line_of(text: str, line: str) -> int:
    return text.splitlines(keepends=True).index(line) + 1


RENAMED = samples.Sample("renamed", "buggy", "merge renamed fusionar",
                         replace={"merge": _merge_source().replace("def merge(", "def fusionar(", 1)})
WRONG_SIGNATURE = samples.Sample("signature", "buggy", "merge without idx",
                                 replace={"merge": "def merge(ids, pair):\n    return list(ids)\n"})
TOO_DEEP = "total = " + " + ".join(["1"] * 5000)  # the parser gives up (RecursionError), as in the worker
DEEP_EXPRESSION = samples.Sample("deep", "buggy", "a cell the parser cannot handle", cells=(TOO_DEEP,))


# --- modules -----------------------------------------------------------------------------

def _module(assignment, folder):
    return samples.build_module(assignment, CORRECT, folder / "bpe_bytes.py")


def _module_with_syntax_error(assignment, folder):
    path = _module(assignment, folder)
    text = path.read_text(encoding="utf-8")
    assert text.count(BROKEN_LINE) == 1
    path.write_text(text.replace(BROKEN_LINE, BROKEN_LINE.rstrip("\n") + ")\n"), encoding="utf-8")
    return path


def module_error_line(assignment, folder) -> int:
    """The line of the module with the syntax error, as the student's editor numbers it."""
    return _line_of(_module(assignment, folder).read_text(encoding="utf-8"), BROKEN_LINE)


# --- archives ----------------------------------------------------------------------------

def _symlink_entry(name: str, target: bytes):
    info = zipfile.ZipInfo(name)
    info.create_system = 3  # unix: external_attr holds the mode
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target


def _zip_bomb(assignment, folder):
    """One entry of 65 MiB of zeros, deflated to ~65 KB: refused from its header, never inflated."""
    path = folder / "bpe_bytes.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        info = zipfile.ZipInfo("bpe_bytes.ipynb")
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w") as member:
            for _ in range(MAX_SUBMISSION_BYTES // MiB + 1):
                member.write(bytes(MiB))
    assert path.stat().st_size < 200_000
    return path


def _lying_zip_bomb(assignment, folder):
    """The same bomb, but its central directory claims a plausible 40 KB: inflating stops at the
    declared size and the CRC check fails."""
    path = _zip_bomb(assignment, folder)
    raw = bytearray(path.read_bytes())
    central = raw.find(b"PK\x01\x02")
    struct.pack_into("<I", raw, central + 24, 40_000)  # uncompressed size
    path.write_bytes(bytes(raw))
    return path


def _zip_truncated(assignment, folder):
    path = _zip("bpe_bytes.zip", [("bpe_bytes.ipynb", _reference_bytes)])(assignment, folder)
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])
    return path


def _zip_damaged_data(compression):
    """A zip whose directory is intact but whose compressed data is garbage (a bad download)."""
    def build(assignment, folder):
        path = _zip("bpe_bytes.zip", [("bpe_bytes.ipynb", _reference_bytes)], compression)(assignment, folder)
        raw = bytearray(path.read_bytes())
        start = 30 + len("bpe_bytes.ipynb")  # after the local header: the compressed data
        for i in range(start + 16, start + 400):
            raw[i] ^= 0x5A
        path.write_bytes(bytes(raw))
        return path
    return build


def _zip_encrypted(assignment, folder):
    """Flagged as encrypted (as a zip made with a password is): it cannot be read without it."""
    path = _zip("bpe_bytes.zip", [("bpe_bytes.ipynb", _reference_bytes)])(assignment, folder)
    raw = bytearray(path.read_bytes())
    raw[6] |= 1  # local header: general purpose flags, bit 0 = encrypted
    raw[raw.find(b"PK\x01\x02") + 8] |= 1  # central directory: the same flag
    path.write_bytes(bytes(raw))
    return path


def _zip_unsupported_version(assignment, folder):
    """A central directory entry that asks for a newer zip version (8.4) than Python can extract."""
    path = _zip("bpe_bytes.zip", [("bpe_bytes.ipynb", _reference_bytes)])(assignment, folder)
    raw = bytearray(path.read_bytes())
    struct.pack_into("<H", raw, raw.find(b"PK\x01\x02") + 6, 84)  # version needed to extract
    path.write_bytes(bytes(raw))
    return path


def _zip_repetitive_outputs(assignment, folder):
    """A ~5 MB notebook whose output is a long, repetitive log (a print inside a loop), zipped.
    It compresses far better than 100:1, but it is no bomb: the same file unzipped grades."""
    def edit(data):
        cell = next(c for c in data["cells"] if c["cell_type"] == "code")
        cell["outputs"] = [{"output_type": "stream", "name": "stdout",
                            "text": "fusión (101, 32) -> 256\n" * 200_000}]
    notebook = _json_edit(edit, "bpe_bytes.ipynb")(assignment, folder / "dentro")
    return _zip("bpe_bytes.zip", [("bpe_bytes.ipynb", notebook.read_bytes())])(assignment, folder)


# --- folders -----------------------------------------------------------------------------

def _folder(files: dict):
    def build(assignment, folder):
        entrega = folder / "entrega"
        entrega.mkdir()
        for name, content in files.items():
            data = content(assignment, folder) if callable(content) else content
            (entrega / name).write_bytes(data)
        return entrega
    return build


def _folder_symlink_outside(assignment, folder):
    outside = _reference(assignment, folder / "fuera", "secreto.ipynb")
    entrega = folder / "entrega"
    entrega.mkdir()
    (entrega / "bpe_bytes.ipynb").symlink_to(outside)
    return entrega


def _symlink_to_notebook(assignment, folder):
    real = _reference(assignment, folder / "fuera", "real.ipynb")
    link = folder / "bpe_bytes.ipynb"
    link.symlink_to(real)
    return link


def _symlink_to_folder(assignment, folder):
    real = folder / "fuera"
    _reference(assignment, real)
    link = folder / "entrega"
    link.symlink_to(real, target_is_directory=True)
    return link


# --- the corpus --------------------------------------------------------------------------

UNREADABLE_JSON = ("error", "el JSON está dañado")
NOT_A_ZIP = ("error", "no es un .zip válido o está dañado")
MISSING_MERGE = ("feedback", "No se encontró la función `merge`")
FAILED_CELLS = ("output", "Celdas que lanzaron un error al ejecutarse")
ALL = frozenset(reference_functions("bpe_bytes"))

CORPUS: dict[str, Case] = {
    # -- files that are not a readable notebook: refused with the reason --
    "invalid-json": Case(_write_bytes("bpe_bytes.ipynb", b'{"cells": [}'), UNREADABLE_JSON, "invalid JSON", REFUSED),
    "truncated": Case(_truncated, UNREADABLE_JSON, "invalid JSON", REFUSED),
    "empty-file": Case(_write_bytes("bpe_bytes.ipynb", b""), ("error", "bpe_bytes.ipynb está vacío (0 bytes)"),
                       "empty file", REFUSED),
    "json-list": Case(_write_bytes("bpe_bytes.ipynb", b"[]"), ("error", "no tiene la estructura de un cuaderno"),
                      "JSON is not a notebook", REFUSED),
    "json-without-cells": Case(_write_bytes("bpe_bytes.ipynb", b'{"metadata": {}, "nbformat": 4}'),
                               ("error", "no tiene la estructura de un cuaderno"), "JSON is not a notebook", REFUSED),
    "nbformat-5": Case(_set_version(5), ("error", "usa un formato de cuaderno que no se puede leer"),
                       "Unsupported nbformat version 5", REFUSED),
    "nbformat-unknown": Case(_set_version(99, 1), ("error", "usa un formato de cuaderno que no se puede leer"),
                             "Unsupported nbformat version 99", REFUSED),
    "not-utf8": Case(_windows_1252, ("error", "no está guardado en UTF-8 (byte inválido en la posición"),
                     "not UTF-8 (invalid byte at offset", REFUSED),
    "too-large": Case(_too_large, ("error", "demasiado grande; borra las salidas"), "larger than 64 MiB", REFUSED),
    "wrong-extension": Case(lambda a, f: _write_bytes("bpe_bytes.txt", _reference_bytes(a, f))(a, f),
                            ("error", "no es un cuaderno (.ipynb), un módulo (.py) ni un .zip"),
                            "expected a .ipynb, .py or .zip file", REFUSED),
    "missing-file": Case(lambda a, f: f / "bpe_bytes.ipynb", ("error", "No se encontró el archivo bpe_bytes.ipynb"),
                         "no such file", REFUSED),
    "symlink": Case(_symlink_to_notebook, ("error", "enlace simbólico"), "symbolic link", REFUSED),
    "symlink-folder": Case(_symlink_to_folder, ("error", "enlace simbólico"), "symbolic link", REFUSED),

    # -- readable notebooks, damaged or unusual inside: graded, a zero only for what is missing --
    "nbformat-v3": Case(_nbformat_v3, None, None),
    "nbformat-4-newer-minor": Case(_set_version(4, 99), None, None),
    "empty-notebook": Case(_empty_notebook, ("output", "Funciones que no se encontraron: get_stats"),
                           "function merge not defined", ALL, "missing"),
    "duplicated-grade-ids": Case(_json_edit(_duplicated_grade_ids), None, None),
    "no-nbgrader-metadata": Case(_json_edit(_strip_metadata), None, None),
    "solution-cell-as-markdown": Case(_json_edit(_solution_to_markdown), MISSING_MERGE, "function merge not defined",
                                      {"merge"}, "missing"),
    "markdown-cell-as-code": Case(_json_edit(_markdown_to_code), (*FAILED_CELLS, "SyntaxError"), None),
    "checks-deleted": Case(_json_edit(_delete_checks), None, None),
    "checks-edited": Case(_json_edit(_edit_checks), None, None),
    "function-renamed": Case(_sample(RENAMED), MISSING_MERGE, "function merge not defined", {"merge"}, "missing"),
    "wrong-signature": Case(_sample(WRONG_SIGNATURE), ("feedback", "TypeError"), "student raised TypeError",
                            {"merge"}, "raised"),
    "syntax-error-in-one-cell": Case(_json_edit(_syntax_error_in_merge), (*FAILED_CELLS, "SyntaxError"),
                                     "function merge not defined", {"merge"}, "missing"),
    "huge-outputs": Case(_huge_outputs, None, None),
    "cell-too-deep-to-parse": Case(
        _sample(DEEP_EXPRESSION), (*FAILED_CELLS, "RecursionError"), None),

    # -- modules --
    "python-module": Case(_module, None, None),
    "python-module-syntax-error": Case(_module_with_syntax_error, ("output", "Tu módulo lanzó un error al importarse",
                                                                    "bpe_bytes.py", "SyntaxError"),
                                       "function merge not defined", ALL, "missing"),

    # -- archives --
    "zip-with-notebook": Case(_zip("entrega.zip", [
        ("entrega/", b""), ("entrega/bpe_bytes.ipynb", _reference_bytes), ("entrega/LEEME.txt", b"hola"),
        ("__MACOSX/entrega/._bpe_bytes.ipynb", b"\x00\x05\x16\x07")]), None, None),
    "zip-path-traversal": Case(_zip("bpe_bytes.zip", [
        ("bpe_bytes.ipynb", _reference_bytes), ("../../evil.ipynb", b"{}"), ("/etc/evil.py", b"")]),
        ("error", "contiene rutas no permitidas"), "unsafe entries refused: ['../../evil.ipynb', '/etc/evil.py']",
        REFUSED),
    "zip-symlink-entry": Case(_zip("bpe_bytes.zip", [_symlink_entry("bpe_bytes.ipynb", b"../../../etc/passwd")]),
                              ("error", "contiene rutas no permitidas"), "unsafe entries refused", REFUSED),
    "zip-bomb": Case(_zip_bomb, ("error", "demasiado grande"), "larger than 64 MiB", REFUSED),
    "zip-bomb-lying-size": Case(_lying_zip_bomb, NOT_A_ZIP, "not a valid zip file", REFUSED),
    "zip-truncated": Case(_zip_truncated, NOT_A_ZIP, "not a valid zip file", REFUSED),
    "zip-not-a-zip": Case(_write_bytes("bpe_bytes.zip", b"PK\x03\x04 esto no es un zip"), NOT_A_ZIP,
                          "not a valid zip file", REFUSED),
    "zip-damaged-deflate-data": Case(
        _zip_damaged_data(zipfile.ZIP_DEFLATED), NOT_A_ZIP, "not a valid zip file", REFUSED),
    "zip-damaged-lzma-data": Case(
        _zip_damaged_data(zipfile.ZIP_LZMA), NOT_A_ZIP, "not a valid zip file", REFUSED),
    "zip-encrypted": Case(
        _zip_encrypted, ("error", "protegido con contraseña"), "encrypted zip entry", REFUSED),
    "zip-unsupported-version": Case(
        _zip_unsupported_version, NOT_A_ZIP, "not a valid zip file", REFUSED),
    "zip-two-notebooks": Case(_zip("entrega.zip", [
        ("entrega/copia.ipynb", _reference_bytes), ("entrega/borrador.ipynb", b"{}")]),
        ("error", "se encontró: entrega/borrador.ipynb, entrega/copia.ipynb"),
        "expected bpe_bytes.ipynb or .py, found: entrega/borrador.ipynb, entrega/copia.ipynb", REFUSED),
    "zip-nothing-gradable": Case(_zip("entrega.zip", [("notas.txt", b"hola")]), ("error", "se encontró: notas.txt"),
                                 "expected bpe_bytes.ipynb or .py", REFUSED),
    "zip-repetitive-outputs": Case(
        _zip_repetitive_outputs, None, None),

    # -- folders --
    "folder-two-notebooks": Case(_folder({"copia.ipynb": _reference_bytes, "borrador.ipynb": _reference_bytes}),
                                 ("error", "La entrega debe contener bpe_bytes.ipynb (o bpe_bytes.py); se encontró: "
                                           "borrador.ipynb, copia.ipynb"),
                                 "found: borrador.ipynb, copia.ipynb", REFUSED),
    "folder-symlink-outside": Case(_folder_symlink_outside, ("error", "La entrega debe contener bpe_bytes.ipynb"),
                                   "expected bpe_bytes.ipynb or .py", REFUSED),
    "folder-nothing-gradable": Case(_folder({"notas.txt": b"hola", "datos.csv": b"a,b\n1,2\n"}),
                                    ("error", "se encontró: datos.csv, notas.txt"),
                                    "expected bpe_bytes.ipynb or .py, found: datos.csv, notas.txt", REFUSED),
}
REFUSED_CASES = [name for name, case in CORPUS.items() if case.lost == REFUSED]


def corpus_params(names):
    return list(names)


# --- grading the whole corpus once -------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_paths(fast_bpe_bytes, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("broken")
    paths = {}
    for name, case in CORPUS.items():
        folder = root / name
        folder.mkdir()
        paths[name] = case.build(fast_bpe_bytes, folder)
    return paths


@pytest.fixture(scope="module")
def graded(course, fast_bpe_bytes, corpus_paths):
    started = time.monotonic()
    results = grade_batch(fast_bpe_bytes, list(corpus_paths.values()), jobs=2)
    graded = dict(zip(corpus_paths, results))
    graded["__seconds__"] = time.monotonic() - started
    return graded


def student_texts(result) -> dict[str, list[str]]:
    """Everything the student reads, by where it appears."""
    return {
        "error": [result.error_student],
        "notes": list(result.load.notes),
        "failed": list(result.load.failed_cells),
        "feedback": [t.feedback for t in result.tests],
        "output": [overall_output(result)],
    }


def explain(result) -> str:
    lines = [f"score {result.score}/{result.max_score}; error: {result.error_instructor[-2000:]}; load: {result.load}"]
    lines += [f"{t.test_id}: {t.outcome}: {t.feedback} [{t.instructor_note}]" for t in result.tests if not t.passed]
    return "\n".join(lines)


@pytest.mark.parametrize("name", corpus_params(CORPUS))
def test_broken_input_gets_its_message_and_exactly_its_score(graded, corpus_paths, fast_bpe_bytes, name):
    case, result = CORPUS[name], graded[name]
    points = fast_bpe_bytes.points
    # no exception escaped grade_submission (the batch reports one as a grader error)
    assert not result.error_instructor.startswith("grader error"), explain(result)
    assert result.max_score == sum(points.values()) == 100
    assert {t.function for t in result.tests} == set(points)
    texts = student_texts(result)
    every_student_text = "\n".join(t for group in texts.values() for t in group)
    assert str(corpus_paths[name].parent) not in every_student_text  # file names, never the grader's paths

    if case.lost == REFUSED:
        assert result.score == 0, explain(result)
        assert all(t.outcome == "broken_submission" and t.score == 0 for t in result.tests), explain(result)
        assert all(t.feedback == result.error_student for t in result.tests)
        where, *fragments = case.student
        assert where == "error" and all(f in result.error_student for f in fragments), explain(result)
        assert case.instructor in result.error_instructor, explain(result)
        assert result.error_student != result.error_instructor
        return

    assert result.error_student == result.error_instructor == "", explain(result)
    lost = set(case.lost)
    assert result.score == 100 - sum(points[f] for f in lost), explain(result)
    for function, (score, maximum) in result.by_function().items():
        assert score == (0 if function in lost else maximum), f"{function}\n{explain(result)}"
    for test in result.tests:
        if test.function in lost:
            assert test.outcome == case.lost_outcome, explain(result)
        else:
            assert test.passed, explain(result)
    if case.lost_outcome == "missing":
        assert list(result.load.missing_functions) == [f for f in points if f in lost], explain(result)
    if case.student is None:  # graded cleanly: nothing went wrong that the student must hear about
        assert (result.load.notes, result.load.failed_cells, result.load.skipped_cells,
                result.load.missing_functions) == ((), (), (), ()), explain(result)
    else:
        where, *fragments = case.student
        assert any(all(f in text for f in fragments) for text in texts[where]), (where, texts[where])
    if case.instructor is not None:
        assert any(case.instructor in t.instructor_note for t in result.tests), explain(result)


def test_the_corpus_is_large_and_complete():
    assert len(CORPUS) >= 24
    assert len(REFUSED_CASES) >= 12 and len(CORPUS) - len(REFUSED_CASES) >= 12


def test_the_whole_corpus_grades_fast(graded):
    assert graded["__seconds__"] < 120, graded["__seconds__"]
    assert graded["huge-outputs"].duration_seconds < 30


# --- details of some cases ---------------------------------------------------------------

def test_empty_notebook_says_every_function_is_missing(graded, fast_bpe_bytes):
    result = graded["empty-notebook"]
    assert result.score == 0 and result.load.missing_functions == tuple(fast_bpe_bytes.points)
    for test in result.tests:
        assert test.outcome == "missing" and f"No se encontró la función `{test.function}`" in test.feedback


def test_markdown_turned_into_code_fails_in_that_cell_only(graded, corpus_paths):
    notebook = json.loads(corpus_paths["markdown-cell-as-code"].read_text(encoding="utf-8"))
    markdown = "".join(notebook["cells"][_index(notebook["cells"], "", grade_id=MARKDOWN_BEFORE_MERGE)]["source"])
    first_line = next(line.strip() for line in markdown.splitlines() if line.strip())
    (failed,) = graded["markdown-cell-as-code"].load.failed_cells
    assert failed.startswith(f"<celda «{first_line[:40]}") and "SyntaxError" in failed  # as the student reads it


def test_syntax_error_cell_is_the_only_failed_cell(graded):
    (failed,) = graded["syntax-error-in-one-cell"].load.failed_cells
    assert failed.startswith("<celda de merge>") and "SyntaxError" in failed


def test_module_syntax_error_names_the_line(graded, fast_bpe_bytes, tmp_path):
    line = module_error_line(fast_bpe_bytes, tmp_path)
    (failed,) = graded["python-module-syntax-error"].load.failed_cells
    assert failed.startswith("bpe_bytes.py") and "SyntaxError" in failed and str(line) in failed, failed


def test_module_syntax_error_names_the_line_in_spanish(graded, fast_bpe_bytes, tmp_path):
    line = module_error_line(fast_bpe_bytes, tmp_path)
    (failed,) = graded["python-module-syntax-error"].load.failed_cells
    assert failed.startswith(f"bpe_bytes.py, línea {line}: SyntaxError"), failed


def test_zip_traversal_never_writes_anything(corpus_paths):
    # nothing is extracted: no evil.ipynb appears anywhere near the submission
    root = corpus_paths["zip-path-traversal"].parent
    assert not list(root.parent.parent.rglob("evil.ipynb"))


def _load_traced(path, assignment) -> tuple[float, int]:
    """(seconds, peak bytes allocated) of a load_submission that must refuse `path`."""
    release = load_source_notebook(assignment)
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(SubmissionError):
            load_submission(path, assignment, release)
        seconds = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return seconds, peak


def test_zip_bomb_is_refused_from_its_header(corpus_paths, fast_bpe_bytes):
    seconds, peak = _load_traced(corpus_paths["zip-bomb"], fast_bpe_bytes)
    assert seconds < 2 and peak < 4 * MiB, (seconds, peak)


def test_lying_zip_bomb_is_refused_quickly_within_the_cap(corpus_paths, fast_bpe_bytes):
    seconds, peak = _load_traced(corpus_paths["zip-bomb-lying-size"], fast_bpe_bytes)
    assert seconds < 2, seconds
    assert peak < 2 * MAX_SUBMISSION_BYTES + 8 * MiB, peak  # bounded by the cap, whatever the header says


def test_lying_zip_bomb_costs_no_more_than_it_declares(corpus_paths, fast_bpe_bytes):
    _, peak = _load_traced(corpus_paths["zip-bomb-lying-size"], fast_bpe_bytes)
    assert peak < 8 * MiB, peak


def test_folder_symlink_is_not_followed(corpus_paths, fast_bpe_bytes):
    with pytest.raises(SubmissionError) as caught:
        load_submission(corpus_paths["folder-symlink-outside"], fast_bpe_bytes, load_source_notebook(fast_bpe_bytes))
    assert "secreto" not in caught.value.student_message + caught.value.instructor_message


# --- what Gradescope shows for a broken submission ----------------------------------------

@pytest.mark.parametrize("name", corpus_params(REFUSED_CASES))
def test_gradescope_json_of_a_broken_submission(graded, name):
    result = graded[name]
    assert not result.error_instructor.startswith("grader error"), explain(result)
    data = to_gradescope(result)
    assert data["score"] == 0 and data["max_score"] == 100
    assert data["output"].startswith("No se pudo calificar la entrega: ") and result.error_student in data["output"]
    assert result.error_instructor not in data["output"]  # the instructor log stays out of the student's view
    assert data["tests"] and all(t["status"] == "failed" and t["score"] == 0 for t in data["tests"])
    assert all(t["output"] == result.error_student for t in data["tests"])
    json.dumps(data, ensure_ascii=False)


def _hand_in(path: Path, folder: Path) -> None:
    """Put one corpus entry where nbgrader's collect would: submitted/STUDENT/bpe_bytes/."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir() and not path.is_symlink():
        shutil.copytree(path, folder, symlinks=True)
        return
    folder.mkdir()
    target = folder / path.name
    if path.is_symlink():
        target.symlink_to(path.readlink())
    elif path.exists():
        shutil.copyfile(path, target)  # else: a missing file, i.e. an empty submission folder


def test_the_whole_corpus_handed_in_as_a_class_is_graded_and_recorded(graded, corpus_paths, course,
                                                                       fast_bpe_bytes, tmp_path):
    """Broken files reach the gradebook, the stored results and formgrader's notebooks like any others."""
    course_dir = tmp_path / "course"
    release_assignment(course, fast_bpe_bytes, course_dir)
    for name, path in corpus_paths.items():
        _hand_in(path, course_dir / "submitted" / name.replace(" ", "_") / "bpe_bytes")
    run = grade_class(course, fast_bpe_bytes, course_dir, jobs=2)
    by_student = {r.student: r for r in run.results}
    for name in corpus_paths:
        result = by_student[name.replace(" ", "_")]
        assert result.score == graded[name].score, name
        assert (course_dir / "autograded" / result.student / "bpe_bytes" / "bpe_bytes.ipynb").is_file()
    with open_gradebook(course, course_dir) as book:
        assert len(book.submission_dicts("bpe_bytes")) == len(corpus_paths)
