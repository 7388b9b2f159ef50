"""Functional style with dictionaries, Counter and dict views.

Style: `map`/`reduce`/`operator` instead of loops; `noise_distribution` accepts any
iterable of counts (also a `Counter` or a dict, through its `.values()` view, in
insertion order) and keeps the weights in a dict keyed by position; `most_similar`
keeps the cosines in a dict {position: cosine} and sorts its `items()` view;
`skipgram_pairs` is a nested comprehension; `embed` uses `np.take` with mode="raise"
after checking negative ids itself (numpy's own bounds check would let them wrap).
"""

import operator
from collections.abc import Mapping
from functools import reduce

import numpy as np


def embedding_params(vocab_size, dim):
    return reduce(operator.mul, (vocab_size, dim), 1)


def embed(ids, E):
    ids = list(ids)
    if any(map(lambda i: i < 0, ids)):
        raise IndexError("ids negativos no permitidos")
    E = np.asarray(E)
    try:
        return np.take(E, np.array(ids, dtype=np.intp), axis=0, mode="raise")
    except IndexError as err:
        raise IndexError(f"id fuera de la tabla: {err}") from None


def _dot(a, b):
    return sum(map(operator.mul, a, b))


def cosine(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("formas distintas")
    a, b = a.ravel().tolist(), b.ravel().tolist()
    norm_a, norm_b = _dot(a, a) ** 0.5, _dot(b, b) ** 0.5
    if norm_a == 0 or norm_b == 0:
        raise ValueError("vector cero")
    return _dot(a, b) / (norm_a * norm_b)


def euclidean(a, b):
    diffs = list(map(operator.sub, np.ravel(a).tolist(), np.ravel(b).tolist()))
    return _dot(diffs, diffs) ** 0.5


def most_similar(word, W, words, k=4):
    me = words.index(word)
    sims = {j: cosine(W[me], W[j]) for j in range(len(words)) if j != me}
    ranked = sorted(sims.items(), key=lambda item: item[1], reverse=True)   # stable on ties
    return [words[j] for j, _ in ranked[:k]]


def noise_distribution(counts, power=0.75):
    values = counts.values() if isinstance(counts, Mapping) else counts
    weights = {pos: float(c) ** power for pos, c in enumerate(values)}
    total = sum(weights.values())
    return np.array([w / total for w in weights.values()], dtype=float)


def skipgram_pairs(sentences, window=2):
    rows = [(s[i], s[j])
            for s in map(list, sentences)
            for i in range(len(s))
            for j in range(max(0, i - window), min(len(s), i + window + 1))
            if j != i]
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c, u_o, u_neg = map(lambda x: np.asarray(x, dtype=float), (v_c, u_o, u_neg))
    s_o = float(u_o @ v_c)
    s_neg = u_neg @ v_c
    neg_log_sig = lambda x: np.logaddexp(0.0, -x)          # -log σ(x)
    sig = lambda x: np.exp(-np.logaddexp(0.0, -x))         # σ(x)
    loss = neg_log_sig(s_o) + reduce(operator.add, map(neg_log_sig, -s_neg), 0.0)
    c_o = sig(s_o) - 1.0
    c_neg = sig(s_neg)
    grad_v = c_o * u_o + reduce(operator.add, map(operator.mul, c_neg, u_neg), np.zeros_like(v_c))
    grad_neg = np.array(list(map(lambda c: c * v_c, c_neg))).reshape(u_neg.shape)
    return float(loss), grad_v, c_o * v_c, grad_neg


def distance_ratio(points):
    first, rest = points[0], points[1:]
    distances = list(map(lambda p: euclidean(first, p), rest))
    return max(distances) / min(distances)
