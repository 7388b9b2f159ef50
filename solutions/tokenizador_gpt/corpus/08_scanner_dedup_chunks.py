"""Style: a compiled pattern walked with its scanner object, and training on distinct
chunks weighted by frequency (as the lesson's efficiency note suggests, like BPE on a
word corpus): counts are added with the chunk's multiplicity, so the first-seen order of
the pairs is still the order over the whole text. Special tokens are located with
str.find over all the allowed names (leftmost position, then the longest name), no regex."""

from collections.abc import Collection, Mapping, Set as AbstractSet

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    scanner = regex.compile(pattern).scanner(text)
    chunks = []
    while (m := scanner.search()) is not None:
        chunks.append(m.group())
    return chunks


def merge_word(word, pair, idx):
    out = []
    i = 0
    while i < len(word):
        if word[i:i + 2] == pair:
            out.append(idx)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size debe ser al menos 256")
    freq = {}
    for chunk in pretokenize(text, pattern):
        key = tuple(chunk.encode("utf-8"))
        freq[key] = freq.get(key, 0) + 1
    words = list(freq.items())  # distinct chunks in order of first appearance
    merges = {}
    for idx in range(256, vocab_size):
        counts = {}
        for word, f in words:
            for k in range(len(word) - 1):
                pair = word[k:k + 2]
                counts[pair] = counts.get(pair, 0) + f
        if not counts:
            break
        best = max(counts, key=counts.get)
        merges[best] = idx
        words = [(merge_word(w, best, idx), f) for w, f in words]
    return merges


def encode_chunk(chunk, merges, cache):
    if chunk in cache:
        return cache[chunk]
    word = tuple(chunk.encode("utf-8"))
    while len(word) > 1:
        options = [merges[word[k:k + 2]] for k in range(len(word) - 1) if word[k:k + 2] in merges]
        if not options:
            break
        low = min(options)
        pair = next(word[k:k + 2] for k in range(len(word) - 1) if merges.get(word[k:k + 2]) == low)
        word = merge_word(word, pair, low)
    cache[chunk] = word
    return word


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    cache = {}
    ids = []
    for chunk in pretokenize(text, pattern):
        ids.extend(encode_chunk(chunk, merges, cache))
    return ids


def _next_special(text, start, names):
    best = None
    for name in names:
        pos = text.find(name, start)
        if pos >= 0 and (best is None or (pos, -len(name)) < (best[0], -len(best[1]))):
            best = (pos, name)
    return best


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    if allowed_special == "all":
        names = [n for n in special_tokens]
    elif isinstance(allowed_special, AbstractSet):
        names = [n for n in special_tokens if n in allowed_special]
    else:
        raise TypeError(f"allowed_special debe ser 'all' o un conjunto: {allowed_special!r}")
    if disallowed_special == "all":
        forbidden = [n for n in special_tokens if n not in names]
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        forbidden = disallowed_special
    else:
        raise TypeError(f"disallowed_special debe ser 'all' o una colección: {disallowed_special!r}")
    for n in forbidden:
        if n in text:
            raise ValueError(f"texto no permitido en la entrada: {n!r}")
    names = [n for n in names if n]
    ids, pos = [], 0
    while (hit := _next_special(text, pos, names)) is not None:
        where, name = hit
        ids.extend(encode_ordinary(text[pos:where], merges, pattern))
        ids.append(special_tokens[name])
        pos = where + len(name)
    ids.extend(encode_ordinary(text[pos:], merges, pattern))
    return ids


def decode(ids, vocab, special_tokens):
    table = dict(vocab)
    for name, idx in special_tokens.items():
        table.setdefault(idx, name.encode("utf-8"))
    return b"".join(table[i] for i in ids).decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    # ranks of the pieces that exist when each token is learned: process in rank order
    # and reuse encode_chunk's idea on bytes, with the ranks as merge priorities
    merges = {}
    for token, rank in sorted(mergeable_ranks.items(), key=lambda kv: kv[1]):
        if len(token) == 1:
            continue
        parts = [token[k:k + 1] for k in range(len(token))]
        while len(parts) > 2:
            joined = [(mergeable_ranks.get(parts[k] + parts[k + 1], rank), k) for k in range(len(parts) - 1)]
            r, k = min(joined)
            if r >= rank:
                break
            parts[k:k + 2] = [parts[k] + parts[k + 1]]
        merges[(mergeable_ranks[parts[0]], mergeable_ranks[parts[1]])] = rank
    return merges
