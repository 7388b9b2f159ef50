"""Calls outside the lesson's domain: inputs the hidden suite grades that the lesson never defines.

Each suite declares, per graded function, a predicate of a call's arguments that holds where
the lesson says what the function does, its errors included (``DOMAIN``, passed to
``checked_student``). The audit runs the suite in-process against the reference, as the
example banks are recorded, so every fixed case and every example of every bank is replayed,
and lists each call for which the predicate does not hold. A call outside the domain grades
students on behaviour they were never told, so the audit fails on any.
"""

from __future__ import annotations

from autograder.grading.expect import OutsideDomain, calls_outside_domain
from autograder.grading.plugin import SuitePlugin, load_reference, run_pytest


def calls_outside(assignment) -> list[OutsideDomain]:
    reference = load_reference(assignment.solution_path)
    with calls_outside_domain() as found:
        run_pytest(assignment.hidden_suite_path, SuitePlugin(reference, reference))
    return found
