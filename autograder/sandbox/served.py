"""Reference helpers served to student code, on the worker's side.

While ``train_bpe`` is graded, the student's own ``get_stats`` and ``merge`` are
replaced by the grader's reference (``DEPENDS_ON`` in the hidden suite), so that one
bug is charged in one place only. That favour must never cost a correct student
anything, whatever containers their code passes around:

- arguments travel as the plain data they stand for: a ``deque``, ``array``,
  ``bytearray``, ``range``, generator or dict view of ids is sent as a list of ids,
  a ``Counter`` as a dict (:func:`as_plain`);
- what the reference changes in place is written back into the student's own
  object, whatever its type (:func:`restore_into`), so a ``Counter`` stays a Counter;
- a value that cannot cross at all (an object of the student's own class, say) is
  handled by the student's own helper for that call.

The worker also retries a graded call once with the student's own helpers when the
call raised after being served (see ``Student.call``): a function written around its
own helpers' conventions is then graded as written.
"""

from __future__ import annotations

import array
import builtins
import collections.abc

from autograder.sandbox import codec

PLAIN = (type(None), bool, int, float, str, bytes)


def as_plain(value, depth: int = 0):
    """The plain-data equivalent of a container a correct student may reasonably use.

    Lists, tuples, sets and dicts keep their kind (with their items made plain); numpy
    arrays stay arrays; every other sized or iterable container of items becomes a list.
    Anything else is returned unchanged, for the codec to accept or refuse."""
    if depth > codec.MAX_DEPTH or isinstance(value, PLAIN):
        return value
    deeper = depth + 1
    if isinstance(value, (list, tuple)):
        items = [as_plain(item, deeper) for item in value]
        return tuple(items) if isinstance(value, tuple) else items
    if isinstance(value, (set, frozenset)):
        items = [as_plain(item, deeper) for item in value]
        return frozenset(items) if isinstance(value, frozenset) else set(items)
    if isinstance(value, collections.abc.Mapping):
        return {as_plain(k, deeper): as_plain(v, deeper) for k, v in value.items()}
    numpy = codec._numpy_if_loaded()
    if numpy is not None and isinstance(value, numpy.generic):
        return value.item()
    if numpy is not None and isinstance(value, numpy.ndarray):
        return value if value.dtype.name in codec.ARRAY_DTYPES else [as_plain(v, deeper) for v in value.tolist()]
    if isinstance(value, bytearray):
        return bytes(value)
    if isinstance(value, memoryview):
        return value.tobytes() if value.format in ("B", "b", "c") and value.ndim == 1 else as_plain(value.tolist(), deeper)
    if isinstance(value, collections.abc.Iterable):  # deque, array, range, views; generators are consumed,
        return [as_plain(item, deeper) for item in value]  # as the helper itself would consume them
    return value


def restore_into(original, new) -> None:
    """Write the reference's in-place change back into the student's own object."""
    if isinstance(original, collections.abc.MutableMapping):
        original.clear()
        original.update(new)  # a cleared Counter's update() sets the counts
    elif isinstance(original, collections.abc.MutableSet):
        original.clear()
        original |= set(new)
    elif isinstance(original, (array.array, collections.abc.MutableSequence)):
        if isinstance(original, collections.deque):
            original.clear()
        else:
            del original[:]  # list, bytearray, array.array: keeps the object (and its typecode)
        original.extend(new)
    elif getattr(original, "shape", None) is not None and getattr(new, "shape", None) == original.shape:
        original[...] = new


def served_helper(name: str, own, channel, served_calls: list):
    """A stand-in for the student's helper `name` that asks the grader's reference."""
    send, receive = channel

    def helper(*args, **kwargs):
        try:
            plain_args = [as_plain(a) for a in args]
            plain_kwargs = {k: as_plain(v) for k, v in kwargs.items()}
            request = codec.callback_request(name, [codec.encode_value(a) for a in plain_args],
                                             {k: codec.encode_value(v) for k, v in plain_kwargs.items()})
        except (codec.CodecError, RecursionError):
            if own is None:  # the student never defined it: the same error as without the favour
                raise NameError(f"name '{name}' is not defined") from None
            return own(*args, **kwargs)
        served_calls.append(name)
        send(request)
        reply = receive()
        if reply.get("op") == "callback_raise":
            error = getattr(builtins, reply.get("builtin", ""), None)
            error = error if isinstance(error, type) and issubclass(error, Exception) else GraderError
            raise error(reply.get("message", ""))
        states = reply.get("args_after")
        if isinstance(states, list) and len(states) == len(args):
            for original, state in zip(args, states):
                if state is not None:
                    restore_into(original, codec.decode_value(state))
        same_as = reply.get("same_as")
        if type(same_as) is int and 0 <= same_as < len(args):
            return args[same_as]
        return codec.decode_value(reply.get("value"))

    helper.__name__ = name
    return helper


class GraderError(Exception):
    """Raised inside student code when the grader's reference helper raised."""
