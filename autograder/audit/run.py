"""Grade everything the audit measures, in batches, into one AuditReport.

Submissions are written to a scratch folder and graded with the same batch grader and
sandbox as students' work, under short time limits (a mutant that loops forever costs
seconds, not minutes).
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path

from autograder import samples
from autograder.audit import clauses, domain, lookup, mutants
from autograder.course import PROJECT_ROOT
from autograder.grading.results import Outcome
from autograder.grading.batch import grade_batch
from autograder.grading.plugin import suite_published_examples

# Short enough that a mutant looping forever costs seconds per test; long enough that bpe_palabras'
# 80-merge trainings, which cross the sandbox thousands of times, finish on a busy 2-core machine.
AUDIT_LIMITS = {"call_seconds": 5, "load_seconds": 10, "submission_seconds": 120}
FAST_MUTANTS = 12  # per assignment, spread evenly over the reference, for CI


@dataclasses.dataclass(frozen=True)
class Check:
    section: str  # "corpus", "catalogue", "mutant", "lookup", "clause" or "domain"
    name: str
    form: str  # "module" or "notebook"
    suite: str  # "hidden" or "visible"
    score: float
    max_score: float
    ok: bool
    detail: str = ""  # English: what was expected and what happened
    hint_shown: str = ""  # the first hint the student reads
    equivalent: str = ""  # a mutant listed as equivalent: why


@dataclasses.dataclass(frozen=True)
class AssignmentAudit:
    assignment: str
    title: str
    checks: tuple[Check, ...]
    mutants_generated: int
    mutants_graded: int
    seconds: float
    lookup_published_points: float = 0.0  # what the tests of published examples are worth

    def section(self, name: str) -> list[Check]:
        return [c for c in self.checks if c.section == name]

    @property
    def mutation_score(self) -> float | None:
        """Killed / (graded - equivalent); None when no mutant was graded."""
        graded = [c for c in self.section("mutant") if not c.equivalent]
        return sum(c.ok for c in graded) / len(graded) if graded else None

    @property
    def ok(self) -> bool:
        score = self.mutation_score
        return all(c.ok or c.equivalent for c in self.checks) and (score is None or score >= 0.95)


def audit_assignment(course, assignment, *, fast: bool = False, jobs: int | None = None,
                     sections=("corpus", "catalogue", "mutant", "lookup", "clause", "domain")) -> AssignmentAudit:
    started = time.monotonic()
    assignment = dataclasses.replace(assignment, limits=dataclasses.replace(assignment.limits, **AUDIT_LIMITS))
    checks: list[Check] = []
    generated = graded_mutants = 0
    published_points = 0.0
    with tempfile.TemporaryDirectory(prefix=f"audit-{assignment.id}-") as scratch:
        folder = Path(scratch)

        def grade(paths, suite="hidden"):
            return grade_batch(assignment, paths, jobs=jobs, suite=suite, warm_up=False) if paths else []

        if "corpus" in sections:
            checks += _corpus(assignment, folder, grade)
        if "catalogue" in sections:
            checks += _catalogue(assignment, folder, grade)
        if "clause" in sections:
            checks += _clauses(assignment, [c for c in checks if c.section == "catalogue"])
        if "domain" in sections:
            checks += _domain(assignment)
        if "mutant" in sections:
            made = mutants.generate(assignment.solution_path, PROJECT_ROOT)
            generated = len(made)
            chosen = made[:: max(1, len(made) // FAST_MUTANTS)][:FAST_MUTANTS] if fast else made
            graded_mutants = len(chosen)
            checks += _mutants(assignment, chosen, folder, grade)
        if "lookup" in sections:
            check, published_points = _lookup(assignment, folder, grade)
            checks.append(check)
    return AssignmentAudit(assignment.id, assignment.title, tuple(checks), generated, graded_mutants,
                           round(time.monotonic() - started, 1), published_points)


def _corpus(assignment, folder: Path, grade) -> list[Check]:
    files = sorted(assignment.corpus_folder.glob("*.py"))
    if not files:
        return [Check("corpus", "(none)", "module", "hidden", 0, 0, False,
                      f"no correct implementations in {assignment.corpus_folder}")]
    notebooks = [samples.build_notebook(assignment, samples.from_module(assignment, f), folder / "nb" / f"{f.stem}.ipynb")
                 for f in files]
    checks = []
    for suite in ("hidden", "visible"):
        for form, paths in (("module", files), ("notebook", notebooks)):
            for path, result in zip(paths, grade(paths, suite)):
                lost = [f"{t.test_id}: {t.feedback.splitlines()[0] if t.feedback else t.outcome}"
                        for t in result.tests if not t.passed]
                checks.append(Check("corpus", path.stem, form, suite, result.score, result.max_score,
                                    result.score == result.max_score, "; ".join(lost)[:600]))
    return checks


def _first_hint(result, function: str) -> str:
    failed = [t for t in result.failed_tests() if t.function == function and t.hint]
    return failed[0].hint if failed else ""


def _catalogue(assignment, folder: Path, grade) -> list[Check]:
    buggy = samples.catalogue(assignment, "buggy")
    paths = [samples.build_notebook(assignment, s, folder / "buggy" / f"{s.name}.ipynb") for s in buggy]
    checks = []
    for sample, result in zip(buggy, grade(paths)):
        failing = {t.test_id for t in result.tests if not t.passed and t.outcome not in (Outcome.GATED, Outcome.PARTIAL)}
        function = next(iter(sample.replace), "")
        shown = _first_hint(result, function)
        problems = []
        if failing != set(sample.failing):
            problems.append(f"fails {sorted(failing)}, listed {sorted(sample.failing)}")
        if sample.hint not in shown:
            problems.append(f"first hint shown is not the intended one ({sample.hint!r})")
        checks.append(Check("catalogue", sample.name, "notebook", "hidden", result.score, result.max_score,
                            not problems and result.score < result.max_score, "; ".join(problems), shown))
    return checks


def _mutants(assignment, chosen, folder: Path, grade) -> list[Check]:
    equivalents = mutants.load_equivalents(assignment.solution_path)
    paths = []
    for mutant in chosen:
        path = folder / "mutants" / f"{mutant.name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(mutant.source, encoding="utf-8")
        paths.append(path)
    checks = []
    for mutant, result in zip(chosen, grade(paths)):
        reason = next((e["reason"] for e in equivalents if mutant.matches(e)), "")
        killed_by = [t.test_id for t in result.failed_tests()]
        detail = f"line {mutant.line}: {mutant.before.strip()}  →  {mutant.after.strip()}"
        detail += f"; caught by {', '.join(killed_by[:3])}" if killed_by else "; survived"
        checks.append(Check("mutant", mutant.name, "module", "hidden", result.score, result.max_score,
                            result.score < result.max_score, detail, _first_hint(result, mutant.function), reason))
    return checks


def _lookup(assignment, folder: Path, grade) -> tuple[Check, float]:
    table = lookup.lookup_table(assignment)
    path = samples.build_notebook(assignment, table, folder / "lookup" / "published_lookup_table.ipynb")
    (result,) = grade([path])
    published = suite_published_examples(assignment.hidden_suite_path)
    passed = [t for t in result.tests if t.passed]
    undeclared = sorted(t.test_id for t in passed if t.test_id not in published)
    published_points = sum(t.max_score for t in result.tests if t.test_id in published)
    problems = []
    if undeclared:
        problems.append(f"passes tests not in PUBLISHED_EXAMPLES: {', '.join(undeclared)}")
    if round(result.score, 2) > round(published_points, 2):  # result scores are rounded to 4 places
        problems.append(f"earns {result.score:.2f}, more than the {published_points:.2f} its published tests are worth")
    detail = "; ".join(problems) or f"passes {len(passed)} tests, all of the lesson's published examples"
    return (Check("lookup", table.name, "notebook", "hidden", result.score, result.max_score, not problems, detail),
            round(published_points, 4))


def _clauses(assignment, catalogue_checks: list[Check]) -> list[Check]:
    """The clause matrix; where the catalogue was graded, a clause-breaker counts only if it was caught."""
    caught = {c.name for c in catalogue_checks if c.ok} if catalogue_checks else None
    rows, loose = clauses.clause_matrix(assignment.hidden_suite_path, list(assignment.points),
                                        samples.catalogue(assignment, "buggy"))
    checks = []
    for row in rows:
        breakers = [b for b in row.breakers if caught is None or b in caught]
        problems = list(row.problems)
        if row.breakers and not breakers:
            problems.append(f"its clause-breakers are not caught as listed: {', '.join(row.breakers)}")
        detail = "; ".join(problems) or (f"pinned by {', '.join(sorted(row.clause.tests))}; "
                                         f"broken alone by {', '.join(breakers)}")
        checks.append(Check("clause", row.clause.key, "module", "hidden", len(row.clause.tests), 0, not problems,
                            detail, row.clause.rule))
    checks += [Check("clause", "(matrix)", "module", "hidden", 0, 0, False, problem) for problem in loose]
    return checks


def _domain(assignment) -> list[Check]:
    """One check per graded function: the suite's calls of it that the lesson does not define (score: how many)."""
    outside = domain.calls_outside(assignment)
    checks = []
    for function in assignment.points:
        calls = [c for c in outside if c.function == function]
        shown = "; ".join(f"{c.test}: {function}({c.arguments})" for c in calls[:3])
        checks.append(Check("domain", function, "module", "hidden", len(calls), 0, not calls,
                            f"{len(calls)} calls outside the domain the lesson defines: {shown}" if calls
                            else "every call inside the domain the lesson defines"))
    return checks
