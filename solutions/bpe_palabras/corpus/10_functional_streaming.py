"""Functional style with iterator pipelines: merge_pair is a streaming scan that accepts
any iterable of symbols (it reads one symbol ahead with an iterator), tokenize is
`functools.reduce(merge_pair, merges, start)` whose start value is an `itertools.chain`
iterator over the characters and the marker, handed to the module's own merge_pair.
get_stats folds `itertools.pairwise` streams with `reduce`; the winner comes from `max`
over `enumerate` keyed on (count, -position).
"""
from functools import reduce
from itertools import chain, pairwise, repeat


_NOTHING = object()


def _add(counts, item):
    pair, freq = item
    counts[pair] = counts.get(pair, 0) + freq
    return counts


def get_stats(words):
    stream = chain.from_iterable(zip(pairwise(s), repeat(f)) for s, f in words.items())
    return reduce(_add, stream, {})


def _merged(symbols, pair):
    pending = _NOTHING  # the symbol read but not yet emitted
    for symbol in symbols:
        if pending is _NOTHING:
            pending = symbol
        elif (pending, symbol) == pair:
            yield pending + symbol
            pending = _NOTHING
        else:
            yield pending
            pending = symbol
    if pending is not _NOTHING:
        yield pending


def merge_pair(symbols, pair):
    return tuple(_merged(symbols, tuple(pair)))


def _start(word, end):
    return chain(word, () if end is None else (end,))


def _step(state, _):
    words, merges, min_count = state
    stats = get_stats(words)
    if not stats:
        return state
    position, (best, count) = max(enumerate(stats.items()), key=lambda e: (e[1][1], -e[0]))
    if count < min_count:
        return state
    return {merge_pair(s, best): f for s, f in words.items()}, merges + [best], min_count


def train_bpe(corpus, num_merges, end="_", min_count=1):
    words = {tuple(_start(w, end)): f for w, f in corpus.items()}
    merges = []
    for _ in range(num_merges):
        new_state = _step((words, merges, min_count), None)
        if new_state[1] is merges:  # nothing merged: stop early
            break
        words, merges, _ = new_state
    return merges


def tokenize(word, merges, end="_"):
    return list(reduce(merge_pair, merges, _start(word, end)))
