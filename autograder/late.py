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
import re
import zoneinfo

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


def time_zone(text: str) -> dt.tzinfo:
    """A course's time zone from its name in course.yml: "Europe/Madrid" (the IANA database, which
    follows summer time), "UTC", or a fixed offset like "+01:00". ValueError when it is none of them."""
    offset = re.fullmatch(r"([+-])(\d{2}):(\d{2})", text)
    if offset:
        sign, hours, minutes = offset.groups()
        delta = dt.timedelta(hours=int(hours), minutes=int(minutes))
        if delta >= dt.timedelta(hours=24) or int(minutes) >= 60:
            raise ValueError(text)
        return dt.timezone(delta if sign == "+" else -delta)
    if text.upper() == "UTC":
        return dt.timezone.utc
    try:
        return zoneinfo.ZoneInfo(text)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValueError(text) from None


def local_iso(moment: dt.datetime | None, zone: dt.tzinfo) -> str:
    """`moment` (naive means UTC) as ISO 8601 in the course's time zone, "" when unknown: how the
    results carry times, so that every rendering shows the course's clock with its offset."""
    return "" if moment is None else as_utc(moment).astimezone(zone).isoformat()


def clock(iso: str) -> str:
    """An ISO time as people read it, on its own offset: '2027-03-01 23:59 (UTC+01:00)'
    (as given when it does not parse)."""
    try:
        moment = dt.datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    offset = moment.utcoffset() or dt.timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    zone = "UTC" if not minutes else f"UTC{'+' if minutes > 0 else '-'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    return f"{moment:%Y-%m-%d %H:%M} ({zone})"
