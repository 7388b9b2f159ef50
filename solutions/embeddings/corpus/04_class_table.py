"""A small object model with thin module-level wrappers.

Style: an `EmbeddingTable` class owns the matrix (and its vocabulary, when it has one)
and implements lookup and nearest neighbours; a `SkipGram` class holds the window and
produces the training pairs; a `NegativeSampler` holds the noise distribution. The
graded functions only build these objects and delegate. Scalars come back as numpy
float64 values (a subclass of Python's `float`), not converted with `float(...)`.
"""

import numpy as np


def _as_vector(v):
    return np.asarray(v, dtype=np.float64)


class EmbeddingTable:
    def __init__(self, matrix, words=None):
        self.matrix = np.asarray(matrix)
        self.words = list(words) if words is not None else None

    def __len__(self):
        return self.matrix.shape[0]

    @property
    def dim(self):
        return self.matrix.shape[1]

    @property
    def n_params(self):
        return len(self) * self.dim

    def rows(self, ids):
        ids = list(ids)
        for i in ids:
            if i < 0 or i >= len(self):
                raise IndexError(f"id {i} fuera de la tabla de {len(self)} filas")
        out = np.empty((len(ids),) + self.matrix.shape[1:], dtype=self.matrix.dtype)
        for k, i in enumerate(ids):
            out[k] = self.matrix[i]
        return out

    def neighbours(self, word, k):
        me = self.words.index(word)
        target = self.matrix[me]
        ranked = sorted((j for j in range(len(self)) if j != me),
                        key=lambda j: cosine(target, self.matrix[j]), reverse=True)
        return [self.words[j] for j in ranked[:k]]


class SkipGram:
    def __init__(self, window=2):
        self.window = window

    def pairs_of(self, sentence):
        sentence = list(sentence)
        for i, centre in enumerate(sentence):
            for j in range(i - self.window, i + self.window + 1):
                if j != i and 0 <= j < len(sentence):
                    yield centre, sentence[j]

    def pairs(self, sentences):
        flat = [p for s in sentences for p in self.pairs_of(s)]
        return np.array(flat, dtype=np.int64).reshape(len(flat), 2)


class NegativeSampler:
    def __init__(self, counts, power=0.75):
        self.counts, self.power = counts, power
        weights = np.asarray(self.counts, dtype=np.float64) ** self.power
        self.probs = weights / weights.sum()


class SGNSPair:
    """One (centre, context, negatives) example."""

    def __init__(self, v_c, u_o, u_neg):
        self.v_c, self.u_o = _as_vector(v_c), _as_vector(u_o)
        self.u_neg = _as_vector(u_neg).reshape(-1, self.v_c.size)

    @staticmethod
    def _neg_log_sigmoid(x):
        return np.logaddexp(0.0, -x)

    @staticmethod
    def _sigmoid(x):
        return np.exp(-np.logaddexp(0.0, -x))

    def loss_and_grads(self):
        s_o = self.u_o @ self.v_c
        s_neg = self.u_neg @ self.v_c
        loss = self._neg_log_sigmoid(s_o) + self._neg_log_sigmoid(-s_neg).sum()
        c_o = self._sigmoid(s_o) - 1.0
        c_neg = self._sigmoid(s_neg)
        grad_v = c_o * self.u_o + c_neg @ self.u_neg
        return loss, grad_v, c_o * self.v_c, np.outer(c_neg, self.v_c)


def embedding_params(vocab_size, dim):
    return vocab_size * dim


def embed(ids, E):
    return EmbeddingTable(E).rows(ids)


def cosine(a, b):
    a, b = _as_vector(a), _as_vector(b)
    if a.shape != b.shape:
        raise ValueError("a y b deben tener la misma forma")
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if not (na and nb):
        raise ValueError("el vector cero no tiene dirección")
    return np.sum(a * b) / na / nb


def euclidean(a, b):
    return np.linalg.norm(_as_vector(a) - _as_vector(b))


def most_similar(word, W, words, k=4):
    return EmbeddingTable(W, words).neighbours(word, k)


def noise_distribution(counts, power=0.75):
    return NegativeSampler(counts, power).probs


def skipgram_pairs(sentences, window=2):
    return SkipGram(window).pairs(sentences)


def sgns_loss_and_grads(v_c, u_o, u_neg):
    return SGNSPair(v_c, u_o, u_neg).loss_and_grads()


def distance_ratio(points):
    points = _as_vector(points)
    distances = [euclidean(points[0], p) for p in points[1:]]
    return max(distances) / min(distances)
