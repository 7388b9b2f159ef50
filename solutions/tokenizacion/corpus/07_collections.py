"""collections everywhere: OrderedDict vocabulary, defaultdict id counter, Counter, ChainMap.

build_vocab uses the classic `defaultdict(count().__next__)` trick (touching a key gives
it the next id) and returns an OrderedDict, a dict subclass. encode reads through a
`ChainMap` whose fallback answers the unknown id; oov_rate counts with a Counter of
booleans.
"""
from collections import ChainMap, Counter, OrderedDict, defaultdict
from itertools import count


def tokenize_chars(text):
    return list(text)


def tokenize_words(text):
    return text.split(None)


def build_vocab(tokens, specials=("[UNK]",)):
    ids = defaultdict(count().__next__)
    for token in specials:
        ids[token]
    for token in tokens:
        ids[token]
    return OrderedDict(ids)


class _Unknown(dict):
    def __init__(self, unk_id):
        super().__init__()
        self.unk_id = unk_id

    def __missing__(self, key):
        return self.unk_id


def encode(tokens, vocab, unk="[UNK]"):
    table = ChainMap(vocab, _Unknown(vocab[unk]))
    return [table[token] for token in tokens]


def decode(ids, vocab):
    inverse = OrderedDict((i, token) for token, i in vocab.items())
    return [inverse[i] for i in ids]


def oov_rate(tokens, vocab):
    tally = Counter(token in vocab for token in tokens)
    total = sum(tally.values())
    return tally[False] / total if total else 0.0
