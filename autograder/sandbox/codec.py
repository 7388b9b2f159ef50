"""Data-only codec for everything that crosses the grader/worker boundary.

The worker runs student code, so whatever it sends is hostile. This codec never
builds anything but plain builtins and numpy arrays of plain dtypes: no pickle,
no eval, no classes chosen by the sender. A student object whose ``__eq__`` lies
is turned into its plain value on the worker side; the grader only ever compares
objects that the grader itself built.

Wire format: a frame is a 4-byte big-endian length followed by UTF-8 JSON. Values
inside a message are tagged lists, e.g. ``["t", [["i", 1], ["s", "a"]]]`` for ``(1, "a")``.
"""

from __future__ import annotations

import base64
import json
import math
import os
import struct
from binascii import a2b_base64, b2a_base64

MAX_FRAME_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64
ARRAY_DTYPES = frozenset(
    ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
     "float16", "float32", "float64", "complex64", "complex128"]
)


class CodecError(ValueError):
    """A value cannot be encoded, or a frame is not valid protocol data."""


class TooManyValues(CodecError):
    """A container holds more values than a frame may carry (MAX_NODES): refused before any of them is
    encoded, so that such an answer costs its sender nothing like the seconds encoding it would."""

    reply_type = "demasiados valores"  # what a worker's bad_return reply says of such an answer


class UnsupportedType(CodecError):
    """The sender tried to encode an object that is not plain data."""

    def __init__(self, type_name: str):
        super().__init__(f"unsupported type: {type_name}")
        self.type_name = type_name


# --- encoding ---------------------------------------------------------------------------

def encode_value(value, depth: int = 0):
    """Turn plain data into its tagged JSON form; anything else raises UnsupportedType."""
    if depth > MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(value)
    if value is None:
        return ["n"]
    if kind is bool:
        return ["b", value]
    if kind is int:
        return ["i", value]
    if kind is float:
        return ["f", value if math.isfinite(value) else repr(value)]
    if kind is str:
        return ["s", value]
    if kind is bytes:
        return ["y", b2a_base64(value, newline=False).decode("ascii")]
    plain = _plain_base(kind)
    if plain is not None:
        # A subclass of a builtin (a Counter, a named tuple, the student's own `class Vocab(dict)`) is the
        # plain value it holds, read only through the builtin's own methods: whatever the subclass
        # overrides (__eq__, __iter__, items, __len__, __index__) is never called, so only data travels.
        if plain in (int, float, str, bytes):
            return encode_value(_builtin_copy(value, plain), depth)
        kind = plain
    if kind is dict:
        return _encode_container(dict, dict.items(value), dict.__len__(value), depth)
    if kind in (list, tuple, set, frozenset):
        return _encode_container(kind, kind.__iter__(value), kind.__len__(value), depth)
    return _encode_numpy(value, depth)


def _encode_container(kind: type, items, size: int, depth: int):
    if kind is dict:
        if 2 * size > MAX_NODES:
            raise TooManyValues(f"{size} entries, more than a frame carries ({MAX_NODES // 2})")
        return ["d", _encode_entries(items, depth + 1)]
    if size > MAX_NODES:
        raise TooManyValues(f"{size} values, more than a frame carries ({MAX_NODES})")
    if kind in (set, frozenset):
        items = sorted(items, key=_sort_key)
    return [{list: "l", tuple: "t", set: "S", frozenset: "F"}[kind], _encode_items(items, depth + 1)]


def _encode_items(items, depth: int) -> list:
    """encode_value of each item, at `depth`. Ints, strings and bytes are most of what lists carry
    (token ids, texts, pieces), so they are encoded here rather than by a call each."""
    encoded = []
    append = encoded.append
    for item in items:
        if depth > MAX_DEPTH:
            raise CodecError("value nested too deeply")
        kind = type(item)
        if kind is int:
            append(["i", item])
        elif kind is str:
            append(["s", item])
        elif kind is bytes:
            append(["y", b2a_base64(item, newline=False).decode("ascii")])
        else:
            append(encode_value(item, depth))
    return encoded


def _encode_entries(items, depth: int) -> list:
    """[encode_value(key, depth), encode_value(value, depth)] of each entry, with the same leaves
    inline as _encode_items: vocabularies (id -> bytes) and merge tables cross with every call."""
    encoded = []
    append = encoded.append
    for key, value in items:
        if depth > MAX_DEPTH:
            raise CodecError("value nested too deeply")
        kind = type(key)
        if kind is int:
            key = ["i", key]
        elif kind is str:
            key = ["s", key]
        elif kind is tuple:  # a merge table's pairs
            key = _encode_container(tuple, tuple.__iter__(key), tuple.__len__(key), depth)
        else:
            key = encode_value(key, depth)
        kind = type(value)
        if kind is int:
            value = ["i", value]
        elif kind is str:
            value = ["s", value]
        elif kind is bytes:
            value = ["y", b2a_base64(value, newline=False).decode("ascii")]
        else:
            value = encode_value(value, depth)
        append([key, value])
    return encoded


PLAIN_BASES = (int, float, str, bytes, list, tuple, dict, set, frozenset)  # bool cannot be subclassed


def _plain_base(kind: type):
    """The builtin a subclass derives from; None for a builtin itself, and for numpy's scalars, which
    _encode_numpy reads by their dtype."""
    if kind in PLAIN_BASES or kind.__module__ == "numpy":
        return None
    return next((base for base in PLAIN_BASES if issubclass(kind, base)), None)


def _builtin_copy(value, base: type):
    """An exact int, float, str or bytes equal to the one a subclass instance holds."""
    if base is int:
        return int.__index__(value)
    if base is float:
        return float.__float__(value)
    return base.__getitem__(value, slice(None))


def _sort_key(item):
    # Sets have no order; sorting by type and repr makes equal sets encode identically.
    return (type(item).__name__, repr(item))


def _encode_numpy(value, depth):
    np = _numpy_if_loaded()
    if np is not None:
        if type(value) is np.ndarray:
            dtype = value.dtype.name
            if dtype not in ARRAY_DTYPES:
                raise UnsupportedType(f"numpy.ndarray[{dtype}]")
            data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<"), copy=False)
            return ["a", {"dtype": dtype, "shape": list(value.shape),
                          "data": base64.b64encode(data.tobytes()).decode("ascii")}]
        if isinstance(value, np.generic) and type(value).__module__ == "numpy":
            # numpy scalars (float64 from np.dot, int64 from np.sum) are ordinary answers.
            return encode_value(value.item(), depth)
    raise UnsupportedType(_type_name(value))


def _numpy_if_loaded():
    # Importing numpy costs ~100 ms; a value can only be an array if numpy is loaded.
    import sys
    return sys.modules.get("numpy")


def _type_name(value) -> str:
    kind = type(value)
    module = getattr(kind, "__module__", "?")
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


# --- decoding ---------------------------------------------------------------------------

def decode_value(node, depth: int = 0):
    """Rebuild a value from its tagged form, accepting nothing but well-formed data."""
    if depth > MAX_DEPTH:
        raise CodecError("value nested too deeply")
    if not isinstance(node, list) or not node or not isinstance(node[0], str):
        raise CodecError("malformed value")
    tag, payload = node[0], node[1:]
    if tag == "n" and not payload:
        return None
    if len(payload) != 1:
        raise CodecError(f"malformed value with tag {tag!r}")
    (body,) = payload
    if tag == "b" and type(body) is bool:
        return body
    if tag == "i" and type(body) is int:
        return body
    if tag == "f":
        if type(body) in (int, float):
            try:
                return float(body)
            except OverflowError as exc:
                raise CodecError("float out of range") from exc
        if body in ("nan", "inf", "-inf"):
            return float(body)
    if tag == "s" and type(body) is str:
        return body
    if tag == "y" and type(body) is str:
        return _bytes_of(body)
    if tag in ("l", "t", "S", "F") and type(body) is list:
        items = _decode_items(body, depth + 1)
        if tag == "l":
            return items
        if tag == "t":
            return tuple(items)
        return _hashable_collection(set if tag == "S" else frozenset, items)
    if tag == "d" and type(body) is list:
        for entry in body:
            if not isinstance(entry, list) or len(entry) != 2:
                raise CodecError("malformed dict entry")
        flat = _decode_items([part for entry in body for part in entry], depth + 1)
        keys, values = flat[0::2], flat[1::2]
        _refuse_colliding_hashes(keys)
        return dict(zip(keys, values))
    if tag == "a" and type(body) is dict:
        return _decode_array(body)
    raise CodecError(f"malformed value with tag {tag!r}")


def _decode_items(nodes: list, depth: int) -> list:
    """decode_value of each node, at `depth`; well-formed ints, strings and bytes are read here rather
    than by a call each: a list of token ids decodes three times as fast. Anything else, malformed
    leaves included, goes through decode_value and its checks."""
    items = []
    append = items.append
    for node in nodes:
        if depth > MAX_DEPTH:
            raise CodecError("value nested too deeply")
        if type(node) is list and len(node) == 2:
            tag, body = node
            if tag == "i" and type(body) is int or tag == "s" and type(body) is str:
                append(body)
                continue
            if tag == "y" and type(body) is str:
                append(_bytes_of(body))
                continue
        append(decode_value(node, depth))
    return items


def _bytes_of(body: str) -> bytes:
    try:
        return _strict_base64(body)
    except ValueError as exc:
        raise CodecError("malformed bytes") from exc


def _strict_base64(text: str) -> bytes:
    """base64.b64decode(text, validate=True), without its wrapper's checks: a bpe_bytes submission's
    answers hold over a thousand byte strings. A character outside ASCII or the alphabet, or bad
    padding, raises ValueError (binascii.Error or UnicodeEncodeError) as there."""
    return a2b_base64(text.encode("ascii"), strict_mode=True)


def _hashable_collection(kind, items):
    _refuse_colliding_hashes(items)
    return kind(items)


# Distinct values that share a hash make each insertion into a set or dict walk all the others:
# 300 000 ints that all hash to 0 (multiples of 2**61 - 1) took minutes to decode. Real data almost
# never has more than a couple; equal values (which share a hash by rule) are cheap and allowed.
MAX_SHARED_HASH = 64


def _refuse_colliding_hashes(keys) -> None:
    """Raise CodecError unless building a set or dict of `keys` takes linear time."""
    try:
        if len(set(map(hash, keys))) == len(keys):
            return  # no two share a hash: the usual case, checked at C speed
    except TypeError as exc:
        raise CodecError("unhashable set element or dict key") from exc
    seen: dict[int, list] = {}
    for key in keys:
        try:
            same = seen.setdefault(hash(key), [])
        except TypeError as exc:
            raise CodecError("unhashable set element or dict key") from exc
        if any(key == other for other in same):
            continue
        if len(same) == MAX_SHARED_HASH:
            raise CodecError(f"more than {MAX_SHARED_HASH} distinct keys share one hash")
        same.append(key)


def _decode_array(body):
    import numpy as np

    dtype, shape, data = body.get("dtype"), body.get("shape"), body.get("data")
    if type(dtype) is not str or dtype not in ARRAY_DTYPES or type(shape) is not list or type(data) is not str:
        raise CodecError("malformed array")
    if len(shape) > 32 or any(type(n) is not int or not 0 <= n < 2**40 for n in shape):
        raise CodecError("malformed array shape")
    try:
        raw = _strict_base64(data)
    except ValueError as exc:
        raise CodecError("malformed array data") from exc
    little = np.dtype(dtype).newbyteorder("<")
    expected = little.itemsize * math.prod(shape)
    if len(raw) != expected:
        raise CodecError("array data does not match its shape")
    try:
        return np.frombuffer(raw, dtype=little).astype(np.dtype(dtype)).reshape(shape)
    except ValueError as exc:  # e.g. a zero-size array whose shape numpy cannot represent
        raise CodecError("malformed array shape") from exc


# --- framing ----------------------------------------------------------------------------

def dumps_message(message: dict) -> bytes:
    payload = json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode("ascii")
    if len(payload) > MAX_FRAME_BYTES:
        raise CodecError(f"message of {len(payload)} bytes exceeds the {MAX_FRAME_BYTES}-byte cap")
    return struct.pack(">I", len(payload)) + payload


def batch_frame(calls: list[tuple[dict, str]]) -> bytes:
    """The frame of calls sent ahead in one batch: each call's fields, and its arguments as the wire
    recorded with the bank (wire_of), spliced in as the JSON text it already is. The same recorded
    calls go to every submission's worker: parsing and writing them again for each one was a tenth of
    the grader's work on property tests."""
    parts = []
    for fields, wire in calls:
        head = json.dumps(fields, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        parts.append(f'{head[:-1]},"wire":{wire}}}')
    payload = ('{"op":"batch","calls":[' + ",".join(parts) + "]}").encode("ascii")
    if len(payload) > MAX_FRAME_BYTES:
        raise CodecError(f"message of {len(payload)} bytes exceeds the {MAX_FRAME_BYTES}-byte cap")
    return struct.pack(">I", len(payload)) + payload


MAX_NODES = 2_000_000  # a 64 MiB frame of tiny values would cost the grader over a gigabyte


def values_in(payload: bytes) -> int:
    """How many values a frame holds, at most: each is a JSON array (a '[' inside a string counts too)."""
    return payload.count(b"[")


def loads_message(payload: bytes) -> dict:
    if values_in(payload) > MAX_NODES:
        raise CodecError(f"frame holds more than {MAX_NODES} values")
    try:
        message = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CodecError("frame is not valid JSON") from exc
    if not isinstance(message, dict) or not isinstance(message.get("op"), str):
        raise CodecError("frame is not a protocol message")
    return message


def wire_of(args: tuple, kwargs: dict) -> str | None:
    """A call's arguments exactly as the worker receives them, as one string: two calls with the same
    wire are the same call (1, 1.0 and True, or -0.0 and 0.0, differ here, unlike under ==).
    None if they cannot be encoded."""
    try:
        return encoded_wire([encode_value(a) for a in args], {k: encode_value(v) for k, v in kwargs.items()})
    except (CodecError, RecursionError, ValueError):
        return None


def encoded_wire(args: list, kwargs: dict) -> str:
    """The wire of arguments already encoded (as a callback from the worker carries them)."""
    return json.dumps([args, kwargs])


def callback_request(name: str, args: list, kwargs: dict) -> dict:
    """The worker's question when student code calls a served helper (served.py): its arguments encoded."""
    return {"op": "callback", "name": name, "args": args, "kwargs": kwargs}


def known_callbacks(answers: dict) -> dict:
    """Callbacks whose answers are known in advance (banks.Recording.helper_answers: (helper, wire) ->
    reply), by the exact bytes of the frame a worker sends to ask each one: frame payload -> (helper,
    the frame of its answer). A callback that arrives as one of these payloads is answered without
    parsing it or writing its answer again. Bytes equal to a payload here parse to the same helper and
    arguments, so the answer is the one a parse and lookup would give; any other frame is read as usual."""
    known = {}
    for (name, wire), reply in answers.items():
        args, kwargs = json.loads(wire)
        try:
            known[dumps_message(callback_request(name, args, kwargs))[4:]] = (name, dumps_message(reply))
        except (CodecError, ValueError):  # no frame can carry it: such a callback is read and looked up as before
            continue
    return known


def write_frame(fd: int, message: dict | bytes) -> None:
    """Write a message, or a frame made already (batch_frame)."""
    data = memoryview(message if isinstance(message, bytes) else dumps_message(message))
    while data:
        written = os.write(fd, data)
        data = data[written:]


def read_exact(fd: int, size: int) -> bytes:
    """Read exactly `size` bytes, or raise EOFError when the peer closed the pipe."""
    chunks, remaining = [], size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise EOFError("peer closed the channel")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> dict:
    (size,) = struct.unpack(">I", read_exact(fd, 4))
    if size > MAX_FRAME_BYTES:
        raise CodecError(f"frame of {size} bytes exceeds the {MAX_FRAME_BYTES}-byte cap")
    return loads_message(read_exact(fd, size))


# --- arguments changed in place ---------------------------------------------------------

def is_mutable(value) -> bool:
    """Arguments whose in-place changes are sent back after a call."""
    return type(value) in (list, dict, set) or type(value).__name__ == "ndarray"


def argument_states(args) -> list:
    return [encode_value(arg) if is_mutable(arg) else None for arg in args]


def sync_in_place(args, states) -> None:
    """Apply the other side's in-place changes to our own list, dict, set and array arguments."""
    if not isinstance(states, list) or len(states) != len(args):
        raise CodecError("malformed argument state")
    for arg, state in zip(args, states):
        if state is None:
            continue
        new = decode_value(state)
        if type(arg) is not type(new):
            raise CodecError("argument changed type")
        if isinstance(arg, list):
            arg[:] = new
        elif isinstance(arg, (dict, set)):
            arg.clear()
            arg.update(new)
        elif getattr(arg, "shape", None) == getattr(new, "shape", ()):
            arg[...] = new
