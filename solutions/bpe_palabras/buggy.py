"""Plausible wrong implementations of `bpe_palabras`: one misconception each.

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


TIE = "pair = max(stats, key=stats.get)"
EARLY_STOP = "        if not stats:\n            break\n"
MARKER = "marker = () if end is None else (end,)"
TOKENIZE_START = "symbols = tuple(word) + (() if end is None else (end,))"

BUGGY = [
    # --- get_stats ----------------------------------------------------------------------
    mutant("get_stats_unweighted", "adds 1 per occurrence, ignoring the word's frequency", "get_stats",
           [("counts.get(pair, 0) + freq", "counts.get(pair, 0) + 1")],
           {"test_get_stats_weighted_by_frequency"}, "frecuencia de la palabra", clause="get_stats.weighted"),
    mutant("get_stats_once_per_word", "counts each distinct pair once per word (a set)", "get_stats",
           [("for pair in zip(symbols, symbols[1:]):", "for pair in set(zip(symbols, symbols[1:])):")],
           {"test_get_stats_repeated_pair_in_a_word", "test_get_stats_overlapping_pairs",
            "test_get_stats_first_occurrence_order"},
           "todas las veces que aparece", clause="get_stats.neighbour_pairs"),
    rewrite("get_stats_skips_overlaps", "skips ahead after a pair of equal symbols, as if counting were merging", '''
def get_stats(words):
    counts = {}
    for symbols, freq in words.items():
        i = 0
        while i < len(symbols) - 1:
            pair = (symbols[i], symbols[i + 1])
            counts[pair] = counts.get(pair, 0) + freq
            i += 2 if symbols[i] == symbols[i + 1] else 1
    return counts
''', {"test_get_stats_overlapping_pairs"}, "los pares se solapan", clause="get_stats.overlaps"),
    mutant("get_stats_sorted_keys", "returns the pairs sorted, losing the first-occurrence order", "get_stats",
           [("    return counts", "    return dict(sorted(counts.items()))")],
           {"test_get_stats_first_occurrence_order"}, "orden en que aparece cada par", clause="get_stats.order"),

    # --- merge_pair ---------------------------------------------------------------------
    rewrite("merge_pair_from_the_right", "scans right to left, so ('a', 'a', 'a') becomes ('a', 'aa')", '''
def merge_pair(symbols, pair):
    out, i = [], len(symbols) - 1
    while i >= 0:
        if i >= 1 and symbols[i - 1] == pair[0] and symbols[i] == pair[1]:
            out.append(symbols[i - 1] + symbols[i])
            i -= 2
        else:
            out.append(symbols[i])
            i -= 1
    return tuple(reversed(out))
''', {"test_merge_pair_left_to_right_without_overlap"}, "de izquierda a derecha", clause="merge_pair.left_to_right"),
    rewrite("merge_pair_overlapping", "merges every occurrence, overlapping ones included", '''
def merge_pair(symbols, pair):
    out = list(symbols)
    for i in range(len(symbols) - 1):
        if (symbols[i], symbols[i + 1]) == pair:
            out[i], out[i + 1] = pair[0] + pair[1], None
    return tuple(s for s in out if s is not None)
''', {"test_merge_pair_left_to_right_without_overlap"}, "no se solapan", clause="merge_pair.left_to_right"),
    mutant("merge_pair_drops_tail", "stops one position early and loses the last symbol", "merge_pair",
           [("while i < len(symbols):", "while i < len(symbols) - 1:")],
           {"test_merge_pair_keeps_the_tail"}, "último símbolo", clause="merge_pair.keeps_the_rest"),
    rewrite("merge_pair_string_replace", "joins the symbols with spaces and uses str.replace", '''
def merge_pair(symbols, pair):
    text = " ".join(symbols).replace(" ".join(pair), "".join(pair))
    return tuple(text.split()) if text else ()
''', {"test_merge_pair_whole_symbols"}, "símbolos enteros", clause="merge_pair.whole_symbols"),
    mutant("merge_pair_returns_list", "returns a list instead of a tuple (unusable as a dict key)", "merge_pair",
           [("return tuple(out)", "return out")],
           {"test_merge_pair_replaces_pair"}, "devuelve una tupla", clause="merge_pair.new_tuple"),

    # --- train_bpe ----------------------------------------------------------------------
    mutant("train_bpe_alphabetical_ties", "breaks ties by the alphabetically smallest pair", "train_bpe",
           [(TIE, "pair = min(stats, key=lambda p: (-stats[p], p))")],
           {"test_train_bpe_tie_rule"}, "primera aparición", clause="train_bpe.most_frequent_first_seen"),
    mutant("train_bpe_last_occurrence_ties", "breaks ties by the pair that appears last", "train_bpe",
           [(TIE, "pair = max(reversed(list(stats)), key=stats.get)")],
           {"test_train_bpe_tie_rule", "test_train_bpe_published_first_merges", "test_train_bpe_published_vocabulary",
            "test_train_bpe_low_lower_newest_widest"},
           "primera aparición", clause="train_bpe.most_frequent_first_seen"),
    mutant("train_bpe_words_in_alphabetical_order", "scans the words sorted alphabetically, not in corpus order",
           "train_bpe", [("for word, freq in corpus.items()}", "for word, freq in sorted(corpus.items())}")],
           {"test_train_bpe_tie_rule"}, "orden del corpus", clause="train_bpe.most_frequent_first_seen"),
    mutant("train_bpe_forgets_end_marker", "never adds the end-of-word marker", "train_bpe",
           [(MARKER, "marker = ()")],
           {"test_train_bpe_end_marker", "test_train_bpe_published_first_merges", "test_train_bpe_published_vocabulary",
            "test_train_bpe_tie_rule"},
           "Añade la marca", clause="train_bpe.end_marker"),
    mutant("train_bpe_marker_even_if_none", "appends `end` even when it is None", "train_bpe",
           [(MARKER, "marker = (end,)")],
           {"test_train_bpe_gato_pato", "test_train_bpe_leaves_its_arguments_alone", "test_train_bpe_low_lower_newest_widest", "test_train_bpe_no_marker_when_end_is_none", "test_train_bpe_stops_when_no_pair_is_left"},
           "end=None", clause="train_bpe.no_marker"),
    mutant("train_bpe_hardcoded_marker", "always uses '_' whatever `end` says", "train_bpe",
           [(MARKER, 'marker = () if end is None else ("_",)')],
           {"test_train_bpe_end_marker"}, "usa la que te pasen", clause="train_bpe.end_marker"),
    mutant("train_bpe_no_early_stop", "keeps looping when no pair is left (max of an empty dict)", "train_bpe",
           [(EARLY_STOP, "")], {"test_train_bpe_stops_when_no_pair_is_left"}, "no llames a max", clause="train_bpe.stops_without_pairs"),
    mutant("train_bpe_min_count_strict", "compares with <= and so rejects a pair seen exactly min_count times",
           "train_bpe", [("if stats[pair] < min_count:", "if stats[pair] <= min_count:")],
           {"test_train_bpe_min_count", "test_train_bpe_gato_pato", "test_train_bpe_default_min_count_merges_single_pairs"},
           "exactamente min_count", clause="train_bpe.min_count"),
    mutant("train_bpe_ignores_min_count", "never stops because of min_count", "train_bpe",
           [("        if stats[pair] < min_count:\n            break\n", "")],
           {"test_train_bpe_min_count", "test_train_bpe_gato_pato"}, "min_count", clause="train_bpe.min_count"),

    # --- tokenize -----------------------------------------------------------------------
    mutant("tokenize_reversed_merges", "applies the merges from the last learned to the first", "tokenize",
           [("for pair in merges:", "for pair in reversed(merges):")],
           {"test_tokenize_learned_order", "test_tokenize_published_medical", "test_tokenize_published_small_examples"},
           "no al revés", clause="tokenize.learned_order"),
    rewrite("tokenize_by_frequency", "merges the known pair that is most frequent in the word itself", '''
def tokenize(word, merges, end="_"):
    symbols = tuple(word) + (() if end is None else (end,))
    while len(symbols) > 1:
        stats = get_stats({symbols: 1})
        known = {p: n for p, n in stats.items() if p in merges}
        if not known:
            break
        symbols = merge_pair(symbols, max(known, key=known.get))
    return list(symbols)
''', {"test_tokenize_not_by_frequency_in_the_word"}, "no lo frecuente", clause="tokenize.not_by_frequency"),
    mutant("tokenize_forgets_end_marker", "never adds the end-of-word marker", "tokenize",
           [(TOKENIZE_START, "symbols = tuple(word)")],
           {"test_tokenize_end_marker", "test_tokenize_published_medical"},
           "marca '_'", clause="tokenize.end_marker"),
    mutant("tokenize_marker_even_if_none", "appends `end` even when it is None", "tokenize",
           [(TOKENIZE_START, "symbols = tuple(word) + (end,)")],
           {"test_tokenize_answers_each_call_afresh", "test_tokenize_leaves_its_arguments_alone", "test_tokenize_no_marker_when_end_is_none", "test_tokenize_published_small_examples"},
           "Con end=None", clause="tokenize.no_marker"),
    mutant("tokenize_returns_tuple", "returns the tuple of symbols instead of a list", "tokenize",
           [("return list(symbols)", "return symbols")],
           {"test_tokenize_published_medical"}, "devuelve una lista", clause="tokenize.learned_order"),

    # --- arguments after the call, and calls that repeat ('Cómo se califica') ------------
    changing("get_stats_empties_words", "get_stats", 'words.clear()', {"test_get_stats_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="get_stats.leaves_arguments"),
    changing("train_bpe_empties_corpus", "train_bpe", 'corpus.clear()', {"test_train_bpe_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="train_bpe.leaves_arguments"),
    changing("tokenize_reverses_merges", "tokenize", 'merges.reverse()', {"test_tokenize_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="tokenize.leaves_arguments"),
    remembering("tokenize_cache_by_word", "tokenize", '(word, end)', {"test_tokenize_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="tokenize.afresh"),
]
