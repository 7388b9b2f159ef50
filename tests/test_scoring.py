"""The scoring policy, stated as rules over any suite shape (session.score_tests).

- Each function's points are split among its tests by weight.
- A failed catch-all (backstop) test earns its share in proportion to the weight of the
  function's specific tests that earned their points, once a specific test failed; when no
  specific test failed, the catch-all is the only one to see the bug and earns nothing.
- A test gated by `requires` earns nothing and shows no hint of its own.
- A test that did not pass is never reported as passed, whatever it earned.
"""

from __future__ import annotations

import dataclasses

import pytest
from _pytest._code import ExceptionInfo
from hypothesis import given
from hypothesis import strategies as st

from autograder.grading.plugin import RawTest
from autograder.grading.session import score_tests
from autograder.render.gradescope import to_gradescope
from autograder.grading.results import GradeResult, LoadSummary


def failure() -> ExceptionInfo:
    try:
        raise AssertionError("distinto")
    except AssertionError:
        return ExceptionInfo.from_current()


def raw(test_id, weight=1.0, passed=True, backstop=False, requires=()):
    return RawTest(test_id=test_id, title=test_id, function="f", weight=weight, hint=f"pista de {test_id}",
                   requires=tuple(requires), kind="fixed", backstop=backstop, excinfo=None if passed else failure())


def scored(tests, points=10.0):
    return {t.test_id: t for t in score_tests(tests, {"f": points})}


def test_a_catch_all_is_credited_in_proportion_to_the_specific_tests_earned():
    tests = scored([raw("basic", 2), raw("edge", 1, passed=False), raw("more", 1), raw("all", 4, False, True)])
    catch_all = tests["all"]
    assert catch_all.outcome == "partial" and not catch_all.passed
    assert catch_all.score == pytest.approx(5.0 * 3 / 4)  # share 5 points, 3 of 4 specific weight earned
    assert "75 %" in catch_all.feedback


def test_a_catch_all_alone_in_seeing_the_bug_earns_nothing():
    tests = scored([raw("basic"), raw("edge"), raw("all", passed=False, backstop=True)])
    assert tests["all"].outcome == "wrong" and tests["all"].score == 0


def test_a_table_of_the_basic_case_keeps_almost_nothing_of_the_catch_all():
    tests = scored([raw("basic"), *(raw(f"case{i}", passed=False) for i in range(5)),
                    raw("all", 2, False, True)])
    assert tests["all"].score == pytest.approx(10 * 2 / 8 / 6)


def test_a_gated_test_shows_no_hint_of_its_own():
    tests = scored([raw("basic", passed=False), raw("errors", requires=["basic"])])
    assert tests["errors"].outcome == "gated" and tests["errors"].hint == "" and tests["errors"].score == 0
    assert tests["basic"].hint == "pista de basic"


def test_gated_specific_tests_do_not_count_as_earned_for_the_catch_all():
    tests = scored([raw("basic", passed=False), raw("errors", requires=["basic"]), raw("other"),
                    raw("all", passed=False, backstop=True)])
    assert tests["all"].score == pytest.approx(10 / 4 * 1 / 3)


suites = st.lists(st.tuples(st.integers(1, 4), st.booleans()), min_size=1, max_size=8)


@given(suites, st.integers(1, 4), st.booleans())
def test_passing_one_more_specific_test_never_lowers_the_score(specifics, backstop_weight, backstop_passes):
    """While a specific test still names a bug. (Fixing the last one a specific test sees, when the
    catch-all still sees another, moves the catch-all from proportional credit to none: that bug is
    then the catch-all's alone, and the catch-all is there to charge it.)"""
    def total(flags):
        tests = [raw(f"t{i}", w, p) for i, (w, p) in enumerate(flags)]
        tests.append(raw("all", backstop_weight, backstop_passes, True))
        return sum(t.score for t in score_tests(tests, {"f": 10.0}))

    for index, (weight, passes) in enumerate(specifics):
        better = [*specifics[:index], (weight, True), *specifics[index + 1:]]
        if not passes and not all(p for _, p in better):
            assert total(better) >= total(specifics) - 1e-9


@given(suites, st.integers(1, 4), st.booleans())
def test_no_test_that_failed_is_reported_as_passed(specifics, backstop_weight, backstop_passes):
    tests = [raw(f"t{i}", w, p) for i, (w, p) in enumerate(specifics)]
    tests.append(raw("all", backstop_weight, backstop_passes, True))
    results = score_tests(tests, {"f": 10.0})
    assert sum(t.score for t in results) <= 10.0 + 1e-9
    document = to_gradescope(GradeResult("a", "s", results, LoadSummary(), 10.0))
    for given_test, shown in zip(tests, document["tests"]):
        if given_test.excinfo is not None:
            assert shown["status"] == "failed"
        else:
            assert shown["status"] == "passed" and shown["score"] == shown["max_score"]


def test_tests_of_published_examples_earn_their_points_but_no_share_of_the_catch_all():
    published = dataclasses.replace(raw("lesson_example", 2), published=True)
    table = scored([published, raw("edge", passed=False), raw("more", passed=False), raw("all", 2, False, True)])
    assert table["lesson_example"].score == pytest.approx(10 / 3) and table["all"].score == 0
    honest = scored([published, raw("edge", passed=False), raw("more"), raw("all", 2, False, True)])
    assert honest["all"].score == pytest.approx(10 / 3 / 2)
