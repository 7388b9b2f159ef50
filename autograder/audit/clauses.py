"""The clause matrix: every rule the lesson tells a student, pinned by hidden tests and broken by a sample.

A suite declares its lesson's rules for the graded functions at top level, each with the tests
that pin it, as a literal the audit reads without importing the suite:

    CLAUSES = {
        "merge.no_overlap": ("§4: al fusionar no hay solapes; se avanza de izquierda a derecha",
                             {"test_merge_does_not_overlap"}),
        ...
    }

The key names the function before the dot. The audit checks the matrix both ways: every clause
names tests that exist, and every graded test pins a clause (a test that pins none grades
something the lesson never told). And every clause has a *clause-breaker* in buggy.py
(`clause="merge.no_overlap"`): a wrong implementation, written from the lesson's text, that
breaks that rule alone, fails some of its tests, and whose hint is one of those tests' hints;
the catalogue check then proves it is caught with that hint shown first.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from autograder.grading.plugin import suite_constant


@dataclasses.dataclass(frozen=True)
class Clause:
    key: str  # "function.rule"
    rule: str  # the lesson's words, with its section (Spanish, as the student read it)
    tests: frozenset[str]

    @property
    def function(self) -> str:
        return self.key.split(".", 1)[0]


@dataclasses.dataclass(frozen=True)
class GradedTest:
    name: str
    function: str
    hint: str


def suite_clauses(suite_path: Path) -> dict[str, Clause]:
    return {key: Clause(key, rule, frozenset(tests))
            for key, (rule, tests) in suite_constant(suite_path, "CLAUSES").items()}


def suite_tests(suite_path: Path) -> dict[str, GradedTest]:
    """Each test of a hidden suite with the function it grades and its hint, read from its `@grade(...)`."""
    found = {}
    for node in ast.parse(Path(suite_path).read_text(encoding="utf-8")).body:
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
            continue
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            name = getattr(call.func, "id", getattr(call.func, "attr", "")) if call else ""
            if name == "grade" and call.args:
                hint = next((k.value for k in call.keywords if k.arg == "hint"), None)
                found[node.name] = GradedTest(node.name, ast.literal_eval(call.args[0]),
                                              ast.literal_eval(hint) if hint is not None else "")
    return found


def suite_keys(suite_path: Path, name: str) -> set[str]:
    """The literal keys of a top-level dict whose values need not be literals (DOMAIN's predicates)."""
    for node in ast.parse(Path(suite_path).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            if isinstance(node.value, ast.Dict):
                return {ast.literal_eval(k) for k in node.value.keys if k is not None}
    return set()


@dataclasses.dataclass(frozen=True)
class ClauseRow:
    clause: Clause
    breakers: tuple[str, ...]  # buggy samples that break it alone, as it requires
    problems: tuple[str, ...]  # English: why the row does not hold

    @property
    def ok(self) -> bool:
        return not self.problems


def clause_matrix(suite_path: Path, graded_functions, buggy_samples) -> tuple[list[ClauseRow], list[str]]:
    """The matrix's rows, and the problems that belong to no row (tests without a clause, samples
    naming a clause that does not exist, functions without a clause or without a domain)."""
    clauses, tests = suite_clauses(suite_path), suite_tests(suite_path)
    rows = []
    for clause in clauses.values():
        problems = []
        unknown = sorted(clause.tests - set(tests))
        if not clause.tests:
            problems.append("no test pins it")
        if unknown:
            problems.append(f"names tests the suite does not have: {', '.join(unknown)}")
        if clause.function not in graded_functions:
            problems.append(f"{clause.function} is not a graded function")
        breakers, wrong = [], []
        for sample in buggy_samples:
            if sample.clause != clause.key:
                continue
            pinned = sorted(sample.failing & clause.tests)
            hinted = [t for t in pinned if sample.hint and sample.hint in tests[t].hint]
            if not pinned:
                wrong.append(f"{sample.name} fails none of its tests")
            elif not hinted:
                wrong.append(f"{sample.name}'s hint ({sample.hint!r}) is not the hint of one of its tests")
            else:
                breakers.append(sample.name)
        if not breakers:
            problems.append("no clause-breaker in buggy.py" + (f" ({'; '.join(wrong)})" if wrong else ""))
        rows.append(ClauseRow(clause, tuple(breakers), tuple(problems)))
    loose = []
    pinned_tests = set().union(*(c.tests for c in clauses.values())) if clauses else set()
    loose += [f"{name} pins no clause of the lesson" for name in sorted(set(tests) - pinned_tests)]
    loose += [f"{s.name} names clause {s.clause!r}, which CLAUSES does not have"
              for s in buggy_samples if s.clause and s.clause not in clauses]
    covered = {c.function for c in clauses.values()}
    loose += [f"{f} has no clause" for f in graded_functions if f not in covered]
    declared = suite_keys(suite_path, "DOMAIN")
    loose += [f"{f} has no DOMAIN entry" for f in graded_functions if f not in declared]
    return rows, loose
