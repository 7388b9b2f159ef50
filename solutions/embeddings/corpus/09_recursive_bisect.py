"""Recursion and a hand-kept ranking with `bisect`.

Style: `skipgram_pairs` recurses over the list of sentences (head, tail) and over the
centre position; `most_similar` keeps a bounded ranking of at most k entries with
`bisect.insort` on the key (-cosine, position), so a later word never overtakes an
earlier one with the same cosine; `distance_ratio` finds the extremes with a
divide-and-conquer recursion; `embed` validates every id in a loop and indexes with
a numpy integer array; `cosine` uses `np.inner` and `np.sqrt`.
"""

import bisect
import sys

import numpy as np


def embedding_params(vocab_size, dim):
    return vocab_size * dim


def _check_ids(ids, n, start=0):
    while start < len(ids):
        if not 0 <= ids[start] < n:
            raise IndexError(f"id {ids[start]} en la posición {start} fuera de 0..{n - 1}")
        start += 1


def embed(ids, E):
    ids = list(ids)
    E = np.asarray(E)
    _check_ids(ids, len(E))
    return E[np.array(ids, dtype=np.int64)] if ids else E[np.zeros(0, dtype=np.int64)]


def cosine(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if np.shape(a) != np.shape(b):
        raise ValueError("a y b no tienen la misma forma")
    na, nb = np.sqrt(np.inner(a.ravel(), a.ravel())), np.sqrt(np.inner(b.ravel(), b.ravel()))
    if na == 0 or nb == 0:
        raise ValueError("vector cero")
    return float(np.inner(a.ravel(), b.ravel()) / (na * nb))


def euclidean(a, b):
    return float(np.linalg.norm(np.ravel(np.subtract(a, b, dtype=np.float64)), ord=2))


def most_similar(word, W, words, k=4):
    me = words.index(word)
    ranking = []                                   # sorted list of (-cosine, position)
    for j in range(len(words)):
        if j == me:
            continue
        entry = (-cosine(W[me], W[j]), j)
        if len(ranking) < k or entry < ranking[-1]:
            bisect.insort(ranking, entry)
            if len(ranking) > k:
                ranking.pop()
    return [words[j] for _, j in ranking]


def noise_distribution(counts, power=0.75):
    weights = np.array([c ** power for c in np.asarray(counts, dtype=np.float64)], dtype=np.float64)
    return weights / np.sum(weights)


def _centre_pairs(sentence, i, window):
    if i == len(sentence):
        return []
    contexts = [sentence[j] for j in range(max(0, i - window), min(len(sentence), i + window + 1)) if j != i]
    return [(sentence[i], c) for c in contexts] + _centre_pairs(sentence, i + 1, window)


def _all_pairs(sentences, window):
    if not sentences:
        return []
    head, *tail = sentences
    return _centre_pairs(list(head), 0, window) + _all_pairs(tail, window)


def skipgram_pairs(sentences, window=2):
    sentences = list(sentences)
    depth = len(sentences) + max((len(s) for s in sentences), default=0) + 100
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, depth + 1000))
    try:
        rows = _all_pairs(sentences, window)
    finally:
        sys.setrecursionlimit(old)
    return np.array(rows, dtype=np.int64).reshape(len(rows), 2)


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c, u_o = np.asarray(v_c, dtype=np.float64), np.asarray(u_o, dtype=np.float64)
    u_neg = np.atleast_2d(np.asarray(u_neg, dtype=np.float64))
    x = np.concatenate([[np.inner(u_o, v_c)], -(u_neg @ v_c)])   # σ(x_i) should go to 1 for all
    loss = float(np.sum(np.logaddexp(0.0, -x)))
    one_minus_sigma = np.exp(-np.logaddexp(0.0, x))              # 1 - σ(x) = σ(-x), stable
    c_o, c_neg = -one_minus_sigma[0], one_minus_sigma[1:]
    return loss, c_o * u_o + c_neg @ u_neg, c_o * v_c, np.outer(c_neg, v_c)


def _extremes(values):
    if len(values) == 1:
        return values[0], values[0]
    mid = len(values) // 2
    lo1, hi1 = _extremes(values[:mid])
    lo2, hi2 = _extremes(values[mid:])
    return min(lo1, lo2), max(hi1, hi2)


def distance_ratio(points):
    points = np.asarray(points, dtype=np.float64)
    lo, hi = _extremes([euclidean(points[0], p) for p in points[1:]])
    return hi / lo
