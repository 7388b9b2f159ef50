"""Copies of a submission in disguise, as a student hiding a copy would make them (issue 27).

Each transformation keeps what the program does and the graded API (function names and
parameters), and changes what a naive comparison looks at:

- rename: every other name (variables, helpers, classes, constants) gets a new one;
- reorder: the top-level definitions in reverse order;
- restyle: docstrings gone, a comment before every statement, blank lines, reformatted;
- rewrite: `xs = []` + `for v in it: xs.append(e)` becomes `xs = [e for v in it]`, and a
  plain list comprehension becomes that loop (a small rewrite, either way).
"""

from __future__ import annotations

import ast
import builtins
import itertools

_KEEP = set(dir(builtins)) | {"self", "cls"}


class _Renamer(ast.NodeTransformer):
    def __init__(self, keep: set[str], names: dict[str, str]):
        self.keep, self.names = keep, names

    def _new(self, name: str) -> str:
        if name in self.keep or name in _KEEP or name.startswith("__"):
            return name
        if name not in self.names:
            self.names[name] = f"q{len(self.names)}_{name[::-1].strip('_') or 'x'}"
        return self.names[name]

    def visit_Name(self, node):
        node.id = self._new(node.id)
        return node

    def visit_arg(self, node):
        node.arg = self._new(node.arg)
        return node

    def visit_FunctionDef(self, node):
        node.name = self._new(node.name)
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        node.name = self._new(node.name)
        self.generic_visit(node)
        return node

    def visit_keyword(self, node):
        self.generic_visit(node)  # keyword names belong to the callee: left as they are
        return node


def _graded_api(tree, graded: set[str]) -> set[str]:
    """The names a copy must keep: graded functions, their parameters, and imported modules."""
    keep = set(graded)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in graded:
            arguments = node.args
            keep |= {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
            keep |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            keep |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return keep


def rename(source: str, graded: set[str]) -> str:
    tree = ast.parse(source)
    keep = _graded_api(tree, graded)
    # Parameters of graded functions keep their names inside those functions only: a nested
    # helper's parameter of the same name is renamed everywhere else, which is harmless here.
    return ast.unparse(_Renamer(keep, {}).visit(tree))


def reorder(source: str) -> str:
    tree = ast.parse(source)
    definitions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    others = [n for n in tree.body if n not in definitions]
    tree.body = others + definitions[::-1]
    return ast.unparse(tree)


def restyle(source: str) -> str:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str) and len(body) > 1:
            node.body = body[1:]
    lines = []
    for number, line in enumerate(ast.unparse(tree).splitlines()):
        stripped = line.lstrip()
        if stripped and not stripped.startswith(("else", "elif", "except", "finally", ")", "]", "}")):
            lines.append(f"{line[:len(line) - len(stripped)]}# paso {number}")
        lines.append(line)
        if not line.startswith(" "):
            lines.append("")
    return "\n".join(lines) + "\n"


class _Rewriter(ast.NodeTransformer):
    def _body(self, body):
        out, index = [], 0
        while index < len(body):
            node, after = body[index], body[index + 1] if index + 1 < len(body) else None
            if _empty_list_assignment(node) and _appending_loop(after, node.targets[0].id):
                call = after.body[0].value
                comprehension = ast.ListComp(call.args[0], [ast.comprehension(after.target, after.iter, [], 0)])
                out.append(ast.Assign([node.targets[0]], comprehension, lineno=node.lineno))
                index += 2
                continue
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.ListComp) and len(node.value.generators) == 1 \
                    and not node.value.generators[0].ifs and not node.value.generators[0].is_async:
                name, generator = node.targets[0].id, node.value.generators[0]
                append = ast.Expr(ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "append", ast.Load()),
                                           [node.value.elt], []))
                out += [ast.Assign([ast.Name(name, ast.Store())], ast.List([], ast.Load()), lineno=node.lineno),
                        ast.For(generator.target, generator.iter, [append], [], lineno=node.lineno)]
                index += 1
                continue
            out.append(node)
            index += 1
        return out

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self._body(value))
        return node


def _empty_list_assignment(node) -> bool:
    return isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
        and isinstance(node.value, ast.List) and not node.value.elts


def _appending_loop(node, name: str) -> bool:
    if not isinstance(node, ast.For) or node.orelse or len(node.body) != 1:
        return False
    statement = node.body[0]
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
        and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr == "append" \
        and isinstance(statement.value.func.value, ast.Name) and statement.value.func.value.id == name \
        and len(statement.value.args) == 1 and not statement.value.keywords


def rewrite(source: str) -> str:
    tree = _Rewriter().visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree))


def disguised_copies(source: str, graded: set[str]) -> dict[str, str]:
    """name -> a disguised copy of `source`: each transformation alone, then all of them."""
    steps = {"rename": lambda s: rename(s, graded), "reorder": reorder, "rewrite": rewrite, "restyle": restyle}
    copies = {name: step(source) for name, step in steps.items()}
    for first, second in itertools.combinations(["rename", "reorder", "rewrite"], 2):
        copies[f"{first}+{second}"] = steps[second](steps[first](source))
    everything = source
    for step in ("rewrite", "rename", "reorder", "restyle"):
        everything = steps[step](everything)
    copies["all"] = everything
    return copies
