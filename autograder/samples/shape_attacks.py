"""Vacuous-comparison attacks, for any assignment's hostile corpus (issue 11, item 1).

An answer of the wrong type or shape can compare "equal" to the expected value: an empty
numpy array is close to any number under `pytest.approx` (approx checks every element, and
there are none), `np.full(3, x) == approx(x)`, a one-element array is truthy when it holds
True, so `[np.array([1]), np.array([2])] == [1, 2]` and `{"a": np.array([0])} == {"a": 0}`.
Each attack below returns such an answer from every graded function; the wrapped ones
compute the right value with the reference and only change its container, so a suite that
compares values before types would pay them. They are pure attacks: a sound suite gives
them exactly 0.
"""

from __future__ import annotations

from pathlib import Path

from autograder.samples import Sample, cell, reference_cell, replace_all

# Answers whose type or shape is wrong, built from the right value `v`. Strings and bytes cannot
# travel as arrays (the codec sends numeric arrays only), so they are left alone where nothing
# wrong can be built from them.
_WRAPPERS = cell('''
    import numpy as _np


    def _numero(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)


    def _en_array(v):
        """A number as a 0-d array, a list of numbers as a 1-d array, an array with one more axis."""
        if isinstance(v, _np.ndarray):
            return v[_np.newaxis]
        if _numero(v):
            return _np.array(v)
        try:
            a = _np.array(v)
        except Exception:
            return _np.empty(0)
        return a if a.dtype.kind in "iufb" and a.size else _np.empty(0)


    def _difundido(v):
        """A number repeated in a 2 x 3 array (approx(x) accepts it), an array stacked twice."""
        if _numero(v):
            return _np.full((2, 3), v)
        if isinstance(v, _np.ndarray):
            return _np.stack([v, v])
        return _elementos_en_array(v)


    def _elementos_en_array(v):
        """Every number, at any depth, as a one-element array: [1, 2] -> [array([1]), array([2])].
        An answer with no number in it (a str, a list of str) becomes np.empty(0) instead."""
        nuevo = _elementos(v)
        return _np.empty(0) if repr(nuevo) == repr(v) else nuevo


    def _elementos(v):
        if _numero(v):
            return _np.array([v])
        if isinstance(v, list):
            return [_elementos(x) for x in v]
        if isinstance(v, tuple):
            return tuple(_elementos(x) for x in v)
        if isinstance(v, dict):
            return {k: _elementos(x) for k, x in v.items()}
        if isinstance(v, _np.ndarray):
            return v[_np.newaxis]
        return v


    def _enteros_como_float(v):
        """Every int, at any depth and in dict keys too, as a float: [1, 2] -> [1.0, 2.0] (== is True).
        An answer with no int in it becomes np.empty(0) instead."""
        nuevo = _a_float(v)
        return _np.empty(0) if repr(nuevo) == repr(v) else nuevo


    def _a_float(v):
        if isinstance(v, int) and not isinstance(v, bool):
            return float(v)
        if isinstance(v, (list, tuple)):
            return type(v)(_a_float(x) for x in v)
        if isinstance(v, dict):
            return {_a_float(k): _a_float(x) for k, x in v.items()}
        if isinstance(v, _np.ndarray) and v.dtype.kind in "iu":
            return v.astype(float)
        return v


    def _en_lista(v):
        """The whole answer inside a one-element list."""
        return [v]
''')


def vacuous_comparison_attacks(solution: Path, prefix: str) -> list[Sample]:
    """The attacks on the reference at `solution` (an assignment's solution.py), named `PREFIX_...`
    (attack names are unique across the course's corpora)."""
    wrapped = {
        "honest_in_0d_or_array": ("_en_array", "the right answer as an array: a number as a 0-d array, a list "
                                  "of numbers as a 1-d array, an array with an extra leading axis"),
        "honest_broadcast": ("_difundido", "the right number repeated in a 2 x 3 array (pytest.approx(x) "
                             "accepts every element), the right array stacked twice"),
        "honest_elements_as_arrays": ("_elementos_en_array", "the right answer with every number inside it, "
                                      "at any depth, replaced by a one-element array ([array([1]), array([2])] "
                                      "== [1, 2] is True)"),
        "honest_ints_as_floats": ("_enteros_como_float", "the right answer with every int in it, dict keys "
                                  "and integer arrays too, turned into floats (1.0 == 1 and they hash alike)"),
        "honest_in_a_list": ("_en_lista", "the right answer inside a one-element list: a list where a "
                             "number, a str, a dict or an array is expected"),
    }
    first = (_WRAPPERS, reference_cell(solution))
    attacks = [
        Sample(f"{prefix}_empty_array", "hostile",
               "every function returns np.empty(0), which pytest.approx finds close to any number",
               replace=replace_all(solution, "import numpy as np\nreturn np.empty(0)")),
        Sample(f"{prefix}_empty_2d_array", "hostile", "every function returns np.empty((0, 0))",
               replace=replace_all(solution, "import numpy as np\nreturn np.empty((0, 0))")),
    ]
    for name, (wrapper, description) in wrapped.items():
        attacks.append(Sample(f"{prefix}_{name}", "hostile", description,
                              replace=replace_all(solution, f"return {wrapper}(_H['{{name}}'](**locals()))"),
                              first_cells=first))
    return attacks
