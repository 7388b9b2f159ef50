"""The data-only codec: exact round trips for plain data, nothing else gets through."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.sandbox import codec

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | st.binary()
hashables = st.recursive(scalars, lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3), max_leaves=6)
plain = st.recursive(
    scalars | hashables,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.sets(hashables, max_size=4)
    | st.dictionaries(hashables, inner, max_size=4),
    max_leaves=20,
)


def same(a, b) -> bool:
    """Equal *and* of the same types all the way down (1 == 1.0 == True is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


@given(plain)
def test_plain_data_round_trips_with_exact_types(value):
    wire = json.loads(json.dumps(codec.encode_value(value)))
    assert same(codec.decode_value(wire), value)


@pytest.mark.parametrize("value", [math.inf, -math.inf])
def test_infinities_round_trip(value):
    assert codec.decode_value(codec.encode_value(value)) == value


def test_nan_round_trips():
    assert math.isnan(codec.decode_value(codec.encode_value(math.nan)))


@pytest.mark.parametrize("array", [
    np.arange(12, dtype=np.int64).reshape(3, 4),
    np.linspace(0, 1, 5, dtype=np.float32),
    np.array([[True, False]]),
    np.zeros((0, 3)),
    np.arange(6, dtype=">i4")[::2],  # big-endian and not contiguous
])
def test_arrays_round_trip(array):
    back = codec.decode_value(codec.encode_value(array))
    assert back.shape == array.shape and back.dtype.name == array.dtype.name
    assert np.array_equal(back, array)


def test_numpy_scalars_become_python_scalars():
    assert same(codec.decode_value(codec.encode_value(np.float64(0.5))), 0.5)
    assert same(codec.decode_value(codec.encode_value(np.int64(7))), 7)


def test_collections_dicts_travel_as_plain_dicts():
    import collections

    for value in (collections.Counter("abca"), collections.OrderedDict(a=1), collections.defaultdict(int, a=2)):
        back = codec.decode_value(codec.encode_value(value))
        assert type(back) is dict and back == dict(value)


class LyingInt(int):
    def __eq__(self, other):
        return True

    def __index__(self):
        return 0


class LyingList(list):
    def __eq__(self, other):
        return True

    def __iter__(self):
        return iter([0])

    def __len__(self):
        return 0


class LyingDict(dict):
    def items(self):
        return [("forged", 1)]

    def __hash__(self):
        return 0


class Vocab(dict):
    """A student's own container, overriding nothing: the dict the spec asks for."""


class TokenList(list):
    pass


class Word(str):
    pass


@pytest.mark.parametrize("value, plain", [
    (Vocab({(1, 2): 256}), {(1, 2): 256}), (TokenList([3, 4]), [3, 4]), (Word("hola"), "hola"),
    (LyingInt(3), 3), (LyingList([1, 2]), [1, 2]), (LyingDict(a=LyingList([5])), {"a": [5]}),
    ({"k": [LyingInt(7), Word("x")]}, {"k": [7, "x"]}),
])
def test_a_subclass_of_a_builtin_travels_as_the_plain_value_it_holds(value, plain):
    # Correct code may return its own dict or list subclass; what it overrides is never called, so
    # a lying __eq__, __iter__, items or __index__ changes nothing: only the data it holds travels.
    back = codec.decode_value(codec.encode_value(value))
    assert back == plain
    assert repr(back) == repr(plain)  # exact builtins all the way down


class Anything:
    def __eq__(self, other):
        return True


@pytest.mark.parametrize("value", [Anything(), [Anything()],
                                   {"k": Anything()}, bytearray(b"x"), range(3), np.array([object()])])
def test_anything_but_plain_data_is_refused(value):
    with pytest.raises(codec.UnsupportedType):
        codec.encode_value(value)


def test_deep_nesting_is_refused():
    value = []
    for _ in range(codec.MAX_DEPTH + 5):
        value = [value]
    with pytest.raises(codec.CodecError):
        codec.encode_value(value)


def nested(levels: int, leaf) -> list:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("leaf", [[], [7], ["siete"], [b"7"], {}, {"k": 7}])
def test_the_depth_limit_is_the_same_for_every_kind_of_leaf(leaf):
    """MAX_DEPTH levels of lists hold any leaf; one level more holds only an empty container. Ints,
    strings and bytes inside a container are encoded and decoded by a shortcut, which must keep that
    limit exactly, in both directions."""
    deepest = codec.encode_value(nested(codec.MAX_DEPTH - 1, leaf))
    assert codec.decode_value(deepest) == nested(codec.MAX_DEPTH - 1, leaf)
    too_deep = nested(codec.MAX_DEPTH, leaf)
    if leaf:
        with pytest.raises(codec.CodecError, match="too deeply"):
            codec.encode_value(too_deep)
        with pytest.raises(codec.CodecError, match="too deeply"):
            codec.decode_value(["l", [deepest]])
    else:
        assert codec.decode_value(codec.encode_value(too_deep)) == too_deep


@settings(max_examples=300)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=12))
def test_decoder_fuzz_only_ever_raises_codec_error(node):
    try:
        codec.decode_value(node)
    except codec.CodecError:
        pass


@pytest.mark.parametrize("node", [
    ["i", "1"], ["b", 1], ["s", 5], ["y", "%%%"], ["t"], ["d", [[["l", []], ["n"]]]], ["S", [["l", []]]],
    ["a", {"dtype": "object", "shape": [1], "data": ""}], ["a", {"dtype": "int64", "shape": [2], "data": "AAAA"}],
    ["a", {"dtype": "int64", "shape": [-1], "data": ""}], ["f", "1e999x"], ["zz", 1], "text", [], [1, 2],
])
def test_malformed_values_are_rejected(node):
    with pytest.raises(codec.CodecError):
        codec.decode_value(node)


def test_frames_round_trip_through_a_pipe():
    read, write = os.pipe()
    try:
        codec.write_frame(write, {"op": "call", "args": [codec.encode_value((1, "ñ"))]})
        message = codec.read_frame(read)
    finally:
        os.close(read)
        os.close(write)
    assert message["op"] == "call" and codec.decode_value(message["args"][0]) == (1, "ñ")


@pytest.mark.parametrize("payload", [b"not json", b"[1, 2]", b'{"no_op": 1}', b"\xff\xfe", b'{"op": 5}'])
def test_bad_frames_are_rejected(payload):
    with pytest.raises(codec.CodecError):
        codec.loads_message(payload)


@pytest.mark.parametrize("kind", [list, tuple, set, frozenset, dict])
def test_a_container_over_the_frames_value_cap_is_refused_before_encoding_any_of_it(monkeypatch, kind):
    """Encoding 2.2 million strings took 1.9 s here before the frame was refused on arrival: a served
    helper's or a student's huge answer then ran into the call's time limit or not, by machine speed."""
    monkeypatch.setattr(codec, "MAX_NODES", 10)
    refused = [kind(range(11)) if kind is not dict else dict.fromkeys(range(6))]

    def no_item_is_encoded(value, depth=0, *, encode=codec.encode_value):
        assert depth == 0, "an item was encoded"
        return encode(value, depth)

    monkeypatch.setattr(codec, "encode_value", no_item_is_encoded)
    with pytest.raises(codec.TooManyValues):
        no_item_is_encoded(refused[0])
    small = kind(range(10)) if kind is not dict else dict.fromkeys(range(5))
    monkeypatch.undo()
    monkeypatch.setattr(codec, "MAX_NODES", 10)
    assert codec.decode_value(codec.encode_value(small)) == small


def test_oversized_frames_are_rejected(monkeypatch):
    monkeypatch.setattr(codec, "MAX_FRAME_BYTES", 100)
    with pytest.raises(codec.CodecError):
        codec.dumps_message({"op": "x", "data": "a" * 200})


def test_sync_in_place_mirrors_changes_and_refuses_type_changes():
    target, counts = [1, 2], {"a": 1}
    codec.sync_in_place([target, counts, 5], [codec.encode_value([9]), codec.encode_value({"b": 2}), None])
    assert target == [9] and counts == {"b": 2}
    with pytest.raises(codec.CodecError):
        codec.sync_in_place([target], [codec.encode_value({"x": 1})])


# Multiples of 2**61 - 1 all hash to 0: inserted into one set or dict, each walks all the others.
COLLIDING = [["i", k * (2**61 - 1)] for k in range(1, 20_001)]


@pytest.mark.parametrize("node", [["S", COLLIDING], ["F", COLLIDING], ["d", [[key, ["n"]] for key in COLLIDING]]],
                         ids=["set", "frozenset", "dict"])
def test_keys_that_all_share_a_hash_are_refused_not_decoded_in_quadratic_time(node):
    """A reply is the student's data: building it must take time linear in its size."""
    with pytest.raises(codec.CodecError, match="share one hash"):
        codec.decode_value(node)


def test_real_sets_and_dicts_decode_however_large_and_with_a_few_shared_hashes():
    distinct = list(range(300_000))
    assert codec.decode_value(codec.encode_value(set(distinct))) == set(distinct)
    few = {k * (2**61 - 1) for k in range(codec.MAX_SHARED_HASH)} | {-1, -2}  # hash(-1) == hash(-2) too
    assert codec.decode_value(codec.encode_value(few)) == few
    assert codec.decode_value(["S", [["i", 5]] * 1000]) == {5}  # equal values are cheap: one of them is kept
    assert codec.decode_value(codec.encode_value({(1, 2.0): "a", 3: "b"})) == {(1, 2.0): "a", 3: "b"}


def test_a_batch_frame_is_the_message_with_each_recorded_wire_in_place():
    calls = [({"name": "merge", "substitute": []}, codec.wire_of(([1, 2, 1, 2], (1, 2), 256), {})),
             ({"name": "encode", "substitute": ["get_stats"]}, codec.wire_of(("ñandú\n",), {"merges": {(1, 2): -0.0}}))]
    frame = codec.batch_frame(calls)
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    assert codec.loads_message(frame[4:]) == {"op": "batch", "calls": [{**fields, "wire": json.loads(wire)}
                                                                         for fields, wire in calls]}


BASE64_TEXT = st.one_of(
    st.binary(max_size=40).map(lambda raw: __import__("base64").b64encode(raw).decode("ascii")),
    st.text(alphabet="AB+/=\n \x00é-_", max_size=12),  # near misses: padding, whitespace, other alphabets
    st.text(max_size=12),
)


@given(BASE64_TEXT)
def test_bytes_are_read_exactly_as_strict_base64_reads_them(text):
    """The codec reads a worker's bytes with binascii directly; what it accepts, and what it gives back,
    must be what base64.b64decode(validate=True) accepts and gives."""
    import base64

    try:
        expected = base64.b64decode(text, validate=True)
    except ValueError:
        with pytest.raises(codec.CodecError):
            codec.decode_value(["y", text])
        return
    assert codec.decode_value(["y", text]) == expected
    assert codec.decode_value(["l", [["y", text]]]) == [expected]


def plainly_encoded(value, depth: int = 0):
    """encode_value's rules for the plain types, as one recursion with no shortcut: the spec the codec's
    inline paths for list items and dict entries must match, depth limit included."""
    if depth > codec.MAX_DEPTH:
        raise codec.CodecError("value nested too deeply")
    if value is None:
        return ["n"]
    tags = {bool: "b", int: "i", str: "s"}
    if type(value) in tags:
        return [tags[type(value)], value]
    if type(value) is bytes:
        return ["y", __import__("base64").b64encode(value).decode("ascii")]
    if type(value) is dict:
        return ["d", [[plainly_encoded(k, depth + 1), plainly_encoded(v, depth + 1)] for k, v in value.items()]]
    return [{list: "l", tuple: "t"}[type(value)], [plainly_encoded(item, depth + 1) for item in value]]


PLAIN_LEAVES = st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.binary(max_size=3)
PLAIN_KEYS = st.integers() | st.text(max_size=3) | st.tuples(st.integers(), st.integers()) | st.binary(max_size=2)
PLAIN_VALUES = st.recursive(PLAIN_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                            | st.dictionaries(PLAIN_KEYS, inner, max_size=3), max_leaves=10)


@pytest.mark.parametrize("levels", [0, codec.MAX_DEPTH - 2, codec.MAX_DEPTH - 1, codec.MAX_DEPTH])
@given(value=PLAIN_VALUES)
def test_the_shortcuts_encode_as_the_plain_rules_do_up_to_the_depth_limit(value, levels):
    value = nested(levels, value)
    try:
        expected = plainly_encoded(value)
    except codec.CodecError:
        with pytest.raises(codec.CodecError, match="too deeply"):
            codec.encode_value(value)
        return
    assert codec.encode_value(value) == expected
