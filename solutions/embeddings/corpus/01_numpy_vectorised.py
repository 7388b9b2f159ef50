"""Plain vectorised numpy, the way the lesson suggests it.

Style: every function is a few numpy calls; `most_similar` computes all cosines at once
with a matrix-vector product and orders them with a stable `np.argsort`; `skipgram_pairs`
collects rows in a list and converts once at the end.
"""

import numpy as np


def embedding_params(vocab_size, dim):
    return int(vocab_size) * int(dim)


def embed(ids, E):
    E = np.asarray(E)
    idx = np.asarray(ids, dtype=np.intp).reshape(-1)
    if idx.size and (idx.min() < 0 or idx.max() >= len(E)):
        raise IndexError("id fuera de la tabla de embeddings")
    return E[idx]


def cosine(a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"formas distintas: {a.shape} y {b.shape}")
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0 or nb == 0:
        raise ValueError("el vector cero no tiene dirección")
    return float(np.dot(a.ravel(), b.ravel()) / (na * nb))


def euclidean(a, b):
    return float(np.linalg.norm(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)))


def most_similar(word, W, words, k=4):
    W = np.asarray(W, dtype=float)
    i = list(words).index(word)
    sims = np.array([cosine(W[i], W[j]) if j != i else -np.inf for j in range(len(words))])
    order = np.argsort(-sims, kind="stable")
    return [words[j] for j in order if j != i][:k]


def noise_distribution(counts, power=0.75):
    weights = np.asarray(counts, dtype=float) ** power
    return weights / weights.sum()


def skipgram_pairs(sentences, window=2):
    rows = []
    for sentence in sentences:
        n = len(sentence)
        for i in range(n):
            for j in range(max(0, i - window), min(n, i + window + 1)):
                if j != i:
                    rows.append((sentence[i], sentence[j]))
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c, u_o, u_neg = np.asarray(v_c, float), np.asarray(u_o, float), np.asarray(u_neg, float)
    s_o = u_o @ v_c
    s_neg = u_neg @ v_c
    loss = np.logaddexp(0, -s_o) + np.sum(np.logaddexp(0, s_neg))
    sig_o = np.exp(-np.logaddexp(0, -s_o))
    sig_neg = np.exp(-np.logaddexp(0, -s_neg))
    grad_v = (sig_o - 1) * u_o + sig_neg @ u_neg
    grad_o = (sig_o - 1) * v_c
    grad_neg = sig_neg[:, None] * v_c[None, :]
    return float(loss), grad_v, grad_o, grad_neg


def distance_ratio(points):
    points = np.asarray(points, dtype=float)
    d = np.array([euclidean(points[0], p) for p in points[1:]])
    return float(d.max() / d.min())
