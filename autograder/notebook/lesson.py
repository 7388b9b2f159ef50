"""Build an assignment's nbgrader source notebook from its two single sources.

- ``assignments/NAME/lesson.md``: the Spanish lesson. Prose becomes Markdown cells
  (a line ``+++`` starts a new one); fenced code blocks become code cells whose info
  string gives the role: ``python given``, ``python demo``, ``python solution FN``,
  ``python checks FN`` or plain ``python`` (a free cell for the student). An empty
  ``given`` block is filled with the solution module's imports and constants.
- ``solutions/NAME/solution.py``: the reference solution. Each ``solution FN`` block
  is filled with that function's source, its body between nbgrader's solution
  markers, so nbgrader's release keeps the signature and docstring and clears the rest.

Nothing is written by hand twice: the stub module is derived the same way.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import io
import json
import re
from pathlib import Path

import nbformat

ROLES = ("given", "demo", "solution", "checks", "free")
STUB_BODY = "# TU CÓDIGO AQUÍ\nraise NotImplementedError()"
GRADE_CELL_PREFIX = "checks_"  # nbgrader's grade cell of FUNCTION is checks_FUNCTION, in every notebook and gradebook


def grade_cell_id(function: str) -> str:
    return GRADE_CELL_PREFIX + function


def graded_function(grade_id: str) -> str | None:
    """The function whose grade cell `grade_id` is, or None."""
    return grade_id[len(GRADE_CELL_PREFIX):] if grade_id.startswith(GRADE_CELL_PREFIX) else None
_FENCE = re.compile(r"^```(.*)$")


class LessonError(ValueError):
    """The lesson source is malformed (an instructor-facing error)."""


@dataclasses.dataclass
class Block:
    role: str  # "markdown" or one of ROLES
    text: str
    function: str | None = None


def parse_lesson(text: str, where: str = "lesson.md") -> list[Block]:
    blocks: list[Block] = []
    prose: list[str] = []
    lines = iter(enumerate(text.splitlines(), start=1))

    def flush_prose():
        body = "\n".join(prose).strip()
        if body:
            blocks.append(Block("markdown", body))
        prose.clear()

    for number, line in lines:
        fence = _FENCE.match(line)
        if line.strip() == "+++":
            flush_prose()
        elif fence:
            flush_prose()
            role, function = _parse_info(fence.group(1).split(), where, number)
            code = []
            for _, inner in lines:
                if inner.startswith("```"):
                    break
                code.append(inner)
            else:
                raise LessonError(f"{where}:{number}: code block is never closed")
            blocks.append(Block(role, "\n".join(code).strip("\n"), function))
        else:
            prose.append(line)
    flush_prose()
    return blocks


def _parse_info(words: list[str], where: str, number: int) -> tuple[str, str | None]:
    if not words or words[0] != "python":
        raise LessonError(f"{where}:{number}: code blocks must be ```python [role]")
    role = words[1] if len(words) > 1 else "free"
    if role not in ROLES:
        raise LessonError(f"{where}:{number}: unknown role {role!r}; allowed: {', '.join(ROLES)}")
    needs_function = role in ("solution", "checks")
    if needs_function != (len(words) == 3) or len(words) > 3:
        raise LessonError(f"{where}:{number}: ```python {role} takes {'one function name' if needs_function else 'no argument'}")
    return role, words[2] if needs_function else None


# --- functions of the reference solution ------------------------------------------------

@dataclasses.dataclass
class FunctionSource:
    name: str
    header: str  # decorators, signature and docstring
    body: str


def solution_functions(source: str) -> dict[str, FunctionSource]:
    """Top-level functions and classes of a solution module, split at the end of their docstring."""
    tree = ast.parse(source)
    lines = source.splitlines()
    out = {}
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            continue
        start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        first = node.body[0]
        has_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
        split = first.end_lineno if has_doc else node.body[0].lineno - 1
        out[node.name] = FunctionSource(
            node.name, "\n".join(lines[start:split]), "\n".join(lines[split:node.end_lineno]).strip("\n")
        )
    return out


def _indent_of(body: str) -> str:
    first = next(line for line in body.splitlines() if line.strip())
    return first[: len(first) - len(first.lstrip())]


def solution_cell_source(function: FunctionSource) -> str:
    pad = _indent_of(function.body)
    return f"{function.header}\n{pad}### BEGIN SOLUTION\n{function.body}\n{pad}### END SOLUTION"


def stub_source(function: FunctionSource) -> str:
    pad = _indent_of(function.body)
    stub = "\n".join(pad + line for line in STUB_BODY.splitlines())
    return f"{function.header}\n{stub}"


def solution_preamble(solution_source: str) -> str:
    """The solution module's imports and top-level constants, in order (the given code)."""
    tree = ast.parse(solution_source)
    kept = [ast.get_source_segment(solution_source, node) for node in tree.body
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign))]
    return "\n".join(kept)


def stub_module(solution_source: str, module_doc: str) -> str:
    """The student's .py stub: the module docstring, the given code, every graded function as a stub."""
    parts = [f'"""{module_doc}"""']
    preamble = solution_preamble(solution_source)
    if preamble:
        parts.append(preamble)
    parts += [stub_source(f) for f in solution_functions(solution_source).values()]
    return "\n\n\n".join(parts) + "\n"


# --- the notebook -----------------------------------------------------------------------

def build_source_notebook(lesson_text: str, solution_source: str | None, points: dict[str, float],
                          where: str = "lesson.md") -> nbformat.NotebookNode:
    """The nbgrader *source* notebook (with solutions), cell by cell from the lesson.

    Without the reference (`solution_source` None: a student's checkout has no solutions/), the
    public notebook: solution cells hold no code, and an empty ``given`` block stays empty, marked
    ``from_reference`` (the loader fills it from the handed-in file; loader.with_public_preamble)."""
    blocks = parse_lesson(lesson_text, where)
    if solution_source is None:
        functions = {name: None for name in points}
    else:
        functions = solution_functions(solution_source)
    _check_blocks(blocks, functions, points, where)
    notebook = nbformat.v4.new_notebook()
    notebook.metadata.update({
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    counters: dict[str, int] = {}
    for block in blocks:
        counters[block.role] = counters.get(block.role, 0) + 1
        from_reference = block.role == "given" and not block.text.strip()
        if from_reference and solution_source is not None:
            block = Block("given", solution_preamble(solution_source))  # the solution's imports and constants
        cell = _make_cell(block, functions, points, counters[block.role])
        if from_reference and solution_source is None:
            cell.metadata["autograder"]["from_reference"] = True
        cell.id = f"{block.role}-{counters[block.role]}"  # stable ids: releases are reproducible
        notebook.cells.append(cell)
    return notebook


def _check_blocks(blocks, functions, points, where) -> None:
    solved = [b.function for b in blocks if b.role == "solution"]
    checked = [b.function for b in blocks if b.role == "checks"]
    for name in solved:
        if name not in functions:
            raise LessonError(f"{where}: `solution {name}` has no function {name} in the solution module")
    if sorted(solved) != sorted(set(solved)) or sorted(solved) != sorted(points):
        raise LessonError(f"{where}: solution blocks {solved} must name each graded function once: {sorted(points)}")
    if sorted(checked) != sorted(solved):
        raise LessonError(f"{where}: every solution block needs one checks block (have {checked})")
    for block in blocks:
        if block.role == "solution" and block.text.strip():
            raise LessonError(f"{where}: `solution {block.function}` must be empty; the code comes from solution.py")


def _make_cell(block: Block, functions, points, count: int):
    if block.role == "markdown":
        return nbformat.v4.new_markdown_cell(block.text, metadata=_nbgrader(f"md_{count}", locked=True))
    if block.role == "solution":
        function = functions[block.function]
        cell = nbformat.v4.new_code_cell(solution_cell_source(function) if function is not None else "")
        cell.metadata = _nbgrader(block.function, solution=True)
    elif block.role == "checks":
        cell = nbformat.v4.new_code_cell(explained_checks(block.text, set(points)))
        cell.metadata = _nbgrader(grade_cell_id(block.function), grade=True, locked=True,
                                  points=points[block.function])
    elif block.role == "free":
        cell = nbformat.v4.new_code_cell(block.text)
    else:
        cell = nbformat.v4.new_code_cell(block.text)
        cell.metadata = _nbgrader(f"{block.role}_{count}", locked=True)
    cell.metadata["autograder"] = {"role": block.role, **({"function": block.function} if block.function else {})}
    return cell


# --- visible checks that say what went wrong ------------------------------------------------

RETURNED = "devuelto"  # the name a rewritten check gives the value it checks (a student reads it in the cell)
SHOWN_CHARS = 300  # of what the function returned, in a failed check's message


def explained_checks(source: str, functions: set[str]) -> str:
    """A checks block whose comparisons say, when they fail, what was called, what it returned and
    what was expected (in Spanish): Jupyter shows an AssertionError's message and nothing else.

    Each ``assert EXPR == EXPECTED, "why"`` whose EXPR calls a graded function becomes

        assert (devuelto := EXPR) == EXPECTED, (
            "why"
            "\n  llamada:     EXPR"
            f"\n  devolvió:    {devuelto!r:.300}"
            "\n  se esperaba: EXPECTED")

    with the lesson's own text for EXPR and EXPECTED, so a check reads as the lesson wrote it and
    computes exactly what it computed. Other statements are left as they are."""
    tree = ast.parse(source)
    lines = source.splitlines()
    segment = _segments(source)
    for node in sorted(ast.walk(tree), key=lambda n: -getattr(n, "lineno", 0)):
        if not _explainable(node, functions, lines):
            continue
        call, expected = node.test.left, node.test.comparators[0]
        call_text, expected_text = (" ".join(segment(n).split()) for n in (call, expected))
        pad = " " * node.col_offset
        rewritten = [
            f"{pad}assert ({RETURNED} := {segment(call)}) == {segment(expected)}, (",
            f"{pad}    {segment(node.msg)}",
            f"{pad}    {json.dumps(chr(10) + '  llamada:     ' + call_text, ensure_ascii=False)}",
            f"{pad}    f\"\\n  devolvió:    {{{RETURNED}!r:.{SHOWN_CHARS}}}\"",
            f"{pad}    {json.dumps(chr(10) + '  se esperaba: ' + expected_text, ensure_ascii=False)})",
        ]
        lines[node.lineno - 1:node.end_lineno] = rewritten
    explained = "\n".join(lines)
    ast.parse(explained)  # a lesson whose checks this cannot rewrite fails at build time, never in a notebook
    return explained


def _segments(source: str):
    """segment(node): the source text of `node`, as ast.get_source_segment gives it. That function
    splits the whole source again at every call: building a notebook spent half its time there."""
    lines = io.StringIO(source, newline="").readlines()  # lines end at \n, \r or \r\n only, as for ast

    def segment(node) -> str:
        first, last = node.lineno - 1, node.end_lineno - 1
        if first == last:
            return lines[first].encode()[node.col_offset:node.end_col_offset].decode()
        return "".join([lines[first].encode()[node.col_offset:].decode(), *lines[first + 1:last],
                        lines[last].encode()[:node.end_col_offset].decode()])

    return segment


def _explainable(node, functions: set[str], lines: list[str]) -> bool:
    if not (isinstance(node, ast.Assert) and node.msg is not None and isinstance(node.test, ast.Compare)
            and len(node.test.ops) == 1 and isinstance(node.test.ops[0], ast.Eq)):
        return False
    line = lines[node.lineno - 1]
    if node.end_lineno != node.lineno or line[:node.col_offset].strip() or line[node.end_col_offset:].strip():
        return False  # the rewritten statement replaces a whole line: only a statement alone on its line
    calls = [n for n in ast.walk(node.test.left) if isinstance(n, ast.Call)]
    return any(isinstance(c.func, ast.Name) and c.func.id in functions for c in calls)


def _nbgrader(grade_id: str, *, solution=False, grade=False, locked=False, points=None) -> dict:
    meta = {"grade_id": grade_id, "solution": solution, "grade": grade, "locked": locked, "schema_version": 3}
    if grade:
        meta["points"] = points
    return {"nbgrader": meta}


def load_source_notebook(assignment) -> nbformat.NotebookNode:
    """The source notebook of a configured assignment (see autograder.course): a copy of its own."""
    return _built_from_files(assignment, Path(assignment.solution_path).read_text(encoding="utf-8"))


def load_public_notebook(assignment) -> nbformat.NotebookNode:
    """What the visible checks need, from the lesson alone (build_source_notebook without the reference):
    a student's checkout has assignments/ but no solutions/."""
    return _built_from_files(assignment, None)


def _built_from_files(assignment, solution_source: str | None) -> nbformat.NotebookNode:
    lesson = Path(assignment.lesson_path).read_text(encoding="utf-8")
    built = _built_once(lesson, solution_source, tuple(assignment.points.items()), str(assignment.lesson_path))
    return copy.deepcopy(built)


@functools.lru_cache(maxsize=32)
def _built_once(lesson_text: str, solution_source: str | None, points: tuple, where: str) -> nbformat.NotebookNode:
    """build_source_notebook, once per text: the samples of a class, a release and a grading kit all
    start from the same notebook, and building it (parsing, rewriting the checks, validating each
    cell) cost 29.7 ms per sample notebook against 5.0 ms with a copy. Keyed by the texts themselves,
    so an edited lesson is rebuilt."""
    return build_source_notebook(lesson_text, solution_source, dict(points), where=where)
