"""Sample submissions the project makes itself: correct, stub, buggy and hostile.

A sample is the reference notebook with some functions replaced and some cells
added. The same catalogues feed the meta-tests (tests/), the demo and the
benchmarks, so every claim about what the grader catches is made on one corpus.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import textwrap
import importlib
from pathlib import Path

import nbformat

from autograder.notebook.lesson import load_source_notebook, solution_functions, stub_source


@dataclasses.dataclass(frozen=True)
class Sample:
    name: str
    kind: str  # "correct", "stub", "buggy" or "hostile"
    description: str
    replace: dict = dataclasses.field(default_factory=dict)  # function -> full new source of its def
    cells: tuple[str, ...] = ()  # extra code cells, appended after the last cell
    first_cells: tuple[str, ...] = ()  # extra code cells, before the first cell
    failing: frozenset = frozenset()  # buggy: the hidden tests it must fail, exactly
    hint: str = ""  # buggy: a phrase the first failing test's hint contains
    # hostile: edits the saved notebook as a text editor could (outputs, markdown, metadata);
    # a module (build_module) has nowhere to keep them
    edit_notebook: object = None


@functools.lru_cache(maxsize=None)
def reference_functions(assignment_id: str) -> dict:
    """The reference solution's functions (header and body), read from solutions/ID/solution.py."""
    from autograder.course import PROJECT_ROOT

    path = PROJECT_ROOT / "solutions" / assignment_id / "solution.py"
    return solution_functions(path.read_text(encoding="utf-8"))


def parameter_lists(assignment_id: str) -> dict[str, str]:
    """Each reference function's parameters as written, e.g. {"get_stats": "ids, counts=None"}."""
    return {name: f.header.split("(", 1)[1].split("):", 1)[0] for name, f in reference_functions(assignment_id).items()}


def mutant(assignment_id: str, name, description, function, edits, failing, hint) -> Sample:
    """A buggy sample: the reference `function` with each (old, new) edit applied.

    Each `old` must occur exactly once, so an entry states exactly its mistake and
    breaks loudly if the reference changes under it."""
    reference = reference_functions(assignment_id)[function]
    source = f"{reference.header}\n{reference.body}"
    for old, new in edits:
        if source.count(old) != 1:
            raise ValueError(f"{name}: {old!r} occurs {source.count(old)} times in the reference {function}")
        source = source.replace(old, new)
    return Sample(name, "buggy", description, replace={function: source}, failing=frozenset(failing), hint=hint)


def rewrite(name, description, source, failing, hint) -> Sample:
    """A buggy sample written out whole, where the wrong idea changes the shape of the code."""
    function = source.split("def ", 1)[1].split("(", 1)[0]
    return Sample(name, "buggy", description, replace={function: source.strip("\n")},
                  failing=frozenset(failing), hint=hint)


STUB_LINE = "raise NotImplementedError()"


def cell(source: str) -> str:
    """A code cell written indented inside a Python string, dedented."""
    return textwrap.dedent(source).strip("\n")


def call_arguments(assignment_id: str, name: str) -> str:
    """A function's parameters as call arguments, e.g. "ids, counts" for get_stats."""
    signature = ast.parse(f"def f({parameter_lists(assignment_id)[name]}): pass").body[0].args
    return ", ".join(a.arg for a in signature.posonlyargs + signature.args)


def replace_all(assignment_id: str, default: str = STUB_LINE, **bodies: str) -> dict:
    """Every graded function with a new body: `bodies[name]`, else `default`, where {name} is
    the function's name and {args} its parameters as call arguments (for hostile samples)."""
    out = {}
    for name, parameters in parameter_lists(assignment_id).items():
        body = bodies.get(name, default).replace("{name}", name).replace("{args}", call_arguments(assignment_id, name))
        lines = textwrap.dedent(body).strip("\n").splitlines()
        out[name] = f"def {name}({parameters}):\n" + "\n".join("    " + line if line else "" for line in lines)
    return out


def correct(assignment_id: str) -> Sample:
    return Sample("correct", "correct", "the reference solution")


def stub(assignment) -> Sample:
    functions = solution_functions(assignment.solution_path.read_text(encoding="utf-8"))
    return Sample("stub", "stub", "the released stub, untouched",
                  replace={name: stub_source(f) for name, f in functions.items()})


def from_module(assignment, path: Path, kind: str = "correct") -> Sample:
    """A `.py` submission as a student would have written it in the notebook: each graded function's
    `def` in its own solution cell, everything else (imports, helpers, classes, constants) in a
    first cell. A graded function bound otherwise (``encode = _tok.encode``) leaves its cell empty."""
    source = Path(path).read_text(encoding="utf-8")
    lines = source.splitlines()
    replace, rest, taken = {}, [], []
    for node in ast.parse(source).body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
        text = "\n".join(lines[start:node.end_lineno])
        if isinstance(node, ast.FunctionDef) and node.name in assignment.points:
            replace[node.name] = text
            taken.append(node.name)
        else:
            rest.append(text)
    for name in assignment.points:
        replace.setdefault(name, f"# {name}: definida en la primera celda")
    return Sample(Path(path).stem, kind, f"{path.name}, as a notebook", replace=replace,
                  first_cells=("\n\n".join(rest),) if rest else ())


def catalogue(assignment_id: str, kind: str) -> list[Sample]:
    """The buggy or hostile samples of one assignment (autograder/samples/<id>_<kind>.py)."""
    if kind not in ("buggy", "hostile"):
        raise ValueError(f"kind must be 'buggy' or 'hostile', not {kind!r}")
    module = importlib.import_module(f"autograder.samples.{assignment_id}_{kind}")
    return list(getattr(module, kind.upper()))


def build_notebook(assignment, sample: Sample, path: Path) -> Path:
    notebook = copy.deepcopy(load_source_notebook(assignment))
    for cell in notebook.cells:
        role = cell.metadata.get("autograder", {})
        if role.get("role") == "solution" and role.get("function") in sample.replace:
            cell.source = sample.replace[role["function"]]
    notebook.cells[:0] = [_added_cell(code, f"first-{i}") for i, code in enumerate(sample.first_cells)]
    notebook.cells += [_added_cell(code, f"extra-{i}") for i, code in enumerate(sample.cells)]
    if sample.edit_notebook is not None:
        sample.edit_notebook(notebook)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


def _added_cell(code: str, place: str):
    """A code cell with an id fixed by its place, so that the same sample builds the same bytes
    (nbformat would draw a random id, and the demo's results files would differ run to run)."""
    added = nbformat.v4.new_code_cell(code)
    added.id = f"sample-{place}"
    return added


def build_module(assignment, sample: Sample, path: Path) -> Path:
    source = assignment.solution_path.read_text(encoding="utf-8")
    functions = solution_functions(source)
    lines = source.splitlines()
    for name, new in sorted(sample.replace.items(), key=lambda item: -_start_line(source, item[0])):
        start, end = _span(source, name)
        lines[start:end] = new.splitlines()
    text = "\n\n".join([*sample.first_cells, "\n".join(lines), *sample.cells]) + "\n"
    assert set(sample.replace) <= set(functions)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _span(source: str, name: str) -> tuple[int, int]:
    import ast

    for node in ast.parse(source).body:
        if getattr(node, "name", None) == name:
            start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
            return start, node.end_lineno
    raise KeyError(name)


def _start_line(source: str, name: str) -> int:
    return _span(source, name)[0]
