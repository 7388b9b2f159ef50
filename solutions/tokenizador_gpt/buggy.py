"""Plausible wrong implementations of `tokenizador_gpt`: one misconception each.

Most are *mutants*: the reference function with one edit, so each entry states exactly
its mistake. The rest are written out whole, where the wrong idea changes the shape
of the code. `failing` is the exact set of hidden tests each one must fail
(tests/test_catalogue.py holds the suite to it); where a basic test catches the same
bug as the specific test, both are listed.
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

VOCAB_CHECK = '    if vocab_size < 256:\n        raise ValueError(f"vocab_size debe ser al menos 256, no {vocab_size}")\n'
NO_PAIRS = "        if not stats:\n            break\n"

# The three encode rewrites below get their arguments right; what each one gets wrong comes after.
ENCODE_ARGUMENTS = '''
def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    if allowed_special == "all":
        allowed = set(special_tokens)
    elif isinstance(allowed_special, AbstractSet):
        allowed = set(allowed_special)
    else:
        raise TypeError("allowed_special")
    if disallowed_special == "all":
        disallowed = set(special_tokens) - allowed
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        disallowed = disallowed_special
    else:
        raise TypeError("disallowed_special")
'''

BUGGY = [
    # --- pretokenize --------------------------------------------------------------------
    mutant("pretokenize_gpt2_default", "defaults to the GPT-2 pattern instead of GPT-4's", "pretokenize",
           [("def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):", "def pretokenize(text, pattern=GPT2_SPLIT_PATTERN):")],
           {"test_pretokenize_gpt4_default"}, "GPT4_SPLIT_PATTERN", clause="pretokenize.gpt4_default"),
    mutant("pretokenize_drops_whitespace", "keeps only the chunks that are not pure whitespace", "pretokenize",
           [("return regex.findall(pattern, text)", "return [c for c in regex.findall(pattern, text) if c.strip()]")],
           {"test_pretokenize_keeps_whitespace"}, "espacios", clause="pretokenize.findall"),

    # --- train_regex_bpe ----------------------------------------------------------------
    mutant("train_regex_bpe_pairs_cross_chunks", "trains on the bytes of the whole text, ignoring the chunks",
           "train_regex_bpe",
           [('chunks = [list(chunk.encode("utf-8")) for chunk in pretokenize(text, pattern)]',
             'chunks = [list(text.encode("utf-8"))]')],
           {"test_train_regex_bpe_pairs_stay_in_chunks", "test_train_regex_bpe_gpt4_default",
            "test_train_regex_bpe_stops_when_no_pair_left", "test_train_regex_bpe_published_example"}, "nunca cruzan", clause="train_regex_bpe.within_chunks"),
    mutant("train_regex_bpe_smallest_pair_ties", "breaks ties by the smallest pair instead of the first occurrence",
           "train_regex_bpe",
           [("pair = max(stats, key=stats.get)", "pair = min(stats, key=lambda p: (-stats[p], p))")],
           {"test_train_regex_bpe_published_example", "test_train_regex_bpe_tie_rule"}, "primera aparición", clause="train_regex_bpe.tie_rule"),
    rewrite("train_regex_bpe_chunks_by_frequency", "counts each distinct chunk once, most frequent chunk first", '''
def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    from collections import Counter
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    counted = Counter(pretokenize(text, pattern)).most_common()
    chunks = [list(chunk.encode("utf-8")) for chunk, _ in counted]
    freqs = [n for _, n in counted]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids, n in zip(chunks, freqs):
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + n
        if not stats:
            break
        pair = max(stats, key=stats.get)
        merges[pair] = idx
        for k, ids in enumerate(chunks):
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(idx)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            chunks[k] = out
    return merges
''', {"test_train_regex_bpe_tie_rule"}, "sin ordenar ni agrupar", clause="train_regex_bpe.tie_rule"),
    rewrite("train_regex_bpe_stops_on_total_length", "stops when fewer than two ids remain in total, not when no pair is left", '''
def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    chunks = [list(chunk.encode("utf-8")) for chunk in pretokenize(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        if sum(len(ids) for ids in chunks) < 2:
            break
        stats = {}
        for ids in chunks:
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        pair = max(stats, key=stats.get)
        merges[pair] = idx
        for k, ids in enumerate(chunks):
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(idx)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            chunks[k] = out
    return merges
''', {"test_train_regex_bpe_stops_when_no_pair_left", "test_train_regex_bpe_published_example"}, "ningún par", clause="train_regex_bpe.no_pair_left"),
    mutant("train_regex_bpe_ignores_pattern", "always chunks with the default pattern", "train_regex_bpe",
           [("in pretokenize(text, pattern)", "in pretokenize(text)")],
           {"test_train_regex_bpe_uses_pattern"}, "`pattern` que recibes", clause="train_regex_bpe.uses_pattern"),
    mutant("train_regex_bpe_code_points", "trains on ord() of characters instead of UTF-8 bytes", "train_regex_bpe",
           [('list(chunk.encode("utf-8"))', "[ord(c) for c in chunk]")],
           {"test_train_regex_bpe_uses_utf8_bytes"}, "bytes UTF-8", clause="train_regex_bpe.utf8_bytes"),
    mutant("train_regex_bpe_accepts_small_vocab", "returns no merges instead of rejecting vocab_size < 256",
           "train_regex_bpe", [(VOCAB_CHECK, "")], {"test_train_regex_bpe_rejects_small_vocab"}, "ValueError", clause="train_regex_bpe.vocab_size"),

    mutant("train_regex_bpe_distinct_chunks", "trains on the distinct chunks, each counted once whatever its frequency",
           "train_regex_bpe",
           [('for chunk in pretokenize(text, pattern)]', 'for chunk in dict.fromkeys(pretokenize(text, pattern))]')],
           {"test_train_regex_bpe_repeated_chunks_count"}, "tantas veces como aparece", clause="train_regex_bpe.repeated_chunks"),
    mutant("train_regex_bpe_pair_once_per_chunk", "counts each pair once per chunk, not every occurrence",
           "train_regex_bpe",
           [("            for pair in zip(ids, ids[1:]):\n                stats[pair]",
             "            for pair in dict.fromkeys(zip(ids, ids[1:])):\n                stats[pair]")],
           {"test_train_regex_bpe_counts_every_occurrence", "test_train_regex_bpe_uses_pattern"}, "cada aparición", clause="train_regex_bpe.every_occurrence"),
    mutant("train_regex_bpe_rejects_256", "raises ValueError for vocab_size == 256 too (off by one)", "train_regex_bpe",
           [("    if vocab_size < 256:", "    if vocab_size <= 256:")],
           {"test_train_regex_bpe_vocab_size_256"}, "vocab_size = 256 es válido", clause="train_regex_bpe.vocab_size"),
    rewrite("train_regex_bpe_stale_tie_order", "updates the pair counts incrementally, so ties keep the order of the "
            "first round instead of the current segmentation", '''
def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    if vocab_size < 256:
        raise ValueError("vocab_size < 256")
    chunks = [list(chunk.encode("utf-8")) for chunk in pretokenize(text, pattern)]
    stats = {}
    for ids in chunks:
        for pair in zip(ids, ids[1:]):
            stats[pair] = stats.get(pair, 0) + 1
    merges = {}
    for idx in range(256, vocab_size):
        live = {pair: n for pair, n in stats.items() if n > 0}
        if not live:
            break
        pair = max(live, key=live.get)
        merges[pair] = idx
        for k, ids in enumerate(chunks):
            if pair not in zip(ids, ids[1:]):
                continue
            for old in zip(ids, ids[1:]):
                stats[old] -= 1
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(idx)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            for new in zip(out, out[1:]):
                stats[new] = stats.get(new, 0) + 1
            chunks[k] = out
    return merges
''', {"test_train_regex_bpe_published_example", "test_train_regex_bpe_ties_in_current_segmentation"},
            "segmentación actual", clause="train_regex_bpe.current_segmentation"),

    # --- encode_ordinary ----------------------------------------------------------------
    mutant("encode_ordinary_whole_text", "BPE-encodes the whole text without chunking it", "encode_ordinary",
           [("for chunk in pretokenize(text, pattern):", "for chunk in [text]:")],
           {"test_encode_ordinary_chunks_first", "test_encode_ordinary_gpt4_default"}, "una fusión nunca une", clause="encode_ordinary.chunks_first"),
    rewrite("encode_ordinary_by_frequency", "merges the most frequent known pair of each chunk, not the lowest merge id", '''
def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    out = []
    for chunk in pretokenize(text, pattern):
        ids = list(chunk.encode("utf-8"))
        while len(ids) >= 2:
            counts = {}
            for pair in zip(ids, ids[1:]):
                if pair in merges:
                    counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            merged, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    merged.append(merges[pair])
                    i += 2
                else:
                    merged.append(ids[i])
                    i += 1
            ids = merged
        out.extend(ids)
    return out
''', {"test_encode_ordinary_lowest_merge_id_not_frequency"}, "id de fusión más bajo", clause="encode_ordinary.lowest_id_first"),
    rewrite("encode_ordinary_in_dict_order", "applies the merges in the dict's iteration order", '''
def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    out = []
    for chunk in pretokenize(text, pattern):
        ids = list(chunk.encode("utf-8"))
        for pair, idx in merges.items():
            merged, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    merged.append(idx)
                    i += 2
                else:
                    merged.append(ids[i])
                    i += 1
            ids = merged
        out.extend(ids)
    return out
''', {"test_encode_ordinary_ignores_dict_order"}, "orden del diccionario", clause="encode_ordinary.dict_order"),
    mutant("encode_ordinary_ignores_pattern", "always chunks with the default pattern", "encode_ordinary",
           [("in pretokenize(text, pattern)", "in pretokenize(text)")],
           {"test_encode_ordinary_uses_pattern"}, "`pattern` que recibes", clause="encode_ordinary.uses_pattern"),

    # --- encode -------------------------------------------------------------------------
    mutant("encode_ignores_pattern", "hands encode_ordinary no pattern, so it always chunks with GPT-4's", "encode",
           [("return encode_ordinary(text, merges, pattern)", "return encode_ordinary(text, merges)"),
            ("out.extend(encode_ordinary(part, merges, pattern))", "out.extend(encode_ordinary(part, merges))")],
           {"test_encode_uses_pattern"}, "`pattern` que recibes", clause="encode.uses_pattern"),
    mutant("encode_shortest_special_first", "tries the shortest special token first where two overlap", "encode",
           [("key=len, reverse=True)", "key=len)")],
           {"test_encode_longest_special_wins"}, "gana el más largo", clause="encode.longest_wins"),
    mutant("encode_nothing_disallowed_still_raises", "reads disallowed_special=() as 'all', so special tokens "
           "can never be plain text", "encode",
           [('    if disallowed_special == "all":\n', '    if disallowed_special in ("all", ()):\n')],
           {"test_encode_nothing_disallowed_treats_specials_as_text"}, "sin lanzar ningún error", clause="encode.nothing_disallowed"),
    mutant("encode_set_allows_unlisted", "with a set, encodes unlisted special tokens as text instead of raising "
           "(minbpe's behaviour)", "encode",
           [("        disallowed = set(special_tokens) - allowed\n",
             "        disallowed = set() if allowed else set(special_tokens)\n")],
           {"test_encode_set_rejects_unlisted", "test_encode_set_checks_raw_text"}, "cualquier otro especial", clause="encode.set_rejects_unlisted"),
    mutant("encode_default_silent", "raises for disallowed special tokens only when some are allowed, so the "
           "default encodes them as text", "encode",
           [("        disallowed = set(special_tokens) - allowed\n",
             "        disallowed = set(special_tokens) - allowed if allowed else set()\n")],
           {"test_encode_default_rejects_specials", "test_encode_set_rejects_unlisted"}, "lanza ValueError", clause="encode.default_rejects"),
    mutant("encode_disallowed_only_specials", "looks only for disallowed names that are special tokens", "encode",
           [("    for name in disallowed:\n", "    for name in set(disallowed) & set(special_tokens):\n")],
           {"test_encode_disallowed_any_text"}, "no solo especiales", clause="encode.disallowed_any_text"),
    mutant("encode_disallowed_collection_as_all", "reads any non-empty disallowed_special as 'all'", "encode",
           [("        disallowed = disallowed_special\n",
             "        disallowed = set(special_tokens) - allowed if disallowed_special else ()\n")],
           {"test_encode_disallowed_collection_as_given", "test_encode_disallowed_any_text"}, "se usa tal cual", clause="encode.disallowed_as_given"),
    mutant("encode_accepts_minbpe_modes", "also takes minbpe's 'none' and 'none_raise' for allowed_special",
           "encode",
           [("    elif isinstance(allowed_special, AbstractSet):\n",
             '    elif allowed_special in ("none", "none_raise"):\n        allowed = set()\n'
             "    elif isinstance(allowed_special, AbstractSet):\n")],
           {"test_encode_allowed_rejects_other_values"}, "TypeError", clause="encode.other_values"),
    mutant("encode_disallowed_string_as_characters", "takes any string for disallowed_special, as a collection of "
           "its characters", "encode",
           [("not isinstance(disallowed_special, (str, bytes, Mapping))",
             "not isinstance(disallowed_special, (bytes, Mapping))")],
           {"test_encode_disallowed_rejects_other_values"}, "TypeError", clause="encode.other_values"),
    mutant("encode_specials_unescaped", "builds the special-token regex without escaping the names", "encode",
           [("regex.escape(name)", "name")],
           {"test_encode_all_specials", "test_encode_set_encodes_listed", "test_encode_longest_special_wins",
            "test_encode_set_ignores_unknown_names", "test_encode_uses_pattern",
            "test_encode_disallowed_collection_as_given"}, "regex.escape", clause="encode.specials_to_ids"),

    rewrite("encode_longest_special_anywhere", "cuts the text by one special name after another, longest first, "
            "so a longer name wins even when a shorter one starts earlier", ENCODE_ARGUMENTS + '''    for name in disallowed:
        if name in text:
            raise ValueError(f"no permitido: {name!r}")
    pieces = [text]  # str: ordinary text; int: a special token's id
    for name in sorted(allowed & set(special_tokens), key=len, reverse=True):
        cut = []
        for piece in pieces:
            if isinstance(piece, int):
                cut.append(piece)
                continue
            for k, sub in enumerate(piece.split(name)):
                if k:
                    cut.append(special_tokens[name])
                cut.append(sub)
        pieces = cut
    out = []
    for piece in pieces:
        out.extend([piece] if isinstance(piece, int) else encode_ordinary(piece, merges, pattern))
    return out
''', {"test_encode_leftmost_special_wins"}, "de izquierda a derecha", clause="encode.left_to_right"),
    rewrite("encode_set_checked_after_split", "looks for disallowed text only in what is left between the allowed "
            "special tokens, after cutting", ENCODE_ARGUMENTS + '''    names = sorted(allowed & set(special_tokens), key=len, reverse=True)
    parts = regex.split("(" + "|".join(regex.escape(name) for name in names) + ")", text) if names else [text]
    out = []
    for k, part in enumerate(parts):
        if k % 2 == 1:
            out.append(special_tokens[part])
            continue
        if any(name in part for name in disallowed):
            raise ValueError("el texto contiene algo no permitido")
        out.extend(encode_ordinary(part, merges, pattern))
    return out
''', {"test_encode_set_checks_raw_text"}, "texto original", clause="encode.raw_text"),
    rewrite("encode_set_unknown_name_keyerror", "looks every allowed name up in special_tokens (KeyError for a "
            "name that is not a special token)", ENCODE_ARGUMENTS + '''    for name in disallowed:
        if name in text:
            raise ValueError(f"no permitido: {name!r}")
    ids = {name: special_tokens[name] for name in allowed}
    if not ids:
        return encode_ordinary(text, merges, pattern)
    names = sorted(ids, key=len, reverse=True)
    out = []
    for k, part in enumerate(regex.split("(" + "|".join(regex.escape(n) for n in names) + ")", text)):
        if k % 2 == 1:
            out.append(ids[part])
        elif part:
            out.extend(encode_ordinary(part, merges, pattern))
    return out
''', {"test_encode_set_ignores_unknown_names"}, "ignóralo", clause="encode.unknown_names"),

    # --- decode -------------------------------------------------------------------------
    mutant("decode_strict_utf8", "decodes with errors='strict'", "decode",
           [('.decode("utf-8", errors="replace")', '.decode("utf-8")')],
           {"test_decode_invalid_utf8_is_replaced"}, "errors='replace'", clause="decode.replace"),
    mutant("decode_ignores_special_ids", "looks ids up in vocab only", "decode",
           [("        elif idx in special_bytes:\n            parts.append(special_bytes[idx])\n", "")],
           {"test_decode_leaves_its_arguments_alone", "test_decode_special_ids"}, "nombre del especial", clause="decode.special_ids"),
    mutant("decode_skips_unknown_ids", "skips ids it does not know instead of raising KeyError", "decode",
           [("            raise KeyError(idx)", "            continue")],
           {"test_decode_unknown_id_raises"}, "KeyError", clause="decode.unknown_id"),
    rewrite("decode_token_by_token", "decodes each token separately, splitting multi-byte characters", '''
def decode(ids, vocab, special_tokens):
    names = {idx: name for name, idx in special_tokens.items()}
    return "".join(names[idx] if idx in names else vocab[idx].decode("utf-8", errors="replace") for idx in ids)
''', {"test_decode_characters_split_across_tokens"}, "un carácter puede repartirse", clause="decode.join_then_decode"),

    # --- recover_merges -----------------------------------------------------------------
    rewrite("recover_merges_first_split", "takes the first split whose halves are older tokens, not the BPE split", '''
def recover_merges(mergeable_ranks):
    merges = {}
    for token, rank in mergeable_ranks.items():
        for k in range(1, len(token)):
            left, right = mergeable_ranks.get(token[:k], rank), mergeable_ranks.get(token[k:], rank)
            if left < rank and right < rank:
                merges[left, right] = rank
                break
    return merges
''', {"test_recover_merges_bpe_split_not_first_split", "test_recover_merges_repeated_pair_leftmost"}, "primer corte", clause="recover_merges.bpe_split"),
    rewrite("recover_merges_byte_values", "names single-byte parents by their byte value, not by their rank", '''
def recover_merges(mergeable_ranks):
    merges = {}
    rank_of = mergeable_ranks.get
    for token, rank in mergeable_ranks.items():
        if len(token) < 2:
            continue
        parts = [token[i:i + 1] for i in range(len(token))]
        while len(parts) > 2:
            best, best_rank = None, rank
            for i in range(len(parts) - 1):
                r = rank_of(parts[i] + parts[i + 1], rank)
                if r < best_rank:
                    best, best_rank = i, r
            if best is None:
                break
            parts[best:best + 2] = [parts[best] + parts[best + 1]]
        left, right = (p[0] if len(p) == 1 else mergeable_ranks[p] for p in parts)
        merges[left, right] = rank
    return merges
''', {"test_recover_merges_byte_permutation"}, "propio rango", clause="recover_merges.byte_ranks"),
    mutant("recover_merges_small_ranks_are_bytes", "skips every token of rank below 256 as if it were a single byte",
           "recover_merges", [("        if len(token) < 2:\n", "        if rank < 256:\n")],
           {"test_recover_merges_small_ranks"}, "len(token) == 1", clause="recover_merges.small_ranks"),
    rewrite("recover_merges_assumes_sorted_table", "re-encodes each token with the merges found so far, "
            "which needs the table sorted by rank", '''
def recover_merges(mergeable_ranks):
    merges = {}
    for token, rank in mergeable_ranks.items():
        if len(token) < 2:
            continue
        ids = [mergeable_ranks[token[i:i + 1]] for i in range(len(token))]
        while len(ids) > 2:
            pairs = list(zip(ids, ids[1:]))
            pair = min(pairs, key=lambda p: merges.get(p, float("inf")))
            if pair not in merges:
                break
            i = pairs.index(pair)
            ids[i:i + 2] = [merges[pair]]
        merges[ids[0], ids[1]] = rank
    return merges
''', {"test_recover_merges_unordered_table"}, "cualquier orden", clause="recover_merges.any_order"),
    mutant("recover_merges_rightmost_tie", "merges the last occurrence of a repeated lowest-rank pair, not the first",
           "recover_merges", [("if r < best_rank:", "if r <= best_rank:")],
           {"test_recover_merges_repeated_pair_leftmost"}, "más a la izquierda", clause="recover_merges.leftmost_tie"),

    # --- arguments after the call, and calls that repeat ('Cómo se califica') ------------
    changing("encode_ordinary_empties_merges", "encode_ordinary", 'merges.clear()', {"test_encode_ordinary_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="encode_ordinary.leaves_arguments"),
    remembering("encode_ordinary_cache_by_text", "encode_ordinary", '(text, pattern)', {"test_encode_ordinary_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="encode_ordinary.afresh"),
    changing("encode_empties_special_tokens", "encode", 'special_tokens.clear()', {"test_encode_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="encode.leaves_arguments"),
    remembering("encode_cache_by_text", "encode", '(text, repr(allowed_special), repr(disallowed_special), pattern)', {"test_encode_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="encode.afresh"),
    changing("decode_empties_ids", "decode", 'ids.clear()', {"test_decode_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="decode.leaves_arguments"),
    remembering("decode_cache_by_ids", "decode", 'ids', {"test_decode_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="decode.afresh"),
    changing("recover_merges_empties_the_table", "recover_merges", 'mergeable_ranks.clear()', {"test_recover_merges_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="recover_merges.leaves_arguments"),
]
