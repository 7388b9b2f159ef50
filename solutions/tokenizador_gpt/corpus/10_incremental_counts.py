"""Style: incremental training. Pair counts are computed once and then updated only for
the chunks that contain the merged pair (an index pair -> chunk numbers); because the
updated dict no longer remembers first-seen order, the tie rule is applied explicitly:
among the pairs with the top count, the winner is the first one met scanning the chunks
in text order. encode_ordinary memoises chunks; special tokens are found by a
longest-first alternation used with regex.split; recover_merges reuses the chunk encoder
on a token's bytes with only the earlier tokens."""

from collections import defaultdict
from collections.abc import Collection, Mapping, Set as AbstractSet

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return regex.findall(pattern, text)


def _pairs(seq):
    return [(seq[k], seq[k + 1]) for k in range(len(seq) - 1)]


def _merge(seq, pair, idx):
    out, k = [], 0
    while k < len(seq):
        if k + 1 < len(seq) and seq[k] == pair[0] and seq[k + 1] == pair[1]:
            out.append(idx)
            k += 2
        else:
            out.append(seq[k])
            k += 1
    return out


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size debe ser >= 256")
    chunks = [list(p.encode("utf-8")) for p in pretokenize(text, pattern)]
    counts = defaultdict(int)
    where = defaultdict(set)  # pair -> numbers of the chunks that contain it
    for n, chunk in enumerate(chunks):
        for pair in _pairs(chunk):
            counts[pair] += 1
            where[pair].add(n)
    merges = {}
    for idx in range(256, vocab_size):
        live = {p: c for p, c in counts.items() if c > 0}
        if not live:
            break
        top = max(live.values())
        tied = {p for p, c in live.items() if c == top}
        if len(tied) == 1:
            (best,) = tied
        else:
            best = next(p for n in sorted(set().union(*(where[t] for t in tied)))
                        for p in _pairs(chunks[n]) if p in tied)
        merges[best] = idx
        for n in sorted(where.pop(best)):
            old = chunks[n]
            for pair in _pairs(old):
                counts[pair] -= 1
            chunks[n] = _merge(old, best, idx)
            for pair in _pairs(chunks[n]):
                counts[pair] += 1
                where[pair].add(n)
        counts.pop(best, None)
    return merges


def _encode_chunk(seq, priority, limit=None):
    """BPE with `priority` (pair -> id); only ids < limit when a limit is given."""
    seq = list(seq)
    while len(seq) > 1:
        usable = [(priority[p], p) for p in _pairs(seq) if p in priority and (limit is None or priority[p] < limit)]
        if not usable:
            break
        idx, pair = min(usable)
        seq = _merge(seq, pair, idx)
    return seq


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    memo = {}
    out = []
    for piece in pretokenize(text, pattern):
        if piece not in memo:
            memo[piece] = _encode_chunk(piece.encode("utf-8"), merges)
        out.extend(memo[piece])
    return out


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    if allowed_special == "all":
        allowed = dict(special_tokens)
    elif isinstance(allowed_special, AbstractSet):
        allowed = {n: i for n, i in special_tokens.items() if n in allowed_special}
    else:
        raise TypeError(f"no entiendo allowed_special={allowed_special!r}")
    if disallowed_special == "all":
        disallowed = special_tokens.keys() - allowed.keys()
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        disallowed = disallowed_special
    else:
        raise TypeError(f"no entiendo disallowed_special={disallowed_special!r}")
    for name in disallowed:
        if name in text:
            raise ValueError(f"{name!r} no está permitido")
    allowed.pop("", None)
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    splitter = "(" + "|".join(regex.escape(n) for n in sorted(allowed, key=len, reverse=True)) + ")"
    out = []
    for k, part in enumerate(regex.split(splitter, text)):
        if k % 2 == 1:
            out.append(allowed[part])
        elif part:
            out.extend(encode_ordinary(part, merges, pattern))
    return out


def decode(ids, vocab, special_tokens):
    specials = {i: n for n, i in special_tokens.items()}
    data = []
    for i in ids:
        if i in vocab:
            data.append(vocab[i])
        elif i in specials:
            data.append(specials[i].encode("utf-8"))
        else:
            raise KeyError(f"id {i} no está en el vocabulario")
    return b"".join(data).decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    # Work on rank ids: the token's bytes become the ranks of single bytes, and the merges
    # recovered so far (pair of ranks -> rank) drive a BPE limited to earlier ranks.
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda kv: kv[1]):
        if len(token) < 2:
            continue
        leaves = [mergeable_ranks[token[k:k + 1]] for k in range(len(token))]
        parts = _encode_chunk(leaves, merges, limit=rank)
        left, right = parts
        merges[(left, right)] = rank
    return merges
