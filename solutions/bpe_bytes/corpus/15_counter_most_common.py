"""Counter all the way: most_common picks the winner, Counter arithmetic accumulates.

get_stats builds a ``Counter`` of ``zip`` over two ``itertools.tee`` copies of any
iterable and returns it (a dict subclass); with ``counts`` given, it adds into that
object in place. train_bpe relies on its own get_stats returning a Counter: the
winner is ``get_stats(seq).most_common(1)``, which keeps the first maximal pair in
insertion (= first-occurrence) order. The working sequence is a compact
``array('H')`` (``'I'`` once ids no longer fit in 16 bits), handed to get_stats and
merge as is. encode ranks the present pairs with ``Counter.most_common`` on negated
merge ids.
"""
from array import array
from collections import Counter
from itertools import islice, tee


def get_stats(ids, counts=None):
    a, b = tee(ids)
    fresh = Counter(zip(a, islice(b, 1, None)))
    if counts is None:
        return fresh
    for pair, n in fresh.items():
        counts[pair] = counts.get(pair, 0) + n
    return counts


def merge(ids, pair, idx):
    out = []
    it = iter(ids)
    prev = next(it, None)
    if prev is None:
        return out
    for cur in it:
        if prev is not None and prev == pair[0] and cur == pair[1]:
            out.append(idx)
            prev = None
        else:
            if prev is not None:
                out.append(prev)
            prev = cur
    if prev is not None:
        out.append(prev)
    return out


def _typecode(vocab_size):
    return "H" if vocab_size <= 1 << 16 else "I"


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    code = _typecode(vocab_size)
    seq = array(code, list(text.encode("utf-8")))
    merges = {}
    for idx in range(256, vocab_size):
        if len(seq) < 2:
            break
        (best, _), = get_stats(seq).most_common(1)
        merges[best] = idx
        seq = array(code, merge(seq, best, idx))
    return merges


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), idx in sorted(merges.items(), key=lambda kv: kv[1]):
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        ranks = Counter({p: -merges[p] for p in get_stats(ids) if p in merges})
        if not ranks:
            break
        (pair, _), = ranks.most_common(1)
        ids = merge(ids, pair, merges[pair])
    return ids


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    if len(ids) == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / len(ids)
