"""Style: numpy integer arrays. All chunks are concatenated into one int64 array with a
boolean "same chunk as the next element" mask, so pairs never cross a boundary; pairs
are counted with np.unique on a packed key (left * BIG + right) and the tie rule uses
np.unique's return_index (first occurrence). Merging finds non-overlapping occurrences
left to right with a vectorised candidate mask plus a run-parity fix for runs like
"aaa". decode goes through np.concatenate of uint8 buffers."""

from collections.abc import Collection, Mapping, Set as AbstractSet

import numpy as np
import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""

BIG = np.int64(1) << 31


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return regex.findall(pattern, text)


def _layout(chunks):
    """(ids, link): link[k] is True when ids[k] and ids[k+1] belong to the same chunk."""
    ids = np.fromiter((b for c in chunks for b in c), dtype=np.int64)
    link = np.ones(max(len(ids) - 1, 0), dtype=bool)
    ends = np.cumsum(np.array([len(c) for c in chunks], dtype=np.int64))[:-1] - 1  # last index of every chunk but the last
    ends = ends[(ends >= 0) & (ends < len(link))]
    link[ends] = False
    return ids, link


def _starts(ids, link, a, b):
    """Positions where (a, b) is replaced, left to right without overlap."""
    cand = link & (ids[:-1] == a) & (ids[1:] == b)
    pos = np.flatnonzero(cand)
    if a != b or len(pos) == 0:
        return pos  # occurrences of (a, b) with a != b never overlap
    # a == b: in a run of consecutive candidates take every other one, starting with the first
    new_run = np.ones(len(pos), dtype=bool)
    new_run[1:] = pos[1:] != pos[:-1] + 1
    run_id = np.cumsum(new_run) - 1
    run_start = pos[new_run][run_id]
    return pos[(pos - run_start) % 2 == 0]


def _apply(ids, link, a, b, idx):
    pos = _starts(ids, link, a, b)
    if len(pos) == 0:
        return ids, link
    ids = ids.copy()
    ids[pos] = idx
    keep = np.ones(len(ids), dtype=bool)
    keep[pos + 1] = False
    # the link after a merged element is the link after its right half
    new_link_full = np.append(link, False)
    new_link_full[pos] = new_link_full[pos + 1]
    return ids[keep], new_link_full[keep][:-1]


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    ids, link = _layout([p.encode("utf-8") for p in pretokenize(text, pattern)])
    merges = {}
    for idx in range(256, vocab_size):
        if not link.any():
            break
        keys = ids[:-1][link] * BIG + ids[1:][link]
        uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
        top = counts == counts.max()
        winner = uniq[top][np.argmin(first[top])]
        a, b = int(winner // BIG), int(winner % BIG)
        merges[(a, b)] = idx
        ids, link = _apply(ids, link, a, b, idx)
    return merges


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    ids, link = _layout([p.encode("utf-8") for p in pretokenize(text, pattern)])
    if not merges:
        return ids.tolist()
    pairs = np.array(list(merges.keys()), dtype=np.int64).reshape(-1, 2)
    table_keys = pairs[:, 0] * BIG + pairs[:, 1]
    table_ids = np.array(list(merges.values()), dtype=np.int64)
    order = np.argsort(table_keys)
    table_keys, table_ids = table_keys[order], table_ids[order]
    while link.any():
        keys = ids[:-1] * BIG + ids[1:]
        slot = np.clip(np.searchsorted(table_keys, keys), 0, len(table_keys) - 1)
        found = link & (table_keys[slot] == keys)
        if not found.any():
            break
        best = table_ids[slot][found].min()
        k = int(np.flatnonzero(found & (table_ids[slot] == best))[0])
        ids, link = _apply(ids, link, int(ids[k]), int(ids[k + 1]), int(best))
    return ids.tolist()


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    if allowed_special == "all":
        allowed = set(special_tokens)
    elif isinstance(allowed_special, AbstractSet):
        allowed = {n for n in allowed_special if n in special_tokens}
    else:
        raise TypeError(f"allowed_special={allowed_special!r} no es válido")
    if disallowed_special == "all":
        disallowed = [name for name in special_tokens if name not in allowed]
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        disallowed = disallowed_special
    else:
        raise TypeError(f"disallowed_special={disallowed_special!r} no es válido")
    for name in disallowed:
        if name in text:
            raise ValueError(f"texto no permitido: {name!r}")
    allowed.discard("")
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    rx = regex.compile("(" + "|".join(regex.escape(n) for n in sorted(allowed, key=len, reverse=True)) + ")")
    parts = rx.split(text)
    out = []
    for k, part in enumerate(parts):
        out.extend([special_tokens[part]] if k % 2 else encode_ordinary(part, merges, pattern))
    return out


def decode(ids, vocab, special_tokens):
    names = {i: n.encode("utf-8") for n, i in special_tokens.items()}
    buffers = []
    for i in ids:
        if i in vocab:
            buffers.append(np.frombuffer(vocab[i], dtype=np.uint8))
        elif i in names:
            buffers.append(np.frombuffer(names[i], dtype=np.uint8))
        else:
            raise KeyError(i)
    data = np.concatenate(buffers).tobytes() if buffers else b""
    return data.decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    tokens = [t for t in mergeable_ranks if len(t) > 1]
    ranks = np.array([mergeable_ranks[t] for t in tokens], dtype=np.int64)
    merges = {}
    for k in np.argsort(ranks, kind="stable"):
        token, rank = tokens[k], int(ranks[k])
        parts = [token[j:j + 1] for j in range(len(token))]
        while len(parts) > 2:
            joined = np.array([mergeable_ranks.get(x + y, rank) for x, y in zip(parts, parts[1:])])
            j = int(np.argmin(joined))
            if joined[j] >= rank:
                break
            parts[j:j + 2] = [parts[j] + parts[j + 1]]
        merges[(mergeable_ranks[parts[0]], mergeable_ranks[parts[1]])] = rank
    return merges
