"""Different numeric types: extended-precision intermediates and 32-bit integer pairs.

Style: norms, dot products and the noise weights are accumulated in `np.longdouble`
(80-bit on x86) and rounded to float64 only at the end; `cosine` normalises both
vectors first and then takes the dot product of the unit vectors (another order of
rounding); `euclidean` uses `math.hypot` over the coordinate differences;
`skipgram_pairs` returns an `int32` array when the ids fit (the contract asks only for
an integer array); `embed` builds the result with `np.vstack`; the sigmoid in the
gradients is `0.5 * (1 + tanh(x / 2))`, which never overflows.
"""

import math
import operator

import numpy as np

LD = np.longdouble


def embedding_params(vocab_size, dim):
    return operator.mul(vocab_size, dim)


def embed(ids, E):
    E = np.asarray(E)
    n = E.shape[0]
    for i in ids:
        if i < 0 or i >= n:
            raise IndexError(f"el id {i} no está en 0..{n - 1}")
    rows = [E[i:i + 1] for i in ids]
    if not rows:
        return E[:0].copy()
    return np.vstack(rows)


def cosine(a, b):
    a = np.asarray(a, dtype=LD)
    b = np.asarray(b, dtype=LD)
    if a.shape != b.shape:
        raise ValueError("formas distintas")
    na = np.sqrt(np.sum(a * a))
    nb = np.sqrt(np.sum(b * b))
    if na == 0 or nb == 0:
        raise ValueError("el vector cero no tiene dirección")
    return float(np.sum((a / na) * (b / nb)))


def euclidean(a, b):
    a, b = np.ravel(a), np.ravel(b)
    return math.hypot(*(float(x) - float(y) for x, y in zip(a, b)))


def most_similar(word, W, words, k=4):
    me = words.index(word)
    sims = [cosine(W[me], W[j]) for j in range(len(words))]
    order = sorted(range(len(words)), key=lambda j: (-sims[j], j))
    return [words[j] for j in order if j != me][:k]


def noise_distribution(counts, power=0.75):
    w = np.asarray(counts, dtype=LD) ** LD(power)
    return (w / w.sum()).astype(np.float64)


def skipgram_pairs(sentences, window=2):
    rows = []
    for sentence in sentences:
        for i in range(len(sentence)):
            left = range(max(0, i - window), i)
            right = range(i + 1, min(len(sentence), i + window + 1))
            rows.extend((sentence[i], sentence[j]) for j in (*left, *right))
    big = max((max(abs(int(c)), abs(int(o))) for c, o in rows), default=0)
    dtype = np.int32 if big < 2**31 else np.int64
    return np.array(rows, dtype=dtype).reshape(len(rows), 2)


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c = np.asarray(v_c, dtype=np.float64)
    u_o = np.asarray(u_o, dtype=np.float64)
    u_neg = np.asarray(u_neg, dtype=np.float64)
    s_o = float(np.sum(u_o * v_c, dtype=LD))
    s_neg = np.sum(u_neg * v_c, axis=1, dtype=LD).astype(np.float64)
    loss = float(np.logaddexp(0.0, -s_o) + np.sum(np.logaddexp(0.0, s_neg), dtype=LD))
    c_o = _sigmoid(s_o) - 1.0
    c_neg = _sigmoid(s_neg)
    grad_v = c_o * u_o + np.sum(c_neg[:, None] * u_neg, axis=0)
    return loss, grad_v, c_o * v_c, np.outer(c_neg, v_c).reshape(u_neg.shape)


def distance_ratio(points):
    points = np.asarray(points)
    distances = sorted(euclidean(points[0], p) for p in points[1:])
    return distances[-1] / distances[0]
