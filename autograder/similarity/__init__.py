"""Pairs of submissions to look at: who may have handed in the same code in disguise (issue 27).

The pipeline, one stage per module:

    code.py      each submission read with the grader's loader and split into units (each graded
                 function, and the rest), with the release's code taken out
    compare.py   fingerprints (copydetect's normalisation and winnowing), the template's and the
                 class's common idioms removed, pairs found through an index and scored exactly
    report.py    the pairs as JSON, and the instructor report's section (side by side, highlighted)

It never accuses: a flagged pair is a pair to read, with the evidence next to it.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from autograder.classroom.submissions import find_submissions
from autograder.notebook.lesson import load_source_notebook
from autograder.similarity.code import StudentCode, read_student_code, template_sources
from autograder.similarity.compare import Pair, compare_class


@dataclasses.dataclass(frozen=True)
class SimilarityRun:
    assignment: str
    threshold: float
    codes: list[StudentCode]  # the class, in student order
    earlier: list[StudentCode]  # other semesters' submissions (--against), named FOLDER/STUDENT
    pairs: list[Pair]
    seconds: float


def class_codes(assignment, course_dir: Path, prefix: str = "", release=None, template=None) -> list[StudentCode]:
    """Every submission of `assignment` in an nbgrader course directory's submitted/ tree (`release` and
    `template`: the source notebook and template_sources, when the caller has them already)."""
    release = release if release is not None else load_source_notebook(assignment)
    template = template if template is not None else template_sources(assignment, release)
    return [read_student_code(prefix + s.student, s.folder, assignment, release, template)
            for s in find_submissions(course_dir, assignment.id)]


def compare_assignment(course, assignment, course_dir: Path, against: list[Path] = (),
                       cluster: str | None = None) -> SimilarityRun:
    """Compare the class in `course_dir` (and with the classes in `against`), fingerprinting on the Dask
    cluster whose scheduler is at `cluster` when given."""
    started = time.monotonic()
    release = load_source_notebook(assignment)
    template = template_sources(assignment, release)
    codes = class_codes(assignment, course_dir, "", release, template)
    earlier = [code for folder in against
               for code in class_codes(assignment, Path(folder), f"{Path(folder).name}/", release, template)]
    map_units = _on_cluster(cluster) if cluster else None
    pairs = compare_class(codes, template, course.similarity_threshold, earlier=earlier, map_units=map_units)
    return SimilarityRun(assignment.id, course.similarity_threshold, codes, earlier, pairs,
                         time.monotonic() - started)


def _on_cluster(address: str):
    """A map_units that fingerprints on the Dask cluster at `address`: no student code runs there, the
    units are only tokenised, so any worker of the cluster will do."""
    def map_units(function, units: list[dict], boilerplate: set) -> list[dict]:
        from distributed import Client

        from autograder.cluster import ClusterError
        from autograder.cluster.dask_hosts import CONNECT_SECONDS

        try:
            client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise ClusterError(f"no Dask scheduler answers at {address} ({error})") from None
        try:
            [shared] = client.scatter([boilerplate], broadcast=True)  # one copy per worker, not per task
            return client.gather(client.map(function, units, boilerplate=shared, pure=False))
        finally:
            client.close()

    return map_units
