"""Incremental training on a doubly linked list (the "production" approach).

Instead of recounting every round, train_bpe keeps the sequence as parallel
``prev``/``nxt``/``val`` arrays over the original byte positions, plus an index
``pair -> set of left positions``. A merge only touches the neighbours of each
occurrence, so a round costs the number of occurrences, not the text length.
Because linked positions keep their original order, the "first occurrence in the
current sequence" of a pair is simply the smallest position in its set; ties are
broken with that. encode reuses the same structure and picks the present pair with
the lowest merge id. get_stats and merge are plain independent functions.
"""


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    seq = list(ids)
    for i in range(1, len(seq)):
        key = (seq[i - 1], seq[i])
        counts[key] = counts.get(key, 0) + 1
    return counts


def merge(ids, pair, idx):
    seq = list(ids)
    out = []
    i = 0
    while i < len(seq):
        if seq[i] == pair[0] and i + 1 < len(seq) and seq[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


class _Linked:
    def __init__(self, ids):
        n = len(ids)
        self.val = list(ids)
        self.prev = list(range(-1, n - 1))
        self.nxt = list(range(1, n + 1))
        if n:
            self.nxt[-1] = -1
        self.head = 0 if n else -1
        self.where = {}  # pair -> set of positions i with (val[i], val[nxt[i]]) == pair
        for i in range(n - 1):
            self.where.setdefault((self.val[i], self.val[i + 1]), set()).add(i)

    def _drop(self, pair, i):
        spots = self.where.get(pair)
        if spots is not None:
            spots.discard(i)
            if not spots:
                del self.where[pair]

    def _add(self, pair, i):
        self.where.setdefault(pair, set()).add(i)

    def apply(self, pair, idx):
        """Replace every occurrence of pair, left to right, without overlaps."""
        a, b = pair
        val, prev, nxt = self.val, self.prev, self.nxt
        for i in sorted(self.where.get(pair, ())):
            j = nxt[i]
            # an earlier replacement in this pass may have consumed i or changed it
            if val[i] is None or j == -1 or val[i] != a or val[j] != b:
                continue
            p, k = prev[i], nxt[j]
            if p != -1:
                self._drop((val[p], a), p)
            self._drop((a, b), i)
            if k != -1:
                self._drop((b, val[k]), j)
            val[i] = idx
            val[j] = None
            nxt[i] = k
            if k != -1:
                prev[k] = i
            if p != -1:
                self._add((val[p], idx), p)
            if k != -1:
                self._add((idx, val[k]), i)

    def ids(self):
        out, i = [], self.head
        while i != -1:
            out.append(self.val[i])
            i = self.nxt[i]
        return out


def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    seq = _Linked(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        if not seq.where:  # fewer than two ids left
            break
        best = max(seq.where, key=lambda p: (len(seq.where[p]), -min(seq.where[p])))
        merges[best] = idx
        seq.apply(best, idx)
    return merges


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for idx, (a, b) in sorted((i, p) for p, i in merges.items()):
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    seq = _Linked(text.encode("utf-8"))
    while True:
        present = [p for p in seq.where if p in merges]
        if not present:
            return seq.ids()
        pair = min(present, key=merges.__getitem__)
        seq.apply(pair, merges[pair])


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    if len(ids) == 0:
        raise ValueError("ids is empty")
    return len(text.encode("utf-8")) / len(ids)
