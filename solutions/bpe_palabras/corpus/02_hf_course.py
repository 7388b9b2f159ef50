"""Hugging Face LLM course, chapter 6, section 5 "Byte-Pair Encoding tokenization"
(huggingface/course, chapters/en/chapter6/5.mdx, Apache-2.0), adapted with the least glue.

The course's implementation is kept in its shape and names: `word_freqs` (word ->
frequency) and `splits` (word -> list of symbols); `compute_pair_freqs(splits)` counts
pairs into a `defaultdict(int)`, skipping one-symbol splits; the best pair is found by a
loop that keeps the first pair whose frequency is strictly larger than the best so far;
the merge rebuilds each split list with slices; `tokenize` applies every merge, in
learned order, to the lists of symbols and concatenates them with `sum(splits, [])`.
This is a reimplementation written from the course's description, not a copy of its
code (the project commits no third-party code); the logic is the course's.

Patches forced by the spec:
- patch 1 (signatures): the course's functions read the global `word_freqs`; here it is
  a parameter. The spec's `get_stats(words)` and `merge_pair(symbols, pair)` are thin
  wrappers (the words' tuples serve as the course's word keys; `merge_pair` runs the
  course's inner merge loop on one split). `get_stats` returns the course's defaultdict.
- patch 2 (end-of-word marker): a split starts as `list(word) + [end]` (no marker when
  `end is None`), in training and in `tokenize`; there is no GPT-2 pre-tokenizer, since
  a call receives a single word.
- patch 3 (stopping): `num_merges` rounds instead of `while len(vocab) < vocab_size`;
  stop when no pair is left (the course would call `merge_pair(*"")`) or when the best
  count is below `min_count`. The course's `vocab` list is not needed and is dropped.
- patch 4 (left-to-right, non-overlapping): after a merge the course does not advance
  `i`, so it looks at the merged symbol again; that differs from the spec when
  `a + b == a` (an empty `b`, e.g. `end=""`): `("x", "", "")` with `("x", "")` gives
  `("x",)` instead of `("x", "")`. Patch: `i += 1` after a merge.
- patch 5 (merges container): the course stores merges in a dict `pair -> a + b`; the
  spec returns an ordered list of pairs, and `tokenize` receives that list.
- error cases: none needed. The spec defines no error for bpe_palabras; a negative
  `num_merges` simply learns nothing (`range`), as in every other corpus file.
- tie rule: no patch. The course's strict `<` loop over a dict filled in corpus order
  already picks the pair that appears first (the course's tip says so too).
"""
from collections import defaultdict


def compute_pair_freqs(splits, word_freqs):  # patch 1: word_freqs is a parameter
    pair_freqs = defaultdict(int)
    for word, freq in word_freqs.items():
        split = splits[word]
        if len(split) == 1:
            continue
        for i in range(len(split) - 1):
            pair = (split[i], split[i + 1])
            pair_freqs[pair] += freq
    return pair_freqs


def _merge_split(split, a, b):
    """The course's inner merge loop, for one split."""
    i = 0
    while i < len(split) - 1:
        if split[i] == a and split[i + 1] == b:
            split = split[:i] + [a + b] + split[i + 2:]
            i += 1  # patch 4: never look at the merged symbol again
        else:
            i += 1
    return split


def merge_splits(a, b, splits, word_freqs):  # the course's merge_pair(a, b, splits)
    for word in word_freqs:
        split = splits[word]
        if len(split) == 1:
            continue
        splits[word] = _merge_split(split, a, b)
    return splits


def get_stats(words):  # patch 1
    splits = {word: list(word) for word in words}
    return compute_pair_freqs(splits, words)


def merge_pair(symbols, pair):  # patch 1
    return tuple(_merge_split(list(symbols), *pair))


def _split(word, end):  # patch 2
    return [c for c in word] + ([] if end is None else [end])


def train_bpe(corpus, num_merges, end="_", min_count=1):
    word_freqs = dict(corpus)
    splits = {word: _split(word, end) for word in word_freqs.keys()}
    merges = []  # patch 5
    for _ in range(num_merges):  # patch 3
        pair_freqs = compute_pair_freqs(splits, word_freqs)
        best_pair = ""
        max_freq = None
        for pair, freq in pair_freqs.items():
            if max_freq is None or max_freq < freq:
                best_pair = pair
                max_freq = freq
        if max_freq is None or max_freq < min_count:  # patch 3
            break
        splits = merge_splits(*best_pair, splits, word_freqs)
        merges.append(best_pair)
    return merges


def tokenize(word, merges, end="_"):
    splits = [_split(word, end)]  # patch 2: one word, no pre-tokenizer
    for pair in merges:  # patch 5: a list of pairs; the merged symbol is a + b
        merge = pair[0] + pair[1]
        for idx, split in enumerate(splits):
            i = 0
            while i < len(split) - 1:
                if split[i] == pair[0] and split[i + 1] == pair[1]:
                    split = split[:i] + [merge] + split[i + 2:]
                    i += 1  # patch 4
                else:
                    i += 1
            splits[idx] = split
    return sum(splits, [])
