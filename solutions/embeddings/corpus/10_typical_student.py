"""The short answer a typical student writes, returning numpy scalars as they come.

Style: one-liners close to the lesson's formulas; `cosine`, `euclidean`,
`distance_ratio` and the loss are returned as numpy float64 scalars without `float(...)`
(np.float64 is a subclass of Python's float); the sigmoid in the gradients is the naive
`1 / (1 + exp(-x))` under `np.errstate(over="ignore")`, which is exact enough at the
extremes (exp overflows to inf and 1/inf is 0), while the loss uses `np.logaddexp` as
the contract requires; `most_similar` drops the word by position with list slicing and
`np.delete`, then sorts the remaining words with `sorted(..., reverse=True)`;
`skipgram_pairs` uses while loops.
"""

import numpy as np


def embedding_params(vocab_size, dim):
    return vocab_size * dim


def embed(ids, E):
    for i in ids:
        if i < 0 or i >= len(E):
            raise IndexError("id fuera de rango: " + str(i))
    return E[np.array(ids, dtype=int)]


def cosine(a, b):
    a = np.array(a, dtype=float)
    b = np.array(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("a y b tienen formas distintas")
    if not a.any() or not b.any():
        raise ValueError("no hay coseno con el vector cero")
    return np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b))


def euclidean(a, b):
    return np.sqrt(np.sum((np.array(a, dtype=float) - np.array(b, dtype=float)) ** 2))


def most_similar(word, W, words, k=4):
    i = words.index(word)
    other_words = words[:i] + words[i + 1:]
    other_rows = np.delete(W, i, axis=0)
    sims = [cosine(W[i], row) for row in other_rows]
    ranked = sorted(range(len(other_words)), key=lambda j: sims[j], reverse=True)
    return [other_words[j] for j in ranked[:k]]


def noise_distribution(counts, power=0.75):
    p = np.array(counts, dtype=float) ** power
    return p / np.sum(p)


def skipgram_pairs(sentences, window=2):
    pairs = []
    for s in sentences:
        i = 0
        while i < len(s):
            j = max(0, i - window)
            while j <= min(len(s) - 1, i + window):
                if j != i:
                    pairs.append([s[i], s[j]])
                j += 1
            i += 1
    return np.array(pairs, dtype=int).reshape(-1, 2)


def sigmoid(x):
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-x))


def sgns_loss_and_grads(v_c, u_o, u_neg):
    score_o = np.dot(u_o, v_c)
    scores_neg = u_neg @ v_c
    loss = np.logaddexp(0, -score_o) + np.sum(np.logaddexp(0, scores_neg))
    grad_v_c = (sigmoid(score_o) - 1) * u_o + sigmoid(scores_neg) @ u_neg
    grad_u_o = (sigmoid(score_o) - 1) * v_c
    grad_u_neg = sigmoid(scores_neg)[:, None] * v_c[None, :]
    return loss, grad_v_c, grad_u_o, grad_u_neg


def distance_ratio(points):
    d = np.linalg.norm(points[1:] - points[0], axis=1)
    return d.max() / d.min()
