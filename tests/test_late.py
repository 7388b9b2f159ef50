"""The late policy: the rules stated as properties, and the worked examples of its docstring."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.late import DAY, LatePolicy, seconds_late

POLICY = LatePolicy(grace_minutes=15, penalty_per_day=10, max_days_late=7)
policies = st.builds(LatePolicy, grace_minutes=st.floats(0, 600), penalty_per_day=st.floats(0, 100),
                     max_days_late=st.none() | st.floats(0, 30))
earned = st.floats(0, 100)
lateness = st.floats(0, 40 * DAY)


@pytest.mark.parametrize("late, expected", [
    (10 * 60, 0),  # inside the grace period
    (20 * 60, 8),  # a part of a day counts as a day
    (2 * DAY + 3600, 24),  # three days begun
    (7 * DAY, 56),  # the last day still penalised by days
    (7 * DAY + 1, 80),  # past max_days_late: nothing earned
])
def test_worked_examples(late, expected):
    assert POLICY.penalty(80, late) == pytest.approx(expected)


@given(policies, earned, lateness)
def test_a_penalty_never_exceeds_what_was_earned(policy, points, late):
    assert 0 <= policy.penalty(points, late) <= points + 1e-9


@given(policies, earned, lateness, lateness)
def test_later_never_costs_less(policy, points, a, b):
    early, late = sorted((a, b))
    assert policy.penalty(points, early) <= policy.penalty(points, late) + 1e-9


@given(policies, earned, st.floats(0, 1))
def test_inside_the_grace_period_nothing_is_lost(policy, points, fraction):
    assert policy.penalty(points, fraction * policy.grace_minutes * 60) == 0


def test_no_policy_means_no_penalty():
    assert LatePolicy().penalty(80, 30 * DAY) == 0


def test_seconds_late_reads_naive_times_as_utc_and_is_never_negative():
    due = dt.datetime(2027, 3, 1, 23, 59, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    assert seconds_late(dt.datetime(2027, 3, 1, 23, 0), due) == 60  # 23:00 UTC is a minute past 22:59 UTC
    assert seconds_late(dt.datetime(2027, 3, 1, 12, 0), due) == 0
    assert seconds_late(None, due) == 0 and seconds_late(dt.datetime(2027, 1, 1), None) == 0
