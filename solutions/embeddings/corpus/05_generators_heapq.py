"""Generator pipelines, itertools and heapq.

Style: `skipgram_pairs` is a chain of generators (`itertools.chain.from_iterable`,
`itertools.islice`) flattened straight into a buffer with `np.fromiter`; `most_similar`
picks the top k with `heapq.nlargest`, which is documented to equal
`sorted(..., reverse=True)[:k]` and so keeps the order of `words` on ties; `embed`
validates ids lazily with `all()` over a generator and stacks with `np.stack`;
`distance_ratio` gets min and max in one pass with `functools.reduce`.
"""

import heapq
import itertools
import math
from functools import reduce

import numpy as np


def embedding_params(vocab_size, dim):
    return math.prod((vocab_size, dim))


def embed(ids, E):
    ids = list(ids)
    n = len(E)
    if not all(0 <= i < n for i in ids):
        bad = next(i for i in ids if not 0 <= i < n)
        raise IndexError(f"id {bad} fuera de rango para una tabla de {n} filas")
    if not ids:
        return np.empty((0,) + np.shape(E)[1:], dtype=np.asarray(E).dtype)
    return np.stack([E[i] for i in ids])


def cosine(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("no se puede comparar vectores de formas distintas")
    na = math.sqrt(sum(x * x for x in a.flat))
    nb = math.sqrt(sum(x * x for x in b.flat))
    if na == 0.0 or nb == 0.0:
        raise ValueError("cosine no está definido para el vector cero")
    return float(sum(x * y for x, y in zip(a.flat, b.flat)) / (na * nb))


def euclidean(a, b):
    return math.dist(np.ravel(a).tolist(), np.ravel(b).tolist())


def most_similar(word, W, words, k=4):
    me = words.index(word)
    candidates = ((cosine(W[me], W[j]), j) for j in range(len(words)) if j != me)
    best = heapq.nlargest(k, candidates, key=lambda pair: pair[0])
    return [words[j] for _, j in best]


def noise_distribution(counts, power=0.75):
    weights = np.fromiter((float(c) ** power for c in counts), dtype=float)
    return weights / weights.sum()


def _window(sentence, i, window):
    """Context positions of centre i, left to right, clipped to the sentence."""
    return (j for j in range(max(0, i - window), min(len(sentence), i + window + 1)) if j != i)


def _pairs(sentence, window):
    return ((sentence[i], sentence[j]) for i in range(len(sentence)) for j in _window(sentence, i, window))


def skipgram_pairs(sentences, window=2):
    sentences = [list(s) for s in sentences]
    rows = itertools.chain.from_iterable(_pairs(s, window) for s in sentences)
    flat = itertools.chain.from_iterable(rows)
    return np.fromiter(flat, dtype=np.int64).reshape(-1, 2)


def _softplus(x):
    """log(1 + e^x), elementwise and stable."""
    return np.logaddexp(0.0, x)


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c, u_o, u_neg = (np.asarray(x, dtype=float) for x in (v_c, u_o, u_neg))
    s_o = float(np.dot(u_o, v_c))
    s_neg = u_neg @ v_c
    loss = float(_softplus(-s_o) + sum(_softplus(s) for s in s_neg))
    sigma_o = float(np.exp(-_softplus(-s_o)))
    sigma_neg = np.exp(-_softplus(-s_neg))
    grad_v = (sigma_o - 1.0) * u_o + reduce(np.add, (s * u for s, u in zip(sigma_neg, u_neg)), np.zeros_like(v_c))
    grad_o = (sigma_o - 1.0) * v_c
    grad_neg = np.array([s * v_c for s in sigma_neg]).reshape(u_neg.shape)
    return loss, grad_v, grad_o, grad_neg


def distance_ratio(points):
    origin, *others = points
    distances = (euclidean(origin, p) for p in others)
    lo, hi = reduce(lambda acc, d: (min(acc[0], d), max(acc[1], d)), distances, (math.inf, -math.inf))
    return hi / lo
