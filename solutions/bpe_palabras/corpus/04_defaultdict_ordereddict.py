"""defaultdict counts and an OrderedDict corpus: get_stats returns its defaultdict(int);
train_bpe keeps the segmented corpus in an OrderedDict, passes it to get_stats, and
chooses the winner with an explicit loop (strictly greater replaces, so ties keep the
first pair seen). merge_pair works on a list and slices.
"""
from collections import OrderedDict, defaultdict


def get_stats(words):
    counts = defaultdict(int)
    for symbols, freq in words.items():
        for i in range(len(symbols) - 1):
            counts[symbols[i], symbols[i + 1]] += freq
    return counts


def merge_pair(symbols, pair):
    symbols = list(symbols)
    i = 0
    while i < len(symbols) - 1:
        if (symbols[i], symbols[i + 1]) == tuple(pair):
            symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        i += 1
    return tuple(symbols)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    words = OrderedDict()
    for word, freq in corpus.items():
        words[tuple(word) if end is None else tuple(word) + (end,)] = freq
    merges = []
    for _ in range(max(num_merges, 0)):
        best, best_count = None, None
        for pair, count in get_stats(words).items():
            if best_count is None or count > best_count:
                best, best_count = pair, count
        if best is None or best_count < min_count:
            break
        merges.append(best)
        words = OrderedDict((merge_pair(s, best), f) for s, f in words.items())
    return merges


def tokenize(word, merges, end="_"):
    symbols = tuple(word) if end is None else tuple(word) + (end,)
    for pair in merges:
        symbols = merge_pair(symbols, pair)
    return list(symbols)
