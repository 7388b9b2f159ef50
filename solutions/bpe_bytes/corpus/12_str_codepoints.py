"""Ids as code points of a str; merging is ``str.replace``.

Every id is stored as the character ``chr(id)``, so the working sequence of
train_bpe and encode is a Python ``str``. ``str.replace(old, new)`` scans left to
right and never overlaps, which is exactly the merge rule; pairs are counted with
``zip(s, s[1:])`` on the string and the first occurrence of each pair is
``str.find``. The public get_stats and merge take lists of ints (any iterable) and
use the same string machinery when every id is a valid code point, with a plain
loop otherwise. (train_bpe would need more than a million merges, and so a text
of more than a million bytes, before an id stopped fitting in a code point.)
"""

_MAX_CP = 0x10FFFF


def _fits(ids):
    return all(type(i) is int and 0 <= i <= _MAX_CP for i in ids)


def _to_str(ids):
    return "".join(map(chr, ids))


def _str_counts(s, counts):
    for a, b in zip(s, s[1:]):
        pair = (ord(a), ord(b))
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    ids = list(ids)
    if _fits(ids):
        return _str_counts(_to_str(ids), counts)
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    ids = list(ids)
    if _fits(ids) and _fits(pair) and _fits([idx]):
        return [ord(c) for c in _to_str(ids).replace(_to_str(pair), chr(idx))]
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    s = text.encode("utf-8").decode("latin-1")  # byte b -> chr(b)
    merges = {}
    for idx in range(256, vocab_size):
        if len(s) < 2:
            break
        counts = {}
        for a, b in zip(s, s[1:]):
            counts[a + b] = counts.get(a + b, 0) + 1
        top = max(counts.values())
        best = min((k for k, n in counts.items() if n == top), key=s.find)
        merges[(ord(best[0]), ord(best[1]))] = idx
        s = s.replace(best, chr(idx))
    return merges


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for pair, idx in sorted(merges.items(), key=lambda kv: kv[1]):
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
    return vocab


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    if not all(_fits(p) and _fits([i]) for p, i in merges.items()):
        while len(ids) >= 2:
            present = [p for p in get_stats(ids) if p in merges]
            if not present:
                break
            pair = min(present, key=merges.__getitem__)
            ids = merge(ids, pair, merges[pair])
        return ids
    rank = {chr(a) + chr(b): (i, chr(i)) for (a, b), i in merges.items()}
    s = _to_str(ids)
    while len(s) >= 2:
        present = {s[k:k + 2] for k in range(len(s) - 1)} & rank.keys()
        if not present:
            break
        best = min(present, key=lambda k: rank[k][0])
        s = s.replace(best, rank[best][1])
    return [ord(c) for c in s]


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    if len(ids) == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / len(ids)
