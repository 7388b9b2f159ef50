"""Style: collections.deque working sequences handed to the module's own helpers
(get_stats / merge take any iterable and return deques). Chunks live in a deque of
deques; merging pops from the left of the input and appends to the right of the output.
decode accumulates bytes in a deque; recover_merges keeps each token's parts in a deque."""

from collections import deque
from collections.abc import Collection, Mapping, Set
from itertools import islice

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return regex.compile(pattern).findall(text)


def get_stats(ids, counts=None):
    tally = {} if counts is None else counts
    for left, right in zip(ids, islice(ids, 1, None)):
        tally[left, right] = tally.get((left, right), 0) + 1
    return tally


def merge(ids, pair, idx):
    todo = deque(ids)
    out = deque()
    while todo:
        x = todo.popleft()
        if x == pair[0] and todo and todo[0] == pair[1]:
            todo.popleft()
            out.append(idx)
        else:
            out.append(x)
    return out


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError(f"vocab_size={vocab_size} < 256")
    chunks = deque(deque(p.encode("utf-8")) for p in pretokenize(text, pattern))
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for chunk in chunks:
            get_stats(chunk, stats)
        if not stats:
            break
        top = max(stats.values())
        best = next(p for p, c in stats.items() if c == top)
        merges[best] = idx
        chunks = deque(merge(chunk, best, idx) for chunk in chunks)
    return merges


def _bpe(ids, merges):
    ids = deque(ids)
    while len(ids) > 1:
        stats = get_stats(ids)
        known = [p for p in stats if p in merges]
        if not known:
            break
        pair = min(known, key=merges.get)
        ids = merge(ids, pair, merges[pair])
    return ids


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    out = deque()
    for piece in pretokenize(text, pattern):
        out.extend(_bpe(piece.encode("utf-8"), merges))
    return list(out)


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    if allowed_special == "all":
        allowed = list(special_tokens)
    elif isinstance(allowed_special, Set):
        allowed = [name for name in special_tokens if name in allowed_special]
    else:
        raise TypeError("allowed_special debe ser 'all' o un conjunto")
    if disallowed_special == "all":
        disallowed = deque(name for name in special_tokens if name not in allowed)
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        disallowed = deque(disallowed_special)
    else:
        raise TypeError("disallowed_special debe ser 'all' o una colección de textos")
    while disallowed:
        name = disallowed.popleft()
        if name in text:
            raise ValueError(f"el texto contiene {name!r}, que no está permitido")
    out = deque()
    # scan by hand: at each position the longest allowed name that starts there
    allowed.sort(key=len, reverse=True)
    start = pos = 0
    while pos < len(text) and allowed:
        hit = next((n for n in allowed if n and text.startswith(n, pos)), None)
        if hit is None:
            pos += 1
            continue
        out.extend(encode_ordinary(text[start:pos], merges, pattern))
        out.append(special_tokens[hit])
        pos = start = pos + len(hit)
    out.extend(encode_ordinary(text[start:], merges, pattern))
    return list(out)


def decode(ids, vocab, special_tokens):
    names = {v: k for k, v in special_tokens.items()}
    buffer = deque()
    for idx in ids:
        if idx in vocab:
            buffer.append(vocab[idx])
        elif idx in names:
            buffer.append(names[idx].encode("utf-8"))
        else:
            raise KeyError(idx)
    return b"".join(buffer).decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda kv: kv[1]):
        if len(token) == 1:
            continue
        parts = deque(bytes([b]) for b in token)
        while True:
            best = None
            for i, (a, b) in enumerate(zip(parts, islice(parts, 1, None))):
                r = mergeable_ranks.get(a + b)
                if r is not None and r < rank and (best is None or r < best[0]):
                    best = (r, i)
            if best is None:
                break
            i = best[1]
            parts.rotate(-i)
            a, b = parts.popleft(), parts.popleft()
            parts.appendleft(a + b)
            parts.rotate(i)
        left, right = parts
        merges[(mergeable_ranks[left], mergeable_ranks[right])] = rank
    return merges
