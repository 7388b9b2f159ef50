"""numpy reductions and ufunc methods, numpy scalars left as they come.

Style: `embedding_params` is `np.prod` of the table's shape (a numpy integer, not
converted); `euclidean` is `np.hypot.reduce` over the differences (overflow-safe
scaling, a different rounding from sqrt-of-sum); `cosine` divides the dot product by
`np.hypot.reduce` norms; `most_similar` ranks with `np.lexsort` on (position, -cosine);
`noise_distribution` uses `np.float_power`; `skipgram_pairs` builds a boolean band
matrix |i - j| <= window per sentence and reads the pairs with `np.nonzero` (row-major,
so centre then context order comes for free); the loss uses `np.logaddexp.reduce`.
"""

import numpy as np


def embedding_params(vocab_size, dim):
    return np.prod([vocab_size, dim], dtype=np.int64)


def embed(ids, E):
    E = np.asarray(E)
    idx = np.asarray(ids, dtype=np.int64).reshape(-1)
    if np.logical_or(idx < 0, idx >= E.shape[0]).any():
        raise IndexError("id fuera de la tabla")
    return np.take(E, idx, axis=0)


def _norm(v):
    v = np.ravel(v)
    return np.hypot.reduce(v) if v.size else 0.0


def cosine(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("formas distintas")
    na, nb = _norm(a), _norm(b)
    if na == 0 or nb == 0:
        raise ValueError("vector cero")
    return np.dot(a.ravel(), b.ravel()) / na / nb


def euclidean(a, b):
    return _norm(np.subtract(a, b, dtype=float))


def most_similar(word, W, words, k=4):
    W = np.asarray(W, dtype=float)
    me = words.index(word)
    sims = np.array([cosine(W[me], row) if j != me else -np.inf for j, row in enumerate(W)])
    order = np.lexsort((np.arange(len(words)), -sims))      # last key is the primary one
    order = order[order != me]
    return [words[j] for j in order[:max(k, 0)]]


def noise_distribution(counts, power=0.75):
    w = np.float_power(np.asarray(counts, dtype=float), power)
    return w / np.add.reduce(w)


def skipgram_pairs(sentences, window=2):
    blocks = [np.empty((0, 2), dtype=np.int64)]
    for sentence in sentences:
        s = np.asarray(list(sentence), dtype=np.int64)
        pos = np.arange(s.size)
        gap = np.abs(pos[:, None] - pos[None, :])
        centre, context = np.nonzero((gap > 0) & (gap <= window))
        blocks.append(np.stack([s[centre], s[context]], axis=1))
    return np.concatenate(blocks)


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c, u_o, u_neg = (np.asarray(x, dtype=float) for x in (v_c, u_o, u_neg))
    s_o, s_neg = u_o @ v_c, u_neg @ v_c
    # -log σ(x) = log(e^0 + e^-x): one logaddexp.reduce per term
    terms = [np.logaddexp.reduce([0.0, -s_o])] + [np.logaddexp.reduce([0.0, s]) for s in s_neg]
    loss = np.sum(terms)
    c_o = np.exp(-np.logaddexp(0.0, -s_o)) - 1.0
    c_neg = np.exp(-np.logaddexp(0.0, -s_neg))
    return float(loss), c_o * u_o + c_neg @ u_neg, c_o * v_c, np.multiply.outer(c_neg, v_c)


def distance_ratio(points):
    P = np.asarray(points, dtype=float)
    d = np.array([euclidean(P[0], p) for p in P[1:]])
    return np.max(d) / np.min(d)
