"""Recursion where it is natural, with bounded depth.

get_stats is divide and conquer over the list of words (count each half, then fold the
right half's counts into the left's, which keeps first-appearance order); depth is
logarithmic in the number of words. merge_pair recurses from one occurrence of the pair
to the next (depth = number of merges in the word, at most half its length), after
raising the recursion limit to cover it. tokenize recurses over the merge list in halves.
"""
import sys


def _count(items):
    if not items:
        return {}
    if len(items) == 1:
        (symbols, freq), = items
        counts = {}
        for pair in zip(symbols, symbols[1:]):
            counts[pair] = counts.get(pair, 0) + freq
        return counts
    mid = len(items) // 2
    left, right = _count(items[:mid]), _count(items[mid:])
    for pair, count in right.items():
        left[pair] = left.get(pair, 0) + count
    return left


def get_stats(words):
    return _count(list(words.items()))


def _find(symbols, pair, start):
    for i in range(start, len(symbols) - 1):
        if symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            return i
    return -1


def _merge_from(symbols, pair, start):
    i = _find(symbols, pair, start)
    if i < 0:
        return symbols[start:]
    return symbols[start:i] + (pair[0] + pair[1],) + _merge_from(symbols, pair, i + 2)


def merge_pair(symbols, pair):
    symbols = tuple(symbols)
    needed = len(symbols) // 2 + 100
    if sys.getrecursionlimit() < needed + 1000:
        sys.setrecursionlimit(needed + 1000)
    return _merge_from(symbols, tuple(pair), 0)


def _train(words, budget, min_count, merges):
    if budget <= 0:
        return merges
    stats = get_stats(words)
    if not stats:
        return merges
    best = max(stats, key=stats.get)
    if stats[best] < min_count:
        return merges
    merges.append(best)
    return _train({merge_pair(s, best): f for s, f in words.items()}, budget - 1, min_count, merges)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    words = {tuple(w) + ((end,) if end is not None else ()): f for w, f in corpus.items()}
    limit = sum(len(s) for s in words) + 1000  # each round removes at least one symbol
    if sys.getrecursionlimit() < limit + 1000:
        sys.setrecursionlimit(limit + 1000)
    return _train(words, num_merges, min_count, [])


def _apply(symbols, merges):
    if len(merges) == 1:
        return merge_pair(symbols, merges[0])
    if not merges:
        return symbols
    mid = len(merges) // 2
    return _apply(_apply(symbols, merges[:mid]), merges[mid:])


def tokenize(word, merges, end="_"):
    symbols = tuple(word) + ((end,) if end is not None else ())
    return list(_apply(symbols, list(merges)))
