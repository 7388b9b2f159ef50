"""Plausible wrong implementations of `embeddings`: one misconception each.

Most are *mutants*: the reference function with one edit, so each entry states exactly
its mistake. The rest are written out whole, where the wrong idea changes the shape
of the code. `failing` is the exact set of hidden tests each one must fail
(tests/test_catalogue.py holds the suite to it); where a basic or published check
catches the same bug as the specific test, both are listed.
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


EMBED_CHECK = ("    for i in ids:\n        if not 0 <= i < len(E):\n"
               '            raise IndexError(f"el id {i} no tiene fila en una tabla de {len(E)} filas")\n')
ZERO_CHECK = ('    if norm_a == 0 or norm_b == 0:\n'
              '        raise ValueError("la similitud coseno no está definida para el vector cero")\n')
SHAPE_CHECK = ('    if a.shape != b.shape:\n'
               '        raise ValueError(f"los vectores tienen formas distintas: {a.shape} y {b.shape}")\n')
CONTEXT_RANGE = "range(max(0, i - window), min(len(sentence), i + window + 1))"

BUGGY = [
    # --- embedding_params ---------------------------------------------------------------
    mutant("embedding_params_adds", "adds the vocabulary size and the dimension instead of multiplying", "embedding_params",
           [("return vocab_size * dim", "return vocab_size + dim")],
           {"test_embedding_params_gpt2", "test_embedding_params_other_sizes"}, "Multiplica vocab_size por dim", clause="embedding_params.product"),

    # --- embed --------------------------------------------------------------------------
    mutant("embed_wraps_negative_ids", "trusts numpy indexing: E[-1] silently gives the last row", "embed",
           [(EMBED_CHECK, "")], {"test_embed_rejects_negative_ids"}, "E[-1] es la última fila", clause="embed.negative"),
    rewrite("embed_clips_ids", "clips every id into range with np.take(mode='clip') instead of raising", '''
def embed(ids, E):
    return np.take(np.asarray(E), np.asarray(ids, dtype=np.int64), axis=0, mode="clip")
''', {"test_embed_rejects_negative_ids", "test_embed_rejects_ids_past_the_end"}, "no lo recortes", clause="embed.past_the_end"),
    mutant("embed_stacks_rows", "stacks the rows in a new array: no ids gives shape (0,) instead of (0, d)", "embed",
           [("return E[np.asarray(ids, dtype=np.int64)]", "return np.array([E[i] for i in ids])")],
           {"test_embed_empty_ids"}, "forma (0, d)", clause="embed.rows"),

    # --- cosine -------------------------------------------------------------------------
    mutant("cosine_dot_product", "returns the dot product, without dividing by the norms", "cosine",
           [("return float(np.sum(a * b) / (norm_a * norm_b))", "return float(np.sum(a * b))")],
           {"test_cosine_published_values", "test_cosine_ignores_length"}, "divide por |a| y por |b|", clause="cosine.formula"),
    mutant("cosine_absolute_value", "takes the absolute value, as if opposite vectors were similar", "cosine",
           [("return float(np.sum(a * b) / (norm_a * norm_b))", "return float(abs(np.sum(a * b)) / (norm_a * norm_b))")],
           {"test_cosine_opposite_and_orthogonal"}, "valor absoluto", clause="cosine.sign"),
    mutant("cosine_nan_for_zero_vector", "lets numpy divide by zero and return nan", "cosine",
           [(ZERO_CHECK, "")], {"test_cosine_rejects_zero_vector"}, "en lugar de devolver nan", clause="cosine.zero_vector"),
    mutant("cosine_broadcasts_shapes", "never compares shapes: a length-1 vector is broadcast", "cosine",
           [(SHAPE_CHECK, "")], {"test_cosine_rejects_mismatched_shapes"}, "broadcasting", clause="cosine.shapes"),

    # --- euclidean ----------------------------------------------------------------------
    mutant("euclidean_squared", "forgets the square root", "euclidean",
           [("return float(np.sqrt(np.sum((a - b) ** 2)))", "return float(np.sum((a - b) ** 2))")],
           {"test_euclidean_published_values", "test_euclidean_takes_the_square_root"}, "No olvides la raíz", clause="euclidean.formula"),
    mutant("euclidean_manhattan", "adds absolute differences (Manhattan distance)", "euclidean",
           [("return float(np.sqrt(np.sum((a - b) ** 2)))", "return float(np.sum(np.abs(a - b)))")],
           {"test_euclidean_published_values", "test_euclidean_takes_the_square_root"}, "sumar valores absolutos", clause="euclidean.formula"),
    mutant("euclidean_difference_of_norms", "subtracts the lengths, norm(a) - norm(b)", "euclidean",
           [("return float(np.sqrt(np.sum((a - b) ** 2)))", "return float(np.linalg.norm(a) - np.linalg.norm(b))")],
           {"test_euclidean_published_values", "test_euclidean_symmetric_and_non_negative"}, "no norm(a) - norm(b)", clause="euclidean.difference"),

    # --- most_similar -------------------------------------------------------------------
    mutant("most_similar_includes_the_word", "ranks every word, the word itself included", "most_similar",
           [(" for i in range(len(words)) if i != target]", " for i in range(len(words))]")],
           {"test_most_similar_answers_each_call_afresh", "test_most_similar_excludes_the_word_even_when_tied", "test_most_similar_matches_reference", "test_most_similar_most_similar_first", "test_most_similar_ranks_by_cosine", "test_most_similar_ties_keep_the_order_of_words"},
           "quita la propia", clause="most_similar.excludes_word"),
    rewrite("most_similar_drops_the_first", "sorts all words and drops the first, assuming it is the word itself", '''
def most_similar(word, W, words, k=4):
    W = np.asarray(W, dtype=float)
    target = W[words.index(word)]
    sims = W @ target / (np.linalg.norm(W, axis=1) * np.linalg.norm(target))
    order = np.argsort(-sims, kind="stable")
    return [words[i] for i in order[1:k + 1]]
''', {"test_most_similar_excludes_the_word_even_when_tied"}, "no suponiendo que sale la primera", clause="most_similar.excludes_word"),
    mutant("most_similar_ascending", "returns the least similar words first", "most_similar",
           [("scores.sort(key=lambda score: -score[0])", "scores.sort(key=lambda score: score[0])")],
           {"test_most_similar_most_similar_first", "test_most_similar_ranks_by_cosine",
            "test_most_similar_excludes_the_word_even_when_tied", "test_most_similar_matches_reference",
            "test_most_similar_ties_keep_the_order_of_words"},
           "de MAYOR a menor", clause="most_similar.descending"),
    mutant("most_similar_reversed_ties", "sorts (cosine, position) pairs with reverse=True: ties come out last word first",
           "most_similar",
           [("scores.sort(key=lambda score: -score[0])", "scores.sort(reverse=True)")],
           {"test_most_similar_ties_keep_the_order_of_words"}, "los empates salen al revés", clause="most_similar.stable_ties"),
    mutant("most_similar_by_euclidean", "ranks by smallest euclidean distance instead of cosine", "most_similar",
           [("scores = [(cosine(W[i], W[target]), i)", "scores = [(-euclidean(W[i], W[target]), i)")],
           {"test_most_similar_ranks_by_cosine"}, "ni la distancia euclídea", clause="most_similar.by_cosine"),
    mutant("most_similar_by_dot_product", "ranks by the raw dot product, without normalising", "most_similar",
           [("scores = [(cosine(W[i], W[target]), i)", "scores = [(float(W[i] @ W[target]), i)")],
           {"test_most_similar_answers_each_call_afresh", "test_most_similar_ranks_by_cosine"}, "producto escalar", clause="most_similar.by_cosine"),

    # --- noise_distribution -------------------------------------------------------------
    mutant("noise_distribution_not_normalised", "returns the weights counts**power without normalising",
           "noise_distribution",
           [("return weights / weights.sum()", "return weights")],
           {"test_noise_distribution_sums_to_one"}, "para que sume 1", clause="noise_distribution.normalised"),
    rewrite("noise_distribution_power_after_normalising", "normalises first and raises to the power afterwards", '''
def noise_distribution(counts, power=0.75):
    counts = np.asarray(counts, dtype=float)
    return (counts / counts.sum()) ** power
''', {"test_noise_distribution_sums_to_one"}, "eleva primero", clause="noise_distribution.normalised"),
    mutant("noise_distribution_ignores_power", "always uses 0.75, whatever `power` says", "noise_distribution",
           [("** power", "** 0.75")], {"test_noise_distribution_uses_power", "test_noise_distribution_integer_power"},
           "argumento `power`", clause="noise_distribution.power"),
    mutant("noise_distribution_integer_arithmetic", "raises the integer counts to the power as they are, in integers",
           "noise_distribution",
           [("np.asarray(counts, dtype=float)", "np.asarray(counts)")],
           {"test_noise_distribution_integer_power"}, "pásalas a float", clause="noise_distribution.floats"),

    # --- skipgram_pairs -----------------------------------------------------------------
    mutant("skipgram_pairs_self_pairs", "pairs each word with itself too (only checks the bounds)", "skipgram_pairs",
           [("if j != i:", "if 0 <= j < len(sentence):")],
           {"test_skipgram_pairs_small_sentence", "test_skipgram_pairs_never_itself",
            "test_skipgram_pairs_window_clipped_at_edges", "test_skipgram_pairs_row_order",
            "test_skipgram_pairs_default_window", "test_skipgram_pairs_sentences_stay_apart",
            "test_skipgram_pairs_repeated_word", "test_skipgram_pairs_none"}, "nunca forma pareja consigo misma", clause="skipgram_pairs.never_itself"),
    mutant("skipgram_pairs_right_side_only", "looks only at the words after the centre", "skipgram_pairs",
           [(CONTEXT_RANGE, "range(i + 1, min(len(sentence), i + window + 1))")],
           {"test_skipgram_pairs_small_sentence", "test_skipgram_pairs_both_sides",
            "test_skipgram_pairs_window_clipped_at_edges", "test_skipgram_pairs_row_order",
            "test_skipgram_pairs_default_window", "test_skipgram_pairs_sentences_stay_apart",
            "test_skipgram_pairs_repeated_word", "test_skipgram_pairs_matches_reference"}, "a los DOS lados", clause="skipgram_pairs.both_sides"),
    mutant("skipgram_pairs_context_first", "writes each row as (context, centre)", "skipgram_pairs",
           [("pairs.append((center, sentence[j]))", "pairs.append((sentence[j], center))")],
           {"test_skipgram_pairs_row_order", "test_skipgram_pairs_sentences_stay_apart"}, "(centro, contexto)", clause="skipgram_pairs.row_order"),
    rewrite("skipgram_pairs_by_distance", "lists the contexts by distance (left 1, right 1, left 2...)", '''
def skipgram_pairs(sentences, window=2):
    pairs = []
    for sentence in sentences:
        for i, center in enumerate(sentence):
            for offset in range(1, window + 1):
                if i - offset >= 0:
                    pairs.append((center, sentence[i - offset]))
                if i + offset < len(sentence):
                    pairs.append((center, sentence[i + offset]))
    return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)
''', {"test_skipgram_pairs_row_order", "test_skipgram_pairs_sentences_stay_apart"}, "de izquierda a derecha", clause="skipgram_pairs.row_order"),
    rewrite("skipgram_pairs_wraps_around", "does not clip the window at the start: negative indices wrap", '''
def skipgram_pairs(sentences, window=2):
    pairs = []
    for sentence in sentences:
        for i, center in enumerate(sentence):
            for j in range(i - window, min(len(sentence), i + window + 1)):
                if j != i:
                    pairs.append((center, sentence[j]))
    return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)
''', {"test_skipgram_pairs_small_sentence", "test_skipgram_pairs_window_clipped_at_edges",
      "test_skipgram_pairs_row_order", "test_skipgram_pairs_default_window", "test_skipgram_pairs_sentences_stay_apart",
      "test_skipgram_pairs_repeated_word", "test_skipgram_pairs_none", "test_skipgram_pairs_none_are_integers"},
    "da la vuelta", clause="skipgram_pairs.clipped"),
    rewrite("skipgram_pairs_crosses_sentences", "joins all sentences into one stream before pairing", '''
def skipgram_pairs(sentences, window=2):
    stream = [token for sentence in sentences for token in sentence]
    pairs = []
    for i, center in enumerate(stream):
        for j in range(max(0, i - window), min(len(stream), i + window + 1)):
            if j != i:
                pairs.append((center, stream[j]))
    return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)
''', {"test_skipgram_pairs_sentences_stay_apart", "test_skipgram_pairs_none"}, "no pasa del final de una frase", clause="skipgram_pairs.sentences_apart"),
    mutant("skipgram_pairs_skips_equal_ids", "skips every pair of equal ids, not only the same position", "skipgram_pairs",
           [("if j != i:", "if sentence[j] != center:")], {"test_skipgram_pairs_repeated_word"}, "no el mismo id", clause="skipgram_pairs.positions"),
    mutant("skipgram_pairs_flat_when_empty", "np.array(pairs) without reshape: no pairs gives shape (0,)", "skipgram_pairs",
           [("return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)", "return np.array(pairs, dtype=np.int64)")],
           {"test_skipgram_pairs_none"}, "forma (0, 2)", clause="skipgram_pairs.empty"),
    mutant("skipgram_pairs_float_when_empty", "np.array(pairs) without a dtype: no pairs gives a float array",
           "skipgram_pairs",
           [("return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)", "return np.array(pairs).reshape(-1, 2)")],
           {"test_skipgram_pairs_none_are_integers"}, "array de ENTEROS", clause="skipgram_pairs.empty"),
    mutant("skipgram_pairs_default_window_5", "takes word2vec's usual window of 5 as the default, not 2",
           "skipgram_pairs", [("def skipgram_pairs(sentences, window=2):", "def skipgram_pairs(sentences, window=5):")],
           {"test_skipgram_pairs_default_window"}, "la ventana es 2", clause="skipgram_pairs.default_window"),

    # --- sgns_loss_and_grads ------------------------------------------------------------
    mutant("sgns_unstable_log_sigmoid", "takes the log of a naive sigmoid: infinite loss at ±1000", "sgns_loss_and_grads",
           [("loss = np.logaddexp(0, -score_o) + np.sum(np.logaddexp(0, score_neg))",
             "loss = -np.log(1 / (1 + np.exp(-score_o))) - np.sum(np.log(1 / (1 + np.exp(score_neg))))")],
           {"test_sgns_stable_for_large_scores"}, "np.logaddexp(0, -x)", clause="sgns_loss_and_grads.stable"),
    mutant("sgns_positive_sign_flipped", "uses 1 - σ(u_o·v_c) for the real pair: the wrong sign", "sgns_loss_and_grads",
           [("g_o = np.exp(-np.logaddexp(0, -score_o)) - 1", "g_o = 1 - np.exp(-np.logaddexp(0, -score_o))")],
           {"test_sgns_grad_v_c", "test_sgns_grad_u_o"}, "σ(x) - 1, negativa", clause="sgns_loss_and_grads.grad_u_o"),
    mutant("sgns_negatives_like_positives", "uses σ(u_k·v_c) - 1 for the negatives, as for the real pair",
           "sgns_loss_and_grads",
           [("g_neg = np.exp(-np.logaddexp(0, -score_neg))", "g_neg = np.exp(-np.logaddexp(0, -score_neg)) - 1")],
           {"test_sgns_grad_v_c", "test_sgns_grad_u_neg"}, "es σ(x), positiva", clause="sgns_loss_and_grads.grad_u_neg"),
    mutant("sgns_grad_v_c_without_negatives", "forgets the negatives' term in grad_v_c", "sgns_loss_and_grads",
           [("grad_v_c = g_o * u_o + g_neg @ u_neg", "grad_v_c = g_o * u_o")],
           {"test_sgns_grad_v_c"}, "cada negativa con signo positivo", clause="sgns_loss_and_grads.grad_v_c"),
    mutant("sgns_grad_u_neg_summed", "adds the negatives' gradients into one vector of shape (d,)", "sgns_loss_and_grads",
           [("grad_u_neg = np.outer(g_neg, v_c)", "grad_u_neg = np.sum(g_neg) * v_c")],
           {"test_sgns_output_shapes", "test_sgns_grad_u_neg"}, "una fila de gradiente por cada negativa", clause="sgns_loss_and_grads.grad_u_neg"),
    mutant("sgns_mean_over_negatives", "averages the negatives' terms of the loss instead of adding them",
           "sgns_loss_and_grads",
           [("np.sum(np.logaddexp(0, score_neg))", "np.mean(np.logaddexp(0, score_neg))")],
           {"test_sgns_loss_value"}, "no promediados", clause="sgns_loss_and_grads.loss"),

    # --- distance_ratio -----------------------------------------------------------------
    mutant("distance_ratio_inverted", "divides the nearest distance by the farthest", "distance_ratio",
           [("return max(distances) / min(distances)", "return min(distances) / max(distances)")],
           {"test_distance_ratio_farthest_over_nearest", "test_distance_ratio_matches_reference"},
           "divide la mayor entre la menor", clause="distance_ratio.farthest_over_nearest"),
    mutant("distance_ratio_squared", "compares squared distances", "distance_ratio",
           [("return max(distances) / min(distances)", "return max(distances) ** 2 / min(distances) ** 2")],
           {"test_distance_ratio_farthest_over_nearest", "test_distance_ratio_matches_reference"}, "no su cuadrado", clause="distance_ratio.farthest_over_nearest"),
    rewrite("distance_ratio_from_the_origin", "measures the lengths of points[1:] instead of distances to points[0]", '''
def distance_ratio(points):
    lengths = np.linalg.norm(np.asarray(points, dtype=float)[1:], axis=1)
    return float(lengths.max() / lengths.min())
''', {"test_distance_ratio_seen_from_the_first_point"}, "ni desde el origen", clause="distance_ratio.from_first_point"),

    # --- arguments after the call, and calls that repeat ('Cómo se califica') ------------
    changing("most_similar_removes_the_word", "most_similar", 'words.remove(word)', {"test_most_similar_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="most_similar.leaves_arguments"),
    remembering("most_similar_cache_by_word", "most_similar", '(word, k)', {"test_most_similar_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="most_similar.afresh"),
    changing("skipgram_pairs_empties_sentences", "skipgram_pairs", 'sentences.clear()', {"test_skipgram_pairs_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="skipgram_pairs.leaves_arguments"),
    changing("noise_distribution_normalises_counts_in_place", "noise_distribution", 'counts[:] = list(result)', {"test_noise_distribution_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="noise_distribution.leaves_arguments"),
]
