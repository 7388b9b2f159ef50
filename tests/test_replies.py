"""What the grader reads from a student's worker is bounded in work, not only in bytes (issue 26).

Parsing, rebuilding and type-checking a reply is the grader's work, done outside every call's
limit: answers of 100,000 values in every call once made one submission cost the grader 65 s,
and a set of ints sharing one hash took it minutes to rebuild. Both are the student's answers,
and are reported as such.
"""

from __future__ import annotations

import pytest

from autograder.grading import student as student_module
from autograder.grading.feedback import classify
from autograder.grading.results import Outcome
from autograder.grading.student import RepliesTooLarge, StudentSession, UnreadableReply
from autograder.notebook.loader import Cell, Program
from autograder.sandbox.launcher import Limits

ANSWERS = '''
import os

def many(n):
    return list(range(n))

def colliding(n):
    return {k * (2 ** 61 - 1) for k in range(n)}

def pid():
    return os.getpid()

def lookup(ids, table):
    return [table[i] for i in ids]

def grow(ids, table):
    table["nuevo"] = len(table)
    return len(ids)

def same(ids, table):
    return ids
'''


@pytest.fixture()
def session():
    opened = StudentSession(Program([Cell("entrega.py", ANSWERS)], module_name="entrega"),
                            Limits(call_seconds=5, load_seconds=10, submission_seconds=60))
    yield opened
    opened.close()


def test_replies_past_the_submissions_budget_are_not_read_and_no_function_is_called_again(session, monkeypatch):
    monkeypatch.setattr(session.reply_budget, "values_left", 50_000)
    assert session.call("many", 20_000) == list(range(20_000))
    assert session.call("many", 20_000) == list(range(20_000))  # 40,002 values so far: within the budget
    with pytest.raises(RepliesTooLarge):
        session.call("many", 20_000)
    assert session.worker is None  # nothing of that worker is read again
    session.new_test()
    with pytest.raises(RepliesTooLarge):  # in every later test, any function, however small its answer
        session.call("pid")
    assert session.worker is None  # refused without starting a worker


def test_the_budget_is_well_above_what_a_reference_sends_in_a_whole_grading():
    # The references send at most 88,128 values in a whole grading (bpe_palabras, measured).
    assert student_module.REPLY_VALUES_PER_SUBMISSION >= 10 * 88_128


def test_a_set_of_keys_sharing_one_hash_is_the_students_answer_and_the_worker_goes_on(session):
    first = session.call("pid")
    assert session.call("colliding", 10) == {k * (2 ** 61 - 1) for k in range(10)}  # a few are real data
    with pytest.raises(UnreadableReply):
        session.call("colliding", 2_000)
    assert session.call("pid") == first  # the reply was read whole: the same worker answers on


class _Info:
    def __init__(self, error):
        self.value = error


@pytest.mark.parametrize("error", [UnreadableReply("x"), RepliesTooLarge(1_000_000)])
def test_both_are_reported_as_a_wrong_answer_in_spanish_not_as_a_crash(error):
    outcome, feedback, note = classify(_Info(error), "fixed")
    assert outcome == Outcome.BAD_RETURN
    assert "Tu función" in feedback or "Tus funciones" in feedback
    assert "terminó de forma inesperada" not in feedback


def test_an_argument_left_as_it_came_does_not_cross_back(session):
    """A vocabulary passed to every call would otherwise be sent back and rebuilt after each one. What
    the call changed still comes back, and so does an argument returned as the answer."""
    replies = []
    session.call("pid")  # the worker starts
    receive = session.worker.receive

    def spy(*args, **kwargs):
        replies.append(receive(*args, **kwargs))
        return replies[-1]

    session.worker.receive = spy
    table = {"a": 0, "b": 1}
    assert session.call("lookup", ["b", "a"], table) == [1, 0]
    assert replies[-1]["args_after"] == [None, None] and session.arguments_after_call == [["b", "a"], table]
    assert session.call("grow", ["a"], table) == 1
    assert replies[-1]["args_after"][0] is None and replies[-1]["args_after"][1] is not None
    assert session.arguments_after_call[1] == {"a": 0, "b": 1, "nuevo": 2} and table == {"a": 0, "b": 1}
    ids = ["a"]
    answer = session.call("same", ids, table)
    assert replies[-1]["args_after"][0] is not None and replies[-1]["same_as"] == 0
    assert answer == ids and answer is not ids  # a copy, as before: the test's list is its own
