"""Dataclasses: the model's pieces as small immutable records.

Style: `Vocabulary` (words and matrix), `SkipGramWindow` and `NoiseModel` are frozen
`@dataclass`es with methods; the module-level functions build one and delegate.
Different from 04 (plain classes): here the records are declared with fields and type
annotations and never mutated; the pairs come from a `deque` used as a sliding window
over each sentence; `most_similar` ranks with `sorted(..., key=...)` over
`enumerate`; the loss uses `np.logaddexp` and the sigmoid `np.exp(-logaddexp(0, -x))`.
"""

from collections import deque
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Vocabulary:
    words: tuple
    matrix: np.ndarray

    def position(self, word: str) -> int:
        return self.words.index(word)

    def nearest(self, word: str, k: int) -> list:
        me = self.position(word)
        target = self.matrix[me]
        scored = [(cosine(target, row), j) for j, row in enumerate(self.matrix) if j != me]
        scored = sorted(scored, key=lambda item: item[0], reverse=True)
        return [self.words[j] for _, j in scored[:k]]


@dataclass(frozen=True)
class SkipGramWindow:
    size: int = 2

    def pairs(self, sentence):
        sentence = list(sentence)
        n = len(sentence)
        # `ahead` holds the positions of the right context of the current centre
        ahead = deque(range(1, min(n, self.size + 1)))
        for i in range(n):
            for j in range(max(0, i - self.size), i):
                yield sentence[i], sentence[j]
            for j in ahead:
                yield sentence[i], sentence[j]
            if ahead:
                ahead.popleft()
            if i + self.size + 1 < n:
                ahead.append(i + self.size + 1)


@dataclass(frozen=True)
class NoiseModel:
    power: float = 0.75

    def probabilities(self, counts) -> np.ndarray:
        weights = np.asarray(counts, dtype=float) ** self.power
        return weights / weights.sum()


def embedding_params(vocab_size: int, dim: int) -> int:
    return vocab_size * dim


def embed(ids, E):
    E = np.asarray(E)
    checked = [i for i in ids if 0 <= i < len(E)]
    if len(checked) != len(ids):
        raise IndexError("algún id está fuera de 0 <= id < len(E)")
    return E[np.asarray(checked, dtype=np.intp)]


def cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("formas distintas")
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0 or nb == 0:
        raise ValueError("vector cero")
    return float(np.sum(a * b) / (na * nb))


def euclidean(a, b) -> float:
    return float(np.linalg.norm(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)))


def most_similar(word, W, words, k=4):
    return Vocabulary(tuple(words), np.asarray(W, dtype=float)).nearest(word, k)


def noise_distribution(counts, power=0.75):
    return NoiseModel(power).probabilities(counts)


def skipgram_pairs(sentences, window=2):
    w = SkipGramWindow(window)
    rows = [pair for s in sentences for pair in w.pairs(s)]
    return np.array(rows, dtype=np.int64).reshape(len(rows), 2)


def sgns_loss_and_grads(v_c, u_o, u_neg):
    v_c, u_o, u_neg = (np.asarray(x, dtype=float) for x in (v_c, u_o, u_neg))
    s_o, s_neg = u_o @ v_c, u_neg @ v_c
    loss = np.logaddexp(0.0, -s_o) + np.logaddexp(0.0, s_neg).sum()
    c_o = np.exp(-np.logaddexp(0.0, -s_o)) - 1.0
    c_neg = np.exp(-np.logaddexp(0.0, -s_neg))
    return float(loss), c_o * u_o + c_neg @ u_neg, c_o * v_c, np.outer(c_neg, v_c)


def distance_ratio(points) -> float:
    points = np.asarray(points, dtype=float)
    d = [euclidean(points[0], p) for p in points[1:]]
    return max(d) / min(d)
