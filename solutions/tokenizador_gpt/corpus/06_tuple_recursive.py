"""Style: immutable tuples and recursion where it is natural. merge is a recursive
function on tuples (with an explicit depth-free fallback for long chunks), the special
tokens are handled by recursing on the text after the first (leftmost, longest) match,
and recover_merges recurses on a token's parts until no earlier pair is left."""

import sys
from collections.abc import Collection, Mapping, Set

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return list(regex.findall(pattern, text))


def merge_tuple(seq, pair, idx):
    """Recursive on the head of the tuple; chunks are short, long ones are cut in blocks."""
    if len(seq) > 400:  # keep recursion shallow: merge a prefix, then the rest
        cut = 400
        # never cut inside a candidate occurrence: if the cut splits a pair, move it by one
        head = merge_tuple(seq[:cut], pair, idx)
        if head and head[-1] == pair[0] and seq[cut - 1] == pair[0] and seq[cut] == pair[1] \
                and _ends_with_unmerged(seq[:cut], pair):
            return head[:-1] + (idx,) + merge_tuple(seq[cut + 1:], pair, idx)
        return head + merge_tuple(seq[cut:], pair, idx)
    if len(seq) < 2:
        return seq
    if (seq[0], seq[1]) == pair:
        return (idx,) + merge_tuple(seq[2:], pair, idx)
    return (seq[0],) + merge_tuple(seq[1:], pair, idx)


def _ends_with_unmerged(prefix, pair):
    """Does a left-to-right scan of prefix leave its last element free (not consumed)?"""
    i = 0
    while i < len(prefix) - 1:
        i += 2 if (prefix[i], prefix[i + 1]) == pair else 1
    return i == len(prefix) - 1


def pairs_of(seq):
    return tuple(zip(seq, seq[1:]))


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size menor que 256")

    def learn(chunks, idx, merges):
        if idx >= vocab_size:
            return merges
        counts = {}
        for chunk in chunks:
            for pair in pairs_of(chunk):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            return merges
        best = max(counts, key=lambda p: counts[p])
        return learn(tuple(merge_tuple(c, best, idx) for c in chunks), idx + 1, {**merges, best: idx})

    chunks = tuple(tuple(p.encode("utf-8")) for p in pretokenize(text, pattern))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, vocab_size - 256 + 1000))
    try:
        return learn(chunks, 256, {})
    finally:
        sys.setrecursionlimit(limit)


def bpe(seq, merges):
    usable = [p for p in pairs_of(seq) if p in merges]
    if not usable:
        return seq
    pair = min(usable, key=merges.__getitem__)
    return bpe(merge_tuple(seq, pair, merges[pair]), merges)


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    ids = ()
    for piece in pretokenize(text, pattern):
        ids += bpe(tuple(piece.encode("utf-8")), merges)
    return list(ids)


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    if allowed_special == "all":
        allowed = tuple(special_tokens)
    elif isinstance(allowed_special, Set):
        allowed = tuple(n for n in special_tokens if n in allowed_special)
    else:
        raise TypeError(f"allowed_special no válido: {allowed_special!r}")
    if disallowed_special == "all":
        disallowed = tuple(n for n in special_tokens if n not in allowed)
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        disallowed = tuple(disallowed_special)
    else:
        raise TypeError(f"disallowed_special no válido: {disallowed_special!r}")
    if any(n in text for n in disallowed):
        raise ValueError("el texto contiene una cadena no permitida")
    allowed = tuple(n for n in allowed if n)

    def first_match(rest):
        """(position, name) of the leftmost allowed name, the longest one at that position."""
        hits = [(rest.find(n), -len(n), n) for n in allowed if n in rest]
        if not hits:
            return None
        pos, _, name = min(hits)
        return pos, name

    def go(rest):
        hit = first_match(rest)
        if hit is None:
            return tuple(encode_ordinary(rest, merges, pattern))
        pos, name = hit
        return tuple(encode_ordinary(rest[:pos], merges, pattern)) + (special_tokens[name],) + go(rest[pos + len(name):])

    return list(go(text))


def decode(ids, vocab, special_tokens):
    names = {v: k for k, v in special_tokens.items()}

    def piece(i):
        return vocab[i] if i in vocab else names[i].encode("utf-8")
    return b"".join(tuple(piece(i) for i in ids)).decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    def parents(parts, rank):
        candidates = [(mergeable_ranks[a + b], i) for i, (a, b) in enumerate(zip(parts, parts[1:]))
                      if a + b in mergeable_ranks and mergeable_ranks[a + b] < rank]
        if not candidates:
            return parts
        _, i = min(candidates)
        return parents(parts[:i] + (parts[i] + parts[i + 1],) + parts[i + 2:], rank)

    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda kv: kv[1]):
        if len(token) >= 2:
            left, right = parents(tuple(bytes([b]) for b in token), rank)
            merges[(mergeable_ranks[left], mergeable_ranks[right])] = rank
    return merges
