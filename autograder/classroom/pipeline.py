"""Grade one assignment for a whole class, in stages:

    find      submitted/STUDENT/ASSIGNMENT/ folders, with nbgrader's timestamps
    plan      skip what was graded from the same files with the same suite (state.py)
    grade     the rest in parallel, each in its own process and sandbox (grading/batch.py),
              here or on the hosts of a Dask cluster (cluster/dask_hosts.py)
    record    for each result as it arrives: gradebook scores and late penalty, and
              the stored result; the autograded notebook is written by the grading
              process itself, under the submission's budget (this process reads no
              submission's contents)

Each result is recorded the moment it is graded, so an interruption loses at most
the submissions being graded at that moment, and the next run picks them up.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import nbformat

from autograder.classroom import autograded, gradebook, state
from autograder.classroom.layout import CourseLayout
from autograder.classroom.submissions import Submission, find_submissions
from autograder.files import write_atomically
from autograder.grading.batch import grade_batch
from autograder.grading.results import GradeResult
from autograder.render.safe_text import ci_log


class NothingToGrade(RuntimeError):
    pass


@dataclasses.dataclass
class ClassRun:
    results: list[GradeResult]  # one per student, graded now or earlier
    graded: int  # graded in this run
    reused: int  # unchanged since they were graded


def released_notebook(course_dir: Path, assignment) -> nbformat.NotebookNode:
    path = CourseLayout(course_dir).released_notebook(assignment)
    if not path.is_file():
        raise gradebook.GradebookError(f"{path} not found; run `autograder release {assignment.id}` first")
    return nbformat.read(path, as_version=4)


def grade_class(course, assignment, course_dir: Path, *, jobs: int | None = None, force: bool = False,
                names: dict[str, str] | None = None, progress=None, cluster: str | None = None,
                log=None, students: set[str] | None = None) -> ClassRun:
    """Grade every submission of `assignment` in `course_dir` (or only those of `students`); see the
    module docstring.

    `progress(total)` makes a progress reporter with an `advance(result)` method. `cluster`: the
    address of a Dask scheduler to grade on instead of this machine (cluster/dask_hosts.py), whose
    lines for the instructor go to `log`."""
    course_dir = Path(course_dir).resolve()
    submissions = [s for s in find_submissions(course_dir, assignment.id) if students is None or s.student in students]
    if not submissions:
        who = "*" if students is None else ",".join(sorted(students))
        raise NothingToGrade(f"no submissions in {CourseLayout(course_dir).submitted_root}/{who}/{assignment.id}/")
    release = released_notebook(course_dir, assignment)
    suite_sha = state.suite_hash(assignment)
    with gradebook.open_gradebook(course, course_dir) as book:
        gradebook.check_released(book, assignment)
        gradebook.register_due_date(book, assignment)

        def autograded_dir(submission: Submission) -> Path:
            return CourseLayout(course_dir).autograded(submission.student, assignment.id)

        def record(submission: Submission, result: GradeResult, submission_sha: str) -> GradeResult:
            """The result as the class sees it (whose, when, how late), in the gradebook and stored."""
            placed = dataclasses.replace(
                result, student=submission.student, submission=str(submission.folder.relative_to(course_dir)))
            graded_before = state.graded_submission_hash(state.state_path(course_dir, submission.student, assignment.id))
            placed = gradebook.record(book, assignment, placed, submission.timestamp,
                                      (names or {}).get(submission.student, ""),
                                      handed_in_again=graded_before not in (None, submission_sha))
            if placed != result:  # graded now, or its lateness changed
                state.store(autograded_dir(submission) / state.STATE_FILE, placed, submission_sha, suite_sha)
            return placed

        def write_notebook(index: int, result: GradeResult, handed_in) -> None:
            """Run in the grading process, under the submission's budget: reading and rewriting a
            notebook costs what its size makes it cost, and that is the submission's to spend."""
            submission = to_grade[index]
            try:
                autograded.write_autograded(handed_in, autograded_dir(submission), assignment, result, release)
            except Exception as error:  # the grade is safe anyway; formgrader's copy must not stop the batch
                print(ci_log(f"warning: no autograded notebook for {submission.student}: "
                             f"{type(error).__name__}: {error}"), file=sys.stderr)

        hashes = {s.student: state.submission_hash(s.folder) for s in submissions}
        done: dict[str, GradeResult] = {}
        to_grade = []
        for submission in submissions:
            stored = None if force else state.load_graded(
                state.state_path(course_dir, submission.student, assignment.id), hashes[submission.student], suite_sha)
            notebook = autograded_dir(submission) / f"{assignment.notebook}.ipynb"
            if stored is None or not notebook.is_file():  # formgrader's copy is written while grading
                to_grade.append(submission)
            else:
                done[submission.student] = record(submission, stored, hashes[submission.student])
        reporter = progress(len(to_grade)) if progress is not None and to_grade else None

        def on_result(index: int, result: GradeResult) -> None:
            submission = to_grade[index]
            done[submission.student] = record(submission, result, hashes[submission.student])
            if reporter is not None:
                reporter.advance(result)

        def write_autograded_files(index: int, files: dict[str, bytes]) -> None:
            """A cluster host wrote formgrader's copy where it graded; it arrives as bytes, written as is."""
            folder = autograded_dir(to_grade[index])
            folder.mkdir(parents=True, exist_ok=True)
            for name, data in files.items():
                write_atomically(folder / Path(name).name, data)

        if to_grade and cluster is not None:
            from autograder.cluster.dask_hosts import grade_on_cluster

            release_text = CourseLayout(course_dir).released_notebook(assignment).read_text(encoding="utf-8")
            grade_on_cluster(cluster, course, assignment, [s.folder for s in to_grade], release_text,
                             on_result=on_result, on_autograded=write_autograded_files, log=log or print)
        elif to_grade:
            grade_batch(assignment, [s.folder for s in to_grade], jobs=jobs, on_result=on_result,
                        in_grading_process=write_notebook)
    return ClassRun([done[s.student] for s in submissions], graded=len(to_grade),
                    reused=len(submissions) - len(to_grade))


def stored_results(course_dir: Path, assignment) -> list[GradeResult]:
    """Every stored result of `assignment`, by student, as it was last recorded."""
    found = []
    for submission in find_submissions(Path(course_dir).resolve(), assignment.id):
        result = state.load_result(state.state_path(Path(course_dir).resolve(), submission.student, assignment.id))
        if result is not None:
            found.append(result)
    return found


def settled_results(course, course_dir: Path, assignment) -> list[GradeResult]:
    """Every stored result of `assignment` as the gradebook counts it now (what feedback and reports
    read): a manual grade typed in formgrader, or an extension granted, since the class was graded
    shows without grading again, and the penalty it changes is stored again, in the gradebook and
    in the stored result."""
    course_dir = Path(course_dir).resolve()
    results = stored_results(course_dir, assignment)
    if not results or not course.has_gradebook(course_dir):
        return results  # nothing to settle against (and opening the gradebook would create an empty one)
    settled = []
    with gradebook.open_gradebook(course, course_dir) as book:
        for result in results:
            now = gradebook.settle(book, assignment, result)
            if now != result:
                state.restore(state.state_path(course_dir, result.student, assignment.id), now)
            settled.append(now)
    return settled
