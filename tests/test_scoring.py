"""The scoring policy, stated as rules over any suite shape (session.score_tests).

- Each function's points are split among its tests by weight.
- A failed catch-all (backstop) test earns its share in proportion to the weight of the
  function's specific tests that earned their points, but no more than those tests lost; when
  no specific test failed, the catch-all is the only one to see the bug and earns nothing.
- So failing one test more never raises a score.
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
    tests = scored([raw("basic", 2), raw("edge", 3, passed=False), raw("more", 3), raw("all", 2, False, True)])
    catch_all = tests["all"]
    assert catch_all.outcome == "partial" and not catch_all.passed
    assert catch_all.score == pytest.approx(2.0 * 5 / 8)  # share 2 points, 5 of 8 specific weight earned
    assert "62 %" in catch_all.feedback


def test_a_catch_all_gives_back_no_more_than_the_specific_tests_lost():
    """A small specific failure must not buy back a catch-all that a subtler bug loses whole."""
    tests = scored([raw("basic", 2), raw("edge", 1, passed=False), raw("more", 1), raw("all", 4, False, True)])
    assert tests["all"].outcome == "partial"
    assert tests["all"].score == pytest.approx(tests["edge"].max_score)  # 1.25 of its 5, not 3/4 of them
    assert sum(t.score for t in tests.values()) == pytest.approx(5.0)  # = a bug only the catch-all sees


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


tests_of_a_function = st.lists(st.tuples(st.integers(1, 4), st.booleans(), st.sampled_from(["specific", "published", "catch-all"])),
                               min_size=1, max_size=8)


@given(tests_of_a_function, st.data())
def test_failing_one_more_test_never_raises_the_score(tests, data):
    """Whatever the suite's shape (several catch-alls, published examples, an error case gated on
    the first test), a submission that fails a test more scores no more: no bug pays."""
    def total(flags):
        made = []
        for i, (weight, passes, kind) in enumerate(flags):
            test = raw(f"t{i}", weight, passes, backstop=kind == "catch-all",
                       requires=["t0"] if i == len(flags) - 1 and i > 0 and kind == "specific" else ())
            made.append(dataclasses.replace(test, published=kind == "published"))
        return sum(t.score for t in score_tests(made, {"f": 10.0}))

    passing = [i for i, (_, passes, _) in enumerate(tests) if passes]
    if passing:
        index = data.draw(st.sampled_from(passing))
        worse = [(w, p and i != index, k) for i, (w, p, k) in enumerate(tests)]
        assert total(worse) <= total(tests) + 1e-9


def test_a_second_bug_does_not_raise_the_score():
    """The held-out attack: a bug only the catch-all saw, then a second one that fails a small test."""
    one_bug = scored([raw("basic", 3), raw("small", 1), raw("more", 3), raw("all", 2, False, True)])
    two_bugs = scored([raw("basic", 3), raw("small", 1, passed=False), raw("more", 3), raw("all", 2, False, True)])
    assert sum(t.score for t in two_bugs.values()) <= sum(t.score for t in one_bug.values())


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
