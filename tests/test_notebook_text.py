"""What the Spanish notebooks show: numbers written the Spanish way, and no demo that hands out a graded function.

Both checks read the notebook built from the lesson and the reference (`load_source_notebook`).
nbgrader's release rewrites only the solution cells, so every other cell reads the same in the
release as here.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import io
import keyword
import re
import string
import tokenize

import pytest

from autograder.course import load_course
from autograder.notebook.lesson import load_source_notebook

ASSIGNMENTS = list(load_course().assignments)


def code_cells(notebook, *, solutions=True):
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        if not solutions and cell.metadata.get("autograder", {}).get("role") == "solution":
            continue
        yield cell


# --- numbers -------------------------------------------------------------------------------
#
# The rule (RAE, Ortografía 2010, and SI): a number of five or more digits is split into groups of
# three by a space (50 257, 38 597 376); a four-digit number is written together (1012, 2048); the
# comma never groups thousands, since a Spanish reader takes 38,597,376 for a decimal. Code that
# prints a number uses a helper of the notebook's own, f"{n:,}".replace(",", " "): a grouping
# format spec is fine only when its separator is replaced on the spot.

# 1,000 and 38,597,376; not 0,077 (a Spanish decimal comma) nor (3,4) in a list or tuple of code.
ENGLISH_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:,\d{3})+(?![\d,])")
# 1 012 but not the tail of 50 257 or 38 597 376.
SPLIT_FOUR_DIGITS = re.compile(r"(?<!\d)(?<!\d )\d \d{3}(?!\d)(?! \d{3})")
# [[fill]align][sign][z][#][0][width] then the grouping option , or _
GROUPING_SPEC = re.compile(r"^(?:.?[<>=^])?[-+ ]?z?#?0?\d*[,_]")


def _spec_text(spec: ast.JoinedStr) -> str:
    return "".join(v.value for v in spec.values if isinstance(v, ast.Constant) and isinstance(v.value, str))


def _replaced_on_the_spot(tree: ast.AST) -> set[int]:
    """ids of the f-strings `f"{n:,}"` written as `f"{n:,}".replace(",", other)`."""
    exempt = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace"
                and isinstance(node.func.value, ast.JoinedStr) and len(node.args) == 2
                and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args)
                and node.args[0].value in (",", "_") and node.args[0].value not in node.args[1].value):
            exempt.add(id(node.func.value))
    return exempt


def grouping_specs(source: str) -> list[str]:
    """Every format spec in the code that groups thousands with , or _ and keeps that separator."""
    tree = ast.parse(source)
    exempt = _replaced_on_the_spot(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and id(node) not in exempt:
            for value in node.values:
                if isinstance(value, ast.FormattedValue) and value.format_spec is not None:
                    spec = _spec_text(value.format_spec)
                    if GROUPING_SPEC.match(spec):
                        found.append(ast.unparse(node))
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "format" and len(node.args) == 2:
                spec = node.args[1]
                if isinstance(spec, ast.Constant) and isinstance(spec.value, str) and GROUPING_SPEC.match(spec.value):
                    found.append(ast.unparse(node))
            if (isinstance(func, ast.Attribute) and func.attr == "format" and isinstance(func.value, ast.Constant)
                    and isinstance(func.value.value, str)):
                specs = [s for _, _, s, _ in string.Formatter().parse(func.value.value) if s]
                found += [ast.unparse(node) for s in specs if GROUPING_SPEC.match(s)]
    return found


def readable_text(notebook) -> list[str]:
    """What a student reads: the prose, and the strings and comments of the code (not its numbers)."""
    texts = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    for cell in code_cells(notebook):
        texts += [node.value for node in ast.walk(ast.parse(cell.source))
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)]
        texts += [t.string for t in tokenize.generate_tokens(io.StringIO(cell.source).readline)
                  if t.type == tokenize.COMMENT]
    return texts


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_number_is_printed_with_english_thousands_separators(course, assignment_id):
    notebook = load_source_notebook(course.assignment(assignment_id))
    found = [spec for cell in code_cells(notebook) for spec in grouping_specs(cell.source)]
    assert found == [], "usa separa_miles(n): f\"{n:,}\".replace(\",\", \" \")"


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_numbers_in_the_text_follow_the_spanish_rule(course, assignment_id):
    notebook = load_source_notebook(course.assignment(assignment_id))
    texts = readable_text(notebook)
    assert [m.group() for text in texts for m in ENGLISH_THOUSANDS.finditer(text)] == []
    assert [m.group() for text in texts for m in SPLIT_FOUR_DIGITS.finditer(text)] == []


def test_the_number_checks_see_what_they_forbid():
    assert grouping_specs('print(f"{n:,} tokens", f"{n:>7,}", f"{n:_}", "{:,}".format(n), format(n, ","))') == [
        "f'{n:,} tokens'", "f'{n:>7,}'", "f'{n:_}'", "'{:,}'.format(n)", "format(n, ',')"]
    assert grouping_specs('print(f"{n:,}".replace(",", " "), f"{x:6.1f}", f"{p!r:18}", f"{n:>7}")') == []
    text = "38,597,376 y 1,000; no 0,077 ni (3,4); 1 012 sí, 50 257 y 38 597 376 no; 2048 no"
    assert [m.group() for m in ENGLISH_THOUSANDS.finditer(text)] == ["38,597,376", "1,000"]
    assert [m.group() for m in SPLIT_FOUR_DIGITS.finditer(text)] == ["1 012"]


# --- demos ---------------------------------------------------------------------------------
#
# A cell the student does not write (given, demo, checks, free) must not hand out a graded function
# or most of one. Each function and each loop of such a cell, and the cell itself, is compared with
# the body of every graded function of the reference, both as token sequences where names, strings
# and numbers are reduced to their kind and keywords, operators and builtins are kept (renaming the
# variables or rewording the messages changes nothing). difflib's ratio is 2·matches / total length.
#
# NEAR_COPY: bpe_palabras' old demo `train_bpe_alfabetico` (train_bpe with `max` changed to `min`
# and without `min_count`, pinned below) scores 0.82 against train_bpe. What the lessons legitimately
# show scores 0.63 at most: replaying the student's merges with the student's functions, or another
# algorithm built from the same idioms (subpalabras' BPE beside WordPiece scores 0.63 against
# wordpiece_scores). 0.75 lies between the two with room on both sides.
NEAR_COPY = 0.75


class _Blank(ast.NodeTransformer):
    """f-strings as one plain string, so that the tokens do not depend on Python's version."""

    def visit_JoinedStr(self, node):
        return ast.copy_location(ast.Constant(""), node)


def _tokens(statements: list[ast.stmt]) -> list[str]:
    tree = _Blank().visit(ast.Module(body=list(statements), type_ignores=[]))
    out = []
    for token in tokenize.generate_tokens(io.StringIO(ast.unparse(tree)).readline):
        if token.type == tokenize.NAME and not keyword.iskeyword(token.string) and not hasattr(builtins, token.string):
            out.append("NAME")
        elif token.type == tokenize.STRING:
            out.append("STR")
        elif token.type == tokenize.NUMBER:
            out.append("NUM")
        elif token.type in (tokenize.OP, tokenize.NAME):
            out.append(token.string)
    return out


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return body[1:]
    return body


def graded_bodies(assignment) -> dict[str, list[str]]:
    tree = ast.parse(assignment.solution_path.read_text(encoding="utf-8"))
    bodies = {node.name: _tokens(_without_docstring(node.body)) for node in tree.body
              if isinstance(node, ast.FunctionDef) and node.name in assignment.points}
    assert sorted(bodies) == sorted(assignment.points)
    return bodies


def near_copies(source: str, graded: dict[str, list[str]]) -> list[tuple[str, str, float]]:
    """(unit of the cell, graded function, ratio) for each unit at NEAR_COPY or more from a graded function."""
    tree = ast.parse(source)
    units = [("la celda", tree.body)]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            units.append((f"def {node.name} (línea {node.lineno})", _without_docstring(node.body)))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            units.append((f"el bucle de la línea {node.lineno}", [node]))
    found = []
    for where, statements in units:
        tokens = _tokens(statements)
        for name, body in graded.items():
            ratio = difflib.SequenceMatcher(None, tokens, body, autojunk=False).ratio()
            if ratio >= NEAR_COPY:
                found.append((where, name, round(ratio, 2)))
    return found


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_cell_the_student_does_not_write_holds_a_graded_function(course, assignment_id):
    assignment = course.assignment(assignment_id)
    graded = graded_bodies(assignment)
    found = {cell.id: near for cell in code_cells(load_source_notebook(assignment), solutions=False)
             if (near := near_copies(cell.source, graded))}
    assert found == {}


# bpe_palabras' demo before issue 15: train_bpe with another tie rule, so nearly train_bpe itself.
OLD_BPE_PALABRAS_DEMO = '''
def train_bpe_alfabetico(corpus, num_merges, end="_"):
    palabras = {tuple(w) + (end,): f for w, f in corpus.items()}
    fusiones = []
    for _ in range(num_merges):
        cuentas = get_stats(palabras)
        par = min(cuentas, key=lambda p: (-cuentas[p], p))   # la más frecuente; empate: orden alfabético
        fusiones.append(par)
        palabras = {merge_pair(s, par): f for s, f in palabras.items()}
    return fusiones

alfabetico = train_bpe_alfabetico(CORPUS_MEDICO, 80)
primera = next(i for i, (x, y) in enumerate(zip(fusiones, alfabetico)) if x != y)
print(f"Primera diferencia en la fusión {primera + 1}: {fusiones[primera]} frente a {alfabetico[primera]}")
for palabra in ["desfibrilador", "hipertenso"]:
    print(f"{palabra:14} primera aparición: {tokenize(palabra, fusiones)}   alfabético: {tokenize(palabra, alfabetico)}")
'''


def test_the_demo_check_catches_a_graded_function_with_one_change(course):
    graded = graded_bodies(course.assignment("bpe_palabras"))
    assert [(where, name) for where, name, _ in near_copies(OLD_BPE_PALABRAS_DEMO, graded)] == [
        ("def train_bpe_alfabetico (línea 2)", "train_bpe")]


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_the_demo_check_catches_every_graded_function_renamed(course, assignment_id):
    assignment = course.assignment(assignment_id)
    graded = graded_bodies(assignment)
    tree = ast.parse(assignment.solution_path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in graded:
            name, node.name = node.name, "ayuda"
            assert name in {graded_name for _, graded_name, _ in near_copies(ast.unparse(node), graded)}, name
