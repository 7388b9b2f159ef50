"""Hidden suite for `contar_tokens`: one misconception per test, each with its Spanish hint."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.grading.expect import INT, STR, DictOf, checked_student

RETURNS = {"count_tokens": DictOf(STR, INT)}  # most_common returns a str or None: compared exactly

# The inputs the lesson defines, per function: the audit replays every call of this suite against them.
DOMAIN = {
    "count_tokens": lambda a: all(type(t) is str for t in a["tokens"]),
    "most_common": lambda a: all(type(k) is str and type(v) is int and v > 0 for k, v in a["counts"].items()),
}
student = checked_student(RETURNS, DOMAIN)

# The lesson's rules, each with the tests that pin it (and a clause-breaker in buggy.py).
CLAUSES = {
    "count_tokens.counts": ("§1: cuántas veces aparece cada token",
                            {"test_count_tokens_basic", "test_count_tokens_matches_reference"}),
    "count_tokens.order": ("§1: las claves, en orden de primera aparición", {"test_count_tokens_first_appearance_order"}),
    "most_common.highest": ("§2: el token con la cuenta más alta", {"test_most_common_basic"}),
    "most_common.tie": ("§2: en un empate, el primero", {"test_most_common_tie_goes_to_the_first"}),
    "most_common.empty": ("§2: None si no hay cuentas", {"test_most_common_empty"}),
}
grade = pytest.mark.grade

tokens = st.lists(st.sampled_from(["la", "tos", "fiebre", "a"]), max_size=12)


@grade("count_tokens", weight=2, hint="Suma uno por cada aparición del token.")
def test_count_tokens_basic(student):
    """cuenta cada aparición"""
    assert student.count_tokens(["la", "tos", "la"]) == {"la": 2, "tos": 1}


@grade("count_tokens", hint="Las claves van en el orden en que cada token aparece por primera vez, no ordenadas.")
def test_count_tokens_first_appearance_order(student):
    """conserva el orden de primera aparición"""
    assert list(student.count_tokens(["tos", "la", "tos"])) == ["tos", "la"]


@grade("count_tokens", weight=2, hint="Compara con el contraejemplo.", backstop=True)
@settings(max_examples=20)
@given(tokens=tokens)
def test_count_tokens_matches_reference(student, reference, tokens):
    """coincide con la referencia"""
    assert list(student.count_tokens(tokens).items()) == list(reference.count_tokens(tokens).items())


@grade("most_common", weight=2, hint="Devuelve el token con la cuenta más alta.")
def test_most_common_basic(student):
    """gana la cuenta más alta"""
    assert student.most_common({"la": 2, "tos": 5}) == "tos"


@grade("most_common", hint="En un empate gana el primero: cambia de ganador solo con una cuenta estrictamente mayor.")
def test_most_common_tie_goes_to_the_first(student):
    """en un empate gana el primero"""
    assert student.most_common({"b": 3, "a": 3}) == "b"


@grade("most_common", hint="Sin cuentas no hay ganador: devuelve None.")
@pytest.mark.requires("test_most_common_basic")
def test_most_common_empty(student):
    """None si no hay cuentas"""
    assert student.most_common({}) is None
