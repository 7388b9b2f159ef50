"""Mutants of a reference solution, made by mutmut's own mutation operators.

mutmut normally weaves every mutant into one module behind trampolines and runs a test
command per mutant. Here the hidden suite is not a test command but a grading, and the
submission runs in a sandbox that has no mutmut, so each mutant is written out as a
whole module that differs from the reference in one place: a submission like any other.

A mutant that changes nothing observable is *equivalent*: no suite can catch it. Those are
listed beside the reference, in `solutions/ID/equivalent_mutants.yml`, each with its reason:

    - function: decode
      before: 'return raw.decode("utf-8", errors="replace")'
      after: 'return raw.decode("UTF-8", errors="replace")'
      reason: Python's codec names are case-insensitive
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import functools
import os
from pathlib import Path

import yaml


@dataclasses.dataclass(frozen=True)
class Mutant:
    name: str  # function__mutmut_N, numbered per function in source order, as mutmut names them
    function: str
    line: int  # first changed line in the reference
    before: str  # the reference's line(s)
    after: str  # the mutant's line(s)
    source: str  # the whole mutated module

    def matches(self, entry: dict) -> bool:
        """An entry of equivalent_mutants.yml names this mutant (lines compared without indentation)."""
        return (entry.get("function"), str(entry.get("before", "")).strip(), str(entry.get("after", "")).strip()) == \
            (self.function, self.before.strip(), self.after.strip())


@contextlib.contextmanager
def _in(folder: Path):
    # mutmut reads its configuration ([tool.mutmut] in pyproject.toml) from the working directory.
    previous = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def generate(solution_path: Path, project_root: Path) -> list[Mutant]:
    """Every mutant mutmut makes of the functions in `solution_path`, one module each."""
    return list(_generated(str(solution_path), solution_path.read_text(encoding="utf-8"), str(project_root)))


# Made once per process for each reference text: mutmut's operators over libcst take 0.3-2.9 s per
# reference, and an audit and the checks of its equivalents ask for the same mutants again.
@functools.lru_cache(maxsize=8)
def _generated(solution_path: str, code: str, project_root: str) -> tuple[Mutant, ...]:
    from mutmut.mutation.file_mutation import create_mutations, deep_replace

    with _in(Path(project_root)):
        module, mutations, _, _ = create_mutations(solution_path, code)
    numbered: dict[str, int] = {}
    mutants = []
    for mutation in mutations:
        owner = mutation.contained_by_top_level_function
        if owner is None:  # mutmut mutates functions only (its trampolines wrap functions)
            continue
        function = owner.name.value
        numbered[function] = numbered.get(function, 0) + 1
        source = deep_replace(module, mutation.original_node, mutation.mutated_node).code
        line, before, after = _change(code, source)
        if before == after:
            continue
        mutants.append(Mutant(f"{function}__mutmut_{numbered[function]}", function, line, before, after, source))
    return tuple(mutants)


def _change(original: str, mutated: str) -> tuple[int, str, str]:
    old, new = original.splitlines(), mutated.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag != "equal":
            return i1 + 1, "\n".join(old[i1:i2]), "\n".join(new[j1:j2])
    return 0, "", ""


def equivalents_path(solution_path: Path) -> Path:
    return solution_path.parent / "equivalent_mutants.yml"


def load_equivalents(solution_path: Path) -> list[dict]:
    """The mutants listed as equivalent, each {function, before, after, reason}."""
    path = equivalents_path(solution_path)
    if not path.is_file():
        return []
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    except yaml.YAMLError as error:
        raise ValueError(f"{path}: not valid YAML ({error}); quote lines that hold ': '") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and e.get("reason") for e in entries):
        raise ValueError(f"{path}: a list of {{function, before, after, reason}} entries, each with a reason")
    return entries
