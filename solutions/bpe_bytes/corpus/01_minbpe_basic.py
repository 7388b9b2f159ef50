"""minbpe's BasicTokenizer design, reimplemented from scratch.

This file reimplements the design of the BasicTokenizer in karpathy/minbpe
(https://github.com/karpathy/minbpe, MIT License) without copying its code: every
line, comment and docstring here is written anew. What is kept is the design:
two free helpers, ``get_stats(ids, counts=None)`` and ``merge(ids, pair, idx)``; a
``Tokenizer`` base class that owns ``merges`` (pair -> id) and derives ``vocab``
(id -> bytes) from them; and a ``BasicTokenizer`` subclass with ``train``,
``encode`` and ``decode``. Training picks the winner with ``max`` over a count
dict filled in first-occurrence order (so ties go to the pair seen first), and
encoding always applies the mergeable pair with the lowest merge id.

Changes the course spec forces on that design:
- patch 1 (error case): a vocab_size below 256 raises ValueError instead of
  failing an assertion.
- patch 2 (stop early): when fewer than two ids remain, training stops and keeps
  the merges learned so far instead of asking ``max`` about an empty dict.
- patch 3 (build_vocab order): the vocab is built in increasing merge id, not in
  the order of the merges dict.
- patch 4 (free functions): the course grades module-level functions, so
  ``train_bpe``, ``build_vocab``, ``encode`` and ``decode`` wrap a tokenizer
  loaded with the given merges or vocab.
- patch 5 (new function): ``compression_ratio`` is not part of minbpe.
"""

BYTE_COUNT = 256


def get_stats(ids, counts=None):
    """Count every neighbouring pair in `ids` (pairs overlap).

    The tally goes into `counts` when one is passed, so several sequences can be
    summed into one dict; that same dict is returned.
    """
    tally = {} if counts is None else counts
    for left, right in zip(ids[:-1], ids[1:]):
        key = (left, right)
        tally[key] = tally.setdefault(key, 0) + 1
    return tally


def merge(ids, pair, idx):
    """Build a new list where `pair`, read left to right without overlaps, becomes `idx`."""
    first, second = pair
    rebuilt = []
    pos, end = 0, len(ids)
    while pos < end:
        matches = pos + 1 < end and ids[pos] == first and ids[pos + 1] == second
        rebuilt.append(idx if matches else ids[pos])
        pos += 2 if matches else 1
    return rebuilt


class Tokenizer:
    """What every tokenizer shares: learned merges and the byte table derived from them."""

    def __init__(self):
        self.merges = {}
        self.vocab = self._build_vocab()

    def _build_vocab(self):
        """Single bytes first, then one entry per merge, glued from its two halves."""
        table = {code: bytes([code]) for code in range(BYTE_COUNT)}
        # patch 3: walk the merges by the id they created, so both halves already exist
        for new_id, (left, right) in sorted((v, k) for k, v in self.merges.items()):
            table[new_id] = table[left] + table[right]
        return table

    def train(self, text, vocab_size, verbose=False):
        raise NotImplementedError

    def encode(self, text):
        raise NotImplementedError

    def decode(self, ids):
        raise NotImplementedError


class BasicTokenizer(Tokenizer):
    """Byte-level BPE on the raw UTF-8 bytes, with no pre-splitting of the text."""

    def train(self, text, vocab_size, verbose=False):
        if vocab_size < BYTE_COUNT:  # patch 1
            raise ValueError(f"cannot learn a vocabulary of {vocab_size} < {BYTE_COUNT} entries")
        sequence = list(text.encode("utf-8"))
        learned = {}
        for new_id in range(BYTE_COUNT, vocab_size):
            if len(sequence) < 2:  # patch 2
                break
            frequencies = get_stats(sequence)
            # ties: max() returns the first best key, and the dict is in first-seen order
            winner = max(frequencies, key=lambda candidate: frequencies[candidate])
            sequence = merge(sequence, winner, new_id)
            learned[winner] = new_id
            if verbose:
                print(f"{winner} -> {new_id}, seen {frequencies[winner]} times")
        self.merges = learned
        self.vocab = self._build_vocab()

    def encode(self, text):
        sequence = list(text.encode("utf-8"))
        while len(sequence) > 1:
            mergeable = [p for p in get_stats(sequence) if p in self.merges]
            if not mergeable:
                break
            # the pair learned earliest goes first, however often it shows up here
            earliest = min(mergeable, key=self.merges.__getitem__)
            sequence = merge(sequence, earliest, self.merges[earliest])
        return sequence

    def decode(self, ids):
        raw = bytes().join(self.vocab[token] for token in ids)
        return raw.decode("utf-8", errors="replace")


# patch 4: the free functions the course grades

def _loaded(merges=None, vocab=None):
    tokenizer = BasicTokenizer()
    if merges is not None:
        tokenizer.merges = merges
    if vocab is not None:
        tokenizer.vocab = vocab
    return tokenizer


def train_bpe(text, vocab_size):
    trained = BasicTokenizer()
    trained.train(text, vocab_size)
    return trained.merges


def build_vocab(merges):
    return _loaded(merges=merges)._build_vocab()


def encode(text, merges):
    return _loaded(merges=merges).encode(text)


def decode(ids, vocab):
    return _loaded(vocab=vocab).decode(ids)


# patch 5
def compression_ratio(text, ids):
    token_count = len(ids)
    if token_count == 0:
        raise ValueError("compression ratio needs at least one token")
    return len(text.encode("utf-8")) / token_count
