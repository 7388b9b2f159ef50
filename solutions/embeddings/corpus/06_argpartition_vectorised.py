"""Fully vectorised numpy: argpartition for top-k, one-shot skip-gram over the whole corpus.

Style: `most_similar` normalises every row once and selects the k best with
`np.argpartition` (O(n)); because argpartition picks arbitrarily among equal values at
the cut, every candidate that ties with the k-th value is kept, and the survivors are
ordered with `np.lexsort` on (-cosine, position). `skipgram_pairs` concatenates all
sentences, computes every (centre, offset) pair with broadcasting, masks the ones that
leave their sentence, and never loops over tokens. The log-sigmoid is the piecewise
stable softplus `max(x, 0) + log1p(exp(-|x|))` instead of `np.logaddexp`.
"""

import numpy as np


def embedding_params(vocab_size, dim):
    return int(vocab_size) * int(dim)


def embed(ids, E):
    E = np.asarray(E)
    idx = np.asarray(ids, dtype=np.intp)
    if idx.ndim != 1:
        idx = idx.reshape(-1)
    out_of_range = (idx < 0) | (idx >= E.shape[0])
    if np.any(out_of_range):
        raise IndexError(f"id {idx[np.argmax(out_of_range)]} fuera de 0..{E.shape[0] - 1}")
    return E[idx].copy()


def cosine(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("vectores de formas distintas")
    norms = np.array([np.linalg.norm(a), np.linalg.norm(b)])
    if not np.all(norms > 0):
        raise ValueError("vector cero")
    return float(np.vdot(a, b) / norms.prod())


def euclidean(a, b):
    d = np.subtract(a, b, dtype=float)
    return float(np.sqrt(np.sum(d * d)))


def most_similar(word, W, words, k=4):
    W = np.asarray(W, dtype=float)
    me = words.index(word)
    norms = np.linalg.norm(W, axis=1)
    if np.any(norms == 0):
        raise ValueError("hay un vector cero en W")
    sims = (W @ W[me]) / (norms * norms[me])
    others = np.delete(np.arange(len(words)), me)
    k = max(0, min(k, others.size))
    if k == 0:
        return []
    s = sims[others]
    cut = np.argpartition(-s, k - 1)[k - 1]            # position of the k-th best value
    keep = np.flatnonzero(s >= s[cut])                 # everything tied with it survives
    keep = keep[np.lexsort((others[keep], -s[keep]))]  # best first, ties by position
    return [words[j] for j in others[keep[:k]]]


def noise_distribution(counts, power=0.75):
    w = np.power(np.array(counts, dtype=float), power)
    return w / w.sum()


def skipgram_pairs(sentences, window=2):
    lengths = np.array([len(s) for s in sentences], dtype=np.intp)
    tokens = np.fromiter((t for s in sentences for t in s), dtype=np.int64, count=int(lengths.sum()))
    sentence_of = np.repeat(np.arange(lengths.size), lengths)
    offsets = np.array([o for o in range(-window, window + 1) if o != 0], dtype=np.intp)
    centre = np.repeat(np.arange(tokens.size), offsets.size)   # centre-major, offsets ascending
    context = centre + np.tile(offsets, tokens.size)
    inside = (context >= 0) & (context < tokens.size)
    centre, context = centre[inside], context[inside]
    same = sentence_of[centre] == sentence_of[context]
    centre, context = centre[same], context[same]
    return np.column_stack([tokens[centre], tokens[context]]).reshape(-1, 2)


def _neg_log_sigmoid(x):
    """-log σ(x) = log(1 + e^-x), written piecewise so that nothing overflows."""
    x = np.asarray(x, dtype=float)
    return np.maximum(-x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def _sigmoid(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c, u_o = np.asarray(v_c, dtype=float), np.asarray(u_o, dtype=float)
    u_neg = np.asarray(u_neg, dtype=float)
    s_o, s_neg = u_o @ v_c, u_neg @ v_c
    loss = _neg_log_sigmoid(s_o) + _neg_log_sigmoid(-s_neg).sum()
    c_o = _sigmoid(s_o) - 1.0
    c_neg = _sigmoid(s_neg)
    return (float(loss), c_o * u_o + u_neg.T @ c_neg, c_o * v_c, c_neg[:, np.newaxis] * v_c)


def distance_ratio(points):
    P = np.asarray(points, dtype=float)
    d = np.linalg.norm(P[1:] - P[0], axis=1)
    return float(np.max(d) / np.min(d))
