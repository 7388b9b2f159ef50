"""Recursion where it is natural.

- build_vocab expands each token recursively into its bytes (memoised in the
  vocabulary itself), so the order of the merges dict never matters.
- train_bpe is a recursive function over rounds: learn one merge, recurse on the
  merged sequence with one id fewer to go (depth = merges learned).
- encode recurses once per applied merge.
- merge finds the match positions with a divide-and-conquer recursion over index
  ranges (depth logarithmic in the length), then drops overlaps left to right.
- get_stats walks an iterator with a "previous" variable; the working sequence
  is a plain list.
"""
import sys


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    it = iter(ids)
    prev = next(it, None)
    for cur in it:
        counts[(prev, cur)] = counts.get((prev, cur), 0) + 1
        prev = cur
    return counts


def _match_starts(ids, pair, lo, hi):
    """Positions p in [lo, hi) where ids[p], ids[p+1] is the pair (divide and conquer)."""
    if hi - lo <= 0:
        return []
    if hi - lo == 1:
        return [lo] if lo + 1 < len(ids) and ids[lo] == pair[0] and ids[lo + 1] == pair[1] else []
    mid = (lo + hi) // 2
    return _match_starts(ids, pair, lo, mid) + _match_starts(ids, pair, mid, hi)


def merge(ids, pair, idx):
    seq = list(ids)
    taken = set()
    for p in _match_starts(seq, pair, 0, len(seq)):
        if p - 1 not in taken:  # left to right, no overlaps
            taken.add(p)
    out = []
    i = 0
    while i < len(seq):
        if i in taken:
            out.append(idx)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def _train(seq, next_id, vocab_size, learned):
    if next_id >= vocab_size or len(seq) < 2:
        return learned
    stats = get_stats(seq)
    best = max(stats, key=stats.get)
    learned[best] = next_id
    return _train(merge(seq, best, next_id), next_id + 1, vocab_size, learned)


def _room_for(frames):
    if frames + 200 > sys.getrecursionlimit():
        sys.setrecursionlimit(frames + 1000)


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    data = list(text.encode("utf-8"))
    _room_for(min(vocab_size - 256, len(data)))  # one frame per learned merge
    return _train(data, 256, vocab_size, {})


def build_vocab(merges):
    children = {idx: pair for pair, idx in merges.items()}
    vocab = {i: bytes([i]) for i in range(256)}

    def expand(idx):
        if idx not in vocab:
            left, right = children[idx]
            vocab[idx] = expand(left) + expand(right)
        return vocab[idx]

    for idx in sorted(children):
        expand(idx)
    return vocab


def _encode(ids, merges):
    candidates = [p for p in get_stats(ids) if p in merges]
    if not candidates:
        return ids
    pair = min(candidates, key=merges.get)
    return _encode(merge(ids, pair, merges[pair]), merges)


def encode(text, merges):
    data = list(text.encode("utf-8"))
    _room_for(len(data))  # each applied merge shortens the sequence
    return _encode(data, merges)


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    if len(ids) == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / len(ids)
