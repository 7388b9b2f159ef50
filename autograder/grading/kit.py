"""What grading one assignment needs, built once per run and passed explicitly.

A batch builds its kit before forking, so every grading process starts with the
release notebook parsed, the reference imported and the hidden suite collected;
nothing about an assignment is looked up again per submission, and no module keeps
a cache of it.
"""

from __future__ import annotations

import dataclasses
import functools
from types import ModuleType

import nbformat

from autograder.grading.banks import check_hypothesis_version, load_recording
from autograder.grading.plugin import (load_reference, prepare_hypothesis, suite_dependencies,
                                       suite_mutations, suite_published_examples)
from autograder.grading.suite import CollectedSuite, collect_suite
from autograder.notebook.lesson import load_public_notebook, load_source_notebook
from autograder.sandbox.codec import known_callbacks


@dataclasses.dataclass(frozen=True)
class GradingKit:
    assignment: object  # course.Assignment: points, limits, visibility, the suite's path
    release: nbformat.NotebookNode  # locked cells and the visible checks come from it
    reference: ModuleType | None  # the reference, imported in the grader (`reference` fixture); None: public_kit
    reference_source: str  # the same, run by the reference's own worker to serve helpers
    served_helpers: dict[str, tuple[str, ...]]  # DEPENDS_ON: function -> helpers the reference serves
    mutated_arguments: dict[str, tuple[int, ...]]  # MUTATES: function -> positions it may change in place
    banks: dict  # property test -> its examples, simplest first (banks.py)
    helper_answers: dict  # (served helper, its arguments' wire) -> the reference's answer (banks.py)
    probe_calls: dict  # function -> a simple public call, tried when another function hangs (banks.py)
    hidden_suite: CollectedSuite | None = None  # collected once, run per submission (suite.py); None: visible checks

    @functools.cached_property
    def known_callbacks(self) -> dict:
        """helper_answers by the bytes of the callback frame that asks each (codec.known_callbacks)."""
        return known_callbacks(self.helper_answers)


def build_kit(assignment, suite: str = "hidden") -> GradingKit:
    """Everything `suite` ("hidden" or "visible") needs to grade `assignment`; the hidden suite comes
    collected."""
    if suite == "visible" and not assignment.solution_path.is_file():
        return public_kit(assignment)
    check_hypothesis_version()
    prepare_hypothesis()
    suite_path = assignment.hidden_suite_path
    reference = load_reference(assignment.solution_path)
    served_helpers = suite_dependencies(suite_path)
    published_examples = suite_published_examples(suite_path)
    release = load_source_notebook(assignment)
    recording = load_recording(assignment, reference, served_helpers, release)
    hidden_suite = (collect_suite(suite_path, reference, published_examples, recording.banks)
                    if suite == "hidden" else None)
    kit = GradingKit(
        assignment=assignment,
        release=release,
        reference=reference,
        reference_source=assignment.solution_path.read_text(encoding="utf-8"),
        served_helpers=served_helpers,
        mutated_arguments=suite_mutations(suite_path, reference),
        banks=recording.banks,
        helper_answers=recording.helper_answers,
        probe_calls=recording.probe_calls,
        hidden_suite=hidden_suite,
    )
    kit.known_callbacks  # made now, before a batch forks: every grading process inherits it
    return kit


def public_kit(assignment) -> GradingKit:
    """The visible checks as a student can run them, with the lesson alone (a student's checkout has
    no solutions/): no reference (no self-check, no helpers served), the release from the lesson.
    Without the hidden suite's MUTATES, every argument's in-place change reaches the check, as it does
    in Jupyter (a check such as `get_stats(ids, counts) is counts` needs it); a check's expectations
    are literals of the lesson, which no change to an argument can rewrite."""
    every_argument = {name: tuple(range(MAX_POSITIONAL)) for name in assignment.points}
    return GradingKit(assignment=assignment, release=load_public_notebook(assignment), reference=None,
                      reference_source="", served_helpers={}, mutated_arguments=every_argument,
                      banks={}, helper_answers={}, probe_calls={})


MAX_POSITIONAL = 32  # more positional arguments than any graded function takes
