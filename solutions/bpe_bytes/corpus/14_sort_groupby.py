"""Counting by sorting: sorted() + itertools.groupby.

get_stats sorts the list of adjacent pairs and measures each run with ``groupby``,
so its keys come out in sorted order, not in order of first appearance (the spec
only asks for the counts). Because of that, train_bpe does not lean on dict order
for the tie rule: it collects the tied pairs in a set and then scans the current
sequence from the left for the first pair that belongs to it. The working sequence
is a ``tuple`` handed to get_stats and merge. encode sorts the present pairs by
merge id.
"""
from itertools import groupby


def _pairs(ids):
    ids = tuple(ids)
    return list(zip(ids, ids[1:]))


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair, run in groupby(sorted(_pairs(ids))):
        counts[pair] = counts.get(pair, 0) + sum(1 for _ in run)
    return counts


def merge(ids, pair, idx):
    seq = tuple(ids)
    out = []
    i = 0
    while i < len(seq):
        if seq[i:i + 2] == tuple(pair):
            out.append(idx)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    seq = tuple(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        if len(seq) < 2:
            break
        counts = get_stats(seq)
        top = max(counts.values())
        tied = {pair for pair, n in counts.items() if n == top}
        # the tie rule: the tied pair that starts earliest in the current sequence
        best = next(pair for pair in _pairs(seq) if pair in tied)
        merges[best] = idx
        seq = tuple(merge(seq, best, idx))
    return merges


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for idx, (a, b) in sorted((idx, pair) for pair, idx in merges.items()):
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    seq = tuple(text.encode("utf-8"))
    while len(seq) >= 2:
        present = sorted((merges[p], p) for p in get_stats(seq) if p in merges)
        if not present:
            break
        idx, pair = present[0]
        seq = tuple(merge(seq, pair, idx))
    return list(seq)


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    if len(ids) == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / len(ids)
