"""The course's own content as tests reach it: assignments from course.yml and their catalogues.

Tests name assignments by id; every path comes from the Assignment model, so the same
tests run on a copy of the course (tests/test_authoring.py) as on this one.
"""

from __future__ import annotations

from autograder import samples
from autograder.course import load_course

COURSE = load_course()


def catalogue(assignment_id: str, kind: str) -> list[samples.Sample]:
    return samples.catalogue(COURSE.assignment(assignment_id), kind)


def reference_functions(assignment_id: str) -> dict:
    return samples.reference_functions(COURSE.assignment(assignment_id))


def parameter_lists(assignment_id: str) -> dict[str, str]:
    return samples.parameter_lists(COURSE.assignment(assignment_id))


def catalogue_module(assignment_id: str, kind: str):
    """solutions/ID/{kind}.py as a module, for the constants some tests share with it."""
    return samples.catalogue_module(COURSE.assignment(assignment_id).catalogue_path(kind))
