"""Sample submissions made from an assignment's own files: correct, stub, buggy and hostile.

A sample is the reference notebook with some functions replaced and some cells
added. This package is the toolkit; the samples themselves are course content and
live with their assignment (docs/authoring.md):

    solutions/ID/buggy.py     BUGGY: plausible wrong implementations, each with the
                              hidden tests it must fail and the hint it must get
    solutions/ID/hostile.py   HOSTILE: attacks on the grader (optional; the generic
                              shape attacks below apply to every assignment anyway)

The same catalogues feed the meta-tests (tests/), the audit, the demo and the
benchmarks, so every claim about what the grader catches is made on one corpus.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import textwrap
import importlib.util
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
    clause: str = ""  # buggy: the lesson's rule (a key of the suite's CLAUSES) it breaks, alone
    # hostile: edits the saved notebook as a text editor could (outputs, markdown, metadata);
    # a module (build_module) has nowhere to keep them
    edit_notebook: object = None


class CatalogueError(ValueError):
    """An assignment's catalogue is missing or does not define its list (English, for the instructor)."""


def _solution_file(reference) -> Path:
    """A reference given as an Assignment (its solution_path) or as the path of its solution.py."""
    return Path(getattr(reference, "solution_path", reference)).resolve()


@functools.lru_cache(maxsize=None)
def _functions_of(solution: Path) -> dict:
    return solution_functions(solution.read_text(encoding="utf-8"))


def reference_functions(reference) -> dict:
    """The reference solution's functions (header and body), read from its solution.py."""
    return _functions_of(_solution_file(reference))


def parameter_lists(reference) -> dict[str, str]:
    """Each reference function's parameters as written, e.g. {"get_stats": "ids, counts=None"}."""
    return {name: f.header.split("(", 1)[1].split("):", 1)[0] for name, f in reference_functions(reference).items()}


def mutant(reference, name, description, function, edits, failing, hint, *, clause: str = "") -> Sample:
    """A buggy sample: the reference `function` with each (old, new) edit applied.

    Each `old` must occur exactly once, so an entry states exactly its mistake and
    breaks loudly if the reference changes under it."""
    reference = reference_functions(reference)[function]
    source = f"{reference.header}\n{reference.body}"
    for old, new in edits:
        if source.count(old) != 1:
            raise ValueError(f"{name}: {old!r} occurs {source.count(old)} times in the reference {function}")
        source = source.replace(old, new)
    return Sample(name, "buggy", description, replace={function: source}, failing=frozenset(failing), hint=hint,
                  clause=clause)


def rewrite(name, description, source, failing, hint, *, clause: str = "") -> Sample:
    """A buggy sample written out whole, where the wrong idea changes the shape of the code."""
    function = source.split("def ", 1)[1].split("(", 1)[0]
    return Sample(name, "buggy", description, replace={function: source.strip("\n")},
                  failing=frozenset(failing), hint=hint, clause=clause)


def _wrapped(reference, function: str, before: str, after: str) -> str:
    """The reference `function` as an inner `_fresh`, called with the arguments by name between two
    pieces of code (each indented as the outer body): the shape of a wrong idea around correct code."""
    ref = reference_functions(reference)[function]
    parameters = parameter_lists(reference)[function]
    arguments = ast.parse(f"def _({parameters}): pass").body[0].args
    by_name = ", ".join(f"{a.arg}={a.arg}" for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs))
    inner = textwrap.indent(f"def _fresh({' '.join(parameters.split())}):\n{ref.body}", "    ")
    return f"{ref.header}\n{before}{inner}\n    result = _fresh({by_name})\n{after}    return result"


def remembering(reference, name, function, key, failing, hint, *, clause: str = "") -> Sample:
    """A buggy sample: the reference `function` that remembers its last answer and gives it again when the
    next call has the same `key` (the text, the word), whatever its other arguments: a table changed
    between two calls gets the first table's answer."""
    before = (f"    last = {function}.__dict__.get('last')\n"
              f"    if last is not None and last[0] == {key}:\n        return last[1]\n")
    source = _wrapped(reference, function, before, f"    {function}.last = ({key}, result)\n")
    return Sample(name, "buggy", f"gives its last answer again when `{key}` repeats", replace={function: source},
                  failing=frozenset(failing), hint=hint, clause=clause)


def changing(reference, name, function, statement, failing, hint, *, clause: str = "") -> Sample:
    """A buggy sample: the reference `function`, which then runs `statement` on an argument the lesson
    says it leaves alone (a clean-up, a sort, a table grown on the way): right answer, changed argument."""
    source = _wrapped(reference, function, "", f"    {statement}\n")
    return Sample(name, "buggy", f"changes an argument after answering: {statement}", replace={function: source},
                  failing=frozenset(failing), hint=hint, clause=clause)


STUB_LINE = "raise NotImplementedError()"


def cell(source: str) -> str:
    """A code cell written indented inside a Python string, dedented."""
    return textwrap.dedent(source).strip("\n")


def reference_cell(reference) -> str:
    """A cell that runs the reference solution in a namespace of its own, `_H`: hostile samples that
    change only the form of the right answer compute it with `_H[name](...)`."""
    source = _solution_file(reference).read_text(encoding="utf-8")
    return f"_H = {{}}\nexec(compile({source!r}, '<respuestas>', 'exec'), _H)"


def call_arguments(reference, name: str) -> str:
    """A function's parameters as call arguments, e.g. "ids, counts" for get_stats; keyword-only
    ones passed by name ("text, merges, special_tokens, allowed_special=allowed_special, ...")."""
    signature = ast.parse(f"def f({parameter_lists(reference)[name]}): pass").body[0].args
    return ", ".join([a.arg for a in signature.posonlyargs + signature.args]
                     + [f"{a.arg}={a.arg}" for a in signature.kwonlyargs])


def replace_all(reference, default: str = STUB_LINE, **bodies: str) -> dict:
    """Every graded function with a new body: `bodies[name]`, else `default`, where {name} is
    the function's name and {args} its parameters as call arguments (for hostile samples)."""
    out = {}
    for name, parameters in parameter_lists(reference).items():
        body = bodies.get(name, default).replace("{name}", name).replace("{args}", call_arguments(reference, name))
        lines = textwrap.dedent(body).strip("\n").splitlines()
        out[name] = f"def {name}({parameters}):\n" + "\n".join("    " + line if line else "" for line in lines)
    return out


def correct(assignment=None) -> Sample:
    """The reference itself: the source notebook with nothing replaced (any assignment)."""
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


def catalogue(assignment, kind: str) -> list[Sample]:
    """The buggy or hostile samples of one assignment, from `assignment.catalogue_path(kind)`.

    Every assignment must have a buggy catalogue: a hidden suite nobody has tried to fool is
    unproven. The hostile one is optional, because the generic attacks (shape_attacks) are
    made from any reference; an assignment's own file adds attacks on its particular API."""
    if kind not in ("buggy", "hostile"):
        raise ValueError(f"kind must be 'buggy' or 'hostile', not {kind!r}")
    path = assignment.catalogue_path(kind)
    if kind == "hostile" and not path.is_file():
        from autograder.samples.shape_attacks import vacuous_comparison_attacks

        return vacuous_comparison_attacks(assignment.solution_path, assignment.id)
    found = getattr(catalogue_module(path), kind.upper(), None)
    if not isinstance(found, (list, tuple)) or not all(isinstance(s, Sample) for s in found):
        raise CatalogueError(f"{path}: must define {kind.upper()}, a list of samples (see docs/authoring.md)")
    return list(found)


def honest_parts(assignment) -> dict[str, str]:
    """A hostile catalogue's HONEST_PARTS: mixed attack -> the sample holding its honest part alone,
    which the attack must score exactly as (attacks that also do some real work)."""
    path = assignment.catalogue_path("hostile")
    return dict(getattr(catalogue_module(path), "HONEST_PARTS", {})) if path.is_file() else {}


@functools.lru_cache(maxsize=None)
def catalogue_module(path: Path):
    """solutions/ID/buggy.py or hostile.py, run once. They are instructor files outside the
    package, so they are loaded by path under a private name, never imported by module name."""
    path = Path(path).resolve()
    if not path.is_file():
        raise CatalogueError(f"{path}: missing. Every assignment needs a catalogue of plausible wrong "
                             f"implementations, BUGGY = [...] (see docs/authoring.md)")
    spec = importlib.util.spec_from_file_location(f"_catalogue_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_notebook(assignment, sample: Sample, path: Path) -> Path:
    notebook = load_source_notebook(assignment)  # a copy of its own
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
