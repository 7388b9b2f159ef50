"""Plausible wrong implementations of `subpalabras`: one misconception each.

The misconceptions of section 6 of the course spec come first in each function, then the
slips seen in the other assignments (hard-coded prefixes, missing error checks, sorted
dictionaries). Most are *mutants*: the reference function with one edit, so each entry
states exactly its mistake. The rest are written out whole, where the wrong idea changes
the shape of the code. `failing` is the exact set of hidden tests each one must fail
(tests/test_catalogue.py holds the suite to it); where a published check catches the same
bug as the specific test, both are listed.
"""

from functools import partial
from pathlib import Path

from autograder.samples import mutant as _mutant
from autograder.samples import remembering as _remembering
from autograder.samples import rewrite

SOLUTION = Path(__file__).with_name("solution.py")  # the reference each mutant edits
mutant = partial(_mutant, SOLUTION)
remembering = partial(_remembering, SOLUTION)

PIECE = "piece = word[start:end] if start == 0 else prefix + word[start:end]"
BEST_PAIR = "a, b = max(pairs, key=lambda pair: Fraction(pairs[pair], units[pair[0]] * units[pair[1]]))"
KNOWN = "if best[end] is None or score > best[end][0]:\n                best[end] = (score, start, False)"
WEAKEST = "key=lambda piece: (losses[piece], order[piece])"
MARKED = 'unigram_viterbi((SPACE if add_dummy_prefix else "") + text.replace(" ", SPACE), logp)'
DECODE = 'return text[1:] if add_dummy_prefix and text.startswith(" ") else text'

BUGGY = [
    # --- wordpiece_encode -----------------------------------------------------------------
    rewrite("wordpiece_encode_unk_only_for_the_rest", "keeps the pieces found and adds [UNK] for the rest of the word",
            '''
def wordpiece_encode(text, vocab, unk="[UNK]", prefix="##", max_chars=100):
    if max_chars < 0:
        raise ValueError(max_chars)
    out = []
    for word in text.split():
        if len(word) > max_chars:
            out.append(unk)
            continue
        start = 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else prefix + word[start:end]
                if piece in vocab:
                    out.append(piece)
                    start = end
                    break
            else:
                if unk not in vocab:
                    raise KeyError(unk)
                out.append(unk)
                break
    return out
''', {"test_wordpiece_encode_published_example", "test_wordpiece_encode_unknown_word_is_one_unk"}, "ENTERA", clause="wordpiece_encode.whole_word_unk"),
    mutant("wordpiece_encode_shortest_match", "tries the shortest piece first", "wordpiece_encode",
           [("for end in range(len(word), start, -1):", "for end in range(start + 1, len(word) + 1):")],
           {"test_wordpiece_encode_published_example", "test_wordpiece_encode_longest_match_first"},
           "la pieza más larga", clause="wordpiece_encode.longest"),
    mutant("wordpiece_encode_max_chars_in_bytes", "measures max_chars in UTF-8 bytes", "wordpiece_encode",
           [("while start < len(word) <= max_chars:", "while start < len(word) and len(word.encode()) <= max_chars:"),
            ("or len(word) > max_chars:", "or len(word.encode()) > max_chars:")],
           {"test_wordpiece_encode_max_chars_counts_characters"}, "no bytes", clause="wordpiece_encode.max_chars"),
    mutant("wordpiece_encode_max_chars_inclusive", "turns a word of exactly max_chars characters into [UNK]",
           "wordpiece_encode",
           [("while start < len(word) <= max_chars:", "while start < len(word) < max_chars:"),
            ("or len(word) > max_chars:", "or len(word) >= max_chars:")],
           {"test_wordpiece_encode_max_chars_counts_characters"}, "exactamente `max_chars`", clause="wordpiece_encode.max_chars"),
    mutant("wordpiece_encode_prefix_on_every_piece", "puts the prefix on the first piece too", "wordpiece_encode",
           [(PIECE, "piece = prefix + word[start:end]")],
           # every word's first piece goes missing, so most fixed cases see it
           {"test_wordpiece_encode_depends_only_on_its_arguments", "test_wordpiece_encode_joins_the_pieces_of_every_word", "test_wordpiece_encode_longest_match_first", "test_wordpiece_encode_max_chars_counts_characters", "test_wordpiece_encode_missing_unk_raises_keyerror", "test_wordpiece_encode_no_prefix_on_the_first_piece", "test_wordpiece_encode_published_example", "test_wordpiece_encode_splits_on_any_whitespace", "test_wordpiece_encode_unknown_word_is_one_unk", "test_wordpiece_encode_uses_prefix_and_unk"},
           "menos en la primera", clause="wordpiece_encode.prefix_not_first"),
    mutant("wordpiece_encode_split_on_space", "splits the text with split(' ')", "wordpiece_encode",
           [("for word in text.split():", 'for word in text.split(" "):')],
           {"test_wordpiece_encode_splits_on_any_whitespace"}, "split(' ') no sirve", clause="wordpiece_encode.split"),
    mutant("wordpiece_encode_hardcoded_prefix", "always uses '##', whatever `prefix` says", "wordpiece_encode",
           [(PIECE, 'piece = word[start:end] if start == 0 else "##" + word[start:end]')],
           {"test_wordpiece_encode_uses_prefix_and_unk"}, "no '##' ni '[UNK]' escritos a mano", clause="wordpiece_encode.given_prefix"),
    mutant("wordpiece_encode_unk_never_checked", "returns `unk` even when it is not in the vocabulary",
           "wordpiece_encode", [("            if unk not in vocab:\n                raise KeyError(unk)\n", "")],
           {"test_wordpiece_encode_missing_unk_raises_keyerror"}, "KeyError", clause="wordpiece_encode.keyerror"),
    mutant("wordpiece_encode_unk_always_required", "raises KeyError whenever `unk` is missing, needed or not",
           "wordpiece_encode", [("    out = []\n    for word in text.split():",
                                 "    if unk not in vocab:\n        raise KeyError(unk)\n    out = []\n"
                                 "    for word in text.split():")],
           {"test_wordpiece_encode_missing_unk_raises_keyerror"}, "si todas las palabras se pueden partir", clause="wordpiece_encode.keyerror"),

    mutant("wordpiece_encode_last_word_only", "starts the output list anew for every word", "wordpiece_encode",
           [("    out = []\n    for word in text.split():\n", "    out = []\n    for word in text.split():\n        out = []\n")],
           {"test_wordpiece_encode_joins_the_pieces_of_every_word", "test_wordpiece_encode_max_chars_counts_characters", "test_wordpiece_encode_missing_unk_raises_keyerror", "test_wordpiece_encode_published_example", "test_wordpiece_encode_splits_on_any_whitespace", "test_wordpiece_encode_unknown_word_is_one_unk", "test_wordpiece_encode_uses_prefix_and_unk"}, "TODAS las palabras del texto", clause="wordpiece_encode.pieces"),
    rewrite("wordpiece_encode_max_chars_checked_per_word", "checks max_chars only inside the loop over the words", '''
def wordpiece_encode(text, vocab, unk="[UNK]", prefix="##", max_chars=100):
    out = []
    for word in text.split():
        if max_chars < 0:
            raise ValueError(max_chars)
        pieces, start = [], 0
        while start < len(word) <= max_chars:
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else prefix + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                break
        if start < len(word) or len(word) > max_chars:
            if unk not in vocab:
                raise KeyError(unk)
            pieces = [unk]
        out.extend(pieces)
    return out
''', {"test_wordpiece_encode_edge_cases"}, "antes de mirar las palabras", clause="wordpiece_encode.valueerror"),
    mutant("wordpiece_encode_adds_unknown_words", "adds each unknown word to the vocabulary, with the id of `unk`",
           "wordpiece_encode", [("            pieces = [unk]\n", "            vocab.setdefault(word, vocab[unk])\n            pieces = [unk]\n")],
           {"test_wordpiece_encode_leaves_the_vocabulary_alone"}, "no debe cambiar los argumentos", clause="wordpiece_encode.arguments"),
    remembering("wordpiece_encode_cache_by_word", "wordpiece_encode", '(text, unk, prefix, max_chars)', {"test_wordpiece_encode_depends_only_on_its_arguments"},
                "no guardes nada de una llamada para la siguiente", clause="wordpiece_encode.calls"),

    # --- wordpiece_scores -----------------------------------------------------------------
    rewrite("wordpiece_scores_skip_single_units", "leaves words of a single unit out of freq(u)", '''
def wordpiece_scores(splits):
    units, pairs = {}, {}
    for word, freq in splits.items():
        if len(word) < 2:
            continue
        for unit in word:
            units[unit] = units.get(unit, 0) + freq
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + freq
    return {(a, b): n / (units[a] * units[b]) for (a, b), n in pairs.items()}
''', {"test_wordpiece_scores_count_single_unit_words", "test_wordpiece_scores_depends_only_on_its_arguments"}, "palabras de una sola unidad", clause="wordpiece_scores.single_units"),
    mutant("wordpiece_scores_pairs_once_per_word", "counts each distinct pair once per word",
           "wordpiece_scores", [("for pair in zip(word, word[1:]):", "for pair in dict.fromkeys(zip(word, word[1:])):")],
           {"test_wordpiece_scores_overlapping_pairs"}, "solapados", clause="wordpiece_scores.overlap"),
    mutant("wordpiece_scores_sorted", "returns the pairs sorted, losing the order of first appearance",
           "wordpiece_scores", [("return {(a, b): n / (units[a] * units[b]) for (a, b), n in pairs.items()}",
                                 "return {(a, b): n / (units[a] * units[b]) for (a, b), n in sorted(pairs.items())}")],
           {"test_wordpiece_scores_first_appearance_order"}, "no ordenes", clause="wordpiece_scores.order"),

    mutant("wordpiece_scores_pair_frequency", "returns freq(ab), the pair's frequency, as BPE would", "wordpiece_scores",
           [("return {(a, b): n / (units[a] * units[b]) for (a, b), n in pairs.items()}",
             "return {(a, b): float(n) for (a, b), n in pairs.items()}")],
           {"test_wordpiece_scores_count_single_unit_words", "test_wordpiece_scores_depends_only_on_its_arguments", "test_wordpiece_scores_divides_by_the_units_frequencies", "test_wordpiece_scores_overlapping_pairs", "test_wordpiece_scores_published_example"}, "Divide la frecuencia del par", clause="wordpiece_scores.score"),
    mutant("wordpiece_scores_consumes_the_splits", "pops each word from `splits` as it counts it", "wordpiece_scores",
           [("    for word, freq in splits.items():", "    for word in list(splits):\n        freq = splits.pop(word)")],
           {"test_wordpiece_scores_leaves_the_splits_alone"}, "no debe cambiar los argumentos", clause="wordpiece_scores.arguments"),
    remembering("wordpiece_scores_counts_across_calls", "wordpiece_scores", 'tuple(splits)', {"test_wordpiece_scores_depends_only_on_its_arguments"},
                "no guardes nada de una llamada para la siguiente", clause="wordpiece_scores.calls"),

    # --- train_wordpiece ------------------------------------------------------------------
    mutant("train_wordpiece_by_frequency", "merges the most frequent pair, as BPE does", "train_wordpiece",
           [(BEST_PAIR, "a, b = max(pairs, key=pairs.get)")],
           {"test_train_wordpiece_published_examples", "test_train_wordpiece_uses_the_score_not_the_frequency"},
           "eso es BPE", clause="train_wordpiece.best_score"),
    mutant("train_wordpiece_alphabetical_ties", "breaks ties by the alphabetically smallest pair", "train_wordpiece",
           [(BEST_PAIR, "a, b = min(pairs, key=lambda pair: (-Fraction(pairs[pair], units[pair[0]] * units[pair[1]]), "
                        "pair))")],
           {"test_train_wordpiece_ties_go_to_the_first_pair", "test_train_wordpiece_published_examples"},
           "orden alfabético", clause="train_wordpiece.ties"),
    mutant("train_wordpiece_last_seen_ties", "breaks ties by the pair seen last (>= while scanning)",
           "train_wordpiece",
           [(BEST_PAIR, "a, b = max(reversed(list(pairs)), key=lambda pair: Fraction(pairs[pair], units[pair[0]] * "
                        "units[pair[1]]))")],
           {"test_train_wordpiece_compares_exact_scores", "test_train_wordpiece_published_examples", "test_train_wordpiece_ties_go_to_the_first_pair"},
           "el último que viste", clause="train_wordpiece.ties"),
    mutant("train_wordpiece_keeps_the_inner_prefix", "joins a + b with the prefix of b inside", "train_wordpiece",
           [("word[i:i + 2] = [a + b[len(prefix):]]", "word[i:i + 2] = [a + b]")],
           {"test_train_wordpiece_published_examples", "test_train_wordpiece_merged_unit_drops_the_inner_prefix",
            "test_train_wordpiece_uses_the_prefix"},
           "sin el prefijo de b", clause="train_wordpiece.new_unit"),
    mutant("train_wordpiece_prefix_of_two_characters", "strips two characters, as if the prefix were always '##'",
           "train_wordpiece", [("word[i:i + 2] = [a + b[len(prefix):]]", "word[i:i + 2] = [a + b[2:]]")],
           {"test_train_wordpiece_uses_the_prefix"}, "len(prefix)", clause="train_wordpiece.prefix"),
    rewrite("train_wordpiece_merges_from_the_right", "replaces the pair scanning each word from the right", '''
def train_wordpiece(corpus, num_merges, prefix="##"):
    if num_merges < 0:
        raise ValueError(num_merges)
    words = [[word[0]] + [prefix + letter for letter in word[1:]] for word in corpus if word]
    freqs = [corpus[word] for word in corpus if word]
    merges = []
    for _ in range(num_merges):
        units, pairs = {}, {}
        for word, freq in zip(words, freqs):
            for unit in word:
                units[unit] = units.get(unit, 0) + freq
            for pair in zip(word, word[1:]):
                pairs[pair] = pairs.get(pair, 0) + freq
        if not pairs:
            break
        best = None
        for (x, y), n in pairs.items():
            if best is None or n * units[best[0]] * units[best[1]] > pairs[best] * units[x] * units[y]:
                best = (x, y)
        merges.append(best)
        a, b = best
        for word in words:
            i = len(word) - 2
            while i >= 0:
                if i + 1 < len(word) and word[i] == a and word[i + 1] == b:
                    word[i:i + 2] = [a + b[len(prefix):]]
                i -= 1
    return merges
''', {"test_train_wordpiece_merges_left_to_right"}, "de izquierda a derecha", clause="train_wordpiece.left_to_right"),
    mutant("train_wordpiece_merges_as_lists", "keeps each merge as a list, which cannot be a dict key", "train_wordpiece",
           [("merges.append((a, b))", "merges.append([a, b])")],
           {"test_train_wordpiece_published_examples"}, "como una tupla", clause="train_wordpiece.merges"),
    mutant("train_wordpiece_never_stops", "keeps looking for a pair when none is left", "train_wordpiece",
           [("        if not pairs:\n            break\n", "")],
           {"test_train_wordpiece_stops_and_rejects", "test_train_wordpiece_published_examples"}, "ningún par", clause="train_wordpiece.stops"),

    mutant("train_wordpiece_divides_twice", "compares float scores computed as n / freq(a) / freq(b)", "train_wordpiece",
           [(BEST_PAIR, "a, b = max(pairs, key=lambda pair: pairs[pair] / units[pair[0]] / units[pair[1]])")],
           {"test_train_wordpiece_compares_exact_scores", "test_train_wordpiece_published_examples"}, "dividir dos veces redondea dos veces",
           clause="train_wordpiece.exact"),
    mutant("train_wordpiece_sorted_corpus", "walks the corpus in alphabetical order, not in its own", "train_wordpiece",
           [("for word in corpus if word]\n    freqs = [corpus[word] for word in corpus if word]",
             "for word in sorted(corpus) if word]\n    freqs = [corpus[word] for word in sorted(corpus) if word]")],
           {"test_train_wordpiece_published_examples", "test_train_wordpiece_ties_go_to_the_first_pair"}, "palabras en el orden del corpus", clause="train_wordpiece.ties"),
    mutant("train_wordpiece_checks_num_merges_per_word", "checks num_merges only while reading the corpus", "train_wordpiece",
           [("    if num_merges < 0:\n        raise ValueError(f\"num_merges no puede ser negativo: {num_merges}\")\n",
             "    for word in corpus:\n        if num_merges < 0:\n            raise ValueError(num_merges)\n")],
           {"test_train_wordpiece_stops_and_rejects"}, "ValueError si num_merges es negativo",
           clause="train_wordpiece.valueerror"),
    mutant("train_wordpiece_splits_the_corpus_in_place", "replaces each word of `corpus` by its units", "train_wordpiece",
           [("    words = [[word[0]] + [prefix + letter for letter in word[1:]] for word in corpus if word]\n"
             "    freqs = [corpus[word] for word in corpus if word]\n",
             "    for word in list(corpus):\n        corpus[tuple([word[0]] + [prefix + c for c in word[1:]])] = corpus.pop(word)\n"
             "    words = [list(word) for word in corpus]\n    freqs = list(corpus.values())\n")],
           {"test_train_wordpiece_leaves_the_corpus_alone"}, "no debe cambiar los argumentos", clause="train_wordpiece.arguments"),
    mutant("train_wordpiece_memo_by_words", "remembers its merges by the corpus' words, forgetting their frequencies",
           "train_wordpiece",
           [("    merges = []\n", "    memo = train_wordpiece.__dict__.setdefault(\"memo\", {})\n"
                                   "    key = (tuple(corpus), num_merges, prefix)\n    if key in memo:\n        return list(memo[key])\n"
                                   "    merges = memo[key] = []\n")],
           {"test_train_wordpiece_depends_only_on_its_arguments"}, "no guardes nada de una llamada para la siguiente", clause="train_wordpiece.calls"),

    # --- unigram_viterbi ------------------------------------------------------------------
    mutant("unigram_viterbi_ties_to_the_shortest", "replaces the best on an equal score (>=)", "unigram_viterbi",
           [(KNOWN, KNOWN.replace("score > best", "score >= best"))],
           {"test_unigram_viterbi_ties_keep_the_longest_last_piece", "test_unigram_viterbi_published_example"},
           "estrictamente mayor", clause="unigram_viterbi.ties"),
    rewrite("unigram_viterbi_greedy", "takes the longest known piece at each position", '''
def unigram_viterbi(word, logp):
    if not logp:
        raise ValueError("logp")
    unknown = min(logp.values()) - 10.0
    pieces, score, start = [], 0.0, 0
    while start < len(word):
        for end in range(len(word), start, -1):
            if word[start:end] in logp:
                pieces.append(word[start:end])
                score += logp[word[start:end]]
                start = end
                break
        else:
            if pieces and pieces[-1][0] not in logp:
                pieces[-1] += word[start]
            else:
                pieces.append(word[start])
            score += unknown
            start += 1
    return pieces, score
''', {"test_unigram_viterbi_best_total_not_greedy", "test_unigram_viterbi_published_example"}, "programación dinámica", clause="unigram_viterbi.best_total"),
    mutant("unigram_viterbi_unknown_not_fused", "leaves each unknown character as a piece of its own",
           "unigram_viterbi", [("if is_unknown and pieces and pieces[-1][1]:", "if False:")],
           {"test_unigram_viterbi_unknown_characters"}, "UNA sola pieza", clause="unigram_viterbi.unknown_run"),
    mutant("unigram_viterbi_unknown_run_counted_once", "charges a run of unknown characters once", "unigram_viterbi",
           [("score = best[end - 1][0] + unknown", "score = best[end - 1][0] + (0.0 if best[end - 1][2] else unknown)")],
           {"test_unigram_viterbi_unknown_characters"}, "cada uno cuenta", clause="unigram_viterbi.unknown_score"),
    mutant("unigram_viterbi_fixed_unknown_score", "scores an unknown character -10, not min(logp) - 10",
           "unigram_viterbi", [("unknown = min(logp.values()) - 10.0", "unknown = -10.0")],
           {"test_unigram_viterbi_unknown_characters"}, "min(logp) - 10", clause="unigram_viterbi.unknown_score"),
    mutant("unigram_viterbi_accepts_empty_logp", "never rejects an empty logp: every character is unknown",
           "unigram_viterbi", [('    if not logp:\n        raise ValueError("logp está vacío")\n', ""),
                               ("unknown = min(logp.values()) - 10.0", "unknown = min(logp.values(), default=0.0) - 10.0")],
           {"test_unigram_viterbi_edge_cases"}, "logp vacío", clause="unigram_viterbi.empty_logp"),

    mutant("unigram_viterbi_pieces_backwards", "returns the pieces in the order the backtrace finds them",
           "unigram_viterbi", [("return [piece for piece, _ in reversed(pieces)]", "return [piece for piece, _ in pieces]")],
           {"test_unigram_viterbi_best_total_not_greedy", "test_unigram_viterbi_pieces_in_text_order", "test_unigram_viterbi_published_example", "test_unigram_viterbi_unknown_characters"}, "en el orden del texto", clause="unigram_viterbi.result"),
    mutant("unigram_viterbi_empty_word_is_one_piece", "segments an empty word as one empty piece", "unigram_viterbi",
           [("    pieces, end = [], len(word)\n", "    if not word:\n        return [\"\"], 0.0\n    pieces, end = [], len(word)\n")],
           {"test_unigram_viterbi_edge_cases"}, "Una palabra vacía", clause="unigram_viterbi.empty_word"),
    mutant("unigram_viterbi_remembers_unknowns", "stores the score of each unknown piece in logp for next time",
           "unigram_viterbi",
           [("    return [piece for piece, _ in reversed(pieces)], best[len(word)][0]",
             "    for piece, is_unknown in pieces:\n        if is_unknown:\n            logp.setdefault(piece, unknown * len(piece))\n"
             "    return [piece for piece, _ in reversed(pieces)], best[len(word)][0]")],
           {"test_unigram_viterbi_leaves_logp_alone"}, "no debe cambiar los argumentos", clause="unigram_viterbi.arguments"),
    remembering("unigram_viterbi_cache_by_word", "unigram_viterbi", '(word, len(logp))', {"test_unigram_viterbi_depends_only_on_its_arguments"},
                "no guardes nada de una llamada para la siguiente", clause="unigram_viterbi.calls"),

    # --- unigram_prune --------------------------------------------------------------------
    mutant("unigram_prune_largest_loss", "proposes the pieces with the largest loss", "unigram_prune",
           [(WEAKEST, "key=lambda piece: (-losses[piece], order[piece])")],
           {"test_unigram_prune_published_example", "test_unigram_prune_removes_the_smallest_losses"}, "menor pérdida", clause="unigram_prune.smallest"),
    mutant("unigram_prune_alphabetical_ties", "breaks ties between equal losses alphabetically", "unigram_prune",
           [(WEAKEST, "key=lambda piece: (losses[piece], piece)")],
           {"test_unigram_prune_ties_in_logp_order", "test_unigram_prune_published_example"}, "orden alfabético", clause="unigram_prune.ties"),
    mutant("unigram_prune_renormalises", "renormalises the other probabilities after removing a piece",
           "unigram_prune",
           [("whole - total({p: s for p, s in logp.items() if p != piece})",
             "whole - total({p: s - __import__('math').log(sum(__import__('math').exp(v) for q, v in logp.items() "
             "if q != piece)) for p, s in logp.items() if p != piece})")],
           {"test_unigram_prune_keeps_the_other_log_probs", "test_unigram_prune_published_example"},
           "no vuelvas a normalizar", clause="unigram_prune.no_renormalisation"),
    mutant("unigram_prune_single_characters_too", "computes losses for single characters too", "unigram_prune",
           [("        if len(piece) >= 2:\n            losses[piece]", "        if len(piece) >= 1:\n            losses[piece]")],
           {"test_unigram_prune_never_removes_single_characters", "test_unigram_prune_published_example",
            "test_unigram_prune_removes_the_smallest_losses", "test_unigram_prune_keeps_the_other_log_probs",
            "test_unigram_prune_edge_cases"},
           "caracteres sueltos", clause="unigram_prune.single_characters"),
    mutant("unigram_prune_unweighted", "adds the Viterbi score of each word once, ignoring its frequency",
           "unigram_prune", [("return sum(freq * unigram_viterbi(word, pieces)[1]",
                              "return sum(unigram_viterbi(word, pieces)[1]")],
           {"test_unigram_prune_published_example", "test_unigram_prune_weights_words_by_frequency"},
           "aparece 3 veces", clause="unigram_prune.weights"),
    mutant("unigram_prune_trusts_frequencies", "accepts frequencies that are not positive ints", "unigram_prune",
           [("        if type(freq) is not int or freq <= 0:\n", "        if False:\n")],
           {"test_unigram_prune_edge_cases"}, "int positivo", clause="unigram_prune.errors"),

    mutant("unigram_prune_losses_sorted", "returns the losses sorted from smallest to largest", "unigram_prune",
           [("    return losses, weakest", "    return dict(sorted(losses.items(), key=lambda item: item[1])), weakest")],
           {"test_unigram_prune_published_example"}, "en el orden de logp", clause="unigram_prune.result"),
    mutant("unigram_prune_rejects_an_empty_corpus", "raises ValueError on an empty corpus", "unigram_prune",
           [("    if n < 0:\n", "    if not corpus:\n        raise ValueError(\"corpus vacío\")\n    if n < 0:\n")],
           {"test_unigram_prune_edge_cases"}, "Un corpus vacío tiene L = 0", clause="unigram_prune.empty_corpus"),
    mutant("unigram_prune_pops_and_restores", "removes each piece from logp and puts it back, at the end", "unigram_prune",
           [("    for piece in logp:\n        if len(piece) >= 2:\n"
             "            losses[piece] = float(whole - total({p: s for p, s in logp.items() if p != piece}))\n",
             "    for piece in list(logp):\n        if len(piece) >= 2:\n            score = logp.pop(piece)\n"
             "            losses[piece] = float(whole - total(logp))\n            logp[piece] = score\n")],
           {"test_unigram_prune_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="unigram_prune.arguments"),
    remembering("unigram_prune_memo_across_calls", "unigram_prune", '(tuple(corpus.items()), n)', {"test_unigram_prune_depends_only_on_its_arguments"},
                "no guardes nada de una llamada para la siguiente", clause="unigram_prune.calls"),

    # --- sp_encode ------------------------------------------------------------------------
    mutant("sp_encode_no_dummy_prefix", "never adds the leading ▁", "sp_encode",
           [(MARKED, 'unigram_viterbi(text.replace(" ", SPACE), logp)')],
           {"test_sp_encode_published_example", "test_sp_encode_dummy_prefix"}, "se añade un ▁ delante", clause="sp_encode.dummy_prefix"),
    mutant("sp_encode_collapses_spaces", "turns each run of spaces into one ▁", "sp_encode",
           [(MARKED, 'unigram_viterbi((SPACE if add_dummy_prefix else "") + __import__("re").sub(" +", SPACE, text), '
                     'logp)')],
           {"test_sp_encode_published_example", "test_sp_encode_keeps_runs_of_spaces"}, "No juntes los espacios", clause="sp_encode.runs"),
    mutant("sp_encode_any_whitespace", "turns tabs and newlines into ▁ too", "sp_encode",
           [(MARKED, 'unigram_viterbi((SPACE if add_dummy_prefix else "") + __import__("re").sub(r"\\s", SPACE, text), '
                     'logp)')],
           {"test_sp_encode_only_the_space_becomes_the_marker"}, "U+0020", clause="sp_encode.only_the_space"),
    mutant("sp_encode_empty_text_is_a_marker", "encodes an empty text as [▁]", "sp_encode",
           [("    if not text:\n        return []\n", "")],
           {"test_sp_encode_edge_cases"}, "lista vacía", clause="sp_encode.empty"),

    mutant("sp_encode_returns_the_score_too", "returns Viterbi's (pieces, score) pair, not only the pieces", "sp_encode",
           [(MARKED + "[0]", MARKED)],
           {"test_sp_encode_depends_only_on_its_arguments", "test_sp_encode_dummy_prefix", "test_sp_encode_keeps_runs_of_spaces", "test_sp_encode_leaves_logp_alone", "test_sp_encode_matches_reference", "test_sp_encode_only_the_space_becomes_the_marker", "test_sp_encode_published_example", "test_sp_encode_returns_only_the_pieces"}, "solo la lista de piezas", clause="sp_encode.pieces"),
    mutant("sp_encode_accepts_the_marker", "encodes a text that already holds ▁", "sp_encode",
           [("    if SPACE in text:\n        raise ValueError(\"el texto ya contiene ▁ (U+2581)\")\n", "")],
           {"test_sp_encode_edge_cases"}, "ya contiene ▁", clause="sp_encode.valueerror"),
    mutant("sp_encode_adds_the_marker_to_logp", "adds ▁ to logp when it is missing, for later calls", "sp_encode",
           [("    return " + MARKED + "[0]",
             "    pieces = " + MARKED + "[0]\n    logp.setdefault(SPACE, min(logp.values()) - 10.0)\n    return pieces")],
           {"test_sp_encode_leaves_logp_alone"}, "no debe cambiar los argumentos", clause="sp_encode.arguments"),
    mutant("sp_encode_cache_by_text", "remembers each text's pieces across calls, whatever logp", "sp_encode",
           [("    return " + MARKED + "[0]",
             "    cache = sp_encode.__dict__.setdefault(\"cache\", {})\n    if (text, add_dummy_prefix) not in cache:\n"
             "        cache[text, add_dummy_prefix] = " + MARKED + "[0]\n    return list(cache[text, add_dummy_prefix])")],
           {"test_sp_encode_depends_only_on_its_arguments"}, "no guardes nada de una llamada para la siguiente", clause="sp_encode.calls"),

    # --- sp_decode ------------------------------------------------------------------------
    mutant("sp_decode_lstrip", "strips every leading space", "sp_decode",
           [(DECODE, "return text.lstrip() if add_dummy_prefix else text")],
           {"test_sp_decode_removes_one_leading_space", "test_sp_decode_published_example"}, "lstrip()", clause="sp_decode.one_space"),
    mutant("sp_decode_always_drops_the_first_character", "drops the first character even when it is not a space",
           "sp_decode", [(DECODE, "return text[1:] if add_dummy_prefix else text")],
           {"test_sp_decode_leading_space_rules"}, "solo si hay uno", clause="sp_decode.only_a_space"),
    mutant("sp_decode_ignores_the_flag", "drops the leading space even with add_dummy_prefix=False", "sp_decode",
           [(DECODE, 'return text[1:] if text.startswith(" ") else text')],
           {"test_sp_decode_depends_only_on_its_arguments", "test_sp_decode_leading_space_rules"}, "con False", clause="sp_decode.flag"),
    mutant("sp_decode_drops_the_markers", "deletes each ▁ instead of turning it into a space", "sp_decode",
           [('text = "".join(pieces).replace(SPACE, " ")', 'text = "".join(pieces).replace(SPACE, "")')],
           {"test_sp_decode_depends_only_on_its_arguments", "test_sp_decode_leading_space_rules", "test_sp_decode_matches_reference", "test_sp_decode_published_example", "test_sp_decode_removes_one_leading_space", "test_sp_decode_turns_each_marker_into_a_space"}, "vuelve a ser un espacio", clause="sp_decode.text"),
    rewrite("sp_decode_strips_the_first_piece", "removes the leading ▁ from the caller's first piece", '''
def sp_decode(pieces, add_dummy_prefix=True):
    if add_dummy_prefix and pieces and pieces[0].startswith(SPACE):
        pieces[0] = pieces[0][1:]
    return "".join(pieces).replace(SPACE, " ")
''', {"test_sp_decode_leaves_the_pieces_alone"}, "no debe cambiar los argumentos", clause="sp_decode.arguments"),
    mutant("sp_decode_cache_by_pieces", "remembers each list of pieces' text across calls, whatever the flag", "sp_decode",
           [('    text = "".join(pieces).replace(SPACE, " ")\n    ' + DECODE,
             '    cache = sp_decode.__dict__.setdefault("cache", {})\n    if tuple(pieces) not in cache:\n'
             '        text = "".join(pieces).replace(SPACE, " ")\n'
             '        cache[tuple(pieces)] = text[1:] if add_dummy_prefix and text.startswith(" ") else text\n'
             '    return cache[tuple(pieces)]')],
           {"test_sp_decode_depends_only_on_its_arguments"}, "no guardes nada de una llamada para la siguiente", clause="sp_decode.calls"),

]
