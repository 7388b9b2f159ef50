"""What must never reach a student: the hidden suite's code and its hidden inputs and expected values.

Shared by the checks that look for leaks in what students read (test_hostile.py on the
Gradescope results, test_html.py on the feedback pages), so that every rendering is held to
the same definition of a secret.
"""

from __future__ import annotations

import ast
import functools

from autograder.course import load_course
from autograder.render.gradescope import to_gradescope

_course = functools.cache(load_course)  # read once: the checks ask for it for every result they read


def strings(value):
    """Every string in a JSON-like value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def student_text(result) -> str:
    """Everything of a result that a student can read (the Gradescope rendering)."""
    return "\n".join(strings(to_gradescope(result)))


def published_text(assignment_id: str, stub_result) -> str:
    """What every student has been shown anyway: the lesson, the released spec, and every title and
    hint (all of which the released stub's result carries, since it fails every test)."""
    assignment = _course().assignment(assignment_id)
    lesson = assignment.solution_path.parents[2] / "assignments" / assignment_id / "lesson.md"
    parts = [lesson.read_text(encoding="utf-8") if lesson.is_file() else "",
             assignment.solution_path.read_text(encoding="utf-8"),  # its docstrings are the released spec
             student_text(stub_result)]
    return "\n".join(parts)


@functools.lru_cache(maxsize=None)
def hidden_suite_secrets(assignment_id: str) -> tuple[str, ...]:
    """Lines of the hidden suite that must never reach a result: its code and hidden cases.

    Titles (one-line docstrings), hints, decorators and comments are shown to students on purpose."""
    text = _course().assignment(assignment_id).hidden_suite_path.read_text(encoding="utf-8")
    secrets = []
    for raw in text.splitlines():
        line = raw.strip()
        if len(line) < 20 or line.startswith(("#", "@", "def ", '"', "'")) or "hint=" in line:
            continue
        secrets.append(line)
    return tuple(secrets)


@functools.lru_cache(maxsize=None)
def hidden_inputs(assignment_id: str, published: str) -> tuple[str, ...]:
    """String literals of the hidden suite that are neither published (lesson, release) nor part of
    what every student is shown anyway (titles, hints): its hidden inputs and expected values."""
    assignment = _course().assignment(assignment_id)
    tree = ast.parse(assignment.hidden_suite_path.read_text(encoding="utf-8"))
    shown = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.Module)) and ast.get_docstring(node) is not None:
            shown.add(id(node.body[0].value))
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                shown.update(id(n) for n in ast.walk(decorator))
        # Messages the suite shows on purpose: f-strings, Feedback(...) texts, the helpers that build them
        # (expect_type and co.) and the names passed to those helpers.
        helper = isinstance(node, ast.FunctionDef) and not node.name.startswith("test_")
        feedback = isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Feedback"
        if isinstance(node, ast.JoinedStr) or helper or feedback:
            shown.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "").startswith("expect_"):
            shown.update(id(a) for a in [*node.args, *(k.value for k in node.keywords)] if isinstance(a, ast.Constant))
    # What hypothesis draws from is shown in counterexamples: the literals in st.* calls and in the
    # module-level constants those calls name.
    constants = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                 for t in node.targets if isinstance(t, ast.Name)}
    drawn = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(getattr(node.func, "value", None), "id", "") == "st":
            for inner in ast.walk(node):
                drawn.update(ast.walk(constants[inner.id]) if isinstance(inner, ast.Name) and inner.id in constants
                             else [inner])
    public = {n.value for n in drawn if isinstance(n, ast.Constant)}
    literals = {n.value for n in ast.walk(tree)
                if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in shown}
    return tuple(sorted(s for s in literals - public if len(s.strip()) >= 5 and s not in published and "{" not in s))


def leaked_inputs(hidden: tuple[str, ...], text: str) -> list[str]:
    """The hidden inputs that appear in `text`, as written or as Python would print them."""
    return [s for s in hidden if s in text or repr(s)[1:-1] in text]
