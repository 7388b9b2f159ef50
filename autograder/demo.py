"""The main job, end to end, on sample data the project makes itself.

release bpe_bytes with nbgrader -> a class of sample students hands in (the
untouched release, the reference on time and late, buggy and hostile notebooks)
-> grade the class into nbgrader's gradebook -> feedback pages, report, grades.csv
-> print the score table and what one student reads.
"""

from __future__ import annotations

import datetime as dt
import os
import shlex
import shutil
import sys
from pathlib import Path

from autograder import samples
from autograder.classroom.layout import CourseLayout
from autograder.classroom.pipeline import grade_class
from autograder.classroom.publish import export_grades, write_feedback_pages, write_report
from autograder.release import release_assignment
from autograder.render.progress import Progress
from autograder.render.terminal import batch_table, submission_report
from autograder.sandbox.probe import print_banner

ASSIGNMENT = "bpe_bytes"


def hand_in_class(assignment, course_dir: Path) -> None:
    """A small class in nbgrader's submitted/ tree, each student named after what they hand in."""
    layout = CourseLayout(course_dir)
    release = layout.released_notebook(assignment)
    on_time = (assignment.due or dt.datetime.now(dt.timezone.utc)) - dt.timedelta(hours=3)
    corpus = [("correct", samples.correct(assignment), on_time),
              ("correct-2-days-late", samples.correct(assignment), on_time + dt.timedelta(days=1, hours=20))]
    corpus += [(f"buggy-{s.name}", s, on_time) for s in samples.catalogue(assignment, "buggy")[::4]]
    corpus += [(f"hostile-{s.name}", s, on_time) for s in samples.catalogue(assignment, "hostile")[::3]]
    for student, sample, moment in [("untouched-release", None, on_time), *corpus]:
        folder = layout.submitted(student, assignment.id)
        folder.mkdir(parents=True, exist_ok=True)
        if sample is None:
            shutil.copy(release, folder / release.name)
        else:
            samples.build_notebook(assignment, sample, folder / release.name)
        (folder / "timestamp.txt").write_text(moment.strftime("%Y-%m-%d %H:%M:%S.%f %Z") + "\n")


def run_demo(course, directory: Path, jobs: int | None = None) -> int:
    """Release, grade a generated class, publish, show: the exit code as `autograder demo` returns it."""
    course_dir = directory.resolve() / "course"
    shutil.rmtree(course_dir, ignore_errors=True)  # the demo's own folder: start clean every time
    assignment = course.assignment(ASSIGNMENT)
    print(f"1/4 releasing {assignment.id} with nbgrader into {course_dir}", file=sys.stderr)
    release_assignment(course, assignment, course_dir)
    hand_in_class(assignment, course_dir)
    layout = CourseLayout(course_dir)
    print(f"2/4 grading the class in {layout.submitted_root} (sandboxed, {jobs or 'all'} cores)", file=sys.stderr)
    refused = print_banner()
    if refused is not None:
        return 2 if refused == "refused" else 3
    run = grade_class(course, assignment, course_dir, jobs=jobs, progress=lambda n: Progress(n, "grading"))
    print("3/4 feedback pages, instructor report, grades for the LMS", file=sys.stderr)
    write_feedback_pages(course, assignment, course_dir)
    write_report(course, assignment, course_dir)
    export_grades(course, course_dir)
    print("4/4 results\n", file=sys.stderr)
    print(batch_table(run.results))
    student = next((r for r in run.results if r.student.startswith("buggy-")), run.results[0])
    print(f"\nWhat one student reads (Spanish feedback), {student.student}:\n")
    print(submission_report(student))
    print(f"\ngradebook (nbgrader):  {course.gradebook_url(course_dir)}\n"
          f"feedback pages:        {layout.feedback_page('STUDENT', assignment)}\n"
          f"instructor report:     {layout.report(assignment.id)}\n"
          f"grades for the LMS:    {layout.grades_csv}")
    print(next_steps(course, assignment, layout, student.student))
    return 0


def autograder_command() -> str:
    """This autograder as the shell the demo ran in can start it, `autograder` on PATH or not: the
    script installed beside this interpreter (`.venv/bin/autograder` after the README's Quickstart),
    else this interpreter with `-m autograder`."""
    script = Path(sys.executable).parent / "autograder"
    if not (script.is_file() and os.access(script, os.X_OK)):
        return f"{shlex.quote(sys.executable)} -m autograder"
    try:
        shown = script.relative_to(Path.cwd())
    except ValueError:
        return shlex.quote(str(script))
    return shlex.quote(str(shown) if shown.parent != Path(".") else f"./{shown}")


def next_steps(course, assignment, layout: CourseLayout, student: str) -> str:
    """Where to go from the demo: the two pages to open, then the commands of a real course."""
    course_option = f" --course-dir {layout.root}" if layout.root != course.course_dir.resolve() else ""
    autograder = autograder_command()
    return "\n".join([
        "",
        "Next:",
        f"  1. open the instructor report in a browser:  {layout.report(assignment.id)}",
        f"  2. open what {student} reads:  {layout.feedback_page(student, assignment)}",
        f"  3. grade a notebook of your own (start from the released one, {layout.released_notebook(assignment)}):",
        f"       {autograder} grade {assignment.id} PATH/TO/{assignment.notebook}.ipynb",
        f"  4. after a student hands in again, grade what changed and publish:",
        f"       {autograder} grade {assignment.id}{course_option} && {autograder} feedback {assignment.id}{course_option}",
        "  5. your own course (README, \"A semester in an nbgrader course directory\"):",
        f"       {autograder} release --all",
    ])
