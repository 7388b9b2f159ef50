"""Functional style: functools.reduce and itertools.

Training is ``reduce`` over the round numbers with a state ``(sequence, merges)``;
get_stats is a ``reduce`` that threads the counts dict; merge is a ``reduce`` over
the positions with an ``(output, skip_next)`` accumulator; build_vocab and encode
are folds too, and encode's fold stops changing its state once nothing merges.
The working sequence is a tuple (never a list) and goes to get_stats and merge as
such. Ties are settled by ``min`` over ``(-count, first_index)``.
"""
from functools import reduce
from itertools import pairwise, starmap


def _bump(counts, pair):
    counts[pair] = counts.get(pair, 0) + 1
    return counts


def get_stats(ids, counts=None):
    return reduce(_bump, pairwise(ids), {} if counts is None else counts)


def merge(ids, pair, idx):
    seq = tuple(ids)
    target = tuple(pair)

    def step(acc, i):
        out, skip = acc
        if skip:
            return out, False
        if seq[i:i + 2] == target:
            out.append(idx)
            return out, True
        out.append(seq[i])
        return out, False

    out, _ = reduce(step, range(len(seq)), ([], False))
    return out


def _first_index(seq):
    def keep_first(acc, item):
        position, pair = item
        acc.setdefault(pair, position)
        return acc

    return reduce(keep_first, enumerate(pairwise(seq)), {})


def _round(state, idx):
    seq, merges = state
    if len(seq) < 2:
        return state
    counts = get_stats(seq)
    first = _first_index(seq)
    best = min(counts, key=lambda p: (-counts[p], first[p]))
    return tuple(merge(seq, best, idx)), {**merges, best: idx}


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    _, merges = reduce(_round, range(256, vocab_size), (tuple(text.encode("utf-8")), {}))
    return merges


def build_vocab(merges):
    def add_token(vocab, item):
        idx, (a, b) = item
        vocab[idx] = vocab[a] + vocab[b]
        return vocab

    base = dict(zip(range(256), map(lambda i: bytes([i]), range(256))))
    by_id = sorted(starmap(lambda pair, idx: (idx, pair), merges.items()))
    return reduce(add_token, by_id, base)


def _encode_step(merges):
    def step(state, _):
        seq, done = state
        if done:
            return state
        present = [p for p in get_stats(seq) if p in merges]
        if not present:
            return seq, True
        pair = min(present, key=merges.__getitem__)
        return tuple(merge(seq, pair, merges[pair])), False
    return step


def encode(text, merges):
    seq = tuple(text.encode("utf-8"))
    # every applied merge shortens the sequence: len(seq) steps are always enough
    final, _ = reduce(_encode_step(merges), range(len(seq)), (seq, False))
    return list(final)


def decode(ids, vocab):
    return b"".join(map(vocab.__getitem__, ids)).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    n = len(ids)
    if n == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / n
