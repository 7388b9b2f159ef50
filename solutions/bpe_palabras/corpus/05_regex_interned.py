"""Sennrich-style regex merging, made safe for any symbol by interning.

The original Sennrich et al. code keeps each word as a space-separated string and merges
with the regex `(?<!\\S)a b(?!\\S)`; that breaks when a symbol contains a space. Here
every distinct symbol gets an integer id, a word is the string of its ids separated by
spaces, and a merge is one `re.sub` with a lookaround pattern over ids. get_stats and
merge_pair (the graded helpers) run on tuples with the same interning; train_bpe and
tokenize use the interned strings directly.
"""
import re


class _Interner:
    def __init__(self):
        self.ids, self.symbols = {}, []

    def id(self, symbol):
        if symbol not in self.ids:
            self.ids[symbol] = len(self.symbols)
            self.symbols.append(symbol)
        return self.ids[symbol]

    def encode(self, symbols):
        return " ".join(str(self.id(s)) for s in symbols)

    def decode(self, text):
        return tuple(self.symbols[int(t)] for t in text.split())


def _pairs(text):
    ids = text.split()
    return zip(ids, ids[1:])


def _sub(text, left, right, new):
    pattern = r"(?<!\S)" + left + " " + right + r"(?!\S)"
    return re.sub(pattern, new, text)


def _stats(interned_words):
    counts = {}
    for text, freq in interned_words.items():
        for pair in _pairs(text):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def get_stats(words):
    interner = _Interner()
    interned = {interner.encode(s): f for s, f in words.items()}
    return {(interner.symbols[int(a)], interner.symbols[int(b)]): c
            for (a, b), c in _stats(interned).items()}


def merge_pair(symbols, pair):
    interner = _Interner()
    text = interner.encode(symbols)
    left, right = interner.id(pair[0]), interner.id(pair[1])
    new = interner.id(pair[0] + pair[1])
    return interner.decode(_sub(text, str(left), str(right), str(new)))


def _tail(end):
    return () if end is None else (end,)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    interner = _Interner()
    words = {interner.encode(tuple(w) + _tail(end)): f for w, f in corpus.items()}
    merges = []
    for _ in range(num_merges):
        counts = _stats(words)
        if not counts:
            break
        best = max(counts, key=counts.get)
        if counts[best] < min_count:
            break
        a, b = interner.symbols[int(best[0])], interner.symbols[int(best[1])]
        new = str(interner.id(a + b))
        words = {_sub(t, best[0], best[1], new): f for t, f in words.items()}
        merges.append((a, b))
    return merges


def tokenize(word, merges, end="_"):
    interner = _Interner()
    text = interner.encode(tuple(word) + _tail(end))
    for a, b in merges:
        text = _sub(text, str(interner.id(a)), str(interner.id(b)), str(interner.id(a + b)))
    return list(interner.decode(text))
