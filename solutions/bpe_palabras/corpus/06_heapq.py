"""heapq selection: each round pushes (-count, first_position, pair) for every pair and
pops the top; the first position (order of first appearance in the corpus scan) breaks
ties, so the rule is explicit instead of relying on dict order. Pair counts and first
positions are gathered in one scan; merge_pair builds the result with a list and an
explicit "previous symbol pending" state.
"""
import heapq


def _scan(words):
    counts, first = {}, {}
    for symbols, freq in words.items():
        for i in range(len(symbols) - 1):
            pair = (symbols[i], symbols[i + 1])
            if pair not in first:
                first[pair] = len(first)
                counts[pair] = 0
            counts[pair] += freq
    return counts, first


def get_stats(words):
    counts, _ = _scan(words)
    return counts


def merge_pair(symbols, pair):
    a, b = pair
    out = []
    pending = False  # is out[-1] an unmerged `a` that may still pair with the next symbol?
    for symbol in symbols:
        if pending and symbol == b:
            out[-1] = a + b
            pending = False
        else:
            out.append(symbol)
            pending = symbol == a
    return tuple(out)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    suffix = (end,) if end is not None else ()
    words = {tuple(w) + suffix: f for w, f in corpus.items()}
    merges = []
    while len(merges) < num_merges:
        counts, first = _scan(words)
        heap = [(-count, first[pair], pair) for pair, count in counts.items()]
        if not heap:
            break
        heapq.heapify(heap)
        neg_count, _, best = heapq.heappop(heap)
        if -neg_count < min_count:
            break
        merges.append(best)
        words = {merge_pair(s, best): f for s, f in words.items()}
    return merges


def tokenize(word, merges, end="_"):
    symbols = tuple(word) + ((end,) if end is not None else ())
    for pair in merges:
        symbols = merge_pair(symbols, pair)
    return list(symbols)
