"""Counter + heapq.

get_stats counts with ``collections.Counter`` (it returns a Counter, a dict
subclass, when no ``counts`` is given). train_bpe keeps the working sequence as a
tuple, passes it to get_stats and merge, and picks the winner with a heap of
``(-count, first_position, pair)`` entries, so the tie rule is the heap's second
key. merge walks with ``enumerate`` and a skip flag. encode heapifies
``(merge_id, pair)`` for the pairs present and takes the lowest merge id;
build_vocab pops merges from a heap by id.
"""
import heapq
from collections import Counter


def get_stats(ids, counts=None):
    fresh = Counter(zip(ids, ids[1:]))
    if counts is None:
        return fresh
    for pair, n in fresh.items():  # Counter keeps first-seen order
        counts[pair] = counts.get(pair, 0) + n
    return counts


def merge(ids, pair, idx):
    a, b = pair
    result = []
    skip = False
    for i, token in enumerate(ids):
        if skip:
            skip = False
            continue
        if token == a and i + 1 < len(ids) and ids[i + 1] == b:
            result.append(idx)
            skip = True
        else:
            result.append(token)
    return result


def _winner(seq):
    counts = get_stats(seq)
    first_seen = {}
    for position, pair in enumerate(zip(seq, seq[1:])):
        if pair not in first_seen:
            first_seen[pair] = position
    heap = [(-n, first_seen[pair], pair) for pair, n in counts.items()]
    heapq.heapify(heap)
    return heapq.heappop(heap)[2]


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    seq = tuple(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        if len(seq) < 2:
            break
        pair = _winner(seq)
        merges[pair] = idx
        seq = tuple(merge(seq, pair, idx))
    return merges


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    heap = [(idx, pair) for pair, idx in merges.items()]
    heapq.heapify(heap)
    while heap:
        idx, (a, b) = heapq.heappop(heap)
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        heap = [(merges[p], p) for p in get_stats(ids) if p in merges]
        if not heap:
            break
        heapq.heapify(heap)
        idx, pair = heap[0]
        ids = merge(ids, pair, idx)
    return ids


def decode(ids, vocab):
    return b"".join(map(vocab.__getitem__, ids)).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    if len(ids) == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / len(ids)
