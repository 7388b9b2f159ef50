"""numpy where it fits: code points from a UTF-32 buffer, first appearances by np.unique.

tokenize_chars reads the text as an array of uint32 code points (numpy's own string
dtype would drop trailing NUL characters, so the strings are rebuilt with chr);
build_vocab orders the distinct tokens by their first index from `np.unique(...,
return_index=True)` on an object array; encode and decode index numpy arrays; oov_rate
is the mean of a boolean mask. Every result is converted back to Python types.
"""
import re

import numpy as np


def tokenize_chars(text):
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    return [chr(p) for p in points.tolist()]


def tokenize_words(text):
    return re.findall(r"\S+", text)


def build_vocab(tokens, specials=("[UNK]",)):
    stream = np.empty(len(specials) + len(tokens), dtype=object)
    stream[:] = list(specials) + list(tokens)
    if stream.size == 0:
        return {}
    distinct, first = np.unique(stream, return_index=True)
    order = np.argsort(first, kind="stable")
    return {str(distinct[k]): i for i, k in enumerate(order.tolist())}


def encode(tokens, vocab, unk="[UNK]"):
    unk_id = vocab[unk]
    ids = np.full(len(tokens), unk_id, dtype=object)
    for position, token in enumerate(tokens):
        if token in vocab:
            ids[position] = vocab[token]
    return ids.tolist()


def decode(ids, vocab):
    keys = np.array(list(vocab.values()), dtype=object)
    tokens = np.array(list(vocab.keys()) + [None], dtype=object)[:-1]
    out = []
    for i in ids:
        hits = np.flatnonzero(keys == i)
        if hits.size == 0:
            raise KeyError(i)
        out.append(tokens[hits[0]])
    return out


def oov_rate(tokens, vocab):
    if len(tokens) == 0:
        return 0.0
    mask = np.fromiter((t not in vocab for t in tokens), dtype=bool, count=len(tokens))
    return float(mask.mean())
