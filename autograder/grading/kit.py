"""What grading one assignment needs, built once per run and passed explicitly.

A batch builds its kit before forking, so every grading process starts with the
release notebook parsed, the reference imported and the suite's declarations read;
nothing about an assignment is looked up again per submission, and no module keeps
a cache of it.
"""

from __future__ import annotations

import dataclasses
from types import ModuleType

import nbformat

from autograder.grading.plugin import (load_reference, prepare_hypothesis, suite_dependencies, suite_mutations,
                                       suite_published_examples)
from autograder.notebook.lesson import load_source_notebook


@dataclasses.dataclass(frozen=True)
class GradingKit:
    assignment: object  # course.Assignment: points, limits, visibility, the suite's path
    release: nbformat.NotebookNode  # locked cells and the visible checks come from it
    reference: ModuleType  # the reference solution, imported in the grader (the `reference` fixture)
    reference_source: str  # the same, run by the reference's own worker to serve helpers
    served_helpers: dict[str, tuple[str, ...]]  # DEPENDS_ON: function -> helpers the reference serves
    mutated_arguments: dict[str, tuple[int, ...]]  # MUTATES: function -> positions it may change in place
    published_examples: frozenset[str]  # PUBLISHED_EXAMPLES: tests of the lesson's own examples


def build_kit(assignment) -> GradingKit:
    prepare_hypothesis()
    suite = assignment.hidden_suite_path
    reference = load_reference(assignment.solution_path)
    return GradingKit(
        assignment=assignment,
        release=load_source_notebook(assignment),
        reference=reference,
        reference_source=assignment.solution_path.read_text(encoding="utf-8"),
        served_helpers=suite_dependencies(suite),
        mutated_arguments=suite_mutations(suite, reference),
        published_examples=suite_published_examples(suite),
    )
