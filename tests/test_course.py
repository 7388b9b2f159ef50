"""course.yml is validated: every mistake is one English sentence naming file and key."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
import yaml

from autograder.cli import main
from autograder.course import CourseError, load_course

VALID = textwrap.dedent("""\
    course: {id: c, title: Curso, language: es}
    limits: {call_seconds: 5}
    assignments:
      bpe_bytes:
        title: BPE
        points: {merge: 5, encode: 5}
    """)


def write(tmp_path, text: str):
    path = tmp_path / "course.yml"
    path.write_text(text, encoding="utf-8")
    return path


def mutated(change) -> str:
    data = yaml.safe_load(VALID)
    change(data)
    return yaml.safe_dump(data)


def test_the_project_course_file_is_valid(course):
    assert course.language == "es"
    assert course.assignment("bpe_bytes").max_score == 100
    for assignment in course.assignments.values():
        assert assignment.lesson_path.is_file() and assignment.solution_path.is_file()
        assert assignment.hidden_suite_path.is_file()


def test_a_valid_file_loads_with_defaults_and_overrides(tmp_path):
    course = load_course(write(tmp_path, VALID))
    assignment = course.assignment("bpe_bytes")
    assert assignment.limits.call_seconds == 5  # course-wide override
    assert assignment.limits.memory_mb == 1024  # default
    assert assignment.notebook == "bpe_bytes" and assignment.max_score == 10


def test_due_dates_and_late_policy_load_as_utc_with_overrides(tmp_path):
    text = VALID + textwrap.dedent("""\
        late_policy: {grace_minutes: 10, penalty_per_day: 20}
        """)
    data = yaml.safe_load(text)
    data["assignments"]["bpe_bytes"].update(due="2027-03-01T23:59:00+01:00", late_policy={"max_days_late": 2})
    assignment = load_course(write(tmp_path, yaml.safe_dump(data))).assignment("bpe_bytes")
    assert assignment.due.isoformat() == "2027-03-01T22:59:00+00:00"
    assert (assignment.late_policy.grace_minutes, assignment.late_policy.penalty_per_day,
            assignment.late_policy.max_days_late) == (10, 20, 2)


def test_times_are_shown_in_the_course_time_zone_by_default_the_due_dates_offset(tmp_path):
    import datetime as dt
    import zoneinfo

    from autograder.late import clock, local_iso

    data = yaml.safe_load(VALID)
    data["assignments"]["bpe_bytes"]["due"] = "2027-03-01T23:59:00+01:00"
    data["assignments"]["embed"] = {"title": "E", "points": {"embed": 1}}  # no due date: the first one's offset
    course = load_course(write(tmp_path, yaml.safe_dump(data)))
    one_hour = dt.timezone(dt.timedelta(hours=1))
    assert course.assignment("bpe_bytes").timezone == one_hour and course.assignment("embed").timezone == one_hour
    data["course"]["timezone"] = "Europe/Madrid"  # named: summer time begins on 28 March 2027
    madrid = load_course(write(tmp_path, yaml.safe_dump(data))).assignment("bpe_bytes").timezone
    assert madrid == zoneinfo.ZoneInfo("Europe/Madrid")
    assert clock(local_iso(dt.datetime(2027, 3, 3, 10, 0), madrid)) == "2027-03-03 11:00 (UTC+01:00)"
    assert clock(local_iso(dt.datetime(2027, 4, 3, 10, 0), madrid)) == "2027-04-03 12:00 (UTC+02:00)"
    data["course"]["timezone"] = "-05:30"
    offset = load_course(write(tmp_path, yaml.safe_dump(data))).assignment("embed").timezone
    assert clock(local_iso(dt.datetime(2027, 3, 3, 10, 0), offset)) == "2027-03-03 04:30 (UTC-05:30)"


def test_visibility_goes_by_test_name_then_kind_then_default(tmp_path):
    data = yaml.safe_load(VALID)
    data["visibility"] = {"default": "after_due_date", "property": "visible"}
    data["assignments"]["bpe_bytes"]["visibility"] = {"test_merge_published": "hidden"}
    assignment = load_course(write(tmp_path, yaml.safe_dump(data))).assignment("bpe_bytes")
    assert assignment.visibility_of("test_merge_published", "fixed") == "hidden"
    assert assignment.visibility_of("test_merge_matches_reference", "property") == "visible"
    assert assignment.visibility_of("test_merge_other", "fixed") == "after_due_date"


def test_the_gradebook_defaults_to_sqlite_in_the_course_directory(tmp_path):
    course = load_course(write(tmp_path, VALID))
    assert course.gradebook_url(tmp_path / "cd") == f"sqlite:///{tmp_path / 'cd' / 'gradebook.db'}"
    data = yaml.safe_load(VALID)
    data["course"]["gradebook"] = "postgresql://grader@db/tokens"
    assert load_course(write(tmp_path, yaml.safe_dump(data))).gradebook_url() == "postgresql://grader@db/tokens"


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(extra=1), ["unknown key (top level).extra", "allowed: assignments, course, late_policy, limits"]),
    (lambda d: d["course"].update(langauge="es"), ["course.langauge", "allowed:"]),
    (lambda d: d["course"].update(language="fr"), ["course.language", "es", "'fr'"]),
    (lambda d: d["course"].pop("title"), ["missing key course.title"]),
    (lambda d: d["limits"].update(call_seconds=-1), ["limits.call_seconds", "positive"]),
    (lambda d: d["limits"].update(memory_mb=1.5), ["limits.memory_mb", "positive integer"]),
    (lambda d: d["limits"].update(cpu=3), ["limits.cpu", "allowed:", "cpu_seconds"]),
    (lambda d: d["assignments"]["bpe_bytes"].update(pointz={}), ["assignments.bpe_bytes.pointz"]),
    (lambda d: d["assignments"]["bpe_bytes"]["points"].update(merge="five"), ["assignments.bpe_bytes.points.merge"]),
    (lambda d: d["assignments"]["bpe_bytes"]["points"].update(merge=True), ["points.merge", "positive number"]),
    (lambda d: d["assignments"]["bpe_bytes"].update(points={}), ["at least one function"]),
    (lambda d: d["assignments"]["bpe_bytes"].update(limits={"call_seconds": 0}), ["assignments.bpe_bytes.limits.call_seconds"]),
    (lambda d: d.update(assignments={}), ["at least one assignment"]),
    (lambda d: d.update(course=[1]), ["course must be a mapping"]),
    (lambda d: d["assignments"]["bpe_bytes"].update(due="next friday"), ["assignments.bpe_bytes.due", "UTC offset"]),
    (lambda d: d["assignments"]["bpe_bytes"].update(due="2027-03-01T23:59:00"), ["bpe_bytes.due", "UTC offset"]),
    (lambda d: d.update(late_policy={"penalty": 5}), ["late_policy.penalty", "penalty_per_day"]),
    (lambda d: d.update(late_policy={"penalty_per_day": 150}), ["late_policy.penalty_per_day", "at most 100"]),
    (lambda d: d.update(late_policy={"grace_minutes": -5}), ["late_policy.grace_minutes", "at least 0"]),
    (lambda d: d["assignments"]["bpe_bytes"].update(late_policy={"max_days_late": "x"}),
     ["assignments.bpe_bytes.late_policy.max_days_late"]),
    (lambda d: d["course"].update(gradebook=""), ["course.gradebook", "non-empty"]),
    (lambda d: d["course"].update(timezone="Madrid"), ["course.timezone", "Europe/Madrid", "+01:00"]),
    (lambda d: d["course"].update(timezone="+25:00"), ["course.timezone", "'+25:00'"]),
    (lambda d: d["course"].update(timezone=1), ["course.timezone", "non-empty string"]),
    (lambda d: d.update(visibility={"default": "secret"}), ["visibility.default", "after_due_date"]),
    (lambda d: d["assignments"]["bpe_bytes"].update(visibility={"merge": "hidden"}),
     ["assignments.bpe_bytes.visibility.merge", "name of a hidden test"]),
    (lambda d: d.update(similarity={"threshold": 55}), ["similarity.threshold", "at most 1", "55"]),
    (lambda d: d.update(similarity={"threshold": 0}), ["similarity.threshold", "above 0"]),
    (lambda d: d.update(similarity={"treshold": 0.5}), ["similarity.treshold", "allowed: threshold"]),
])

def test_mistakes_are_named_precisely(tmp_path, change, words):
    path = write(tmp_path, mutated(change))
    with pytest.raises(CourseError) as error:
        load_course(path)
    message = str(error.value)
    assert message.startswith(str(path))
    for word in words:
        assert word in message


def test_the_similarity_threshold_is_read_with_a_default(tmp_path):
    assert load_course(write(tmp_path, VALID)).similarity_threshold == 0.55
    assert load_course(write(tmp_path, mutated(lambda d: d.update(similarity={"threshold": 0.7})))).similarity_threshold == 0.7


def test_broken_yaml_and_missing_file(tmp_path):
    with pytest.raises(CourseError, match="not valid YAML"):
        load_course(write(tmp_path, "course: [unclosed"))
    with pytest.raises(CourseError, match="file not found"):
        load_course(tmp_path / "nope.yml")


def test_unknown_assignment_lists_the_known_ones(course):
    with pytest.raises(CourseError, match="unknown assignment 'bpe_bites'.*bpe_bytes"):
        course.assignment("bpe_bites")


def test_cli_reports_course_errors_without_a_traceback(tmp_path):
    path = write(tmp_path, mutated(lambda d: d["course"].update(language="fr")))
    process = subprocess.run([sys.executable, "-m", "autograder", "--course", str(path), "check-course"],
                             capture_output=True, text=True)
    assert process.returncode == 2
    assert process.stderr.startswith("error: ") and "Traceback" not in process.stderr
    assert "course.language" in process.stderr


def test_cli_check_course_summarises(capsys):
    assert main(["check-course"]) == 0
    assert "bpe_bytes: BPE a nivel de bytes — 100 points over 7 functions" in capsys.readouterr().out
