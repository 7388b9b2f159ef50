"""Standard-library containers: `array.array`, `memoryview` and a named tuple.

Style: `skipgram_pairs` appends to an `array.array("q")` (a flat buffer of 64-bit
integers) and hands the buffer to numpy with `np.frombuffer`, without a list of tuples;
`noise_distribution` fills an `array.array("d")`; vectors are read through a
`memoryview` of a contiguous float64 copy; `sgns_loss_and_grads` returns a
`typing.NamedTuple` (a tuple subclass, so unpacking and indexing work as for a tuple);
`embed` preallocates the result with `np.empty` and copies row by row.
"""

import array
import math
from typing import NamedTuple

import numpy as np


class SGNSResult(NamedTuple):
    loss: float
    grad_v_c: np.ndarray
    grad_u_o: np.ndarray
    grad_u_neg: np.ndarray


def _view(v):
    """A flat read-only memoryview of doubles over a float64 copy of v."""
    return memoryview(np.ascontiguousarray(v, dtype=np.float64).ravel()).cast("B").cast("d")


def embedding_params(vocab_size, dim):
    return int(vocab_size * dim)


def embed(ids, E):
    E = np.asarray(E)
    ids = array.array("q", ids)
    out = np.empty((len(ids),) + E.shape[1:], dtype=E.dtype)
    for k, i in enumerate(ids):
        if not 0 <= i < E.shape[0]:
            raise IndexError(f"id {i} fuera de 0..{E.shape[0] - 1}")
        out[k] = E[i]
    return out


def cosine(a, b):
    if np.shape(a) != np.shape(b):
        raise ValueError("formas distintas")
    va, vb = _view(a), _view(b)
    dot = math.fsum(x * y for x, y in zip(va, vb))
    na = math.sqrt(math.fsum(x * x for x in va))
    nb = math.sqrt(math.fsum(y * y for y in vb))
    if na == 0.0 or nb == 0.0:
        raise ValueError("el vector cero no tiene dirección")
    return dot / na / nb


def euclidean(a, b):
    va, vb = _view(a), _view(b)
    return math.sqrt(math.fsum((x - y) * (x - y) for x, y in zip(va, vb)))


def most_similar(word, W, words, k=4):
    me = words.index(word)
    sims = array.array("d", (cosine(W[me], W[j]) for j in range(len(words))))
    others = [j for j in range(len(words)) if j != me]
    others.sort(key=sims.__getitem__, reverse=True)
    return [words[j] for j in others[:k]]


def noise_distribution(counts, power=0.75):
    weights = array.array("d", (float(c) ** power for c in counts))
    total = math.fsum(weights)
    for i, w in enumerate(weights):
        weights[i] = w / total
    return np.frombuffer(weights, dtype=np.float64).copy()


def skipgram_pairs(sentences, window=2):
    buf = array.array("q")
    for sentence in sentences:
        ids = array.array("q", sentence)
        n = len(ids)
        for i in range(n):
            for j in range(max(0, i - window), min(n, i + window + 1)):
                if j != i:
                    buf.append(ids[i])
                    buf.append(ids[j])
    return np.frombuffer(buf, dtype=np.int64).reshape(-1, 2).copy()


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c = np.asarray(v_c, dtype=np.float64)
    u_o = np.asarray(u_o, dtype=np.float64)
    u_neg = np.asarray(u_neg, dtype=np.float64).reshape(-1, v_c.size)
    s_o = float(u_o @ v_c)
    s_neg = u_neg @ v_c
    loss = float(np.logaddexp(0.0, -s_o)) + math.fsum(np.logaddexp(0.0, s_neg).tolist())
    c_o = float(np.exp(-np.logaddexp(0.0, -s_o))) - 1.0
    c_neg = np.exp(-np.logaddexp(0.0, -s_neg))
    return SGNSResult(loss, c_o * u_o + c_neg @ u_neg, c_o * v_c, c_neg[:, None] * v_c)


def distance_ratio(points):
    points = np.asarray(points, dtype=np.float64)
    distances = array.array("d", (euclidean(points[0], p) for p in points[1:]))
    return max(distances) / min(distances)
