"""Plausible wrong implementations of `bpe_bytes`: one misconception each.

Most are *mutants*: the reference function with one edit, so each entry states exactly
its mistake. The rest are written out whole, where the wrong idea changes the shape
of the code. `failing` is the exact set of hidden tests each one must fail
(tests/test_catalogue.py holds the suite to it); where a published check catches the
same bug as the specific test, both are listed.
"""

from functools import partial
from pathlib import Path

from autograder.samples import changing as _changing
from autograder.samples import mutant as _mutant
from autograder.samples import remembering as _remembering
from autograder.samples import rewrite

SOLUTION = Path(__file__).with_name("solution.py")  # the reference each mutant edits
mutant = partial(_mutant, SOLUTION)
changing = partial(_changing, SOLUTION)
remembering = partial(_remembering, SOLUTION)


EARLY_STOP = "        if len(ids) < 2:\n            break\n"
EMPTY_CHECK = '    if not ids:\n        raise ValueError("no se puede calcular la razón de compresión sin tokens")\n'
VOCAB_CHECK = '    if vocab_size < 256:\n        raise ValueError(f"vocab_size debe ser al menos 256, no {vocab_size}")\n'

BUGGY = [
    # --- get_stats ----------------------------------------------------------------------
    mutant("get_stats_counts_each_pair_once", "counts distinct pairs (a set) instead of occurrences", "get_stats",
           [("for pair in zip(ids, ids[1:]):", "for pair in set(zip(ids, ids[1:])):")],
           {"test_get_stats_repeated_pairs_add_up", "test_get_stats_overlapping_pairs"}, "sumar todas sus apariciones", clause="get_stats.pairs"),
    rewrite("get_stats_skips_overlaps", "skips ahead after a pair of equal ids, as if counting were merging", '''
def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    i = 0
    while i < len(ids) - 1:
        pair = (ids[i], ids[i + 1])
        counts[pair] = counts.get(pair, 0) + 1
        i += 2 if ids[i] == ids[i + 1] else 1
    return counts
''', {"test_get_stats_overlapping_pairs"}, "los pares se solapan", clause="get_stats.overlaps"),
    mutant("get_stats_ignores_counts", "always starts a new dict, ignoring `counts`", "get_stats",
           [("counts = {} if counts is None else counts", "counts = {}")],
           {"test_get_stats_updates_counts_in_place"}, "actualiza ese mismo diccionario", clause="get_stats.counts_in_place"),
    mutant("get_stats_mutable_default", "a shared `counts={}` default: counts leak from call to call", "get_stats",
           [("counts=None):", "counts={}):"), ("    counts = {} if counts is None else counts\n", "")],
           {"test_get_stats_counts_pairs", "test_get_stats_repeated_pairs_add_up", "test_get_stats_overlapping_pairs",
            "test_get_stats_short_lists", "test_get_stats_fresh_dict_each_call"},
           "No uses `counts={}`", clause="get_stats.fresh_dict"),

    # --- merge --------------------------------------------------------------------------
    rewrite("merge_overlapping", "replaces every occurrence, overlapping ones included", '''
def merge(ids, pair, idx):
    out = list(ids)
    for i in range(len(ids) - 1):
        if (ids[i], ids[i + 1]) == pair:
            out[i], out[i + 1] = idx, None
    return [x for x in out if x is not None]
''', {"test_merge_does_not_overlap"}, "no se solapan", clause="merge.no_overlap"),
    mutant("merge_drops_tail", "stops one position early and loses the last id", "merge",
           [("while i < len(ids):", "while i < len(ids) - 1:")],
           {"test_merge_keeps_the_tail"}, "último elemento", clause="merge.replaces"),
    rewrite("merge_mutates_input", "merges in place in the caller's list", '''
def merge(ids, pair, idx):
    i = 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            ids[i:i + 2] = [idx]
        i += 1
    return ids
''', {"test_merge_leaves_input_alone"}, "lista nueva", clause="merge.leaves_ids"),

    # --- train_bpe ----------------------------------------------------------------------
    mutant("train_bpe_alphabetical_ties", "breaks ties by the smallest pair instead of the first occurrence", "train_bpe",
           [("pair = max(stats, key=stats.get)", "pair = min(stats, key=lambda p: (-stats[p], p))")],
           {"test_train_bpe_published_example", "test_train_bpe_tie_rule"}, "primera aparición", clause="train_bpe.most_frequent"),
    # Its only bug is the numbering: the tie rule, the most-frequent-pair choice and the
    # ValueError test read the merges by their byte strings, so only the ids test (and the
    # published example, whose ids are part of the check) catch it.
    mutant("train_bpe_ids_off_by_one", "numbers new tokens from 257", "train_bpe",
           [("range(256, vocab_size)", "range(257, vocab_size + 1)")],
           {"test_train_bpe_published_example", "test_train_bpe_new_ids"}, "256 + k", clause="train_bpe.new_ids"),
    mutant("train_bpe_code_points", "trains on ord() of characters instead of UTF-8 bytes", "train_bpe",
           [('ids = list(text.encode("utf-8"))', "ids = [ord(c) for c in text]")],
           {"test_train_bpe_uses_utf8_bytes"}, "bytes UTF-8", clause="train_bpe.utf8_bytes"),
    mutant("train_bpe_no_early_stop", "keeps looping when no pair is left (max of an empty dict)", "train_bpe",
           [(EARLY_STOP, "")], {"test_train_bpe_stops_when_sequence_runs_out"}, "menos de dos ids", clause="train_bpe.runs_out"),
    mutant("train_bpe_accepts_small_vocab", "returns no merges instead of rejecting vocab_size < 256", "train_bpe",
           [(VOCAB_CHECK, "")], {"test_train_bpe_rejects_small_vocab"}, "ValueError", clause="train_bpe.small_vocab"),

    # --- build_vocab, encode, decode ----------------------------------------------------
    mutant("build_vocab_joins_backwards", "vocab[b] + vocab[a]: the pair's bytes joined in the wrong order",
           "build_vocab", [("vocab[idx] = vocab[a] + vocab[b]", "vocab[idx] = vocab[b] + vocab[a]")],
           {"test_build_vocab_bytes_and_merges", "test_build_vocab_values_are_bytes", "test_build_vocab_unordered_merges",
            "test_build_vocab_sorted_by_id_not_by_pair"}, "vocab[a] + vocab[b]", clause="build_vocab.bytes"),
    mutant("build_vocab_in_dict_order", "builds merged tokens in the dict's order, not by id", "build_vocab",
           [("sorted(merges.items(), key=lambda item: item[1])", "merges.items()")],
           {"test_build_vocab_unordered_merges"}, "id creciente", clause="build_vocab.by_id"),
    mutant("build_vocab_sorted_by_pair", "sorts the merges by their pair (sorted(merges.items())), not by id",
           "build_vocab", [("sorted(merges.items(), key=lambda item: item[1])", "sorted(merges.items())")],
           {"test_build_vocab_sorted_by_id_not_by_pair"}, "ordena por el par", clause="build_vocab.by_id"),
    rewrite("encode_by_frequency", "merges the most frequent pair of the input instead of the lowest merge id", '''
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
''', {"test_encode_lowest_merge_id_not_frequency"}, "id de fusión más bajo", clause="encode.lowest_id_first"),
    rewrite("encode_in_dict_order", "applies the merges in the dict's iteration order", '''
def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair, idx in merges.items():
        ids = merge(ids, pair, idx)
    return ids
''', {"test_encode_ignores_dict_order"}, "orden del diccionario", clause="encode.dict_order"),
    mutant("decode_strict_utf8", "decodes with errors='strict'", "decode",
           [('raw.decode("utf-8", errors="replace")', 'raw.decode("utf-8")')],
           {"test_decode_invalid_utf8_is_replaced"}, "errors='replace'", clause="decode.replace"),
    rewrite("decode_token_by_token", "decodes each token separately, splitting multi-byte characters", '''
def decode(ids, vocab):
    return "".join(vocab[idx].decode("utf-8", errors="replace") for idx in ids)
''', {"test_decode_characters_split_across_tokens"}, "un carácter puede repartirse", clause="decode.join_then_decode"),
    mutant("decode_skips_unknown_ids", "uses vocab.get(id, b'') and hides unknown ids", "decode",
           [("vocab[idx] for idx in ids", 'vocab.get(idx, b"") for idx in ids')],
           {"test_decode_unknown_id_raises"}, "KeyError", clause="decode.unknown_id"),

    # --- compression_ratio --------------------------------------------------------------
    mutant("compression_ratio_inverted", "divides tokens by bytes", "compression_ratio",
           [('return len(text.encode("utf-8")) / len(ids)', 'return len(ids) / len(text.encode("utf-8"))')],
           {"test_compression_ratio_published_example"}, "bytes / tokens", clause="compression_ratio.bytes_per_token"),
    mutant("compression_ratio_characters", "counts characters instead of UTF-8 bytes", "compression_ratio",
           [('len(text.encode("utf-8"))', "len(text)")], {"test_compression_ratio_counts_utf8_bytes"}, "bytes UTF-8", clause="compression_ratio.utf8_bytes"),
    mutant("compression_ratio_divides_by_zero", "lets an empty `ids` raise ZeroDivisionError", "compression_ratio",
           [(EMPTY_CHECK, "")], {"test_compression_ratio_rejects_empty_ids"}, "ValueError", clause="compression_ratio.empty_ids"),

    # --- arguments after the call, and calls that repeat ('Cómo se califica') ------------
    changing("build_vocab_empties_merges", "build_vocab", 'merges.clear()', {"test_build_vocab_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="build_vocab.leaves_arguments"),
    changing("encode_empties_merges", "encode", 'merges.clear()', {"test_encode_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="encode.leaves_arguments"),
    remembering("encode_cache_by_text", "encode", 'text', {"test_encode_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="encode.afresh"),
    changing("decode_empties_ids", "decode", 'ids.clear()', {"test_decode_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="decode.leaves_arguments"),
    remembering("decode_cache_by_ids", "decode", 'ids', {"test_decode_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="decode.afresh"),
    changing("compression_ratio_empties_ids", "compression_ratio", 'ids.clear()', {"test_compression_ratio_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="compression_ratio.leaves_arguments"),
]
