"""Brief fuzzing, run in CI: the notebook loader and the protocol codec never fail in an unplanned way.

- The loader (``load_submission``, through a real file) either returns a Program of string
  cells or raises SubmissionError: for notebook-like JSON, random bytes, byte mutations and
  structural mutations of a real notebook, and random or damaged zip archives.
- The codec: ``read_frame`` fed random or damaged frames through a pipe returns a dict or
  raises CodecError / EOFError; ``decode_value`` on arbitrary JSON-like trees (deep nesting,
  huge integers, arrays whose data does not match their shape) raises nothing but CodecError.

Every test is bounded (sizes and ``max_examples``) and the conftest profile derandomizes, so
the module takes seconds and finds the same things on every run. The first runs found nine
ways out (zlib, lzma, encrypted and future-version zips, parser recursion, float overflow,
unhashable dtypes, impossible shapes); all are fixed, and the edge cases stay below.
"""

from __future__ import annotations

import base64
import copy
import io
import json
import math
import os
import stat
import struct
import threading
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from autograder import samples
from autograder.notebook.lesson import load_source_notebook
from autograder.notebook.loader import Cell, Program, SubmissionError, load_submission
from autograder.sandbox import codec

# nbformat warns (and logs) about every odd notebook it is fed: that is the point here.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.data_too_large])
FUZZ_SHORT = settings(FUZZ, max_examples=200)


REFUSALS = ["invalid JSON", "JSON is not a notebook", "nbformat cannot read it", "not UTF-8", "not a valid zip file",
            "unsafe entries refused", "expected", "larger than", "more than", "no such file", "symbolic link"]


def refusal_kind(error: SubmissionError) -> str:
    return next((kind for kind in REFUSALS if kind in error.instructor_message), "other")


# --- the loader ---------------------------------------------------------------------------

class Env:
    """What the loader fuzzers need, with a short repr (falsifying examples stay readable)."""

    def __init__(self, assignment, folder: Path):
        self.assignment, self.folder = assignment, folder
        self.release = load_source_notebook(assignment)
        self.reference = reference_bytes(assignment)

    def __repr__(self):
        return f"Env({self.assignment.id})"

    def check(self, name: str, data: bytes) -> None:
        path = self.folder / name
        path.write_bytes(data)
        check_load(path, self.assignment, self.release)


@pytest.fixture(scope="module")
def env(bpe_bytes, tmp_path_factory) -> Env:
    return Env(bpe_bytes, tmp_path_factory.mktemp("fuzz"))


_REFERENCE: dict[str, bytes] = {}


def reference_bytes(assignment) -> bytes:
    """The reference notebook's bytes, built once (not a fixture: falsifying examples stay short)."""
    if assignment.id not in _REFERENCE:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = samples.build_notebook(assignment, samples.correct(assignment.id), Path(folder) / "ref.ipynb")
            _REFERENCE[assignment.id] = path.read_bytes()
    return _REFERENCE[assignment.id]


def check_load(path: Path, assignment, release) -> None:
    """load_submission returns a Program of string cells, or raises SubmissionError: nothing else."""
    try:
        program = load_submission(path, assignment, release)
    except SubmissionError as error:
        assert isinstance(error.student_message, str) and error.student_message
        assert isinstance(error.instructor_message, str) and error.instructor_message
        event(f"refused: {refusal_kind(error)}")
        return
    event("loaded a program")
    assert isinstance(program, Program)
    assert all(isinstance(c, Cell) and type(c.source) is str and type(c.filename) is str for c in program.cells)
    assert all(type(note) is str for note in program.notes)
    assert type(program.module_name) is str


KEYS = ["cells", "cell_type", "source", "metadata", "nbgrader", "grade_id", "nbformat", "nbformat_minor",
        "outputs", "worksheets"]
GRADE_IDS = ["merge", "checks_merge", "demo_1", "get_stats", "md_1", "given_1", "", "checks_encode"]
SOURCES = ["def merge(ids, pair, idx):\n    return ids\n", "%timeit 1+1", "!ls", "files = !ls", "%%bash\necho hi",
           "len?", "x = (", "\x00", "def f(:\n", "get_ipython().system('ls')", "import os\nos._exit(1)"]
scalars = (st.none() | st.booleans() | st.integers(-2, 2**70) | st.floats(allow_nan=False)
           | st.text(max_size=12) | st.sampled_from(["code", "markdown", "raw", *GRADE_IDS, *SOURCES]))
json_trees = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner,
                                                                max_size=5),
    max_leaves=25,
)
sources = st.sampled_from(SOURCES) | st.text(max_size=40) | st.lists(st.sampled_from(SOURCES) | st.text(max_size=10),
                                                                     max_size=4)
nbgrader = st.fixed_dictionaries({}, optional={"grade_id": st.sampled_from(GRADE_IDS) | json_trees,
                                               "locked": st.booleans(), "solution": st.booleans()})
cells = st.fixed_dictionaries({}, optional={
    "cell_type": st.sampled_from(["code", "markdown", "raw"]) | json_trees,
    "source": sources | json_trees,
    "metadata": st.fixed_dictionaries({}, optional={"nbgrader": nbgrader | json_trees,
                                                   "autograder": st.fixed_dictionaries({"role": st.sampled_from(
                                                       ["solution", "checks", "demo", "given", "free"])})})
    | json_trees,
    "outputs": st.just([]) | json_trees,
    "execution_count": st.none() | st.integers(0, 5),
    "id": st.text(min_size=1, max_size=8),
})
notebooks = st.fixed_dictionaries({}, optional={
    "cells": st.lists(cells | json_trees, max_size=6) | json_trees,
    "worksheets": st.lists(st.fixed_dictionaries({}, optional={"cells": st.lists(cells, max_size=4) | json_trees}),
                           max_size=2) | json_trees,
    "nbformat": st.sampled_from([1, 2, 3, 4, 5, 99, "4", 4.0, None]) | json_trees,
    "nbformat_minor": st.integers(-1, 100) | json_trees,
    "metadata": st.just({}) | json_trees,
})


@FUZZ
@given(data=notebooks | json_trees, suffix=st.sampled_from([".ipynb", ".ipynb", ".ipynb", ".py"]))
def test_loader_on_notebook_like_json(env, data, suffix):
    env.check(f"bpe_bytes{suffix}", json.dumps(data).encode("utf-8"))


@FUZZ
@given(raw=st.binary(max_size=3000) | st.text(max_size=500).map(lambda t: t.encode("utf-8")),
       suffix=st.sampled_from([".ipynb", ".py", ".zip"]))
def test_loader_on_random_bytes(env, raw, suffix):
    env.check(f"random{suffix}", raw)


byte_mutations = st.lists(st.tuples(st.sampled_from(["truncate", "flip", "smear", "insert", "delete"]),
                                    st.integers(0, 10_000), st.binary(min_size=1, max_size=12)),
                          min_size=1, max_size=4)


def mutate(raw: bytes, mutations) -> bytes:
    data = bytearray(raw)
    for kind, where, extra in mutations:
        at = where * len(data) // 10_000  # where, in ten-thousandths of the length
        if kind == "truncate":
            del data[at:]
        elif kind == "flip" and at < len(data):
            data[at] ^= extra[0] or 1
        elif kind == "smear":  # garble a run of bytes, as a bad download does
            for i in range(at, min(at + 64, len(data))):
                data[i] ^= extra[i % len(extra)] or 0x5A
        elif kind == "insert":
            data[at:at] = extra
        elif kind == "delete":
            del data[at:at + len(extra)]
    return bytes(data)


@FUZZ
@given(mutations=byte_mutations)
def test_loader_on_byte_mutations_of_a_real_notebook(env, mutations):
    env.check("bpe_bytes.ipynb", mutate(env.reference, mutations))


structural = st.lists(st.tuples(st.integers(0, 100), st.sampled_from(["cell_type", "source", "metadata", "outputs",
                                                                      "id", "nbgrader", "grade_id", None]),
                                st.booleans(), json_trees | sources),
                      min_size=1, max_size=4)


@FUZZ
@given(edits=structural)
def test_loader_on_structural_mutations_of_a_real_notebook(env, edits):
    """A real notebook with some cells' fields replaced or deleted: gets past the JSON parser."""
    data = json.loads(env.reference)
    cells = data["cells"]
    for index, key, delete, value in edits:
        at = index % len(cells)
        if key is None:
            cells[at] = copy.deepcopy(value)
            continue
        target = cells[at]
        if isinstance(target, dict) and key in ("nbgrader", "grade_id"):
            target = target.setdefault("metadata", {})
            if isinstance(target, dict) and key == "grade_id":
                target = target.setdefault("nbgrader", {})
        if not isinstance(target, dict):
            continue
        if delete:
            target.pop(key, None)
        else:
            target[key] = copy.deepcopy(value)
    env.check("bpe_bytes.ipynb", json.dumps(data).encode("utf-8"))


SAFE_NAMES = ["bpe_bytes.ipynb", "bpe_bytes.py", "entrega/bpe_bytes.ipynb", "otro.ipynb", "modulo.py", "LEEME.txt",
              "entrega/", "__MACOSX/._bpe_bytes.ipynb", "C:\\bpe_bytes.ipynb", "..\\..\\evil.ipynb", "./bpe_bytes.ipynb",
              "bpe_bytes.ipynb/"]
UNSAFE_NAMES = ["../bpe_bytes.ipynb", "../../evil.ipynb", "/bpe_bytes.ipynb", "/etc/passwd", "a/../bpe_bytes.ipynb", ".."]
COMPRESSIONS = [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
zip_entries = st.lists(st.tuples(
    st.sampled_from(SAFE_NAMES * 4 + UNSAFE_NAMES) | st.text(min_size=1, max_size=20).filter(lambda n: "\x00" not in n),
    st.sampled_from(["reference", "json", "bytes"]),
    st.binary(max_size=200) | st.sampled_from(SOURCES).map(str.encode),
    st.sampled_from(COMPRESSIONS),
    st.sampled_from([False] * 7 + [True]),  # a symbolic link entry
), max_size=5)


plausible_zips = st.tuples(st.sampled_from(["bpe_bytes.ipynb", "entrega/bpe_bytes.ipynb", "bpe_bytes.py"]),
                           st.sampled_from(["reference"]), st.just(b""), st.sampled_from(COMPRESSIONS),
                           st.just(False)).map(lambda entry: [entry])


def build_zip(entries, reference: bytes) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w") as archive:
        warnings.simplefilter("ignore")  # duplicate names are part of the game
        for name, kind, payload, compression, link in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = compression
            if link:
                info.create_system = 3
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            content = reference if kind == "reference" else json.dumps({"cells": []}).encode() if kind == "json" \
                else payload
            archive.writestr(info, content)
    return buffer.getvalue()


@FUZZ_SHORT
@given(entries=zip_entries)
def test_loader_on_random_zip_archives(env, entries):
    env.check("entrega.zip", build_zip(entries, env.reference))


@FUZZ_SHORT
@given(entries=plausible_zips | zip_entries.filter(bool), mutations=byte_mutations)
def test_loader_on_damaged_zip_archives(env, entries, mutations):
    env.check("entrega.zip", mutate(build_zip(entries, env.reference), mutations))


# --- the codec: frames --------------------------------------------------------------------

def read_through_pipe(data: bytes):
    """read_frame on a pipe holding `data`, then closed: a dict, or the exception it raised."""
    read_fd, write_fd = os.pipe()

    def feed():
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(write_fd, view):]
        except BrokenPipeError:  # the reader gave up early (e.g. a size over the cap): fine
            pass
        finally:
            os.close(write_fd)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        return codec.read_frame(read_fd)
    finally:
        os.close(read_fd)
        writer.join(10)
        assert not writer.is_alive()


messages = st.fixed_dictionaries({"op": st.sampled_from(["call", "load", "return", "raise", "callback"])
                                  | st.text(max_size=5)}, optional={"value": json_trees, "args": json_trees})


def frame(payload: bytes, size: int | None = None) -> bytes:
    return struct.pack(">I", len(payload) if size is None else size) + payload


frames = st.one_of(
    messages.map(lambda m: frame(json.dumps(m).encode())),
    json_trees.map(lambda t: frame(json.dumps(t).encode())),
    st.binary(max_size=200).map(frame),
    st.binary(max_size=300),  # no valid header at all
    st.tuples(messages, st.integers(0, 2**32 - 1)).map(lambda p: frame(json.dumps(p[0]).encode(), p[1])),
    st.integers(1, 3000).map(lambda depth: frame(b'{"op": "x", "v": ' + b"[" * depth + b"]" * depth + b"}")),
    st.integers(4000, 5000).map(lambda digits: frame(b'{"op": "x", "v": ' + b"7" * digits + b"}")),
    st.integers(60_000, 300_000).map(lambda n: frame(json.dumps({"op": "x", "v": "a" * n}).encode())),  # > a pipe
)


@FUZZ
@given(data=frames, mutations=st.none() | byte_mutations)
def test_read_frame_returns_a_dict_or_raises_codec_error_or_eof(data, mutations):
    if mutations is not None:
        data = mutate(data, mutations)
    try:
        message = read_through_pipe(data)
    except (codec.CodecError, EOFError) as exc:
        event(type(exc).__name__)
        return
    event("message")
    assert type(message) is dict and type(message["op"]) is str


# --- the codec: values --------------------------------------------------------------------

TAGS = ["n", "b", "i", "f", "s", "y", "l", "t", "S", "F", "d", "a", "x", ""]
huge_ints = st.sampled_from([2**31, 2**63, -(2**63) - 1, 2**64, 10**308, 10**309, -(10**400), 2**1024]) | st.integers()
base64_text = st.binary(max_size=48).map(lambda b: base64.b64encode(b).decode())
leaves = (st.none() | st.booleans() | huge_ints | st.floats() | st.text(max_size=6) | base64_text
          | st.sampled_from(["nan", "inf", "-inf", "1e999", "%%%"]))
arrays = st.fixed_dictionaries({}, optional={
    "dtype": st.sampled_from(sorted(codec.ARRAY_DTYPES) + ["object", "<U3", "V8", ""]) | leaves
    | st.lists(st.sampled_from(["int8", "x"]), max_size=1),
    "shape": st.lists(st.integers(-1, 6) | st.sampled_from([0, 0, 2**31, 2**62, 2**64]) | huge_ints, max_size=5)
    | leaves,
    "data": base64_text | leaves,
})


def malformed(inner):
    return st.one_of(
        st.tuples(st.sampled_from(TAGS)).map(list),
        st.tuples(st.sampled_from(TAGS), inner, inner).map(list),
        st.tuples(st.just("d"), st.lists(st.lists(inner, max_size=3), max_size=3)).map(list),
        st.lists(inner, max_size=3),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
    )


def containers(inner):
    """Mostly well-formed containers (so that decoding reaches what is inside them), some malformed."""
    well_formed = st.one_of(
        st.tuples(st.sampled_from(["l", "t", "S", "F"]), st.lists(inner, max_size=4)).map(list),
        st.tuples(st.just("d"), st.lists(st.tuples(inner, inner).map(list), max_size=3)).map(list),
    )
    return well_formed | well_formed | well_formed | st.tuples(st.sampled_from(TAGS), inner).map(list) | malformed(inner)


valid_scalars = st.one_of(
    st.just(["n"]), st.booleans().map(lambda b: ["b", b]), st.integers().map(lambda i: ["i", i]),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda f: ["f", f]), st.text(max_size=5).map(lambda t: ["s", t]),
    base64_text.map(lambda t: ["y", t]),
)
odd_scalars = st.one_of(
    st.tuples(st.sampled_from(["i", "f"]), huge_ints).map(list),  # beyond int64, beyond float
    st.tuples(st.just("a"), arrays).map(list),  # arrays whose dtype, shape and data may disagree
    st.tuples(st.sampled_from(TAGS), leaves).map(list),  # any tag with any body
    leaves,  # not a tagged value at all
)
trees = st.recursive(valid_scalars | odd_scalars, containers, max_leaves=20)


def nested(depth: int, tag: str):
    node = ["n"]
    for _ in range(depth):
        node = [tag, [node]] if tag != "d" else ["d", [[["i", depth], node]]]
    return node


deep_trees = st.tuples(st.integers(0, 3 * codec.MAX_DEPTH), st.sampled_from(["l", "t", "d", "S", "F"])).map(
    lambda p: nested(*p))


def check_decode(node) -> None:
    try:
        codec.decode_value(node)
    except codec.CodecError:
        event("CodecError")
        return
    event("decoded")


@FUZZ
@given(node=odd_scalars | trees | deep_trees)
def test_decode_value_only_raises_codec_error(node):
    check_decode(node)
    # what crossed the wire is JSON: the same tree after a JSON round trip behaves the same
    check_decode(json.loads(json.dumps(node)))


scalars_plain = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5) | st.binary(max_size=8)
hashable_plain = st.recursive(scalars_plain, lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3),
                              max_leaves=6)
plain_values = st.recursive(
    scalars_plain | hashable_plain,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.sets(hashable_plain, max_size=3)
    | st.dictionaries(hashable_plain, inner, max_size=3),
    max_leaves=15,
)


def slots(node):
    """Every (list, index) place inside an encoded value where an encoded sub-value sits."""
    if not (isinstance(node, list) and len(node) == 2 and isinstance(node[1], list)):
        return
    if node[0] in ("l", "t", "S", "F"):
        for index, item in enumerate(node[1]):
            yield node[1], index
            yield from slots(item)
    elif node[0] == "d":
        for entry in node[1]:
            for index in (0, 1):
                yield entry, index
                yield from slots(entry[index])


@FUZZ
@given(value=plain_values, data=st.data())
def test_decode_value_on_damaged_encodings(value, data):
    """A real encoding with one place replaced by something odd: decoding reaches deep inside."""
    node = json.loads(json.dumps(codec.encode_value(value)))
    places = list(slots(node))
    if places:
        container, index = data.draw(st.sampled_from(places), label="place")
        container[index] = data.draw(odd_scalars | odd_scalars | trees, label="replacement")
    check_decode(node)


@FUZZ_SHORT
@given(dtype=st.sampled_from(sorted(codec.ARRAY_DTYPES)), shape=st.lists(st.integers(0, 5), max_size=4),
       extra=st.integers(-3, 3))
def test_arrays_whose_data_does_not_match_their_shape_are_refused(dtype, shape, extra):
    expected = np.dtype(dtype).itemsize * math.prod(shape)
    assume(expected + extra >= 0)
    node = ["a", {"dtype": dtype, "shape": shape, "data": base64.b64encode(bytes(expected + extra)).decode()}]
    if extra == 0:
        value = codec.decode_value(node)
        assert value.shape == tuple(shape) and value.dtype.name == dtype
    else:
        with pytest.raises(codec.CodecError):
            codec.decode_value(node)


def test_nesting_deeper_than_the_limit_is_refused():
    with pytest.raises(codec.CodecError):
        codec.decode_value(nested(codec.MAX_DEPTH + 2, "l"))
    assert codec.decode_value(nested(codec.MAX_DEPTH // 2, "l")) == nested_value(codec.MAX_DEPTH // 2)


def nested_value(depth: int):
    value = None
    for _ in range(depth):
        value = [value]
    return value


CODEC_EDGE_CASES = {  # each once escaped as another exception type
    "float-from-huge-int": (["f", 10**400], "codec.py:123 float(body) on an int beyond float range raises "
                                            "OverflowError, not CodecError"),
    "float-from-huge-negative-int": (["f", -(10**309)], "codec.py:123 same OverflowError for a huge negative int"),
    "unhashable-dtype": (["a", {"dtype": [], "shape": [], "data": ""}], "codec.py:167 `dtype not in ARRAY_DTYPES` "
                                                                        "on a list/dict dtype raises TypeError"),
    "empty-array-huge-dimension": (["a", {"dtype": "int8", "shape": [0, 2**64], "data": ""}],
                                   "codec.py:179 reshape of an empty array to a dimension numpy cannot hold raises "
                                   "numpy's ValueError ('Maximum allowed dimension exceeded'), not CodecError"),
    "empty-array-too-big": (["a", {"dtype": "int8", "shape": [0, 2**62, 2**62], "data": ""}],
                            "codec.py:179 reshape raises ValueError('array is too big'), not CodecError"),
}


@pytest.mark.parametrize("node", [pytest.param(node, id=name) for name, (node, _) in CODEC_EDGE_CASES.items()])
def test_decode_edge_cases_raise_codec_error(node):
    with pytest.raises(codec.CodecError):
        codec.decode_value(node)
