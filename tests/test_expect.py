"""Type and shape before value (issue 11, item 1): every hidden suite checks every answer against
the return contract of the spec (RETURNS, autograder/grading/expect.py) before comparing it.

The attacks themselves (np.empty(0), wrapped right answers, ...) are graded in tests/test_hostile.py
(autograder/samples/shape_attacks.py); this file pins the contracts and the checker."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from autograder.course import load_course
from autograder.grading.expect import (BYTES, INT, NUMBER, STR, Array, DictOf, ListOf, Seq, Tuple, conform)
from autograder.grading.plugin import Feedback

COURSE = load_course()
ASSIGNMENTS = tuple(COURSE.assignments)


def _returns_keys(source: str) -> set[str]:
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "RETURNS" for t in node.targets):
            return {ast.literal_eval(key) for key in node.value.keys}
    return set()


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_graded_function_has_a_return_contract(assignment_id):
    source = COURSE.assignment(assignment_id).hidden_suite_path.read_text(encoding="utf-8")
    assert _returns_keys(source) == set(COURSE.assignment(assignment_id).points)
    # The suite's `student` fixture is the checked one, not the plugin's raw proxy, with the lesson's domain.
    assert "\nstudent = checked_student(RETURNS, DOMAIN)\n" in source


VACUOUS = [  # (spec, an answer that == or approx would let through)
    (NUMBER, np.empty(0)),
    (NUMBER, np.empty((0, 0))),
    (NUMBER, np.array(0.5)),
    (NUMBER, np.full((2, 3), 0.5)),
    (NUMBER, [0.5]),
    (NUMBER, True),
    (INT, 3.0),
    (ListOf(INT), np.array([1, 2])),
    (ListOf(INT), [np.array([1]), np.array([2])]),
    (ListOf(INT), [1.0, 2.0]),
    (ListOf(INT), [True, 0]),
    (ListOf(STR), np.empty(0)),
    (DictOf(STR, INT), {"a": np.array([0])}),
    (DictOf(Tuple(INT, INT), INT), {(97.0, 98.0): 256}),
    (DictOf(INT, BYTES), {97.0: b"a"}),
    (Seq(STR), np.empty(0)),
    (Seq(Seq(STR, length=2)), [("a", "b", "c")]),
    (STR, np.empty(0)),
    (Array((3,)), np.empty(0)),
    (Array((3,)), np.ones((1, 3))),
    (Array((3,)), [0.1, 0.2, 0.7]),
    (Array((None, 2), integers=True), np.ones((4, 2))),
    (Tuple(NUMBER, Array(), also_list=True), (np.empty(0), np.zeros(2))),
    (Tuple(NUMBER, Array(), also_list=True), (1.0,)),
]


@pytest.mark.parametrize("spec, value", VACUOUS, ids=[f"{i}" for i in range(len(VACUOUS))])
def test_wrong_type_or_shape_is_refused_with_a_message_of_types_only(spec, value):
    with pytest.raises(Feedback) as caught:
        conform(value, spec, "f")
    message = str(caught.value)
    assert message.startswith("f debe devolver ")
    assert "0.5" not in message and "97" not in message and "256" not in message  # no value, only types


ACCEPTED = [  # what the spec allows, in the forms the codec rebuilds
    (NUMBER, 1), (NUMBER, 0.25), (INT, 7), (STR, ""), (BYTES, b"\xff"),
    (ListOf(INT), []), (ListOf(STR), ["a"]), (Seq(STR), ("a", "b")), (Seq(STR), ["a"]),
    (DictOf(Tuple(INT, INT), INT), {(1, 2): 256}), (DictOf(STR, INT), {}),
    (Array((2,)), np.array([0.5, 0.5], dtype=np.float32)), (Array((0, 3)), np.zeros((0, 3))),
    (Array((None, 2), integers=True), np.zeros((5, 2), dtype=np.int32)),
    (Array((None, 2), integers=True, empty_left_to_its_test=True), np.array([])),
    (Tuple(NUMBER, Array(), also_list=True), [0.5, np.zeros((2, 2))]),
]


@pytest.mark.parametrize("spec, value", ACCEPTED, ids=[f"{i}" for i in range(len(ACCEPTED))])
def test_what_the_spec_allows_is_accepted(spec, value):
    assert conform(value, spec, "f") is value


def test_leaves_alone_sees_a_change_the_caller_never_gets():
    """In-process (as the banks and the audit run a suite), the call gets copies: the test's data stays
    as it was, and the change is reported in a message that names the argument's position only."""
    from types import SimpleNamespace

    from autograder.grading.expect import arguments_after, leaves_alone

    def encode(tokens, vocab):
        vocab.setdefault("secreto", len(vocab))
        return [vocab[t] for t in tokens]

    student, vocab = SimpleNamespace(encode=encode), {"a": 0}
    answer, after = arguments_after(student, "encode", ["a"], vocab)
    assert answer == [0] and after == [["a"], {"a": 0, "secreto": 1}] and vocab == {"a": 0}
    with pytest.raises(Feedback, match="argumento número 2") as failure:
        leaves_alone(student, "encode", ["a"], vocab)
    assert "secreto" not in str(failure.value)


def test_answers_afresh_catches_a_memo_and_passes_a_pure_function():
    from types import SimpleNamespace

    from autograder.grading.expect import answers_afresh

    memo = {}

    def remembering(word, table):
        return memo.setdefault(word, table[word])

    answers_afresh(SimpleNamespace(f=lambda word, table: table[word]), "f", ("a", {"a": 1}), ("a", {"a": 2}))
    with pytest.raises(Feedback, match="misma respuesta"):
        answers_afresh(SimpleNamespace(f=remembering), "f", ("a", {"a": 1}), ("a", {"a": 2}))
