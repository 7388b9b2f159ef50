"""Pure Python with the `math` module; numpy only at the boundary where the spec asks for arrays.

Style: vectors are iterated as plain sequences; sums use `math.fsum` (exactly rounded),
square roots `math.sqrt`, the stable log-sigmoid is written by hand with `math.log1p` and
`math.exp`. `embed`, `noise_distribution`, `skipgram_pairs` and the gradients build Python
lists and convert them to numpy arrays only when returning, because the contract asks for
arrays there. Scalars are Python floats.
"""

import math

import numpy as np


def embedding_params(vocab_size, dim):
    return vocab_size * dim


def embed(ids, E):
    n = len(E)
    rows = []
    for i in ids:
        if not 0 <= i < n:
            raise IndexError(f"id {i} fuera de 0..{n - 1}")
        rows.append(E[i])
    d = E.shape[1]
    return np.array(rows, dtype=E.dtype).reshape(len(rows), d)


def _as_list(v):
    return [float(x) for x in v]


def _shape(v):
    return np.shape(v)


def cosine(a, b):
    if _shape(a) != _shape(b):
        raise ValueError("los vectores no tienen la misma forma")
    a, b = _as_list(a), _as_list(b)
    norm_a = math.sqrt(math.fsum(x * x for x in a))
    norm_b = math.sqrt(math.fsum(y * y for y in b))
    if norm_a == 0.0 or norm_b == 0.0:
        raise ValueError("vector cero")
    return math.fsum(x * y for x, y in zip(a, b)) / (norm_a * norm_b)


def euclidean(a, b):
    return math.sqrt(math.fsum((x - y) ** 2 for x, y in zip(_as_list(a), _as_list(b))))


def most_similar(word, W, words, k=4):
    me = words.index(word)
    scored = [(cosine(W[me], W[j]), j) for j in range(len(words)) if j != me]
    scored.sort(key=lambda pair: -pair[0])          # stable: ties keep the order of `words`
    return [words[j] for _, j in scored[:k]]


def noise_distribution(counts, power=0.75):
    weights = [float(c) ** power for c in counts]
    total = math.fsum(weights)
    return np.array([w / total for w in weights], dtype=float)


def skipgram_pairs(sentences, window=2):
    rows = []
    for sentence in sentences:
        sentence = list(sentence)
        for i, center in enumerate(sentence):
            lo, hi = max(0, i - window), min(len(sentence) - 1, i + window)
            for j in range(lo, hi + 1):
                if j != i:
                    rows.append([int(center), int(sentence[j])])
    if not rows:
        return np.zeros((0, 2), dtype=int)
    return np.array(rows, dtype=int)


def _softplus(x):
    """log(1 + e^x) without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def _sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _dot(a, b):
    return math.fsum(x * y for x, y in zip(a, b))


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v = _as_list(v_c)
    o = _as_list(u_o)
    negs = [_as_list(row) for row in u_neg]
    d = len(v)
    s_o = _dot(o, v)
    s_neg = [_dot(u, v) for u in negs]
    loss = _softplus(-s_o) + math.fsum(_softplus(s) for s in s_neg)
    g_o_coef = _sigmoid(s_o) - 1.0
    g_neg_coef = [_sigmoid(s) for s in s_neg]
    grad_v = [g_o_coef * o[t] + math.fsum(c * u[t] for c, u in zip(g_neg_coef, negs)) for t in range(d)]
    grad_o = [g_o_coef * x for x in v]
    grad_neg = [[c * x for x in v] for c in g_neg_coef]
    return (loss, np.array(grad_v, dtype=float), np.array(grad_o, dtype=float),
            np.array(grad_neg, dtype=float).reshape(len(negs), d))


def distance_ratio(points):
    rows = [list(p) for p in points]
    distances = [euclidean(rows[0], p) for p in rows[1:]]
    return max(distances) / min(distances)
