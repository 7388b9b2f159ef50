"""sorted() with key functions: the winner is the first element of the pair list sorted
by decreasing count (sorted is stable, so equal counts keep first-appearance order);
get_stats is built from a sorted, de-duplicated list of first positions; merge_pair
locates matches with a list of start indices and skips the overlapping ones.
"""
from operator import itemgetter


def get_stats(words):
    occurrences = [((s[i], s[i + 1]), f) for s, f in words.items() for i in range(len(s) - 1)]
    first_index = {}
    for index, (pair, _) in enumerate(occurrences):
        first_index.setdefault(pair, index)
    totals = dict.fromkeys(sorted(first_index, key=first_index.__getitem__), 0)
    for pair, freq in occurrences:
        totals[pair] += freq
    return totals


def merge_pair(symbols, pair):
    symbols = tuple(symbols)
    starts = [i for i in range(len(symbols) - 1) if (symbols[i], symbols[i + 1]) == tuple(pair)]
    chosen, last = [], -2
    for i in sorted(starts):
        if i > last + 1:  # not overlapping the previous chosen match
            chosen.append(i)
            last = i
    out, i = [], 0
    for start in chosen:
        out.extend(symbols[i:start])
        out.append(symbols[start] + symbols[start + 1])
        i = start + 2
    out.extend(symbols[i:])
    return tuple(out)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    words = {tuple(w) + ((end,) if end is not None else ()): f for w, f in corpus.items()}
    merges = []
    for _ in range(num_merges):
        ranking = sorted(get_stats(words).items(), key=itemgetter(1), reverse=True)
        if not ranking or ranking[0][1] < min_count:
            break
        best = ranking[0][0]
        merges.append(best)
        words = {merge_pair(s, best): f for s, f in words.items()}
    return merges


def tokenize(word, merges, end="_"):
    symbols = tuple(word) + ((end,) if end is not None else ())
    for pair in merges:
        symbols = merge_pair(symbols, pair)
    return list(symbols)
