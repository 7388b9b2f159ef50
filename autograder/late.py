"""The late policy: how many points a late submission loses.

Due dates, the grace period and the penalty live in course.yml; the submission
time is nbgrader's own (``submitted/STUDENT/ASSIGNMENT/timestamp.txt``). The
penalty is a share of what the submission earned, per day or part of a day late:

    due 10:00, grace 15 min, 10 % per day, earned 80 points
    submitted 10:10  ->  on time (inside the grace period)      penalty  0
    submitted 10:20  ->  1 day late (a part of a day counts)    penalty  8
    submitted 2 days and 1 hour late  ->  3 days                 penalty 24
    later than max_days_late            ->  the whole score      penalty 80
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math

DAY = 86400.0


@dataclasses.dataclass(frozen=True)
class LatePolicy:
    grace_minutes: float = 0.0
    penalty_per_day: float = 0.0  # percent of the earned score
    max_days_late: float | None = None  # past this many days, nothing is earned

    def days_late(self, seconds_late: float) -> int:
        """Whole days charged: 0 inside the grace period, else every day begun counts."""
        if seconds_late <= self.grace_minutes * 60:
            return 0
        return math.ceil(seconds_late / DAY)

    def penalty(self, earned: float, seconds_late: float) -> float:
        """Points to take off `earned` for a submission `seconds_late` past its due date."""
        days = self.days_late(seconds_late)
        if days == 0:
            return 0.0
        if self.max_days_late is not None and seconds_late > self.max_days_late * DAY:
            return earned
        # Rounded for the gradebook, but never past what was earned.
        return min(earned, round(earned * min(1.0, days * self.penalty_per_day / 100), 4))


def seconds_late(submitted_at: dt.datetime | None, due: dt.datetime | None) -> float:
    """How long after `due` the submission came in (0 when on time or either is unknown)."""
    if submitted_at is None or due is None:
        return 0.0
    return max(0.0, (as_utc(submitted_at) - as_utc(due)).total_seconds())


def as_utc(moment: dt.datetime) -> dt.datetime:
    """Naive times are UTC, as nbgrader stores them."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=dt.timezone.utc)
    return moment.astimezone(dt.timezone.utc)
