"""Plausible wrong implementations of `bpe_bytes`: one misconception each.

`failing` is the exact set of hidden tests each one must fail; tests/test_catalogue.py
holds the suite to it. Where a published check catches the same bug as the
specific test, both are listed.
"""

from autograder.samples import Sample


def _buggy(name, description, source, failing, hint):
    function = source.split("def ", 1)[1].split("(", 1)[0]
    return Sample(name, "buggy", description, replace={function: source.strip("\n")},
                  failing=frozenset(failing), hint=hint)


BUGGY = [
    _buggy("get_stats_counts_each_pair_once", "counts distinct pairs (a set) instead of occurrences", '''
def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in set(zip(ids, ids[1:])):
        counts[pair] = counts.get(pair, 0) + 1
    return counts
''', {"test_get_stats_repeated_pairs_add_up", "test_get_stats_overlapping_pairs"}, "sumar todas sus apariciones"),

    _buggy("get_stats_skips_overlaps", "skips ahead after a pair of equal ids, as if counting were merging", '''
def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    i = 0
    while i < len(ids) - 1:
        pair = (ids[i], ids[i + 1])
        counts[pair] = counts.get(pair, 0) + 1
        i += 2 if ids[i] == ids[i + 1] else 1
    return counts
''', {"test_get_stats_overlapping_pairs"}, "los pares se solapan"),

    _buggy("get_stats_ignores_counts", "always starts a new dict, ignoring `counts`", '''
def get_stats(ids, counts=None):
    result = {}
    for pair in zip(ids, ids[1:]):
        result[pair] = result.get(pair, 0) + 1
    return result
''', {"test_get_stats_updates_counts_in_place"}, "actualiza ese mismo diccionario"),

    _buggy("get_stats_mutable_default", "a shared `counts={}` default: counts leak from call to call", '''
def get_stats(ids, counts={}):
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts
''', {"test_get_stats_repeated_pairs_add_up", "test_get_stats_overlapping_pairs", "test_get_stats_short_lists",
      "test_get_stats_fresh_dict_each_call"}, "Un par que aparece varias veces"),

    _buggy("merge_overlapping", "replaces every occurrence, overlapping ones included", '''
def merge(ids, pair, idx):
    out = list(ids)
    for i in range(len(ids) - 1):
        if (ids[i], ids[i + 1]) == pair:
            out[i], out[i + 1] = idx, None
    return [x for x in out if x is not None]
''', {"test_merge_does_not_overlap"}, "no se solapan"),

    _buggy("merge_drops_tail", "stops one position early and loses the last id", '''
def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
''', {"test_merge_keeps_the_tail"}, "último elemento"),

    _buggy("merge_mutates_input", "merges in place in the caller's list", '''
def merge(ids, pair, idx):
    i = 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            ids[i:i + 2] = [idx]
        i += 1
    return ids
''', {"test_merge_leaves_input_alone"}, "lista nueva"),

    _buggy("train_bpe_alphabetical_ties", "breaks ties by the smallest pair instead of the first occurrence", '''
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        if len(ids) < 2:
            break
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: (-stats[p], p))
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
''', {"test_train_bpe_published_example", "test_train_bpe_tie_rule"}, "primera aparición"),

    _buggy("train_bpe_ids_off_by_one", "numbers new tokens from 257", '''
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(257, vocab_size + 1):
        if len(ids) < 2:
            break
        stats = get_stats(ids)
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
''', {"test_train_bpe_published_example", "test_train_bpe_new_ids", "test_train_bpe_tie_rule"}, "256 + k"),

    _buggy("train_bpe_code_points", "trains on ord() of characters instead of UTF-8 bytes", '''
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    ids = [ord(c) for c in text]
    merges = {}
    for idx in range(256, vocab_size):
        if len(ids) < 2:
            break
        stats = get_stats(ids)
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
''', {"test_train_bpe_uses_utf8_bytes"}, "bytes UTF-8"),

    _buggy("train_bpe_no_early_stop", "keeps looping when no pair is left (max of an empty dict)", '''
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
''', {"test_train_bpe_stops_when_sequence_runs_out"}, "menos de dos ids"),

    _buggy("train_bpe_accepts_small_vocab", "returns no merges instead of rejecting vocab_size < 256", '''
def train_bpe(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        if len(ids) < 2:
            break
        stats = get_stats(ids)
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
''', {"test_train_bpe_rejects_small_vocab"}, "ValueError"),

    _buggy("build_vocab_in_dict_order", "builds merged tokens in the dict's order, not by id", '''
def build_vocab(merges):
    vocab = {idx: bytes([idx]) for idx in range(256)}
    for (a, b), idx in merges.items():
        vocab[idx] = vocab[a] + vocab[b]
    return vocab
''', {"test_build_vocab_unordered_merges"}, "id creciente"),

    _buggy("encode_by_frequency", "merges the most frequent pair of the input instead of the lowest merge id", '''
def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        known = {p: n for p, n in stats.items() if p in merges}
        if not known:
            break
        pair = max(known, key=known.get)
        ids = merge(ids, pair, merges[pair])
    return ids
''', {"test_encode_lowest_merge_id_not_frequency"}, "id de fusión más bajo"),

    _buggy("encode_in_dict_order", "applies the merges in the dict's iteration order", '''
def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair, idx in merges.items():
        ids = merge(ids, pair, idx)
    return ids
''', {"test_encode_ignores_dict_order"}, "orden del diccionario"),

    _buggy("decode_strict_utf8", "decodes with errors='strict'", '''
def decode(ids, vocab):
    return b"".join(vocab[idx] for idx in ids).decode("utf-8")
''', {"test_decode_invalid_utf8_is_replaced"}, "errors='replace'"),

    _buggy("decode_token_by_token", "decodes each token separately, splitting multi-byte characters", '''
def decode(ids, vocab):
    return "".join(vocab[idx].decode("utf-8", errors="replace") for idx in ids)
''', {"test_decode_characters_split_across_tokens"}, "un carácter puede repartirse"),

    _buggy("decode_skips_unknown_ids", "uses vocab.get(id, b'') and hides unknown ids", '''
def decode(ids, vocab):
    return b"".join(vocab.get(idx, b"") for idx in ids).decode("utf-8", errors="replace")
''', {"test_decode_unknown_id_raises"}, "KeyError"),

    _buggy("compression_ratio_inverted", "divides tokens by bytes", '''
def compression_ratio(text, ids):
    if not ids:
        raise ValueError("sin tokens")
    return len(ids) / len(text.encode("utf-8"))
''', {"test_compression_ratio_published_example"}, "bytes / tokens"),

    _buggy("compression_ratio_characters", "counts characters instead of UTF-8 bytes", '''
def compression_ratio(text, ids):
    if not ids:
        raise ValueError("sin tokens")
    return len(text) / len(ids)
''', {"test_compression_ratio_counts_utf8_bytes"}, "bytes UTF-8"),

    _buggy("compression_ratio_divides_by_zero", "lets an empty `ids` raise ZeroDivisionError", '''
def compression_ratio(text, ids):
    return len(text.encode("utf-8")) / len(ids)
''', {"test_compression_ratio_rejects_empty_ids"}, "ValueError"),
]
