"""Grade submission files named on the command line, outside any course directory.

This is the stage behind `autograder grade ASSIGNMENT FILE...` (a student's repository in
CI, a quick check on a laptop): each file is graded in the sandbox and its results file
(Gradescope's JSON format) is written as soon as it is graded, so an interrupted batch
keeps what it finished. A whole class in an nbgrader course directory goes through
classroom/pipeline.py instead.
"""

from __future__ import annotations

from pathlib import Path

from autograder.grading.batch import grade_batch
from autograder.grading.results import GradeResult
from autograder.render.gradescope import write_results


def results_paths(submissions: list[Path], results: Path | None) -> list[Path]:
    """One results file per submission, named after it (parent folder added on clashes)."""
    if len(submissions) == 1:
        return [results or Path("results.json")]
    folder = results or Path("results")
    stems = [p.stem if p.suffix else p.name for p in submissions]
    names = [f"{p.resolve().parent.name}-{stem}" if stems.count(stem) > 1 else stem
             for p, stem in zip(submissions, stems)]
    return [folder / f"{name}.json" for name in names]


def grade_files(assignment, submissions: list[Path], results: Path | None = None, *, jobs: int | None = None,
                visible: bool = False, on_graded=None) -> tuple[list[GradeResult], list[Path]]:
    """Grade `submissions` (the hidden suite, or the release's visible checks); returns the results
    in input order and the results file written for each. `on_graded(result)` runs as each finishes.
    The visible checks write a results file only where `results` says: a student runs them in the
    folder that nbgrader's submit sends in whole, and they are not a grade to keep."""
    outputs = [] if visible and results is None else results_paths(submissions, results)

    def save(index: int, result: GradeResult) -> None:
        if outputs:
            write_results(result, outputs[index])
        if on_graded is not None:
            on_graded(result)

    graded = grade_batch(assignment, submissions, jobs=jobs, on_result=save, suite="visible" if visible else "hidden")
    return graded, outputs
