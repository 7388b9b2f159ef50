"""Idiomatic built-ins, as the lesson suggests: zip over neighbours, max(key=dict.get), a
while loop with an index for the merge.

Plain dicts in insertion order carry the tie rule: the first key with the maximum count
is the pair that appears first in corpus order.
"""


def get_stats(words):
    counts = {}
    for symbols, freq in words.items():
        for pair in zip(symbols, symbols[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def merge_pair(symbols, pair):
    a, b = pair
    out = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def _initial(word, end):
    return tuple(word) + (() if end is None else (end,))


def train_bpe(corpus, num_merges, end="_", min_count=1):
    words = {_initial(w, end): f for w, f in corpus.items()}
    merges = []
    for _ in range(num_merges):
        stats = get_stats(words)
        if not stats:
            break
        best = max(stats, key=stats.get)
        if stats[best] < min_count:
            break
        merges.append(best)
        words = {merge_pair(s, best): f for s, f in words.items()}
    return merges


def tokenize(word, merges, end="_"):
    symbols = _initial(word, end)
    for pair in merges:
        symbols = merge_pair(symbols, pair)
    return list(symbols)
