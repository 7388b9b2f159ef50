"""numpy where it fits: symbols are interned to integer codes, a pair becomes one code
(left * n + right), and pair counts come from `np.unique(..., return_index=True,
return_inverse=True)` plus `np.add.at` with the word frequencies; keys are then emitted
in order of first index. Counts are accumulated in an object array, so they stay exact
Python ints for any frequency. merge_pair finds match starts with a vectorised
comparison and resolves overlaps in a short loop.
"""
import numpy as np


def _codes(words):
    table = {}
    rows = []
    for symbols, freq in words.items():
        rows.append(([table.setdefault(s, len(table)) for s in symbols], freq))
    return table, rows


def get_stats(words):
    table, rows = _codes(words)
    n = max(len(table), 1)
    pair_codes, weights = [], []
    for codes, freq in rows:
        if len(codes) < 2:
            continue
        arr = np.asarray(codes, dtype=np.int64)
        pair_codes.append(arr[:-1] * n + arr[1:])
        weights.append(np.full(len(codes) - 1, freq, dtype=object))
    if not pair_codes:
        return {}
    flat = np.concatenate(pair_codes)
    w = np.concatenate(weights)
    uniq, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    totals = np.zeros(len(uniq), dtype=object)
    np.add.at(totals, inverse.ravel(), w)
    symbols = list(table)
    stats = {}
    for k in np.argsort(first, kind="stable").tolist():
        left, right = divmod(int(uniq[k]), n)
        stats[(symbols[left], symbols[right])] = totals[k]
    return stats


def merge_pair(symbols, pair):
    symbols = tuple(symbols)
    if len(symbols) < 2:
        return symbols
    arr = np.empty(len(symbols), dtype=object)
    arr[:] = symbols
    hits = np.flatnonzero((arr[:-1] == pair[0]) & (arr[1:] == pair[1])).tolist()
    out, i = [], 0
    for start in hits:
        if start < i:  # overlaps the previous merge
            continue
        out.extend(symbols[i:start])
        out.append(symbols[start] + symbols[start + 1])
        i = start + 2
    out.extend(symbols[i:])
    return tuple(out)


def _initial(word, end):
    return tuple(word) if end is None else tuple(word) + (end,)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    words = {_initial(w, end): f for w, f in corpus.items()}
    merges = []
    for _ in range(num_merges):
        stats = get_stats(words)
        if not stats:
            break
        pairs = list(stats)
        counts = np.array(list(stats.values()), dtype=object)
        best_index = int(np.argmax(counts == counts.max()))  # first position holding the max
        best = pairs[best_index]
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
