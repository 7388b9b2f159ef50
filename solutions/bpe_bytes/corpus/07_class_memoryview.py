"""A ByteBPE class with module-level wrappers; memoryview working sequence.

All the logic lives in a small ``ByteBPE`` class (static helpers, a trained
state, vocabulary cached on demand); the graded functions are one-line wrappers
around it. While training and encoding, the sequence is a read-only
``memoryview`` over an ``array('L')`` and that view is what goes to get_stats and
merge (get_stats zips the view with a sliced view; merge indexes it). The round's
winner is found with ``sorted`` on ``-count`` (stable, so ties keep
first-occurrence order).
"""
from array import array


def _view(values):
    # list() first: array("L", some_bytes) would read the raw buffer, not the ints
    return memoryview(array("L", list(values))).toreadonly()


class ByteBPE:
    def __init__(self, merges=None):
        self.merges = dict(merges or {})
        self._vocab = None

    # -- helpers -----------------------------------------------------------
    @staticmethod
    def pair_counts(ids, counts=None):
        counts = {} if counts is None else counts
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        return counts

    @staticmethod
    def replace_pair(ids, pair, idx):
        out, i, n = [], 0, len(ids)
        while i < n:
            if i < n - 1 and (ids[i], ids[i + 1]) == tuple(pair):
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    # -- training ----------------------------------------------------------
    @classmethod
    def trained(cls, text, vocab_size):
        if vocab_size < 256:
            raise ValueError("vocab_size must be >= 256")
        tok = cls()
        seq = _view(text.encode("utf-8"))
        for idx in range(256, vocab_size):
            if len(seq) < 2:
                break
            stats = get_stats(seq)
            pair = sorted(stats, key=lambda p: -stats[p])[0]
            tok.merges[pair] = idx
            seq = _view(merge(seq, pair, idx))
        return tok

    # -- vocabulary / coding ----------------------------------------------
    @property
    def vocab(self):
        if self._vocab is None:
            vocab = {i: bytes([i]) for i in range(256)}
            for idx, (a, b) in sorted((i, p) for p, i in self.merges.items()):
                vocab[idx] = vocab[a] + vocab[b]
            self._vocab = vocab
        return self._vocab

    def encode(self, text):
        seq = _view(text.encode("utf-8"))
        while len(seq) >= 2:
            ranked = sorted((self.merges[p], p) for p in get_stats(seq) if p in self.merges)
            if not ranked:
                break
            idx, pair = ranked[0]
            seq = _view(merge(seq, pair, idx))
        return seq.tolist()

    @staticmethod
    def decode(ids, vocab):
        return b"".join([vocab[i] for i in ids]).decode("utf-8", errors="replace")


def get_stats(ids, counts=None):
    return ByteBPE.pair_counts(ids, counts)


def merge(ids, pair, idx):
    return ByteBPE.replace_pair(ids, pair, idx)


def train_bpe(text, vocab_size):
    return ByteBPE.trained(text, vocab_size).merges


def build_vocab(merges):
    return dict(ByteBPE(merges).vocab)


def encode(text, merges):
    return ByteBPE(merges).encode(text)


def decode(ids, vocab):
    return ByteBPE.decode(ids, vocab)


def compression_ratio(text, ids):
    if len(ids) < 1:
        raise ValueError("ids must not be empty")
    return len(text.encode("utf-8")) / len(ids)
