"""One source per assignment: the lesson, the reference and the stub cannot drift apart."""

from __future__ import annotations

import ast
import inspect

import pytest

from autograder.course import load_course
from autograder.notebook.lesson import (LessonError, _segments, build_source_notebook, load_source_notebook,
                                        parse_lesson, solution_functions, stub_module)

# The contract of ../shared/course-spec.md: parameter names and defaults, in order.
SIGNATURES = {
    "tokenizacion": {
        "tokenize_chars": "(text)",
        "tokenize_words": "(text)",
        "build_vocab": "(tokens, specials=('[UNK]',))",
        "encode": "(tokens, vocab, unk='[UNK]')",
        "decode": "(ids, vocab)",
        "oov_rate": "(tokens, vocab)",
    },
    "bpe_palabras": {
        "get_stats": "(words)",
        "merge_pair": "(symbols, pair)",
        "train_bpe": "(corpus, num_merges, end='_', min_count=1)",
        "tokenize": "(word, merges, end='_')",
    },
    "bpe_bytes": {
        "get_stats": "(ids, counts=None)",
        "merge": "(ids, pair, idx)",
        "train_bpe": "(text, vocab_size)",
        "build_vocab": "(merges)",
        "encode": "(text, merges)",
        "decode": "(ids, vocab)",
        "compression_ratio": "(text, ids)",
    },
    "tokenizador_gpt": {
        "pretokenize": "(text, pattern=GPT4_SPLIT_PATTERN)",
        "train_regex_bpe": "(text, vocab_size, pattern=GPT4_SPLIT_PATTERN)",
        "encode_ordinary": "(text, merges, pattern=GPT4_SPLIT_PATTERN)",
        "encode": "(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special='all', pattern=GPT4_SPLIT_PATTERN)",
        "decode": "(ids, vocab, special_tokens)",
        "recover_merges": "(mergeable_ranks)",
    },
    "embeddings": {
        "embedding_params": "(vocab_size, dim)",
        "embed": "(ids, E)",
        "cosine": "(a, b)",
        "euclidean": "(a, b)",
        "most_similar": "(word, W, words, k=4)",
        "noise_distribution": "(counts, power=0.75)",
        "skipgram_pairs": "(sentences, window=2)",
        "sgns_loss_and_grads": "(v_c, u_o, u_neg)",
        "distance_ratio": "(points)",
    },
    "subpalabras": {
        "wordpiece_encode": "(text, vocab, unk='[UNK]', prefix='##', max_chars=100)",
        "wordpiece_scores": "(splits)",
        "train_wordpiece": "(corpus, num_merges, prefix='##')",
        "unigram_viterbi": "(word, logp)",
        "unigram_prune": "(corpus, logp, n)",
        "sp_encode": "(text, logp, add_dummy_prefix=True)",
        "sp_decode": "(pieces, add_dummy_prefix=True)",
    },
}
ASSIGNMENTS = [pytest.param(a, marks=pytest.mark.skipif(
    a not in load_course().assignments, reason=f"{a} is not in course.yml yet")) for a in SIGNATURES]


def plain_signature(function, namespace=None) -> str:
    """The signature without annotations, module constants used as defaults shown by name."""
    constants = {id(v): k for k, v in (namespace or {}).items() if k.isupper()}
    parameters = []
    for p in inspect.signature(function).parameters.values():
        p = p.replace(annotation=inspect.Parameter.empty)
        if p.default is not inspect.Parameter.empty and id(p.default) in constants:
            p = p.replace(default=_Named(constants[id(p.default)]))
        parameters.append(p)
    return str(inspect.Signature(parameters))


class _Named:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


def load_module(source: str, name: str):
    namespace = {"__name__": name}
    exec(compile(source, name, "exec"), namespace)
    return namespace


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_course_points_name_exactly_the_specified_functions(course, assignment_id):
    assert list(course.assignment(assignment_id).points) == list(SIGNATURES[assignment_id])


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_reference_and_stub_have_the_specified_signatures_and_same_docstrings(course, assignment_id):
    assignment = course.assignment(assignment_id)
    source = assignment.solution_path.read_text(encoding="utf-8")
    reference = load_module(source, "reference")
    stub = load_module(stub_module(source, "doc"), "stub")
    for name, signature in SIGNATURES[assignment_id].items():
        assert plain_signature(reference[name], reference) == signature, name
        assert plain_signature(stub[name], stub) == signature, name
        assert stub[name].__doc__ == reference[name].__doc__ and reference[name].__doc__.strip(), name


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_stub_function_raises_not_implemented(course, assignment_id):
    assignment = course.assignment(assignment_id)
    stub = load_module(stub_module(assignment.solution_path.read_text(encoding="utf-8"), "doc"), "stub")
    for name in SIGNATURES[assignment_id]:
        parameters = inspect.signature(stub[name]).parameters.values()
        positional = [None for p in parameters if p.kind is not p.KEYWORD_ONLY]
        with pytest.raises(NotImplementedError):
            stub[name](*positional)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_source_notebook_pairs_each_solution_with_its_checks(course, assignment_id):
    assignment = course.assignment(assignment_id)
    notebook = load_source_notebook(assignment)
    roles = [(c.metadata["autograder"]["role"], c.metadata["autograder"].get("function"))
             for c in notebook.cells if c.cell_type == "code"]
    solutions = [f for role, f in roles if role == "solution"]
    assert solutions == list(assignment.points)
    for name in solutions:
        position = roles.index(("solution", name))
        assert ("checks", name) in roles[position:], name
    functions = solution_functions(assignment.solution_path.read_text(encoding="utf-8"))
    for cell in notebook.cells:
        meta = cell.metadata.get("autograder", {})
        if meta.get("role") == "solution":
            assert "### BEGIN SOLUTION" in cell.source and functions[meta["function"]].body in cell.source
        if meta.get("role") == "checks":
            nbgrader = cell.metadata["nbgrader"]
            assert nbgrader["locked"] and nbgrader["grade"] and nbgrader["points"] == assignment.points[meta["function"]]
            assert "assert" in cell.source


SOLUTION = 'def f(x):\n    """Doc."""\n    return x\n'


@pytest.mark.parametrize("lesson, message", [
    ("```python weird\n```", "unknown role 'weird'"),
    ("```python solution f\n", "never closed"),
    ("```js\n```", "must be ```python"),
    ("```python solution\n```", "takes one function name"),
    ("```python demo extra\n```", "takes no argument"),
    ("```python solution f\nreturn 1\n```\n```python checks f\n```", "must be empty"),
    ("```python solution f\n```", "needs one checks block"),
    ("```python solution g\n```\n```python checks g\n```", "no function g"),
    ("text only", "must name each graded function once"),
])
def test_malformed_lessons_are_reported_with_their_location(lesson, message):
    with pytest.raises(LessonError, match=message) as error:
        build_source_notebook(lesson, SOLUTION, {"f": 1}, where="x.md")
    assert str(error.value).startswith("x.md")


def test_prose_splits_into_cells_at_plus_lines():
    blocks = parse_lesson("# A\n\ntext\n+++\nmore\n```python demo\nprint(1)\n```\nend")
    assert [(b.role, b.text) for b in blocks] == [
        ("markdown", "# A\n\ntext"), ("markdown", "more"), ("demo", "print(1)"), ("markdown", "end")]


def test_solution_split_keeps_header_and_body():
    source = 'import os\n\n\n@decorator\ndef f(a, b=1):\n    """Doc\n\n    more."""\n    x = a\n    return x + b\n\n\nclass C:\n    pass\n'
    functions = solution_functions(source)
    assert functions["f"].header == '@decorator\ndef f(a, b=1):\n    """Doc\n\n    more."""'
    assert functions["f"].body == "    x = a\n    return x + b"
    assert functions["C"].header == "class C:" and functions["C"].body == "    pass"
    stub = stub_module(source, "Módulo")
    assert "import os" in stub and "return x + b" not in stub
    ast.parse(stub)


# Line ends that ast counts (\n, \r, \r\n) and characters str.splitlines would also split at
# (form feed, U+2028), in and out of strings, on one line and across lines.
AWKWARD_SOURCE = 'x = "a\x0cb"; y = ("\u2028", f(1,\r\n  2))\rz = g(3)\n\x0cassert f(1) == 2, "ñ\u2028"\n'


@pytest.mark.parametrize("assignment_id", [*ASSIGNMENTS, "awkward"])
def test_the_checks_are_rewritten_from_the_source_text_ast_gives(course, assignment_id):
    """The checks' rewriting reads each expression's text with its own `_segments`, which must give
    exactly what ast.get_source_segment gives, for every node of every lesson and reference."""
    if assignment_id == "awkward":
        sources = [AWKWARD_SOURCE]
    else:
        assignment = course.assignment(assignment_id)
        sources = [assignment.lesson_path.read_text(encoding="utf-8"), assignment.solution_path.read_text(encoding="utf-8")]
        sources[0] = "\n".join(block.text for block in parse_lesson(sources[0]) if block.role in ("checks", "given", "free"))
    for source in sources:
        segment = _segments(source)
        nodes = [n for n in ast.walk(ast.parse(source)) if getattr(n, "end_lineno", None) is not None]
        assert len(nodes) > 10
        assert [segment(n) for n in nodes] == [ast.get_source_segment(source, n) for n in nodes]
