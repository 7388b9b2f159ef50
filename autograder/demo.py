"""The main job, end to end, on sample data the project makes itself.

release bpe_bytes with nbgrader -> write a class of sample submissions (the
released stub, correct, buggy and hostile notebooks) -> grade them as a batch ->
write one results.json per submission -> print the score table and one student's
feedback.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from autograder import samples
from autograder.cli import print_defences, results_paths
from autograder.grading.batch import grade_batch
from autograder.release import release_assignment
from autograder.render.gradescope import write_results
from autograder.render.terminal import batch_table, submission_report
from autograder.sandbox.launcher import describe_defences

ASSIGNMENT = "bpe_bytes"


def build_class(assignment, release_dir: Path, folder: Path) -> list[Path]:
    """A small class: the untouched release, the reference, some bugs, some attacks."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / "stub-as-released.ipynb"]
    shutil.copy(release_dir / f"{assignment.notebook}.ipynb", paths[0])
    corpus = [samples.correct(assignment.id)]
    corpus += samples.catalogue(assignment.id, "buggy")[::4]
    corpus += samples.catalogue(assignment.id, "hostile")[::3]
    for sample in corpus:
        paths.append(samples.build_notebook(assignment, sample, folder / f"{sample.kind}-{sample.name}.ipynb"))
    return paths


def run_demo(course, directory: Path, jobs: int | None = None) -> int:
    directory = directory.resolve()
    assignment = course.assignment(ASSIGNMENT)
    print(f"1/3 releasing {assignment.id} with nbgrader into {directory / 'course'}", file=sys.stderr)
    release_dir = release_assignment(course, assignment, directory / "course")
    submissions = build_class(assignment, release_dir, directory / "submissions")
    print(f"2/3 grading {len(submissions)} sample submissions (sandboxed, {jobs or 'all'} cores)", file=sys.stderr)
    print_defences(describe_defences())
    outputs = dict(zip(map(str, submissions), results_paths(submissions, directory / "results")))
    results = grade_batch(course, assignment, submissions, jobs=jobs,
                          on_result=lambda r: write_results(r, outputs[r.submission]))
    print("3/3 results\n", file=sys.stderr)
    print(batch_table(results))
    buggy = next((r for r in results if "buggy-" in r.submission), results[0])
    print("\nWhat one student sees (Spanish feedback):\n")
    print(submission_report(buggy))
    print(f"\nresults.json files: {directory / 'results'}", file=sys.stderr)
    return 0
