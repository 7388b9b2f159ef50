"""Ordering tools: sorted() with key functions, bisect for decode, heapq for first appearances.

build_vocab records each token's first index, pushes (index, token) pairs on a heap and
pops them in order (specials get negative indices so they come first); decode sorts the
vocabulary by id once and binary-searches each id with bisect; words come from a sorted
list of cut positions.
"""
import heapq
from bisect import bisect_left
from operator import itemgetter


def tokenize_chars(text):
    return sorted(text, key=lambda ch, _pos=iter(range(len(text))): next(_pos))


def tokenize_words(text):
    cuts = sorted(i for i, ch in enumerate(text) if ch.isspace())
    words, start = [], 0
    for cut in cuts + [len(text)]:
        if cut > start:
            words.append(text[start:cut])
        start = cut + 1
    return words


def build_vocab(tokens, specials=("[UNK]",)):
    first = {}
    for index, token in enumerate(specials, start=-len(specials)):
        first.setdefault(token, index)
    for index, token in enumerate(tokens):
        first.setdefault(token, index)
    heap = [(index, token) for token, index in first.items()]
    heapq.heapify(heap)
    vocab = {}
    while heap:
        _, token = heapq.heappop(heap)
        vocab[token] = len(vocab)
    return vocab


def encode(tokens, vocab, unk="[UNK]"):
    unk_id = vocab[unk]
    return [vocab[t] if t in vocab else unk_id for t in tokens]


def decode(ids, vocab):
    table = sorted(((i, token) for token, i in vocab.items()), key=itemgetter(0))
    keys = [i for i, _ in table]
    out = []
    for i in ids:
        k = bisect_left(keys, i)
        if k == len(keys) or keys[k] != i:
            raise KeyError(i)
        out.append(table[k][1])
    return out


def oov_rate(tokens, vocab):
    if not tokens:
        return 0.0
    known = sorted(tokens, key=lambda t: t in vocab)  # unknown (False) first
    unknown = next((k for k, t in enumerate(known) if t in vocab), len(known))
    return unknown / len(tokens)
