"""Style: OrderedDict and dict views. Pair counts live in an OrderedDict (first-seen
order made explicit), the winner is found by one pass over .items(); allowed and
forbidden special names are computed with set operations on keys() views; the inverse
vocabulary of decode is a ChainMap of the vocab and the special names; recover_merges
builds an OrderedDict in rank order."""

from collections import ChainMap, OrderedDict
from collections.abc import Collection, Mapping, Set as AbstractSet

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return regex.findall(pattern, text)


def _count(chunks):
    counts = OrderedDict()
    for chunk in chunks:
        for pair in zip(chunk, chunk[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def _apply(chunk, pair, idx):
    """Left to right, non-overlapping: an element already merged is never a left half."""
    out, merged_last = [], False
    for x in chunk:
        if out and not merged_last and out[-1] == pair[0] and x == pair[1]:
            out[-1] = idx
            merged_last = True
        else:
            out.append(x)
            merged_last = False
    return out


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    chunks = [list(p.encode("utf-8")) for p in pretokenize(text, pattern)]
    merges = OrderedDict()
    for idx in range(256, vocab_size):
        counts = _count(chunks)
        if not counts:
            break
        best, top = None, 0
        for pair, c in counts.items():
            if c > top:  # strict: the first of the tied pairs stays
                best, top = pair, c
        merges[best] = idx
        chunks = [_apply(chunk, best, idx) for chunk in chunks]
    return dict(merges)


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    ids = []
    for piece in pretokenize(text, pattern):
        seq = list(piece.encode("utf-8"))
        while True:
            present = _count([seq]).keys() & merges.keys()
            if not present:
                break
            pair = min(present, key=merges.__getitem__)
            seq = _apply(seq, pair, merges[pair])
        ids.extend(seq)
    return ids


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    names = special_tokens.keys()
    if allowed_special == "all":
        allowed = set(names)
    elif isinstance(allowed_special, AbstractSet):
        allowed = names & allowed_special
    else:
        raise TypeError(f"allowed_special={allowed_special!r}")
    if disallowed_special == "all":
        disallowed = names - allowed
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        disallowed = disallowed_special
    else:
        raise TypeError(f"disallowed_special={disallowed_special!r}")
    forbidden = {n for n in disallowed if n in text}
    if forbidden:
        raise ValueError(f"el texto contiene textos no permitidos: {sorted(forbidden)}")
    allowed -= {""}
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    pieces = regex.split("(" + "|".join(regex.escape(n) for n in sorted(allowed, key=len, reverse=True)) + ")", text)
    ids = []
    for text_part, special in zip(pieces[::2], pieces[1::2] + [None]):
        ids += encode_ordinary(text_part, merges, pattern)
        if special is not None:
            ids.append(special_tokens[special])
    return ids


def decode(ids, vocab, special_tokens):
    lookup = ChainMap(vocab, {i: n.encode("utf-8") for n, i in special_tokens.items()})
    return b"".join(lookup[i] for i in ids).decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    merges = OrderedDict()
    for token, rank in sorted(mergeable_ranks.items(), key=lambda kv: kv[1]):
        if len(token) < 2:
            continue
        parts = [bytes((b,)) for b in token]
        while True:
            ranked = OrderedDict((i, mergeable_ranks[a + b]) for i, (a, b) in enumerate(zip(parts, parts[1:]))
                                 if mergeable_ranks.get(a + b, rank) < rank)
            if not ranked:
                break
            i = min(ranked, key=ranked.get)
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        merges[(mergeable_ranks[parts[0]], mergeable_ranks[parts[1]])] = rank
    return dict(merges)
