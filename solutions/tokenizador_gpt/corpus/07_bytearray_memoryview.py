"""Style: bytes-oriented. Chunks start as memoryview(bytes) slices of the whole text's
UTF-8 encoding (regex run on the str, offsets mapped to byte offsets); ids above 255
are kept in array("q") working sequences. decode fills one bytearray;
recover_merges compares bytes slices of a memoryview of each token."""

from array import array
from collections.abc import Collection, Mapping, Set as AbstractSet

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return [text[m.start():m.end()] for m in regex.finditer(pattern, text)]


def _byte_chunks(text, pattern):
    """memoryview slices of text.encode('utf-8'), one per chunk."""
    data = memoryview(text.encode("utf-8"))
    offset = 0
    for piece in pretokenize(text, pattern):
        size = len(piece.encode("utf-8"))
        yield data[offset:offset + size]
        offset += size


def _merge(ids, pair, idx):
    out = array("q")
    i, n = 0, len(ids)
    a, b = pair
    while i < n:
        if ids[i] == a and i + 1 < n and ids[i + 1] == b:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    chunks = [array("q", view) for view in _byte_chunks(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        counts = {}
        for chunk in chunks:
            for k in range(len(chunk) - 1):
                pair = (chunk[k], chunk[k + 1])
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(counts, key=counts.get)
        merges[best] = idx
        chunks = [_merge(chunk, best, idx) for chunk in chunks]
    return merges


def _encode_bytes(view, merges):
    ids = array("q", view)
    while len(ids) > 1:
        best = None
        for k in range(len(ids) - 1):
            rank = merges.get((ids[k], ids[k + 1]))
            if rank is not None and (best is None or rank < best):
                best = rank
        if best is None:
            break
        pair = next(p for p in zip(ids, ids[1:]) if merges.get(p) == best)
        ids = _merge(ids, pair, best)
    return ids.tolist()


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    out = []
    for view in _byte_chunks(text, pattern):
        out.extend(_encode_bytes(view, merges))
    return out


def _allowed_names(allowed_special, special_tokens):
    if allowed_special == "all":
        return set(special_tokens)
    if isinstance(allowed_special, AbstractSet):
        return set(allowed_special) & set(special_tokens)
    raise TypeError(f"allowed_special={allowed_special!r}")


def _disallowed_texts(disallowed_special, special_tokens, allowed):
    if disallowed_special == "all":
        return set(special_tokens) - allowed
    if isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        return disallowed_special
    raise TypeError(f"disallowed_special={disallowed_special!r}")


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    allowed = _allowed_names(allowed_special, special_tokens)
    for name in _disallowed_texts(disallowed_special, special_tokens, allowed):
        if name in text:
            raise ValueError(f"texto no permitido: {name!r}")
    allowed.discard("")
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    matcher = regex.compile("|".join(regex.escape(n) for n in sorted(allowed, key=lambda n: -len(n))))
    out, last = [], 0
    for m in matcher.finditer(text):
        out += encode_ordinary(text[last:m.start()], merges, pattern)
        out.append(special_tokens[m.group()])
        last = m.end()
    out += encode_ordinary(text[last:], merges, pattern)
    return out


def decode(ids, vocab, special_tokens):
    names = {idx: name for name, idx in special_tokens.items()}
    buf = bytearray()
    for idx in ids:
        if idx in vocab:
            buf += vocab[idx]
        elif idx in names:
            buf += names[idx].encode("utf-8")
        else:
            raise KeyError(idx)
    return buf.decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda kv: kv[1]):
        if len(token) < 2:
            continue
        view = memoryview(token)
        bounds = list(range(len(token) + 1))  # part k is view[bounds[k]:bounds[k+1]]
        while len(bounds) > 3:
            best = None
            for k in range(len(bounds) - 2):
                r = mergeable_ranks.get(bytes(view[bounds[k]:bounds[k + 2]]))
                if r is not None and r < rank and (best is None or r < best[0]):
                    best = (r, k)
            if best is None:
                break
            del bounds[best[1] + 1]
        left, right = bytes(view[bounds[0]:bounds[1]]), bytes(view[bounds[1]:bounds[2]])
        merges[(mergeable_ranks[left], mergeable_ranks[right])] = rank
    return merges
