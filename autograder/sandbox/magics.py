"""IPython syntax in a notebook cell, rewritten as plain Python (inside the worker).

A notebook may hold ``%timeit``, ``%%time``, ``!pip install`` or ``obj?``; Jupyter runs
them, plain Python does not parse them. They become calls of the worker's do-nothing
``get_ipython()``. The rewriting is done by IPython's own transformer, and it runs here,
in the worker, because its cost is the student's: thousands of magic lines take minutes,
and that must spend the submission's budget, not the grader's.
"""

from __future__ import annotations

# ast.PyCF_ONLY_AST: compile() parses without generating code. The worker does not import ast
# (a tenth of its start) for the one flag it needs.
ONLY_AST = 0x400


def neutralize(source: str) -> str:
    """Rewrite IPython syntax (%magic, %%cell magic, !shell, x = !cmd, obj?) as plain Python.

    Plain Python is left exactly as it is (IPython's clean-up would shift line numbers
    and touch blank lines inside strings)."""
    try:
        compile(source, "<celda>", "exec", ONLY_AST, dont_inherit=True)
        return source
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        transformed = TransformerManager().transform_cell(source)
    except (Exception, RecursionError, MemoryError):  # the transformer chokes on some broken code: let the worker report the syntax error
        return source
    leading = len(source) - len(source.lstrip("\n"))
    return "\n" * (leading - (len(transformed) - len(transformed.lstrip("\n")))) + transformed
