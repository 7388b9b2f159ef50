"""Generator pipelines.

Every transformation is a lazy generator: ``_pairs`` yields neighbours,
``_merged`` yields the merged stream, ``_expanded`` yields token bytes. The public
get_stats and merge accept any iterable and drain a pipeline. train_bpe starts
from the raw ``bytes`` object of the text and later keeps a tuple; either way the
working sequence it hands to get_stats and merge is never a list. The winner is
chosen by a generator expression fed to ``max`` whose key also carries the
first-occurrence rank, so the tie rule does not rely on dict order.
"""
from itertools import count, islice

_NOTHING = object()


def _pairs(stream):
    stream = iter(stream)
    prev = next(stream, None)
    if prev is None:
        return
    for cur in stream:
        yield prev, cur
        prev = cur


def _merged(stream, pair, idx):
    """Left-to-right, non-overlapping: hold one token back and look at the next."""
    first, second = pair
    held = _NOTHING
    for token in stream:
        if held is _NOTHING:
            held = token
        elif held == first and token == second:
            yield idx
            held = _NOTHING
        else:
            yield held
            held = token
    if held is not _NOTHING:
        yield held


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in _pairs(ids):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    return list(_merged(ids, pair, idx))


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    seq = text.encode("utf-8")  # bytes: already a sequence of ints 0..255
    merges = {}
    for idx in islice(count(256), max(vocab_size - 256, 0)):
        if len(seq) < 2:
            break
        stats = get_stats(seq)
        ranked = ((n, -rank, pair) for rank, (pair, n) in enumerate(stats.items()))
        _, _, best = max(ranked)
        merges[best] = idx
        seq = tuple(_merged(seq, best, idx))
    return merges


def _expanded(ids, vocab):
    return (vocab[i] for i in ids)


def build_vocab(merges):
    singles = ((i, bytes([i])) for i in range(256))
    vocab = dict(singles)
    for idx, (a, b) in sorted((idx, pair) for pair, idx in merges.items()):
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    seq = text.encode("utf-8")
    while True:
        present = (p for p in get_stats(seq) if p in merges)
        best = min(present, key=merges.__getitem__, default=None)
        if best is None:
            return list(seq)
        seq = tuple(merge(seq, best, merges[best]))


def decode(ids, vocab):
    return b"".join(_expanded(ids, vocab)).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    total = sum(1 for _ in ids) if not hasattr(ids, "__len__") else len(ids)
    if total == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / total

