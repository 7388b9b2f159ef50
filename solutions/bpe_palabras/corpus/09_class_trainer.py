"""Class-based: a `BPETrainer` object owns the segmented corpus and the merge list and
steps one round at a time; a `BPETokenizer` holds the learned merges. The module-level
functions are the spec's interface over these classes. The trainer hands its working
corpus to get_stats as a read-only `types.MappingProxyType` view of its dict.
"""
from types import MappingProxyType


def get_stats(words):
    stats = {}
    for symbols, freq in words.items():
        previous = None
        for position, symbol in enumerate(symbols):
            if position:
                key = (previous, symbol)
                stats[key] = stats.get(key, 0) + freq
            previous = symbol
    return stats


def merge_pair(symbols, pair):
    out = []
    position = 0
    while position < len(symbols):
        if tuple(symbols[position:position + 2]) == tuple(pair):
            out.append(pair[0] + pair[1])
            position += 2
        else:
            out.append(symbols[position])
            position += 1
    return tuple(out)


class BPETrainer:
    def __init__(self, corpus, end="_"):
        self.end = end
        self._words = {BPETokenizer.initial(w, end): f for w, f in corpus.items()}
        self.merges = []

    @property
    def words(self):
        return MappingProxyType(self._words)

    def best_pair(self):
        stats = get_stats(self.words)
        if not stats:
            return None, 0
        best = max(stats, key=stats.get)
        return best, stats[best]

    def step(self, min_count):
        pair, count = self.best_pair()
        if pair is None or count < min_count:
            return False
        self.merges.append(pair)
        self._words = {merge_pair(s, pair): f for s, f in self._words.items()}
        return True

    def train(self, num_merges, min_count=1):
        for _ in range(num_merges):
            if not self.step(min_count):
                break
        return list(self.merges)


class BPETokenizer:
    def __init__(self, merges, end="_"):
        self.merges = list(merges)
        self.end = end

    @staticmethod
    def initial(word, end):
        return tuple(word) + (() if end is None else (end,))

    def __call__(self, word):
        symbols = self.initial(word, self.end)
        for pair in self.merges:
            symbols = merge_pair(symbols, pair)
        return list(symbols)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    return BPETrainer(corpus, end).train(num_merges, min_count)


def tokenize(word, merges, end="_"):
    return BPETokenizer(merges, end)(word)
