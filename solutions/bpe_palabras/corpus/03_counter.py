"""collections.Counter throughout: get_stats returns the Counter itself (a dict subclass
that keeps insertion order), training picks the winner with `most_common(1)`, and the
corpus is held in a Counter that is handed to get_stats as is.

`Counter.most_common(1)` is `max` over the items, so on a tie it returns the pair
inserted first, which is the pair that appears first in corpus order.
"""
from collections import Counter
from itertools import pairwise


def get_stats(words):
    stats = Counter()
    for symbols, freq in words.items():
        for pair in pairwise(symbols):
            stats[pair] += freq
    return stats


def merge_pair(symbols, pair):
    a, b = pair
    merged = []
    skip = False
    for i, symbol in enumerate(symbols):
        if skip:
            skip = False
        elif symbol == a and i + 1 < len(symbols) and symbols[i + 1] == b:
            merged.append(a + b)
            skip = True
        else:
            merged.append(symbol)
    return tuple(merged)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    tail = () if end is None else (end,)
    words = Counter()
    for word, freq in corpus.items():
        words[tuple(word) + tail] = freq
    merges = []
    while len(merges) < num_merges:
        top = get_stats(words).most_common(1)
        if not top or top[0][1] < min_count:
            break
        best = top[0][0]
        merges.append(best)
        words = Counter({merge_pair(s, best): f for s, f in words.items()})
    return merges


def tokenize(word, merges, end="_"):
    symbols = tuple(word) + (() if end is None else (end,))
    for pair in merges:
        symbols = merge_pair(symbols, tuple(pair))
    return list(symbols)
