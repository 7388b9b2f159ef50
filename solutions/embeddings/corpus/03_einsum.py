"""numpy with `np.einsum` for every contraction.

Style: dot products, norms, the batch of cosines in `most_similar` and the outer product
of the negative-sample gradient are all written as einsum subscripts; `embed` uses
`np.take` along axis 0 after an explicit range check; `skipgram_pairs` builds the rows
offset by offset with array slicing and then restores the contract's order with a
stable `np.lexsort` on (sentence, centre position, context position).
"""

import numpy as np


def embedding_params(vocab_size, dim):
    return int(np.einsum("i,i->", [vocab_size], [dim], dtype=object))


def embed(ids, E):
    E = np.asarray(E)
    idx = np.array(list(ids), dtype=np.int64)
    bad = (idx < 0) | (idx >= E.shape[0])
    if bad.any():
        raise IndexError(f"ids fuera de rango: {idx[bad].tolist()}")
    return np.take(E, idx, axis=0).reshape(len(idx), *E.shape[1:])


def cosine(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("shapes differ")
    aa = np.einsum("i,i->", a.ravel(), a.ravel())
    bb = np.einsum("i,i->", b.ravel(), b.ravel())
    if aa == 0 or bb == 0:
        raise ValueError("zero vector")
    return float(np.einsum("i,i->", a.ravel(), b.ravel()) / (np.sqrt(aa) * np.sqrt(bb)))


def euclidean(a, b):
    diff = (np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)).ravel()
    return float(np.sqrt(np.einsum("i,i->", diff, diff)))


def most_similar(word, W, words, k=4):
    W = np.asarray(W, dtype=np.float64)
    me = words.index(word)
    norms = np.sqrt(np.einsum("ij,ij->i", W, W))
    if not norms.all():
        raise ValueError("zero vector in W")
    sims = np.einsum("ij,j->i", W, W[me]) / (norms * norms[me])     # all cosines at once
    keep = np.array([j for j in range(len(words)) if j != me], dtype=np.intp)
    order = keep[np.argsort(-sims[keep], kind="mergesort")]
    return [words[j] for j in order[:k]]


def noise_distribution(counts, power=0.75):
    w = np.power(np.asarray(counts, dtype=np.float64), power)
    return w / np.einsum("i->", w)


def skipgram_pairs(sentences, window=2):
    blocks = []
    for s_idx, sentence in enumerate(sentences):
        arr = np.asarray(list(sentence), dtype=np.int64)
        n = arr.size
        pos = np.arange(n)
        for off in range(-window, window + 1):
            if off == 0 or abs(off) >= n:
                continue
            centers = pos[max(0, -off): n - max(0, off)]
            contexts = centers + off
            blocks.append(np.stack([np.full(centers.size, s_idx), centers, contexts,
                                    arr[centers], arr[contexts]], axis=1))
    if not blocks:
        return np.empty((0, 2), dtype=np.int64)
    allrows = np.concatenate(blocks)
    order = np.lexsort((allrows[:, 2], allrows[:, 1], allrows[:, 0]))
    return allrows[order][:, 3:5]


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c, u_o = np.asarray(v_c, np.float64), np.asarray(u_o, np.float64)
    u_neg = np.asarray(u_neg, np.float64).reshape(-1, v_c.shape[0])
    s_o = np.einsum("d,d->", u_o, v_c)
    s_neg = np.einsum("kd,d->k", u_neg, v_c)
    loss = np.logaddexp(0.0, -s_o) + np.einsum("k->", np.logaddexp(0.0, s_neg))
    g_o = np.exp(-np.logaddexp(0.0, -s_o)) - 1.0          # σ(s_o) - 1
    g_neg = np.exp(-np.logaddexp(0.0, -s_neg))             # σ(s_k)
    grad_v = g_o * u_o + np.einsum("k,kd->d", g_neg, u_neg)
    grad_o = g_o * v_c
    grad_neg = np.einsum("k,d->kd", g_neg, v_c)
    return float(loss), grad_v, grad_o, grad_neg


def distance_ratio(points):
    P = np.asarray(points, dtype=np.float64)
    diff = P[1:] - P[0]
    d = np.sqrt(np.einsum("nd,nd->n", diff, diff))
    return float(d.max() / d.min())
