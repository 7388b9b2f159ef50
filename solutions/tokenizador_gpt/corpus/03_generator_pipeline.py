"""Style: generator pipelines. Every stage is a generator (chunks -> byte ids -> merged
ids, pairs of each chunk, segments of text between special tokens) and the graded
functions only materialise the final list. The working sequences in training are
iterators rebuilt lazily each round; recover_merges walks a generator of (rank, token)."""

from collections.abc import Collection, Mapping, Set

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def iter_chunks(text, pattern):
    for match in regex.finditer(pattern, text):
        yield match.group(0)


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return list(iter_chunks(text, pattern))


def iter_pairs(seq):
    it = iter(seq)
    prev = next(it, None)
    for cur in it:
        yield prev, cur
        prev = cur


def merged(seq, pair, idx):
    """Yield seq with every non-overlapping occurrence of pair (left to right) replaced by idx."""
    it = iter(seq)
    for x in it:
        if x == pair[0]:
            # look ahead one element
            for y in it:
                if y == pair[1]:
                    yield idx
                    break
                yield x
                if y != pair[0]:
                    yield y
                    break
                x = y
            else:
                yield x
        else:
            yield x


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size debe ser >= 256")
    chunks = [list(c.encode("utf-8")) for c in iter_chunks(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        counts = {}
        for pair in (p for chunk in chunks for p in iter_pairs(chunk)):
            counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(counts, key=counts.__getitem__)
        merges[best] = idx
        chunks = [list(merged(chunk, best, idx)) for chunk in chunks]
    return merges


def bpe_chunk(data, merges):
    ids = list(data)
    while True:
        ranked = ((merges[p], p) for p in iter_pairs(ids) if p in merges)
        best = min(ranked, default=None)
        if best is None:
            return ids
        ids = list(merged(ids, best[1], best[0]))


def iter_ids(text, merges, pattern):
    for chunk in iter_chunks(text, pattern):
        yield from bpe_chunk(chunk.encode("utf-8"), merges)


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    return list(iter_ids(text, merges, pattern))


def iter_segments(text, names):
    """Yield (is_special, piece): leftmost match first, the longest name at one position."""
    if not names:
        yield False, text
        return
    finder = regex.compile("|".join(regex.escape(n) for n in sorted(names, key=len, reverse=True)))
    pos = 0
    for m in finder.finditer(text):
        yield False, text[pos:m.start()]
        yield True, m.group(0)
        pos = m.end()
    yield False, text[pos:]


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    if allowed_special == "all":
        allowed = set(special_tokens)
    elif isinstance(allowed_special, Set):
        allowed = {name for name in allowed_special if name in special_tokens}
    else:
        raise TypeError(f"valor de allowed_special desconocido: {allowed_special!r}")
    if disallowed_special == "all":
        disallowed = (n for n in special_tokens if n not in allowed)
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        disallowed = iter(disallowed_special)
    else:
        raise TypeError(f"valor de disallowed_special desconocido: {disallowed_special!r}")
    bad = next((n for n in disallowed if n in text), None)
    if bad is not None:
        raise ValueError(f"cadena no permitida en el texto: {bad!r}")

    def ids():
        for is_special, piece in iter_segments(text, allowed):
            if is_special:
                yield special_tokens[piece]
            else:
                yield from encode_ordinary(piece, merges, pattern)
    return list(ids())


def decode(ids, vocab, special_tokens):
    names = {idx: name for name, idx in special_tokens.items()}

    def pieces():
        for idx in ids:
            if idx in vocab:
                yield vocab[idx]
            elif idx in names:
                yield names[idx].encode("utf-8")
            else:
                raise KeyError(f"id desconocido: {idx}")
    return b"".join(pieces()).decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    def multi_byte():
        yield from sorted((rank, token) for token, rank in mergeable_ranks.items() if len(token) > 1)

    merges = {}
    for rank, token in multi_byte():
        parts = [token[i:i + 1] for i in range(len(token))]
        while True:
            options = ((mergeable_ranks[a + b], i) for i, (a, b) in enumerate(iter_pairs(parts))
                       if a + b in mergeable_ranks and mergeable_ranks[a + b] < rank)
            best = min(options, default=None)
            if best is None:
                break
            i = best[1]
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        merges[(mergeable_ranks[parts[0]], mergeable_ranks[parts[1]])] = rank
    return merges
