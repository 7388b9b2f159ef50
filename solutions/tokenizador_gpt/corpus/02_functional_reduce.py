"""Style: functional. No classes and no mutation of shared state: pair counts come from
itertools.chain over pairwise() of every chunk folded into a dict, merging is a reduce
over the sequence (tuples, never mutated), training is a reduce over the new ids, and the special tokens
are matched with regex.finditer over an alternation (longest names first)."""

from collections.abc import Collection, Mapping, Set
from functools import reduce
from itertools import chain, pairwise

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return [m.group() for m in regex.finditer(pattern, text)]


def _count(pairs):
    def add(acc, pair):
        acc[pair] = acc.get(pair, 0) + 1
        return acc
    return reduce(add, pairs, {})


def _merge(seq, pair, idx):
    def step(state, x):
        out, pending = state
        if pending is not None and (pending, x) == pair:
            return out + (idx,), None
        if pending is not None:
            out = out + (pending,)
        return out, x
    out, pending = reduce(step, seq, ((), None))
    return out if pending is None else out + (pending,)


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    def round_(state, idx):
        chunks, merges = state
        counts = _count(chain.from_iterable(pairwise(c) for c in chunks))
        if not counts:
            return state
        best = max(counts, key=counts.get)
        return tuple(_merge(c, best, idx) for c in chunks), {**merges, best: idx}
    start = tuple(tuple(p.encode("utf-8")) for p in pretokenize(text, pattern)), {}
    def fold(state, idx):
        # once a round learns nothing, later rounds learn nothing either
        return state if len(state[1]) < idx - 256 else round_(state, idx)
    return reduce(fold, range(256, vocab_size), start)[1]


def _bpe(ids, merges):
    while candidates := [p for p in pairwise(ids) if p in merges]:
        best = min(candidates, key=merges.__getitem__)
        ids = _merge(ids, best, merges[best])
    return ids


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    return list(chain.from_iterable(_bpe(tuple(p.encode("utf-8")), merges) for p in pretokenize(text, pattern)))


def _allowed(allowed_special, special_tokens):
    if allowed_special == "all":
        return dict(special_tokens)
    if isinstance(allowed_special, Set):
        return {k: v for k, v in special_tokens.items() if k in allowed_special}
    raise TypeError(f"allowed_special no válido: {allowed_special!r}")


def _disallowed(disallowed_special, allowed, special_tokens):
    if disallowed_special == "all":
        return tuple(k for k in special_tokens if k not in allowed)
    if isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        return tuple(disallowed_special)
    raise TypeError(f"disallowed_special no válido: {disallowed_special!r}")


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    allowed = _allowed(allowed_special, special_tokens)
    disallowed = _disallowed(disallowed_special, allowed, special_tokens)
    forbidden = [k for k in disallowed if k in text]
    if forbidden:
        raise ValueError(f"textos no permitidos: {forbidden}")
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    alternation = "|".join(map(regex.escape, sorted(allowed, key=len, reverse=True)))
    matches = list(regex.finditer(alternation, text))
    starts = [0] + [m.end() for m in matches]
    ends = [m.start() for m in matches] + [len(text)]
    gaps = [encode_ordinary(text[s:e], merges, pattern) for s, e in zip(starts, ends)]
    specials = [[allowed[m.group()]] for m in matches] + [[]]
    return list(chain.from_iterable(chain.from_iterable(zip(gaps, specials))))


def decode(ids, vocab, special_tokens):
    names = {v: k.encode("utf-8") for k, v in special_tokens.items()}
    def piece(i):
        if i in vocab:
            return vocab[i]
        if i in names:
            return names[i]
        raise KeyError(i)
    return b"".join(map(piece, ids)).decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    def parents(token, rank):
        def go(parts):
            ranked = [(mergeable_ranks[a + b], i) for i, (a, b) in enumerate(pairwise(parts))
                      if mergeable_ranks.get(a + b, rank) < rank]
            if not ranked:
                return parts
            _, i = min(ranked)
            return go(parts[:i] + (parts[i] + parts[i + 1],) + parts[i + 2:])
        return go(tuple(bytes([b]) for b in token))
    items = sorted(((r, t) for t, r in mergeable_ranks.items() if len(t) > 1))
    return {tuple(mergeable_ranks[p] for p in parents(t, r)): r for r, t in items}
