"""The lesson is the contract: every rule it tells a student is pinned, and nothing it does not tell is graded.

Each hidden suite declares its lesson's rules (CLAUSES: each pinned by tests, and broken alone by
a clause-breaker of buggy.py, whose catalogue entry test_catalogue.py grades) and, per graded
function, the inputs the lesson defines (DOMAIN). Here the matrix must be complete both ways, and
a replay of every call of the suite (fixed cases and every example of every bank) must stay
inside the domain.
"""

from __future__ import annotations

import pytest

from autograder import samples
from autograder.audit.clauses import clause_matrix, suite_clauses
from autograder.audit.domain import calls_outside
from autograder.course import load_course

COURSE = load_course()
ASSIGNMENTS = list(COURSE.assignments)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_the_clause_matrix_is_complete_both_ways(assignment_id):
    assignment = COURSE.assignment(assignment_id)
    rows, loose = clause_matrix(assignment.hidden_suite_path, list(assignment.points),
                                samples.catalogue(assignment, "buggy"))
    problems = loose + [f"{row.clause.key}: {'; '.join(row.problems)}" for row in rows if not row.ok]
    assert rows and not problems, "\n".join(problems)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_clause_quotes_its_lesson_section(assignment_id):
    assignment = COURSE.assignment(assignment_id)
    for clause in suite_clauses(assignment.hidden_suite_path).values():
        assert clause.rule.startswith("§") and len(clause.rule) > 15, clause.key


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_hidden_test_calls_a_function_outside_the_lessons_domain(assignment_id):
    outside = calls_outside(COURSE.assignment(assignment_id))
    assert not outside, "\n".join(f"{c.test}: {c.function}({c.arguments})" for c in outside[:10])


def test_the_domain_replay_sees_a_call_outside_the_domain(tmp_path):
    """The replay is proven by what it catches: with bpe_bytes' DOMAIN for merge narrowed to lists of at
    most one id, the suite's calls of merge with longer lists are listed, and nothing else."""
    from types import SimpleNamespace

    assignment = COURSE.assignment("bpe_bytes")
    # A folder of its own name: the suite imports as "<folder>.test_hidden", and this process has
    # already imported the real "bpe_bytes.test_hidden" in the tests above.
    suite = tmp_path / "bpe_bytes_narrowed" / "test_hidden.py"
    suite.parent.mkdir()
    source = assignment.hidden_suite_path.read_text(encoding="utf-8")
    suite.write_text(source + '\nDOMAIN["merge"] = lambda a: len(a["ids"]) <= 1\n', encoding="utf-8")
    outside = calls_outside(SimpleNamespace(solution_path=assignment.solution_path, hidden_suite_path=suite))
    assert outside and {c.function for c in outside} == {"merge"}
    assert {c.test for c in outside} >= {"test_merge_keeps_the_tail", "test_merge_matches_reference"}
