"""Type and shape before value: the contract every hidden suite checks on every answer.

An answer of the wrong type or shape can compare "equal" to the expected value. An empty
numpy array is close to any number under ``pytest.approx`` (approx checks each element, and
there are none); ``np.full(3, x) == approx(x)``; a one-element array is truthy when it holds
True, so ``[np.array([1]), np.array([2])] == [1, 2]`` and ``{"a": np.array([0])} == {"a": 0}``;
``1.0 == 1`` and the two hash alike, so float ids and float dict keys pass for ints. Checking
types in a few basic tests does not help the others.

So each suite declares what every graded function returns (``RETURNS``, from the spec), and
``checked_student(RETURNS)`` replaces the ``student`` fixture by one that checks every answer
against it, deeply, before any test sees the answer. A wrong type or shape fails the test
with a Spanish message that names only types and the number of dimensions (which the spec
fixes), never a hidden input or an expected value.

The contract is the loosest form the suite's tests accept, never looser than the spec:
numbers where the spec says float are int or float (numpy scalars arrive as int or float);
where a suite deliberately charges a list-for-a-tuple once, in its basic test, the contract
takes either (``Seq``); bool is never a number; arrays must be numeric ``np.ndarray`` of the
stated shape (``None`` for a free axis) or a shape computed from the call's arguments.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import inspect
import os

import numpy as np
import pytest

from autograder.grading.plugin import Feedback


def _a(value) -> str:
    """'un ndarray', 'un list', ...: a value named by its type only."""
    if isinstance(value, np.ndarray):
        return f"un array de numpy de {value.ndim} dimensión(es)" if value.ndim != 1 else "un array de numpy"
    return f"un {type(value).__name__}"


class Spec:
    name = ""

    def problem(self, value) -> str | None:
        """None if `value` fits; else a Spanish phrase about what does not (types only)."""
        raise NotImplementedError


class _Scalar(Spec):
    def __init__(self, name, kinds, no_bool=True):
        self.name, self.kinds, self.no_bool = name, kinds, no_bool

    def problem(self, value):
        if type(value) in self.kinds and not (self.no_bool and type(value) is bool):
            return None
        return f"se esperaba {self.name} y hay {_a(value)}"


INT = _Scalar("un int", (int,))
NUMBER = _Scalar("un número (int o float)", (int, float))
STR = _Scalar("un str", (str,))
BYTES = _Scalar("un bytes", (bytes,))


class _Sequence(Spec):
    def __init__(self, item, kinds, name, length=None):
        self.item, self.kinds, self.length = item, kinds, length
        self.name = name

    def problem(self, value):
        if type(value) not in self.kinds:
            return f"se esperaba {self.name} y hay {_a(value)}"
        if self.length is not None and len(value) != self.length:
            # Not the count: student code chose it after seeing the input, so it could carry the input out.
            return f"se esperaba {self.name} y tiene {'más' if len(value) > self.length else 'menos'} elementos"
        items = self.item if isinstance(self.item, tuple) else (self.item,) * len(value)
        for spec, element in zip(items, value):
            inner = spec.problem(element)
            if inner:
                return f"dentro de {self.name}: {inner}"
        return None


def ListOf(item: Spec) -> Spec:
    return _Sequence(item, (list,), f"una lista de ({item.name})")


def Seq(item: Spec, length: int | None = None) -> Spec:
    """A list or a tuple: for suites that charge a list-for-a-tuple once, in the basic test."""
    return _Sequence(item, (list, tuple), f"una lista o tupla de ({item.name})", length)


def Tuple(*items: Spec, also_list: bool = False) -> Spec:
    """A tuple of exactly these items, in order."""
    names = ", ".join(i.name for i in items)
    kinds = (tuple, list) if also_list else (tuple,)
    return _Sequence(items, kinds, f"una tupla ({names})", len(items))


class DictOf(Spec):
    def __init__(self, key: Spec, item: Spec):
        self.key, self.item = key, item
        self.name = f"un dict de ({key.name}) a ({item.name})"

    def problem(self, value):
        if type(value) is not dict:
            return f"se esperaba {self.name} y hay {_a(value)}"
        for key, element in value.items():
            inner = self.key.problem(key)
            if inner:
                return f"en las claves de {self.name}: {inner}"
            inner = self.item.problem(element)
            if inner:
                return f"en los valores de {self.name}: {inner}"
        return None


class Array(Spec):
    """A numeric np.ndarray; `shape` a tuple with None for a free axis, or None for any shape."""

    def __init__(self, shape: tuple | None = None, integers: bool = False, empty_left_to_its_test: bool = False):
        # empty_left_to_its_test: an empty answer's shape and dtype are charged by the suite's own tests of
        # the empty case alone (one mistake, one test), which check them explicitly with expect_shape.
        self.shape, self.integers, self.empty_left = shape, integers, empty_left_to_its_test
        self.name = "un array de numpy" + (f" de {len(shape)} dimensión(es)" if shape is not None else "")

    def problem(self, value):
        if type(value) is not np.ndarray:
            return f"se esperaba {self.name} y hay {_a(value)}"
        if value.dtype.kind not in "iuf":
            return f"se esperaba {self.name} de números y sus elementos son de tipo {value.dtype.name}"
        if self.empty_left and value.size == 0:
            return None
        if self.integers and value.dtype.kind not in "iu":
            return f"se esperaba {self.name} de enteros y sus elementos son de tipo {value.dtype.name}"
        if self.shape is None:
            return None
        if value.ndim != len(self.shape):
            return f"se esperaba {self.name} y tiene {value.ndim} dimensión(es)"
        if any(want is not None and got != want for got, want in zip(value.shape, self.shape)):
            return f"{self.name} con las dimensiones correctas pero con un número de filas o columnas distinto del esperado"
        return None


def conform(value, spec: Spec, what: str):
    """`value` if it fits `spec`; else a Feedback that names only types (safe for fixed cases)."""
    problem = spec.problem(value)
    if problem:
        raise Feedback(f"{what} debe devolver {spec.name}: {problem}.")
    return value


@dataclasses.dataclass(frozen=True)
class OutsideDomain:
    """A call a hidden test made that the lesson does not define (for `autograder audit`, English)."""

    function: str
    test: str
    arguments: str


_calls_outside: list[OutsideDomain] | None = None  # set only while the audit replays a suite


@contextlib.contextmanager
def calls_outside_domain():
    """Collect, while the block runs, every call of a graded function whose arguments are outside
    the domain its suite declares (DOMAIN). Off otherwise: grading never evaluates a domain."""
    global _calls_outside
    _calls_outside = found = []
    try:
        yield found
    finally:
        _calls_outside = None


def _check_domain(name: str, inside, arguments: dict) -> None:
    try:
        ok = bool(inside(dict(arguments)))
    except Exception as error:  # a predicate that cannot read the call is a suite bug, shown as one
        ok, arguments = False, {**arguments, "(DOMAIN raised)": f"{type(error).__name__}: {error}"}
    if not ok:
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0].rsplit("::", 1)[-1]
        shown = ", ".join(f"{k}={v!r}" for k, v in arguments.items())
        _calls_outside.append(OutsideDomain(name, test, shown if len(shown) <= 300 else shown[:297] + "..."))


class CheckedStudent:
    """The student proxy, with every answer of a function in `contracts` checked before it is returned.

    A contract is a Spec, or a function of the call's arguments (by name, defaults applied, read
    before the call) that returns one: e.g. the shape of `embed(ids, E)` is (len(ids), E.shape[1]).
    `domain` holds, per function, a predicate of those same arguments: True where the lesson
    defines what the function does (its errors included). The audit replays the suite and lists
    the calls for which it is False (calls_outside_domain)."""

    def __init__(self, proxy, reference, contracts: dict, domain: dict | None = None):
        self._proxy, self._reference, self._contracts = proxy, reference, contracts
        self._domain = domain or {}
        self._signatures: dict[str, inspect.Signature] = {}

    def __getattr__(self, name: str):
        function = getattr(self._proxy, name)
        contract = self._contracts.get(name)
        if contract is None:
            return function
        signature = self._signatures.get(name)
        if signature is None:  # read once per name, not at every call: the reference does not change
            signature = self._signatures[name] = inspect.signature(getattr(self._reference, name))
        inside = self._domain.get(name)

        def call(*args, **kwargs):
            spec = contract
            if not isinstance(spec, Spec) or (_calls_outside is not None and inside is not None):
                bound = signature.bind(*args, **kwargs)
                bound.apply_defaults()
                if _calls_outside is not None and inside is not None:
                    _check_domain(name, inside, bound.arguments)
                if not isinstance(spec, Spec):
                    spec = contract(bound.arguments)
            return conform(function(*args, **kwargs), spec, name)

        return call


def arguments_after(student, name: str, *args):
    """Call ``student.name`` on copies of `args` and return (its answer, the arguments as the call left them).

    What the lesson says happens to an argument (left alone, or updated in place) is read here without
    letting the student's changes reach the test's own data: only the arguments in MUTATES are changed
    back in the grader, since a change there could otherwise rewrite what an expectation is computed
    from. Run in-process (example banks, the audit), the copies themselves are what the call left."""
    copies = copy.deepcopy(args)
    answer = getattr(student, name)(*copies)
    session = getattr(getattr(student, "_proxy", student), "_session", None)
    after = getattr(session, "arguments_after_call", None)
    return answer, list(copies) if after is None else list(after)


def leaves_alone(student, name: str, *args) -> None:
    """Assert that ``student.name(*args)`` leaves every argument as it was (the lesson's rule, unless a
    function's section says it updates one). The message names the argument, never its value."""
    _, after = arguments_after(student, name, *args)
    for position, (before, now) in enumerate(zip(args, after), start=1):
        if not _same(before, now):
            raise Feedback(f"`{name}` cambió su argumento número {position} (o su orden); la lección dice que "
                           "lo deja como estaba: si necesitas modificarlo, trabaja sobre una copia.")


def answers_afresh(student, name: str, first: tuple, second: tuple) -> None:
    """Assert that ``student.name`` answers `first`, then `second`, then `first` again as if each call
    were the only one: two inputs with different answers get two different answers, and the first
    answer comes back the same. A cache that outlives its call (keyed by the text, the word...) fails."""
    call = getattr(student, name)
    one, two, again = (call(*copy.deepcopy(args)) for args in (first, second, first))
    if _same(one, two) or not _same(one, again):
        raise Feedback(f"`{name}` dio {'la misma respuesta a dos llamadas con argumentos distintos' if _same(one, two) else 'otra respuesta al repetir una llamada'}: "
                       "cada resultado debe depender solo de los argumentos de esa llamada, sin guardar nada de una "
                       "llamada para la siguiente.")


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def checked_student(contracts: dict, domain: dict | None = None):
    """A `student` fixture for a hidden suite: ``student = checked_student(RETURNS, DOMAIN)`` at top level.
    RETURNS names every graded function (tests/test_expect.py checks it against course.yml), and so
    does DOMAIN (tests/test_clauses.py)."""

    @pytest.fixture(scope="session", name="student")
    def _student(student, reference):
        return CheckedStudent(student, reference, contracts, domain)

    return _student
