"""Style: collections.Counter and heapq. Training sums Counter.update(zip(...)) over the
chunks and picks the winner with Counter.most_common(1) (a stable sort, so the first
of the tied pairs wins). Encoding keeps a heap of the merge ids present in the chunk and
pops the lowest one still present (lazy deletion). recover_merges pops tokens from a
heap in rank order and picks each step's pair with heapq.nsmallest."""

import heapq
from collections import Counter
from collections.abc import Collection, Mapping, Set

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return regex.findall(pattern, text)


def replace_pair(ids, pair, idx):
    out = []
    i = 0
    n = len(ids)
    while i < n:
        if i < n - 1 and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("hacen falta al menos los 256 bytes")
    chunks = [list(piece.encode("utf-8")) for piece in pretokenize(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        stats = Counter()
        for chunk in chunks:
            stats.update(zip(chunk, chunk[1:]))
        if not stats:
            break
        (best, _), = stats.most_common(1)
        merges[best] = idx
        chunks = [replace_pair(chunk, best, idx) for chunk in chunks]
    return merges


def _encode_chunk(ids, merges):
    ids = list(ids)
    heap = list({merges[p] for p in zip(ids, ids[1:]) if p in merges})
    heapq.heapify(heap)
    by_id = {}
    for pair, idx in merges.items():
        by_id.setdefault(idx, []).append(pair)
    while heap:
        idx = heapq.heappop(heap)
        present = set(zip(ids, ids[1:]))
        pairs = [p for p in by_id[idx] if p in present]
        if not pairs:
            continue  # stale entry
        ids = replace_pair(ids, pairs[0], idx)
        for p in zip(ids, ids[1:]):
            if p in merges and merges[p] not in heap:
                heapq.heappush(heap, merges[p])
        if len(pairs) > 1:
            heapq.heappush(heap, idx)
    return ids


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    out = []
    for piece in pretokenize(text, pattern):
        out += _encode_chunk(piece.encode("utf-8"), merges)
    return out


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    if allowed_special == "all":
        allowed = Counter(special_tokens.keys())
    elif isinstance(allowed_special, Set):
        allowed = Counter(name for name in allowed_special if name in special_tokens)
    else:
        raise TypeError(allowed_special)
    if disallowed_special == "all":
        disallowed = Counter(special_tokens.keys()) - allowed
    elif isinstance(disallowed_special, (str, bytes, Mapping)) or not isinstance(disallowed_special, Collection):
        raise TypeError(disallowed_special)
    else:
        disallowed = disallowed_special
    for name in disallowed:
        if name in text:
            raise ValueError(f"cadena no permitida: {name!r}")
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    alternatives = sorted(allowed, key=len, reverse=True)
    parts = regex.split("(" + "|".join(map(regex.escape, alternatives)) + ")", text)
    out = []
    for k, part in enumerate(parts):
        out += [special_tokens[part]] if k % 2 else encode_ordinary(part, merges, pattern)
    return out


def decode(ids, vocab, special_tokens):
    inverse = {idx: name.encode("utf-8") for name, idx in special_tokens.items()}
    chunks = []
    for idx in ids:
        if idx in vocab:
            chunks.append(vocab[idx])
        else:
            chunks.append(inverse[idx])  # KeyError for an unknown id
    return b"".join(chunks).decode("utf-8", "replace")


def recover_merges(mergeable_ranks):
    heap = [(rank, token) for token, rank in mergeable_ranks.items() if len(token) > 1]
    heapq.heapify(heap)
    merges = {}
    while heap:
        rank, token = heapq.heappop(heap)
        parts = [bytes([b]) for b in token]
        while True:
            candidates = [(mergeable_ranks[a + b], i) for i, (a, b) in enumerate(zip(parts, parts[1:]))
                          if mergeable_ranks.get(a + b, rank) < rank]
            if not candidates:
                break
            (_, i), = heapq.nsmallest(1, candidates)
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        left, right = parts
        merges[mergeable_ranks[left], mergeable_ranks[right]] = rank
    return merges
