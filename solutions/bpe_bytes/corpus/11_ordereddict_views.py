"""OrderedDict and dict views.

The working sequence of train_bpe and encode is an ``OrderedDict`` from position to
id, and what goes to get_stats and merge is its ``.values()`` view: iterable and
sized, but not indexable or sliceable. get_stats returns an ``OrderedDict`` (a
dict subclass) and builds it by zipping the view with ``islice`` of itself; merge
walks ``zip_longest(view, islice(view, 1, None))`` with a skip flag. The winner is
``max`` over ``counts.items()`` by count (first maximal item in insertion order);
build_vocab also returns an OrderedDict, keyed 0..255 then by merge id.
"""
from collections import OrderedDict
from itertools import islice, zip_longest
from operator import itemgetter

_END = object()


def get_stats(ids, counts=None):
    if counts is None:
        counts = OrderedDict()
    for pair in zip(ids, islice(ids, 1, None)):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out = []
    skip = False
    for cur, nxt in zip_longest(ids, islice(ids, 1, None), fillvalue=_END):
        if skip:
            skip = False
        elif nxt is not _END and (cur, nxt) == (pair[0], pair[1]):
            out.append(idx)
            skip = True
        else:
            out.append(cur)
    return out


def _positions(values):
    return OrderedDict(enumerate(values))


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    seq = _positions(text.encode("utf-8"))
    merges = OrderedDict()
    for idx in range(256, vocab_size):
        if len(seq) < 2:
            break
        best, _ = max(get_stats(seq.values()).items(), key=itemgetter(1))
        merges[best] = idx
        seq = _positions(merge(seq.values(), best, idx))
    return dict(merges)


def build_vocab(merges):
    vocab = OrderedDict((i, bytes([i])) for i in range(256))
    for (a, b), idx in sorted(merges.items(), key=itemgetter(1)):
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    seq = _positions(text.encode("utf-8"))
    while len(seq) >= 2:
        present = merges.keys() & get_stats(seq.values()).keys()  # set algebra on key views
        if not present:
            break
        pair = min(present, key=merges.__getitem__)
        seq = _positions(merge(seq.values(), pair, merges[pair]))
    return list(seq.values())


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    if len(ids) == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / len(ids)
