"""The one loader of submissions: notebook, .py module, folder or .zip -> a Program.

A Program is the list of code cells to run in the worker, in order, as plain
Python. It is built the way a student expects the notebook to run:

- every code cell in order, including cells the student added;
- IPython magics and shell escapes left as written: the worker turns them into calls of a
  do-nothing get_ipython() (IPython's transformer is student-controlled work: it runs
  under the submission's limits, not here);
- at most MAX_CODE_CELLS code cells and MAX_CODE_CHARS characters of code, so that the
  work a submission asks for is bounded before anything runs;
- locked cells (given code, visible checks, demos) taken from the release, not from
  the submission: given code runs, checks and demos are not needed to grade;
- a notebook that cannot be read at all gives a SubmissionError with a Spanish
  message for the student and an English one for the instructor.

Parsing happens here, in the grader; nothing in this module executes student code.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import io
import importlib.util
import json
import os
import re
import stat
import sys
import sysconfig
import zipfile
from pathlib import Path, PurePosixPath

import nbformat

MAX_SUBMISSION_BYTES = 64 * 1024 * 1024


class SubmissionError(Exception):
    """A submission that cannot be graded as it is."""

    def __init__(self, student_message: str, instructor_message: str):
        super().__init__(instructor_message)
        self.student_message = student_message
        self.instructor_message = instructor_message


@dataclasses.dataclass(frozen=True)
class Cell:
    filename: str  # what tracebacks show, e.g. "<celda 7>"
    source: str


@dataclasses.dataclass
class Program:
    cells: list[Cell]
    module_name: str = "__main__"
    notes: list[str] = dataclasses.field(default_factory=list)  # Spanish remarks for the student
    ipython_syntax: bool = False  # notebook cells may hold %magics and !commands, as in Jupyter
    handed_in: str = ""  # the file graded, as named in the submission (a .zip's entry included)
    notebook: nbformat.NotebookNode | None = None  # as parsed, for formgrader's copy; None for a module
    file_choice: str = ""  # Spanish: why this file was graded and the other candidate not ("" when one only)
    release: nbformat.NotebookNode | None = None  # loaded against: a public release completed from the file


def load_submission(path: Path | str, assignment, release: nbformat.NotebookNode) -> Program:
    """Read one submission: a notebook, a .py module, or a folder or .zip holding one."""
    name, raw, choice = read_submission_file(Path(path), assignment)
    where = Path(path) / name if Path(path).suffix == ".zip" else Path(name)
    if not raw.strip():
        raise SubmissionError(
            f"{where.name} está vacío ({len(raw)} bytes): no llegó a guardarse. Ábrelo en Jupyter, guárdalo "
            "(Ctrl+S) y vuelve a entregarlo." if where.suffix == ".ipynb" else
            f"{where.name} está vacío ({len(raw)} bytes): no contiene ninguna función.",
            f"{where}: empty file ({len(raw)} bytes)")
    if name.endswith(".py"):
        source = _decode_text(raw, where)
        check_assignment(defined_functions([source]), assignment, where)
        return Program([Cell(Path(name).name, source)], module_name=Path(name).stem, handed_in=name,
                       file_choice=choice, release=with_public_preamble(release, [source]))
    notebook = read_notebook(raw, where)
    check_assignment(defined_functions(_code_sources(notebook.cells)), assignment, where)
    marked = {c.metadata["nbgrader"]["grade_id"] for c in release.cells if _from_reference(c)}
    if marked:  # a public release only (grade --visible without solutions/): the hidden suite's has none
        release = with_public_preamble(release, _code_sources([
            m.cell for m in match_release(notebook.cells, release)
            if m.original is not None and m.original.metadata["nbgrader"]["grade_id"] in marked]))
    program = program_from_notebook(notebook, release)
    return dataclasses.replace(program, handed_in=name, file_choice=choice, release=release)


def _from_reference(cell) -> bool:
    return bool(cell.get("metadata", {}).get("autograder", {}).get("from_reference"))


def with_public_preamble(release: nbformat.NotebookNode, given: list[str]) -> nbformat.NotebookNode:
    """The public release (lesson.load_public_notebook: no reference, so the given code that is the
    reference's imports and constants is missing) completed with the imports and constants of the
    handed-in file's own given code (`given`: the notebook's given cells, or the whole module), as
    far as they are safe to run in the grader; any other release is returned as it is."""
    if not any(_from_reference(c) for c in release.cells):
        return release
    completed = copy.deepcopy(release)
    preamble = public_preamble(given)
    for cell in completed.cells:
        if _from_reference(cell):
            cell.source = preamble
    return completed


def public_preamble(sources: list[str]) -> str:
    """The imports and constants of `sources`, rewritten as code that is safe to run in the grader,
    since the student may have written anything there: imports only of modules installed in the
    grader's own Python (never a file of the submission's folder, whatever the working directory),
    absolute ones only, and constants only when their value is a literal. Anything else is left out."""
    kept = []
    for source in sources:
        tree = parse_ignoring_ipython(source)
        for node in tree.body if tree is not None else []:
            if isinstance(node, ast.Import) and all(_installed(alias.name) for alias in node.names):
                kept.append(node)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and _installed(node.module):
                kept.append(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and _literal(node.value) \
                    and all(isinstance(t, ast.Name) for t in (node.targets if isinstance(node, ast.Assign)
                                                              else [node.target])):
                kept.append(node)
    return "\n".join(ast.unparse(node) for node in kept)


def _literal(node) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _installed(module: str) -> bool:
    """A module of the standard library or of an installed distribution: found (not imported) at a
    place of this Python's installation scheme, not in the working directory."""
    top = module.split(".")[0]
    if not top.isidentifier():
        return False
    if top in sys.builtin_module_names:
        return True
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.origin and not spec.submodule_search_locations:
        return False
    if spec.origin in ("built-in", "frozen"):
        return True
    places = [spec.origin] if spec.origin else list(spec.submodule_search_locations)
    roots = {Path(sysconfig.get_path(key)).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    return all(any(Path(place).resolve().is_relative_to(root) for root in roots) for place in places)


def defined_functions(sources) -> set[str]:
    """The top-level functions that pieces of code define, read without running them (a piece
    that does not parse, with IPython syntax say, is read line by line)."""
    names = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            names.update(match.group(1) for match in _DEF_LINE.finditer(source))
            continue
        names.update(node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return names


_DEF_LINE = re.compile(r"^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(", re.MULTILINE)


def check_assignment(defined: set[str], assignment, where: Path) -> None:
    """Refuse a file that is plainly another assignment's, so its student reads one sentence instead
    of a "not found" line per test. Plainly: it defines a function that only the other assignment
    has and none that only this one has, and the other matches what it defines better (shared names
    over all names: these assignments share get_stats, encode, decode...). A partial notebook of
    this assignment (only `encode` and `decode`, say) is never taken for another's."""
    own = set(assignment.points)

    def likeness(functions) -> float:
        return len(defined & functions) / len(defined | functions)

    others = [other for other in assignment.siblings if defined & (set(other.functions) - own)]
    if not others:
        return
    best = max(others, key=lambda other: likeness(set(other.functions)))
    if not defined & own <= set(best.functions) or likeness(set(best.functions)) <= likeness(own):
        return
    shared = ", ".join(sorted(defined & set(best.functions))[:4])
    raise SubmissionError(
        f"Este archivo es de otra tarea, «{best.title}» ({best.notebook}{where.suffix}): aquí se califica "
        f"«{assignment.title}», así que entrega tu {assignment.notebook}.ipynb.",
        f"{where}: this is a file of assignment {best.id} (it defines {shared}...), not of {assignment.id}")


def _code_sources(cells) -> list[str]:
    sources = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            sources.append("".join(source) if isinstance(source, list) else str(source))
    return sources


def read_submission_file(path: Path, assignment) -> tuple[str, bytes, str]:
    """(file name, bytes, why it and not the other candidate) of the notebook or module to grade,
    never following a symlink."""
    if path.is_symlink():
        raise SubmissionError("La entrega es un enlace simbólico; sube el archivo en sí.",
                              f"{path}: submission is a symbolic link; refusing to follow it")
    if path.is_dir():
        return _read_from_directory(path, assignment)
    if not path.is_file():
        raise SubmissionError(f"No se encontró el archivo {path.name}.", f"{path}: no such file")
    if path.suffix == ".zip":
        return read_from_zip(path, assignment)
    return (*_read_file(path), "")


def _read_file(path: Path) -> tuple[str, bytes]:
    if path.stat().st_size > MAX_SUBMISSION_BYTES:
        raise _too_large(path)
    if path.suffix not in (".ipynb", ".py"):
        raise SubmissionError(f"El archivo {path.name} no es un cuaderno (.ipynb), un módulo (.py) ni un .zip.",
                              f"{path}: expected a .ipynb, .py or .zip file")
    return path.name, path.read_bytes()


def _too_large(path) -> SubmissionError:
    return SubmissionError("La entrega es demasiado grande; borra las salidas de las celdas y vuelve a enviarla.",
                           f"{path}: larger than {MAX_SUBMISSION_BYTES // 2**20} MiB")


IGNORED_FOLDERS = frozenset({"__MACOSX", ".ipynb_checkpoints"})  # what macOS's zip and Jupyter's autosave leave


def _pick(names: list[str], assignment) -> list[str]:
    """The files that may be graded among `names` (paths in a folder or a zip, at any depth): the
    assignment's own notebook and module (both, when both are there: the release ships both, and
    nbgrader's submit sends the whole folder; choose_worked_file decides), else the only candidate.
    One rule for folders and zips, since a zip handed in to Gradescope arrives unpacked into a folder."""
    names = [n for n in names if not IGNORED_FOLDERS & set(PurePosixPath(n).parts[:-1])]
    own = []
    for wanted in (f"{assignment.notebook}.ipynb", f"{assignment.notebook}.py"):
        matches = [n for n in names if PurePosixPath(n).name == wanted]
        if len(matches) == 1:
            own.append(matches[0])
    if own:
        return own
    candidates = [n for n in names if PurePosixPath(n).suffix in (".ipynb", ".py")]
    return candidates if len(candidates) == 1 else []


def _read_from_directory(directory: Path, assignment) -> tuple[str, bytes, str]:
    names = files_in_folder(directory)
    chosen = _pick(names, assignment)
    zips = [n for n in names if n.endswith(".zip") and "/" not in n]
    if not chosen and len(zips) == 1:
        return read_from_zip(directory / zips[0], assignment)  # an archive handed in as it was uploaded (an LMS import, say)
    if not chosen:
        raise _nothing_to_grade(directory, names, assignment)
    return choose_worked_file([(Path(name).name, _read_file(directory / name)[1]) for name in chosen], assignment)


# --- the notebook or the module: the one the student worked on -----------------------------------

def choose_worked_file(files: list[tuple[str, bytes]], assignment) -> tuple[str, bytes, str]:
    """The file to grade of a submission holding both the notebook and the module (the released
    folder, as nbgrader's submit sends it), and why, in Spanish. The rule, stated to the student:
    the file with more graded functions written (a function still as released, raising
    NotImplementedError, is not written); on a tie, the notebook."""
    if len(files) == 1:
        return (*files[0], "")
    written = {name: written_functions(name, raw, assignment) for name, raw in files}
    (notebook, _), (module, _) = sorted(files, key=lambda f: not f[0].endswith(".ipynb"))
    chosen = module if len(written[module]) > len(written[notebook]) else notebook
    other = notebook if chosen == module else module
    total = len(assignment.points)
    graded, unused = PurePosixPath(chosen).name, PurePosixPath(other).name

    def count(name: str) -> str:
        n = len(written[name])
        return f"{n} de las {total} funciones" if n != 1 else f"1 de las {total} funciones"

    if not written[other] and not written[chosen]:
        why = (f"Se calificó {graded}: ni {graded} ni {unused} tienen todavía ninguna función implementada "
               f"(en ese caso se califica el cuaderno).")
    elif not written[other]:
        why = (f"Se calificó {graded}, el archivo en el que trabajaste ({count(chosen)} implementadas); "
               f"{unused} no se calificó porque sigue como se publicó (ninguna función implementada).")
    elif len(written[chosen]) > len(written[other]):
        why = (f"Escribiste código en {graded} y en {unused}: se calificó {graded} porque tiene más funciones "
               f"implementadas ({count(chosen)}, frente a {len(written[other])} en {unused}); {unused} no se "
               f"calificó. Si querías que se calificara {unused}, completa en él todas tus funciones.")
    else:
        why = (f"Escribiste código en {graded} y en {unused}, y los dos tienen las mismas funciones "
               f"implementadas ({count(chosen)}): en un empate se califica el cuaderno, así que {unused} "
               f"no se calificó. Si querías que se calificara {unused}, borra tu código del cuaderno.")
    return chosen, dict(files)[chosen], why


def written_functions(name: str, raw: bytes, assignment) -> set[str]:
    """The graded functions a file defines with a body of the student's (not the released stub's
    `raise NotImplementedError()`), read without running anything. An unreadable file has none; a
    piece of code that does not parse, even without its IPython lines, counts every graded function
    it names as written (the stub parses, so the student changed it)."""
    try:
        text = raw.decode("utf-8-sig")
        sources = [text] if name.endswith(".py") else _code_sources(json.loads(text).get("cells", []))
    except (ValueError, AttributeError, RecursionError):
        return set()
    latest: dict[str, bool] = {}  # as the cells run: a later definition replaces an earlier one
    for source in sources:
        tree = parse_ignoring_ipython(source)
        if tree is None:
            latest.update({match.group(1): True for match in _DEF_LINE.finditer(source)})
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                latest[node.name] = not _is_stub(node)
    return {function for function, is_written in latest.items() if is_written and function in assignment.points}


def parse_ignoring_ipython(source: str):
    """A cell's syntax tree, read as Jupyter would: %magic and !command lines count as blank when the
    cell does not parse with them. None for a cell that is not Python either way."""
    for text in (source, "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                                    for line in source.splitlines())):
        try:
            return ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return None


def _is_stub(function) -> bool:
    """The released stub's body: an optional docstring, then only `raise NotImplementedError[()]`."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def files_in_folder(directory: Path) -> list[str]:
    """Every regular file under `directory`, as sorted relative POSIX paths; symbolic links are
    neither followed nor listed. As many as a zip may hold: a bigger tree is refused, not walked."""
    names = []
    for folder, subfolders, files in os.walk(directory):  # os.walk follows no links by default
        subfolders.sort()
        base = Path(folder).relative_to(directory)
        names += [(base / f).as_posix() for f in files if (Path(folder) / f).is_file()
                  and not (Path(folder) / f).is_symlink()]
        if len(names) > MAX_ZIP_ENTRIES:
            raise SubmissionError(f"{directory.name} contiene demasiados archivos.",
                                  f"{directory}: more than {MAX_ZIP_ENTRIES} files")
    return sorted(names)


def _nothing_to_grade(where, names, assignment) -> SubmissionError:
    # Every file is named (memoria.pdf, onlinetext.html), not only notebooks and modules: "none" beside
    # a folder that holds a file reads as a grader that did not look. A few, each cut short.
    shown = sorted(names)[:5]
    found = ", ".join(n if len(n) <= 60 else n[:59] + "…" for n in shown) + (", …" if len(names) > 5 else "")
    return SubmissionError(
        f"La entrega debe contener {assignment.notebook}.ipynb (o {assignment.notebook}.py); "
        f"se encontró: {found or 'ninguno'}.",
        f"{where}: expected {assignment.notebook}.ipynb or .py, found: {found or 'none'}",
    )


MAX_ZIP_ENTRIES = 1000


def read_from_zip(path: Path, assignment) -> tuple[str, bytes, str]:
    """The file to grade from a zip (an LMS download), read in memory: nothing is extracted,
    so path traversal and links cannot write anywhere, and sizes are checked before reading."""
    if path.stat().st_size > MAX_SUBMISSION_BYTES:
        raise _too_large(path)
    with open_zip(path) as archive:
        entries = zip_entries(archive, path)
        chosen = _pick([e.filename for e in entries], assignment)
        if not chosen:
            raise _nothing_to_grade(path, [e.filename for e in entries], assignment)
        return choose_worked_file([(name, read_zip_entry(archive, archive.getinfo(name), path)) for name in chosen],
                                  assignment)


def _damaged_zip(path: Path) -> SubmissionError:
    return SubmissionError(f"{path.name} no es un .zip válido o está dañado.", f"{path}: not a valid zip file")


def open_zip(path: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except Exception:  # zipfile raises many kinds for damaged or exotic archives
        raise _damaged_zip(path) from None


def zip_entries(archive: zipfile.ZipFile, path: Path) -> list[zipfile.ZipInfo]:
    """The archive's files, refusing the whole archive if any entry could escape a folder."""
    entries = [e for e in archive.infolist() if not e.is_dir() and not e.filename.startswith("__MACOSX/")]
    if len(entries) > MAX_ZIP_ENTRIES:
        raise SubmissionError(f"{path.name} contiene demasiados archivos.", f"{path}: more than {MAX_ZIP_ENTRIES} entries")
    unsafe = [e.filename for e in entries if e.filename.startswith("/") or ".." in PurePosixPath(e.filename).parts
              or stat.S_ISLNK(e.external_attr >> 16)]
    if unsafe:
        raise SubmissionError(f"{path.name} contiene rutas no permitidas (absolutas, con '..' o enlaces).",
                              f"{path}: unsafe entries refused: {unsafe[:5]}")
    return entries


def read_zip_entry(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, path: Path) -> bytes:
    """One entry's bytes, size-checked before and while reading."""
    buffer = io.BytesIO()
    _copy_checked(archive, entry, path, buffer)
    return buffer.getvalue()


def copy_zip_entry(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, path: Path, destination: Path) -> None:
    """One entry's bytes written to `destination` a chunk at a time, size-checked before and while
    copying (a download of many entries never sits in memory)."""
    with open(destination, "wb") as out:
        _copy_checked(archive, entry, path, out)


def _copy_checked(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, path: Path, out) -> None:
    if entry.file_size > MAX_SUBMISSION_BYTES:
        raise _too_large(f"{path}:{entry.filename}")
    if entry.flag_bits & 0x1:
        raise SubmissionError(f"{path.name} está protegido con contraseña; súbelo sin cifrar.",
                              f"{path}: encrypted zip entry {entry.filename}")
    copied = 0
    try:
        with archive.open(entry) as member:
            # Never more than one byte past the declared size: a lying header is caught without
            # unpacking a bomb.
            while copied <= entry.file_size and (chunk := member.read(min(1 << 20, entry.file_size + 1 - copied))):
                out.write(chunk)
                copied += len(chunk)
    except Exception:  # damaged data: zlib, lzma, CRC, truncation...
        raise _damaged_zip(path) from None
    if copied != entry.file_size:
        raise _damaged_zip(path)


def _decode_text(raw: bytes, path: Path) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SubmissionError(f"{path.name} no está guardado en UTF-8 (byte inválido en la posición {exc.start}).",
                              f"{path}: not UTF-8 (invalid byte at offset {exc.start})") from None


def read_notebook(raw: bytes, path: Path) -> nbformat.NotebookNode:
    """Parse notebook JSON tolerantly: any nbformat version, unknown fields, no validation."""
    text = _decode_text(raw, path)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SubmissionError(
            f"{path.name} no es un cuaderno válido: el JSON está dañado ({exc.__class__.__name__}). "
            "¿Se cortó la descarga o lo editaste a mano? Vuelve a descargarlo desde Jupyter.",
            f"{path}: invalid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells", data.get("worksheets")), list):
        raise SubmissionError(f"{path.name} no tiene la estructura de un cuaderno de Jupyter.",
                              f"{path}: JSON is not a notebook (no cell list)")
    try:
        # No schema validation: it explains nothing a grader needs, and on a large invalid
        # notebook it takes minutes (35 MB of odd outputs: 133 s). Only v3 -> v4 validates.
        notebook = nbformat.reader.reads(text)
        if notebook.get("nbformat") != 4:
            notebook = nbformat.convert(notebook, 4)
    except Exception as exc:  # nbformat raises many kinds for old or odd files
        raise SubmissionError(f"{path.name} usa un formato de cuaderno que no se puede leer.",
                              f"{path}: nbformat cannot read it ({exc.__class__.__name__}: {exc})") from None
    return notebook


@dataclasses.dataclass(frozen=True)
class ReleaseMatch:
    """A handed-in cell and the release cell it stands for, if any."""

    cell: object  # as handed in: any JSON the student's file held
    original: nbformat.NotebookNode | None  # the release cell whose grade id it carries
    first: bool  # the first cell carrying that grade id: the one that takes the release cell's place


def match_release(cells: list, release: nbformat.NotebookNode) -> list[ReleaseMatch]:
    """The one rule for which handed-in cells are the instructor's, used by the grader and by
    formgrader's copy alike: the release alone says it. A cell stands for a release cell only
    if it carries that cell's grade id; a grade id the release does not have (or no metadata
    at all) makes it the student's own. Copies keep the metadata (copy and paste in Jupyter),
    so several cells may carry one grade id: `first` marks the one that takes its place."""
    released = {c.metadata["nbgrader"]["grade_id"]: c for c in release.cells if "nbgrader" in c.get("metadata", {})}
    taken, matches = set(), []
    for cell in cells:
        metadata = cell.get("metadata") if isinstance(cell, dict) else None
        nbgrader = metadata.get("nbgrader") if isinstance(metadata, dict) else None
        grade_id = nbgrader.get("grade_id") if isinstance(nbgrader, dict) else None
        original = released.get(grade_id) if isinstance(grade_id, str) else None
        matches.append(ReleaseMatch(cell, original, original is not None and grade_id not in taken))
        if original is not None:
            taken.add(grade_id)
    return matches


def release_role(cell) -> str | None:
    """given, demo, solution or checks: what a release cell is for (lesson.py's roles)."""
    return cell.metadata.get("autograder", {}).get("role") if cell is not None else None


def program_from_notebook(notebook: nbformat.NotebookNode, release: nbformat.NotebookNode) -> Program:
    """The code to run: checks and demos (every copy) are left out, given code (every copy) is the
    release's, and given cells the student deleted are put back first."""
    code = [c for c in notebook.cells if c.get("cell_type") == "code"]
    cells, notes, seen, labels = [], [], set(), set()
    for match in match_release(code, release):
        role = release_role(match.original) if match.original is not None and match.original.cell_type == "code" else None
        if role is not None:
            seen.add(match.original.metadata["nbgrader"]["grade_id"])
        if role in ("checks", "demo"):
            continue
        source = match.cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        label = cell_label(source, labels)
        # A public release's given code from the reference is taken from this very cell (with_public_preamble):
        # the cell runs as written, in the worker, like the student's own.
        if role == "given" and not _from_reference(match.original):
            if source != match.original.source:
                notes.append(f"La celda bloqueada {label[1:-1].removeprefix('celda ')} fue modificada: "
                             "se usó la versión original.")
            source = match.original.source
        cells.append(Cell(label, source))
    missing_given = [c for c in release.cells if c.cell_type == "code" and release_role(c) == "given"
                     and c.metadata["nbgrader"]["grade_id"] not in seen]
    if missing_given:
        notes.append("Faltaban celdas bloqueadas del enunciado: se restauraron desde la versión original.")
        cells[:0] = [Cell(f"<enunciado {c.metadata['nbgrader']['grade_id']}>", c.source) for c in missing_given]
    _check_size(cells)
    return Program(cells, notes=notes, ipython_syntax=True, notebook=notebook)


def cell_label(source: str, taken: set[str]) -> str:
    """A cell's name in tracebacks and feedback, as a student can find it: Jupyter numbers no cells,
    so it is the function the cell defines, else its first line ("<celda de merge>",
    "<celda «vocab = build_vocab(…»>"). Unique within the notebook, since tracebacks are keyed by it;
    in angle brackets, so that nothing takes it for a file's path."""
    functions = sorted(defined_functions([source]), key=source.find)
    if functions:
        label = f"celda de {functions[0]}"
    else:
        first = next((line.strip() for line in source.splitlines() if line.strip()), "")
        first = "".join(ch for ch in first if ch.isprintable())
        label = f"celda «{first[:40]}…»" if len(first) > 40 else f"celda «{first}»" if first else "celda vacía"
    unique, copy = label, 1
    while f"<{unique}>" in taken:
        copy += 1
        unique = f"{label}, {copy}.ª"
    taken.add(f"<{unique}>")
    return f"<{unique}>"


MAX_CODE_CELLS = 1000
MAX_CODE_CHARS = 2 * 1024 * 1024  # the released notebooks hold about 20 000


def _check_size(cells: list[Cell]) -> None:
    if len(cells) > MAX_CODE_CELLS:
        raise SubmissionError(
            f"El cuaderno tiene {len(cells)} celdas de código; el máximo que se califica es {MAX_CODE_CELLS}. "
            "Borra las celdas que no forman parte de tu solución y vuelve a entregarlo.",
            f"{len(cells)} code cells (limit {MAX_CODE_CELLS})")
    size = sum(len(c.source) for c in cells)
    if size > MAX_CODE_CHARS:
        raise SubmissionError(
            f"El código del cuaderno ocupa {size:,} caracteres; el máximo que se califica es {MAX_CODE_CHARS:,}. "
            "¿Pegaste datos o salidas dentro de una celda de código?".replace(",", " "),
            f"{size} characters of code (limit {MAX_CODE_CHARS})")
