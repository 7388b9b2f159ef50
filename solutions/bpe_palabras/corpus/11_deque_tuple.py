"""deque and tuple working structures handed to the module's own helpers.

merge_pair accepts any sequence and consumes a `collections.deque` copy with popleft;
tokenize keeps the word as a deque between merges and passes that deque to its own
merge_pair; train_bpe keeps the corpus as a tuple of (symbols, frequency) records and
hands get_stats a dict built from it. get_stats walks each word with a two-slot sliding
window (a deque with maxlen=2).
"""
from collections import deque


def get_stats(words):
    stats = {}
    for symbols, freq in words.items():
        window = deque(maxlen=2)
        for symbol in symbols:
            window.append(symbol)
            if len(window) == 2:
                pair = tuple(window)
                stats[pair] = stats.get(pair, 0) + freq
    return stats


def merge_pair(symbols, pair):
    queue = deque(symbols)
    out = []
    while queue:
        symbol = queue.popleft()
        if queue and symbol == pair[0] and queue[0] == pair[1]:
            out.append(symbol + queue.popleft())
        else:
            out.append(symbol)
    return tuple(out)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    marker = () if end is None else (end,)
    records = tuple((tuple(word) + marker, freq) for word, freq in corpus.items())
    merges = []
    while len(merges) < num_merges:
        stats = get_stats(dict(records))
        if not stats:
            break
        best = max(stats, key=stats.__getitem__)
        if stats[best] < min_count:
            break
        merges.append(best)
        records = tuple((merge_pair(symbols, best), freq) for symbols, freq in records)
    return merges


def tokenize(word, merges, end="_"):
    symbols = deque(word)
    if end is not None:
        symbols.append(end)
    for pair in merges:
        symbols = deque(merge_pair(symbols, pair))
    return list(symbols)
