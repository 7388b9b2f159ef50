"""collections.deque as the working sequence, consumed as a stream.

train_bpe and encode hold the sequence in a ``deque`` and pass the deque itself to
get_stats and merge. Neither helper indexes or slices: get_stats pairs up
neighbours with ``itertools.pairwise`` and a ``defaultdict(int)``; merge pops from a
copied deque from the left with a one-item look-ahead. The round's winner comes
from ``max`` over the counts (first maximal key in insertion order).
"""
from collections import defaultdict, deque
from itertools import pairwise


def get_stats(ids, counts=None):
    if counts is None:
        counts = defaultdict(int)
    for pair in pairwise(ids):
        if pair in counts:
            counts[pair] += 1
        else:
            counts[pair] = 1
    return counts


def merge(ids, pair, idx):
    pending = deque(ids)  # our own copy: the caller's sequence is left alone
    out = []
    while pending:
        current = pending.popleft()
        if pending and current == pair[0] and pending[0] == pair[1]:
            pending.popleft()
            out.append(idx)
        else:
            out.append(current)
    return out


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    work = deque(text.encode("utf-8"))
    merges = {}
    next_id = 256
    while next_id < vocab_size and len(work) >= 2:
        stats = get_stats(work)
        best = max(stats, key=stats.__getitem__)
        merges[best] = next_id
        work = deque(merge(work, best, next_id))
        next_id += 1
    return merges


def build_vocab(merges):
    vocab = {}
    for b in range(256):
        vocab[b] = bytes((b,))
    by_id = {idx: pair for pair, idx in merges.items()}
    for idx in sorted(by_id):
        left, right = by_id[idx]
        vocab[idx] = vocab[left] + vocab[right]
    return vocab


def encode(text, merges):
    work = deque(text.encode("utf-8"))
    while len(work) > 1:
        present = get_stats(work)
        usable = [pair for pair in present if pair in merges]
        if not usable:
            break
        best = min(usable, key=lambda pair: merges[pair])
        work = deque(merge(work, best, merges[best]))
    return list(work)


def decode(ids, vocab):
    buffer = bytearray()
    for token in ids:
        buffer += vocab[token]
    return buffer.decode("utf-8", "replace")


def compression_ratio(text, ids):
    count = len(ids)
    if count == 0:
        raise ValueError("compression_ratio necesita al menos un token")
    return len(text.encode("utf-8")) / count
