"""numpy integer arrays, vectorised counting.

train_bpe and encode keep the working sequence as a 1-D ``np.int64`` array and
pass that array to get_stats and merge. get_stats encodes each adjacent pair as
one integer key, and ``np.unique(..., return_index=True, return_counts=True)``
gives counts plus first positions; sorting by first position restores the
first-occurrence order of the keys. The round's winner is ``np.lexsort`` on
(first position, -count). merge finds candidate matches with a boolean mask and
only walks the match positions to drop overlaps (left to right).
"""
import numpy as np


def _as_array(ids):
    return np.fromiter((int(x) for x in ids), dtype=np.int64) if not isinstance(ids, np.ndarray) \
        else ids.astype(np.int64, copy=False)


def _pair_table(seq):
    """Distinct adjacent pairs of seq in first-occurrence order, with counts and first positions."""
    if len(seq) < 2:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, empty, empty
    left, right = seq[:-1], seq[1:]
    # two ids -> one key; ids are small non-negative ints here, so a wide base is safe
    base = int(max(seq.max(), 0)) + 1
    if seq.min() < 0 or base > 3_000_000_000:
        keys = None
    else:
        keys = left * base + right
    if keys is None:  # fall back to structured pairs for unusual ids
        stacked = np.stack([left, right], axis=1)
        uniq, first, counts = np.unique(stacked, axis=0, return_index=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        return uniq[order, 0], uniq[order, 1], counts[order], first[order]
    uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    uniq, first, counts = uniq[order], first[order], counts[order]
    return uniq // base, uniq % base, counts, first


def get_stats(ids, counts=None):
    seq = _as_array(ids)
    if counts is None:
        counts = {}
    a, b, n, _ = _pair_table(seq)
    for x, y, c in zip(a.tolist(), b.tolist(), n.tolist()):
        counts[(x, y)] = counts.get((x, y), 0) + c
    return counts


def merge(ids, pair, idx):
    seq = _as_array(ids)
    if len(seq) < 2:
        return seq.tolist()
    hits = np.flatnonzero((seq[:-1] == pair[0]) & (seq[1:] == pair[1]))
    keep = []
    last = -2
    for h in hits.tolist():  # only an overlapping run (pair[0] == pair[1]) needs the walk
        if h > last + 1:
            keep.append(h)
            last = h
    if not keep:
        return seq.tolist()
    keep = np.array(keep, dtype=np.int64)
    out = seq.copy()
    out[keep] = idx
    drop = np.zeros(len(seq), dtype=bool)
    drop[keep + 1] = True
    return out[~drop].tolist()


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    seq = np.frombuffer(text.encode("utf-8"), dtype=np.uint8).astype(np.int64)
    merges = {}
    for idx in range(256, vocab_size):
        if seq.size < 2:
            break
        stats = get_stats(seq)
        pairs = list(stats)  # first-occurrence order
        counts = np.array([stats[p] for p in pairs])
        # lexsort: last key is primary -> highest count, then earliest first occurrence
        best = pairs[int(np.lexsort((np.arange(len(pairs)), -counts))[0])]
        merges[best] = idx
        seq = np.array(merge(seq, best, idx), dtype=np.int64)
    return merges


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    items = list(merges.items())
    for k in np.argsort([idx for _, idx in items], kind="stable").tolist():
        (a, b), idx = items[k]
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    seq = np.frombuffer(text.encode("utf-8"), dtype=np.uint8).astype(np.int64)
    while seq.size >= 2:
        present = [p for p in get_stats(seq) if p in merges]
        if not present:
            break
        ranks = np.array([merges[p] for p in present])
        pair = present[int(np.argmin(ranks))]
        seq = np.array(merge(seq, pair, merges[pair]), dtype=np.int64)
    return [int(x) for x in seq]


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    n = len(ids)
    if n == 0:
        raise ValueError("empty ids")
    return np.frombuffer(text.encode("utf-8"), dtype=np.uint8).size / n
