"""Typed array working sequence.

train_bpe and encode keep the current sequence in an ``array.array('q')`` and hand
that array (not a list) to this module's own get_stats and merge. get_stats walks
the sequence by index with ``range``, merge copies the untouched runs between
matches with slices, and the winner of a round is found by a single scan that
keeps the first pair reaching a strictly larger count.
"""
from array import array


def get_stats(ids, counts=None):
    if counts is None:
        counts = {}
    for i in range(len(ids) - 1):
        pair = (int(ids[i]), int(ids[i + 1]))
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    first, second = pair
    out = []
    n = len(ids)
    start = i = 0
    while i < n - 1:
        if ids[i] == first and ids[i + 1] == second:
            out.extend(ids[start:i])  # the run before the match, unchanged
            out.append(idx)
            i += 2
            start = i
        else:
            i += 1
    out.extend(ids[start:])
    return [int(x) for x in out]


def _best_pair(stats):
    best, best_count = None, 0
    for pair, count in stats.items():  # insertion order = first occurrence
        if count > best_count:
            best, best_count = pair, count
    return best


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size debe ser al menos 256 (recibido {vocab_size})")
    seq = array("q", list(text.encode("utf-8")))
    merges = {}
    for new_id in range(256, vocab_size):
        if len(seq) < 2:
            break
        pair = _best_pair(get_stats(seq))
        merges[pair] = new_id
        seq = array("q", merge(seq, pair, new_id))
    return merges


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), idx in sorted(merges.items(), key=lambda kv: kv[1]):
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    seq = array("q", list(text.encode("utf-8")))
    while len(seq) >= 2:
        candidates = [p for p in get_stats(seq) if p in merges]
        if not candidates:
            break
        pair = min(candidates, key=merges.__getitem__)
        seq = array("q", merge(seq, pair, merges[pair]))
    return seq.tolist()


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    if not len(ids):
        raise ValueError("no hay tokens: la razón de compresión no está definida")
    return len(text.encode("utf-8")) / len(ids)
