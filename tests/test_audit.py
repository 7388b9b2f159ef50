"""`autograder audit`: the suite-accuracy report, and the fast subset of it that CI runs.

The full audit (every mutant mutmut makes of every reference) takes minutes per
assignment and is run by hand (README, "How the suites are proven"); here every
assignment's sampled mutants must be caught (or listed as equivalent), and a table of
the lesson's examples must earn only what its published tests are worth.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.audit import mutants
from autograder.audit.run import audit_assignment
from autograder.cli import main
from autograder.course import PROJECT_ROOT, load_course
from autograder.render import audit as render

COURSE = load_course()
ASSIGNMENTS = list(COURSE.assignments)
ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(scope="module")
def fast_audits():
    cache: dict = {}

    def audit(assignment_id: str):
        if assignment_id not in cache:
            cache[assignment_id] = audit_assignment(COURSE, COURSE.assignment(assignment_id), fast=True, jobs=2,
                                                    sections=("mutant", "lookup"))
        return cache[assignment_id]

    return audit


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_sampled_mutants_of_the_reference_are_caught(fast_audits, assignment_id):
    audit = fast_audits(assignment_id)
    assert audit.mutants_graded >= min(12, audit.mutants_generated) > 0
    survivors = [f"{c.name}: {c.detail}" for c in audit.section("mutant") if not c.ok and not c.equivalent]
    assert not survivors, "\n".join(survivors)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_a_table_of_the_lessons_examples_earns_only_its_published_tests(fast_audits, assignment_id):
    (check,) = fast_audits(assignment_id).section("lookup")
    assert check.ok, check.detail
    assert 0 < check.score == pytest.approx(fast_audits(assignment_id).lookup_published_points)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_mutants_are_made_by_mutmut_one_change_each(assignment_id):
    solution = COURSE.assignment(assignment_id).solution_path
    made = mutants.generate(solution, PROJECT_ROOT)
    reference = solution.read_text(encoding="utf-8")
    assert len(made) >= 15 and len({m.name for m in made}) == len(made)
    for mutant in made:
        assert mutant.source != reference and mutant.before != mutant.after
        assert mutant.before in reference and mutant.after in mutant.source


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_listed_equivalent_mutant_exists_and_has_a_reason(assignment_id):
    solution = COURSE.assignment(assignment_id).solution_path
    made = mutants.generate(solution, PROJECT_ROOT)
    for entry in mutants.load_equivalents(solution):
        assert any(m.matches(entry) for m in made), f"no such mutant any more: {entry}"
        assert len(entry["reason"]) > 10


@pytest.fixture(scope="module")
def audit_command(tmp_path_factory):
    folder = tmp_path_factory.mktemp("audit")
    code = main(["audit", "tokenizacion", "--fast", "--only", "mutant,lookup,clause,domain", "--jobs", "2",
                 "--output", str(folder / "audit.md"), "--html", str(folder / "audit.html")])
    return code, (folder / "audit.md").read_text(encoding="utf-8"), folder / "audit.html"


def test_the_audit_command_writes_markdown_and_html(audit_command):
    code, markdown, html_path = audit_command
    assert markdown.startswith("# Suite-accuracy audit") and "| tokenizacion |" in markdown
    assert "| clauses pinned | calls outside the domain |" in markdown
    assert "## tokenizacion: clause matrix" in markdown and "| ✓ | `encode." in markdown
    page = html_path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="tokenizacion-mutant"' in page
    assert 'id="tokenizacion-clause"' in page and 'id="tokenizacion-domain"' in page
    assert code == (0 if "NEEDS WORK" not in markdown else 1)


def test_the_audit_page_in_a_browser(audit_command, tab):
    _, _, html_path = audit_command
    tab.navigate(html_path)
    assert tab.errors() == [] and tab.requested_urls() == [html_path.resolve().as_uri()]
    assert tab.evaluate("document.querySelectorAll('#tokenizacion-mutant tbody tr').length") >= 12
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(ARTIFACTS / "audit-tokenizacion.png")
    header = "document.querySelectorAll('#tokenizacion-mutant thead th')[1]"
    tab.evaluate(f"{header}.click()")
    assert tab.evaluate(f"{header}.getAttribute('aria-sort')") == "ascending"


def test_the_audit_command_needs_one_assignment_or_all(capsys):
    assert main(["audit"]) == 2
    assert "name one assignment or --all" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["audit", "tokenizacion", "--only", "mutants"])
    assert exit_info.value.code == 2 and "parts are corpus, catalogue, mutant, lookup, clause, domain" in capsys.readouterr().err


def test_an_audit_that_finds_a_problem_says_so(tmp_path):
    audit = audit_assignment(COURSE, COURSE.assignment("tokenizacion"), jobs=2, sections=("lookup",))
    bad = type(audit)(audit.assignment, audit.title, (*audit.checks, *audit.checks[:0]), 0, 0, 1.0)
    broken = type(audit)(audit.assignment, audit.title,
                         tuple(c.__class__(**{**c.__dict__, "ok": False, "detail": "a problem"}) for c in audit.checks),
                         0, 0, 1.0)
    assert bad.ok and not broken.ok
    assert "NEEDS WORK" in render.markdown([broken]) and "a problem" in render.markdown([broken])
    assert "NEEDS WORK" in render.html([broken])


def test_an_equivalents_file_that_does_not_parse_is_a_clear_error(tmp_path):
    (tmp_path / "equivalent_mutants.yml").write_text("- function: f\n  before: x = {a: 1}: 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid YAML"):
        mutants.load_equivalents(tmp_path / "solution.py")
    (tmp_path / "equivalent_mutants.yml").write_text("- function: f\n  before: a\n  after: b\n", encoding="utf-8")
    with pytest.raises(ValueError, match="each with a reason"):
        mutants.load_equivalents(tmp_path / "solution.py")
