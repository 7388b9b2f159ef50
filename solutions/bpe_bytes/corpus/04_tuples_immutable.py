"""Immutable tuples everywhere.

Every sequence is a tuple: train_bpe and encode keep the working sequence as a
tuple and pass it to get_stats and merge; merge builds its answer by walking a
tuple and only turns it into a list on the way out. get_stats zips the sequence
with its own tail (``ids[1:]``). The tie rule is written out explicitly: each
pair's first position is recorded and the best pair is the maximum of the key
``(count, -first_position)``.
"""


def get_stats(ids, counts=None):
    ids = tuple(ids)
    result = {} if counts is None else counts
    for left, right in zip(ids, ids[1:]):
        result[(left, right)] = result.get((left, right), 0) + 1
    return result


def merge(ids, pair, idx):
    seq = tuple(ids)
    pair = tuple(pair)
    parts = []
    i = 0
    while i < len(seq):
        if seq[i:i + 2] == pair:
            parts.append(idx)
            i += 2
        else:
            parts.append(seq[i])
            i += 1
    return list(tuple(parts))


def _first_positions(seq):
    first = {}
    for position, pair in enumerate(zip(seq, seq[1:])):
        first.setdefault(pair, position)
    return first


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be >= 256")
    seq = tuple(text.encode("utf-8"))
    learned = ()
    for new_id in range(256, vocab_size):
        if len(seq) < 2:
            break
        counts = get_stats(seq)
        first = _first_positions(seq)
        best = max(counts, key=lambda p: (counts[p], -first[p]))
        learned += ((best, new_id),)
        seq = tuple(merge(seq, best, new_id))
    return dict(learned)


def build_vocab(merges):
    table = {i: bytes((i,)) for i in range(256)}
    for (a, b), idx in sorted(merges.items(), key=lambda item: item[1]):
        table[idx] = table[a] + table[b]
    return table


def encode(text, merges):
    seq = tuple(text.encode("utf-8"))
    while len(seq) >= 2:
        ranked = tuple(sorted((merges[p], p) for p in get_stats(seq) if p in merges))
        if not ranked:
            break
        idx, pair = ranked[0]
        seq = tuple(merge(seq, pair, idx))
    return list(seq)


def decode(ids, vocab):
    return b"".join(tuple(vocab[i] for i in ids)).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    ids = tuple(ids)
    if ids == ():
        raise ValueError("ids vacío")
    return len(text.encode("utf-8")) / len(ids)
