"""Hidden suite for `subpalabras`.

One misconception per test (the list of section 6 of the course spec), each with its
Spanish hint. Error cases, and tests that a do-nothing function could pass, `require` the
function's basic test. Fixed cases are never shown to the student; the property tests
compare with the reference on generated input and may show their shrunk counterexample.
While `train_wordpiece`, `unigram_prune` and `sp_encode` are graded, the functions they may
call are served by the reference (DEPENDS_ON), so one bug costs points in one place only.

Generated log-probabilities are multiples of 1/8, so every sum is exact in floating point
and a tie is a tie however the student adds. Scores of `wordpiece_scores` and losses of
`unigram_prune` are compared with a relative tolerance of 1e-9, as the spec says.
Parity with `tokenizers` and `sentencepiece` is checked by tests/test_subpalabras_parity.py.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.grading.expect import (NUMBER, STR, DictOf, ListOf, Tuple, answers_afresh, checked_student,
                                       leaves_alone)

# What each function returns (the spec): every answer is checked against it, deeply, before any
# test compares it. A number may be an int where the value is whole (the losses of an empty
# corpus are 0), never a string or a numpy scalar. A merge given as a list instead of a tuple is
# accepted here and charged once, in train_wordpiece's published test (as in bpe_palabras).
RETURNS = {
    "wordpiece_encode": ListOf(STR),
    "wordpiece_scores": DictOf(Tuple(STR, STR), NUMBER),
    "train_wordpiece": ListOf(Tuple(STR, STR, also_list=True)),
    "unigram_viterbi": Tuple(ListOf(STR), NUMBER),
    "unigram_prune": Tuple(DictOf(STR, NUMBER), ListOf(STR)),
    "sp_encode": ListOf(STR),
    "sp_decode": STR,
}


def _freq(value):
    return type(value) is int and value > 0


def _log_probs(logp):
    """A log-probability table as the lesson defines it: pieces (non-empty str) to negative numbers."""
    return type(logp) is dict and all(type(p) is str and p and type(v) in (int, float) and v < 0 for p, v in logp.items())


# The inputs the lesson defines, per function (errors it states included): the audit replays every call
# of the suite against these. Outside them (an empty word in train_wordpiece, where natural code reads
# word[0]; a piece holding a plain space in sp_decode, which sp_encode never makes) nothing is graded.
DOMAIN = {
    "wordpiece_encode": lambda a: type(a["text"]) is str and type(a["vocab"]) is dict
    and all(type(p) is str for p in a["vocab"]) and type(a["unk"]) is str and type(a["prefix"]) is str and a["prefix"] != ""
    and type(a["max_chars"]) is int,
    "wordpiece_scores": lambda a: type(a["splits"]) is dict
    and all(type(w) is tuple and all(type(u) is str and u for u in w) and _freq(f) for w, f in a["splits"].items()),
    "train_wordpiece": lambda a: type(a["corpus"]) is dict
    and all(type(w) is str and w != "" and _freq(f) for w, f in a["corpus"].items())
    and type(a["num_merges"]) is int and type(a["prefix"]) is str and a["prefix"] != "",
    "unigram_viterbi": lambda a: type(a["word"]) is str and _log_probs(a["logp"]),
    # the frequencies may be anything: the lesson says which raise ValueError
    "unigram_prune": lambda a: type(a["corpus"]) is dict and all(type(w) is str for w in a["corpus"])
    and _log_probs(a["logp"]) and type(a["n"]) is int,
    "sp_encode": lambda a: type(a["text"]) is str and _log_probs(a["logp"]) and a["logp"] != {}
    and type(a["add_dummy_prefix"]) is bool,
    "sp_decode": lambda a: type(a["pieces"]) is list and all(type(p) is str and " " not in p for p in a["pieces"])
    and type(a["add_dummy_prefix"]) is bool,
}
student = checked_student(RETURNS, DOMAIN)

DEPENDS_ON = {
    "train_wordpiece": ("wordpiece_scores",),
    "unigram_prune": ("unigram_viterbi",),
    "sp_encode": ("unigram_viterbi",),
}
# Tests whose inputs are the lesson's own worked examples (the release's visible checks): a table of
# those examples passes them, so they earn their own points but no share of a catch-all test.
# `autograder audit` checks this list against such a table.
PUBLISHED_EXAMPLES = {
    "test_wordpiece_encode_published_example",
    "test_wordpiece_scores_published_example",
    "test_train_wordpiece_published_examples",
    "test_unigram_viterbi_published_example",
    "test_unigram_prune_published_example",
    "test_sp_encode_published_example",
    "test_sp_decode_published_example",
}

# The lesson's rules for the graded functions, each with the hidden tests that pin it (autograder audit
# checks both ways, and that buggy.py breaks each one alone). "Cómo se califica" is the lesson's unnumbered
# section on grading: its rule on arguments and repeated calls holds for every function.
CLAUSES = {
    "wordpiece_encode.pieces": ("§2: devuelve las piezas de todas las palabras de text.split(), en orden, partiendo cada "
                                "una con la pieza más larga del vocabulario en cada posición",
                                {"test_wordpiece_encode_joins_the_pieces_of_every_word", "test_wordpiece_encode_published_example", "test_wordpiece_encode_matches_reference"}),
    "wordpiece_encode.longest": ("§2: la más larga, no la más corta: se prueba desde el final de la palabra y se va "
                                 "acortando", {"test_wordpiece_encode_longest_match_first"}),
    "wordpiece_encode.whole_word_unk": ("§2: si en alguna posición no hay pieza, se descartan las ya encontradas y la "
                                       "palabra entera es un solo [UNK]",
                                       {"test_wordpiece_encode_unknown_word_is_one_unk"}),
    "wordpiece_encode.prefix_not_first": ("§2: el prefijo va en todas las piezas menos en la primera de cada palabra",
                                          {"test_wordpiece_encode_no_prefix_on_the_first_piece"}),
    "wordpiece_encode.given_prefix": ("§2: usa el `prefix` que recibes: no siempre es ## (y el `unk` que recibes)",
                                      {"test_wordpiece_encode_uses_prefix_and_unk"}),
    "wordpiece_encode.max_chars": ("§2: max_chars cuenta caracteres, con len(palabra) y >: una palabra de exactamente "
                                   "max_chars caracteres todavía se codifica",
                                   {"test_wordpiece_encode_max_chars_counts_characters"}),
    "wordpiece_encode.split": ("§2: las palabras son text.split(), sin argumentos: cualquier espacio en blanco las separa "
                               "y no deja palabras vacías",
                               {"test_wordpiece_encode_splits_on_any_whitespace", "test_wordpiece_encode_edge_cases"}),
    "wordpiece_encode.keyerror": ("§2: KeyError si alguna palabra necesita unk y unk no está en el vocabulario; solo "
                                  "entonces", {"test_wordpiece_encode_missing_unk_raises_keyerror"}),
    "wordpiece_encode.valueerror": ("§2: un max_chars negativo no tiene sentido: ValueError",
                                    {"test_wordpiece_encode_edge_cases"}),
    "wordpiece_encode.arguments": ("§Cómo se califica: tus funciones no modifican los argumentos que reciben", {"test_wordpiece_encode_leaves_the_vocabulary_alone"}),
    "wordpiece_encode.calls": ("§Cómo se califica: el resultado de cada llamada depende solo de sus argumentos, y las pruebas llaman a cada función varias veces", {"test_wordpiece_encode_depends_only_on_its_arguments"}),

    "wordpiece_scores.score": ("§3: devuelve {(a, b): puntuación}, freq(ab) / (freq(a) · freq(b)), con cada aparición "
                               "multiplicada por la frecuencia de su palabra; la puntuación no es la frecuencia del par",
                               {"test_wordpiece_scores_divides_by_the_units_frequencies", "test_wordpiece_scores_published_example", "test_wordpiece_scores_matches_reference"}),
    "wordpiece_scores.single_units": ("§3: las palabras de una sola unidad también cuentan en freq(u)",
                                      {"test_wordpiece_scores_count_single_unit_words"}),
    "wordpiece_scores.overlap": ("§3: los pares se solapan al contar: ##a ##a ##a contiene dos veces ##a ##a",
                                 {"test_wordpiece_scores_overlapping_pairs"}),
    "wordpiece_scores.order": ("§3: las claves, en orden de primera aparición, recorriendo las palabras en orden y cada "
                               "una de izquierda a derecha", {"test_wordpiece_scores_first_appearance_order"}),
    "wordpiece_scores.arguments": ("§Cómo se califica: tus funciones no modifican los argumentos que reciben", {"test_wordpiece_scores_leaves_the_splits_alone"}),
    "wordpiece_scores.calls": ("§Cómo se califica: el resultado de cada llamada depende solo de sus argumentos, y las pruebas llaman a cada función varias veces", {"test_wordpiece_scores_depends_only_on_its_arguments"}),

    "train_wordpiece.merges": ("§4: devuelve la lista de fusiones, cada una como una tupla (a, b)",
                               {"test_train_wordpiece_published_examples", "test_train_wordpiece_matches_reference"}),
    "train_wordpiece.best_score": ("§4: en cada ronda elige el par con la mejor puntuación (no el más frecuente)",
                                   {"test_train_wordpiece_uses_the_score_not_the_frequency"}),
    "train_wordpiece.ties": ("§4: en un empate gana el par que aparece antes (palabras en el orden del corpus, cada una "
                             "de izquierda a derecha)", {"test_train_wordpiece_ties_go_to_the_first_pair"}),
    "train_wordpiece.exact": ("§4: las puntuaciones se comparan exactas (Fraction o en cruz), no con floats",
                              {"test_train_wordpiece_compares_exact_scores"}),
    "train_wordpiece.new_unit": ("§4: la unidad nueva es a seguida de b sin su prefijo",
                                 {"test_train_wordpiece_merged_unit_drops_the_inner_prefix"}),
    "train_wordpiece.prefix": ("§4: usa el `prefix` que recibes: lo llevan todas las letras menos la primera, y se quita "
                               "con len(prefix), no un 2 fijo", {"test_train_wordpiece_uses_the_prefix"}),
    "train_wordpiece.left_to_right": ("§4: sustituye el par en todas las palabras, de izquierda a derecha y sin solapes",
                                      {"test_train_wordpiece_merges_left_to_right"}),
    "train_wordpiece.stops": ("§4: para al hacer num_merges fusiones o cuando ya no queda ningún par",
                              {"test_train_wordpiece_stops_and_rejects"}),
    "train_wordpiece.valueerror": ("§4: un num_merges negativo lanza ValueError",
                                   {"test_train_wordpiece_stops_and_rejects"}),
    "train_wordpiece.arguments": ("§Cómo se califica: tus funciones no modifican los argumentos que reciben", {"test_train_wordpiece_leaves_the_corpus_alone"}),
    "train_wordpiece.calls": ("§Cómo se califica: el resultado de cada llamada depende solo de sus argumentos, y las pruebas llaman a cada función varias veces", {"test_train_wordpiece_depends_only_on_its_arguments"}),

    "unigram_viterbi.result": ("§5: devuelve una tupla con la lista de piezas de la segmentación de mayor puntuación, en "
                               "orden, y esa puntuación",
                               {"test_unigram_viterbi_pieces_in_text_order", "test_unigram_viterbi_published_example", "test_unigram_viterbi_matches_reference"}),
    "unigram_viterbi.best_total": ("§5: no vale ser voraz: Viterbi compara sumas completas",
                                   {"test_unigram_viterbi_best_total_not_greedy"}),
    "unigram_viterbi.ties": ("§5: en un empate gana la última pieza más larga: cambia de mejor solo si el nuevo es "
                             "estrictamente mayor", {"test_unigram_viterbi_ties_keep_the_longest_last_piece"}),
    "unigram_viterbi.unknown_score": ("§5: un carácter que no está en logp vale min(logp.values()) - 10.0, y cada uno "
                                      "suma su penalización", {"test_unigram_viterbi_unknown_characters"}),
    "unigram_viterbi.unknown_run": ("§5: los desconocidos seguidos salen como una sola pieza",
                                    {"test_unigram_viterbi_unknown_characters"}),
    "unigram_viterbi.empty_logp": ("§5: un logp vacío lanza ValueError (antes que nada)",
                                   {"test_unigram_viterbi_edge_cases"}),
    "unigram_viterbi.empty_word": ("§5: una palabra vacía da ([], 0.0)", {"test_unigram_viterbi_edge_cases"}),
    "unigram_viterbi.arguments": ("§Cómo se califica: tus funciones no modifican los argumentos que reciben", {"test_unigram_viterbi_leaves_logp_alone"}),
    "unigram_viterbi.calls": ("§Cómo se califica: el resultado de cada llamada depende solo de sus argumentos, y las pruebas llaman a cada función varias veces", {"test_unigram_viterbi_depends_only_on_its_arguments"}),

    "unigram_prune.result": ("§6: devuelve las pérdidas, L(V) - L(V sin p), de cada pieza de dos o más caracteres en el "
                             "orden de logp, y la lista de las n de menor pérdida",
                             {"test_unigram_prune_published_example", "test_unigram_prune_matches_reference"}),
    "unigram_prune.smallest": ("§6: se proponen las de menor pérdida, no las de mayor",
                               {"test_unigram_prune_removes_the_smallest_losses"}),
    "unigram_prune.weights": ("§6: L(V) suma freq(palabra) · puntuación de Viterbi de cada palabra",
                              {"test_unigram_prune_weights_words_by_frequency"}),
    "unigram_prune.no_renormalisation": ("§6: las demás log-probabilidades no cambian: no se vuelve a normalizar",
                                         {"test_unigram_prune_keeps_the_other_log_probs"}),
    "unigram_prune.ties": ("§6: empates en el orden de logp, no en orden alfabético",
                           {"test_unigram_prune_ties_in_logp_order"}),
    "unigram_prune.single_characters": ("§6: los caracteres sueltos nunca se quitan: no aparecen en las pérdidas ni en la "
                                        "lista, aunque n sea mayor",
                                        {"test_unigram_prune_never_removes_single_characters"}),
    "unigram_prune.errors": ("§6: ValueError si n < 0, si alguna frecuencia no es un int positivo o si algún carácter "
                             "del corpus no es una pieza de logp", {"test_unigram_prune_edge_cases"}),
    "unigram_prune.empty_corpus": ("§6: un corpus vacío tiene L = 0 y todas las pérdidas valen 0",
                                   {"test_unigram_prune_edge_cases"}),
    "unigram_prune.arguments": ("§Cómo se califica: tus funciones no modifican los argumentos que reciben", {"test_unigram_prune_leaves_its_arguments_alone"}),
    "unigram_prune.calls": ("§Cómo se califica: el resultado de cada llamada depende solo de sus argumentos, y las pruebas llaman a cada función varias veces", {"test_unigram_prune_depends_only_on_its_arguments"}),

    "sp_encode.pieces": ("§7: cambia cada espacio por ▁, añade el ▁ inicial si se pide, parte el resultado entero con "
                         "Viterbi y devuelve solo las piezas",
                         {"test_sp_encode_returns_only_the_pieces", "test_sp_encode_published_example", "test_sp_encode_matches_reference"}),
    "sp_encode.dummy_prefix": ("§7: con add_dummy_prefix (por defecto) se añade un ▁ delante de todo el texto; sin él, no",
                               {"test_sp_encode_dummy_prefix"}),
    "sp_encode.runs": ("§7: los espacios seguidos no se juntan: cada uno es un ▁", {"test_sp_encode_keeps_runs_of_spaces"}),
    "sp_encode.only_the_space": ("§7: solo el espacio U+0020 se convierte; un tabulador o un salto de línea son "
                                 "caracteres como los demás", {"test_sp_encode_only_the_space_becomes_the_marker"}),
    "sp_encode.empty": ("§7: un texto vacío da [] (sin ▁)", {"test_sp_encode_edge_cases"}),
    "sp_encode.valueerror": ("§7: un texto que ya contiene ▁ lanza ValueError", {"test_sp_encode_edge_cases"}),
    "sp_encode.arguments": ("§Cómo se califica: tus funciones no modifican los argumentos que reciben", {"test_sp_encode_leaves_logp_alone"}),
    "sp_encode.calls": ("§Cómo se califica: el resultado de cada llamada depende solo de sus argumentos, y las pruebas llaman a cada función varias veces", {"test_sp_encode_depends_only_on_its_arguments"}),

    "sp_decode.text": ("§8: une las piezas y cambia cada ▁ por un espacio",
                       {"test_sp_decode_turns_each_marker_into_a_space", "test_sp_decode_published_example", "test_sp_decode_matches_reference"}),
    "sp_decode.one_space": ("§8: con add_dummy_prefix se quita un solo espacio del principio, el que añadió sp_encode; "
                            "lstrip() no sirve", {"test_sp_decode_removes_one_leading_space"}),
    "sp_decode.only_a_space": ("§8: lo que se quita es un espacio: si el texto no empieza por uno, no se quita nada",
                               {"test_sp_decode_leading_space_rules"}),
    "sp_decode.flag": ("§8: con add_dummy_prefix=False no se quita nada", {"test_sp_decode_leading_space_rules"}),
    "sp_decode.arguments": ("§Cómo se califica: tus funciones no modifican los argumentos que reciben", {"test_sp_decode_leaves_the_pieces_alone"}),
    "sp_decode.calls": ("§Cómo se califica: el resultado de cada llamada depende solo de sus argumentos, y las pruebas llaman a cada función varias veces", {"test_sp_decode_depends_only_on_its_arguments"}),
}

grade = pytest.mark.grade
requires = pytest.mark.requires
RELATIVE = 1e-9

HIPER = {t: i for i, t in enumerate("[UNK] hiper hipo ##ten ##tens ##sión ##ión ##o ##s ##termia".split())}
GATO_SPLITS = {("g", "##a", "##t", "##o"): 5, ("g", "##a", "##t", "##a"): 3, ("p", "##a", "##t", "##o"): 2}
CASAS = {"c": -3, "a": -2, "s": -2, "ca": -3, "sa": -3, "cas": -4, "casa": -4, "as": -2}
CASA_COSA = {"c": -3, "a": -2, "s": -3, "o": -3, "co": -4, "ca": -3, "sa": -2, "casa": -4}
LA_CASA = {"▁": -2, "▁la": -3, "▁casa": -4, "la": -4, "casa": -5, "a": -3, "c": -4, "s": -4, "l": -4}


def as_tuples(merges):
    """The merges with each pair as a tuple: a list where a tuple is due costs points in one test only."""
    return [tuple(pair) for pair in merges]


def near(expected):
    return pytest.approx(expected, rel=RELATIVE, abs=1e-12)


# --- generated input ----------------------------------------------------------------------

eighths = st.integers(-64, -1).map(lambda k: k / 8)  # log-probabilities, exact in binary


def log_probs(alphabet, min_size=1, max_piece=3):
    pieces = st.text(alphabet=alphabet, min_size=1, max_size=max_piece)
    return st.dictionaries(pieces, eighths, min_size=min_size, max_size=8)


@st.composite
def wordpiece_vocabs(draw):
    heads = draw(st.lists(st.text(alphabet="abñ", min_size=1, max_size=3), max_size=6))
    tails = draw(st.lists(st.text(alphabet="abñ", min_size=1, max_size=3), max_size=6))
    tokens = heads + ["##" + t for t in tails] + (["[UNK]"] if draw(st.booleans()) else [])
    return {token: i for i, token in enumerate(dict.fromkeys(tokens))}


word_splits = st.dictionaries(st.lists(st.sampled_from(["a", "b", "##a", "##b", "ab", "##ab"]), max_size=4).map(tuple),
                              st.integers(1, 6), max_size=5)
# Words of at least one letter: the lesson never says what an empty word is (natural code reads word[0]).
corpora = st.dictionaries(st.text(alphabet="abc", min_size=1, max_size=5), st.integers(1, 6), max_size=5)


@st.composite
def pruning_cases(draw):
    corpus = draw(st.dictionaries(st.text(alphabet="abc", min_size=1, max_size=5), st.integers(1, 4), max_size=4))
    singles = {ch: draw(eighths) for ch in "abc"}
    longer = draw(st.dictionaries(st.text(alphabet="abc", min_size=2, max_size=4), eighths, max_size=6))
    order = draw(st.permutations(list(singles) + list(longer)))
    logp = {piece: {**singles, **longer}[piece] for piece in order}
    return corpus, logp, draw(st.integers(0, 4))


# --- wordpiece_encode -----------------------------------------------------------------------

@grade("wordpiece_encode", weight=3, hint="Repasa el ejemplo trabajado: en cada palabra, la pieza más larga que esté en "
                                          "el vocabulario, con '##' delante de todas menos la primera, y una lista.")
def test_wordpiece_encode_published_example(student):
    """reproduce los ejemplos publicados"""
    assert student.wordpiece_encode("hipertensión e hipotermia", HIPER) == \
        ["hiper", "##tens", "##ión", "[UNK]", "hipo", "##termia"]
    assert student.wordpiece_encode("hipertenso hiperbólico", HIPER) == ["hiper", "##tens", "##o", "[UNK]"]


@grade("wordpiece_encode", hint="El prefijo va en todas las piezas de la palabra menos en la primera: la primera se "
                                "busca tal cual.")
def test_wordpiece_encode_no_prefix_on_the_first_piece(student):
    """la primera pieza de cada palabra va sin prefijo"""
    vocab = {"[UNK]": 0, "sol": 1, "##sol": 2, "##es": 3, "es": 4}
    assert student.wordpiece_encode("soles", vocab) == ["sol", "##es"]
    assert student.wordpiece_encode("sol", vocab) == ["sol"]


@grade("wordpiece_encode", hint="El resultado son las piezas de TODAS las palabras del texto, una palabra tras otra "
                                "y en su orden, en una sola lista.")
def test_wordpiece_encode_joins_the_pieces_of_every_word(student):
    """junta las piezas de todas las palabras, en orden"""
    vocab = {"[UNK]": 0, "sol": 1, "luna": 2, "mar": 3}
    assert student.wordpiece_encode("sol luna mar sol", vocab) == ["sol", "luna", "mar", "sol"]


@grade("wordpiece_encode", weight=2, hint="Busca primero la pieza más larga: desde la posición actual, prueba hasta el "
                                          "final de la palabra y ve acortando, no al revés.")
def test_wordpiece_encode_longest_match_first(student):
    """elige la pieza más larga, no la más corta"""
    vocab = {"[UNK]": 7, "c": 0, "ca": 1, "casa": 2, "##a": 3, "##s": 4, "##sa": 5, "##as": 6}
    assert student.wordpiece_encode("casas", vocab) == ["casa", "##s"]


@grade("wordpiece_encode", weight=2, hint="Si en alguna posición de la palabra no hay ninguna pieza, la palabra ENTERA es "
                                          "[UNK]: descarta las piezas que ya habías encontrado en ella.")
def test_wordpiece_encode_unknown_word_is_one_unk(student):
    """una palabra que no se puede partir entera es un solo [UNK]"""
    vocab = {"[UNK]": 0, "sol": 1, "##es": 2, "luna": 3}
    assert student.wordpiece_encode("solxes luna", vocab) == ["[UNK]", "luna"]
    assert student.wordpiece_encode("luna solx", vocab) == ["luna", "[UNK]"]


@grade("wordpiece_encode", hint="Usa los parámetros `prefix` y `unk` que recibes, no '##' ni '[UNK]' escritos a mano.")
def test_wordpiece_encode_uses_prefix_and_unk(student):
    """usa el prefijo y el token desconocido que recibe"""
    vocab = {"<?>": 0, "sol": 1, "@es": 2, "##es": 3, "[UNK]": 4}
    assert student.wordpiece_encode("soles x", vocab, unk="<?>", prefix="@") == ["sol", "@es", "<?>"]


@grade("wordpiece_encode", hint="`max_chars` cuenta caracteres (len de la palabra), no bytes; y una palabra de "
                                "exactamente `max_chars` caracteres todavía se codifica: solo las más largas son [UNK].")
def test_wordpiece_encode_max_chars_counts_characters(student):
    """max_chars cuenta caracteres y deja pasar una palabra de esa longitud"""
    vocab = {"[UNK]": 0, "ñandú": 1, "sol": 2}
    assert student.wordpiece_encode("ñandú", vocab, max_chars=5) == ["ñandú"]
    assert student.wordpiece_encode("ñandú sol", vocab, max_chars=4) == ["[UNK]", "sol"]
    long_words = {"[UNK]": 0, "a" * 100: 1, "b" * 101: 2}  # by default, up to 100 characters
    assert student.wordpiece_encode("a" * 100 + " " + "b" * 101, long_words) == ["a" * 100, "[UNK]"]


@grade("wordpiece_encode", hint="Las palabras son text.split(), sin argumentos: corta por cualquier espacio en blanco "
                                "(tabuladores y saltos de línea también) y sin palabras vacías. split(' ') no sirve.")
def test_wordpiece_encode_splits_on_any_whitespace(student):
    """separa las palabras por cualquier espacio en blanco"""
    vocab = {"[UNK]": 0, "sol": 1, "luna": 2, "##es": 3}
    assert student.wordpiece_encode("  sol\tluna\n\nsoles  ", vocab) == ["sol", "luna", "sol", "##es"]


@grade("wordpiece_encode", hint="Lanza KeyError solo cuando una palabra necesita el token desconocido y este no está en "
                                "el vocabulario; si todas las palabras se pueden partir, no hace falta.")
def test_wordpiece_encode_missing_unk_raises_keyerror(student):
    """KeyError solo si hace falta un [UNK] que no está en el vocabulario"""
    vocab = {"sol": 0, "##es": 1}
    assert student.wordpiece_encode("soles sol", vocab) == ["sol", "##es", "sol"]
    with pytest.raises(KeyError):
        student.wordpiece_encode("soles lunas", vocab)


@grade("wordpiece_encode", hint="Un max_chars negativo no tiene sentido: lanza ValueError, antes de mirar las "
                                "palabras (aunque no haya ninguna). Un texto vacío no tiene palabras: devuelve una lista "
                                "vacía.")
@requires("test_wordpiece_encode_longest_match_first")
def test_wordpiece_encode_edge_cases(student):
    """texto vacío y max_chars negativo"""
    assert student.wordpiece_encode("", HIPER) == []
    with pytest.raises(ValueError):
        student.wordpiece_encode("hipo", HIPER, max_chars=-1)
    with pytest.raises(ValueError):  # however few words the text has
        student.wordpiece_encode("", HIPER, max_chars=-1)


@grade("wordpiece_encode", hint="Tu función no debe cambiar los argumentos que recibe: ni añadir ni quitar claves o elementos, ni reordenarlos. Si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_wordpiece_encode_longest_match_first")
def test_wordpiece_encode_leaves_the_vocabulary_alone(student):
    """no modifica el vocabulario"""
    leaves_alone(student, "wordpiece_encode", "soles xyz sol", {"[UNK]": 0, "sol": 1, "##es": 2})


@grade("wordpiece_encode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devuelve la respuesta de otra tabla).")
@requires("test_wordpiece_encode_longest_match_first")
def test_wordpiece_encode_depends_only_on_its_arguments(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "wordpiece_encode", ("soles", {"[UNK]": 0, "sol": 1, "##es": 2}),
                   ("soles", {"[UNK]": 0, "so": 1, "##les": 2, "##l": 3, "##es": 4}))


@grade("wordpiece_encode", weight=2, hint="Compara con el contraejemplo: palabras de text.split(), pieza más larga primero, "
                                          "prefijo salvo en la primera y la palabra entera como [UNK] si no se puede partir.",
       backstop=True)
@given(text=st.text(alphabet="abñ \t", max_size=12), vocab=wordpiece_vocabs(), max_chars=st.integers(0, 6))
def test_wordpiece_encode_matches_reference(student, reference, text, vocab, max_chars):
    """coincide con la referencia en textos y vocabularios generados"""
    try:
        expected = reference.wordpiece_encode(text, vocab, max_chars=max_chars)
    except KeyError:
        with pytest.raises(KeyError):
            student.wordpiece_encode(text, vocab, max_chars=max_chars)
    else:
        assert student.wordpiece_encode(text, vocab, max_chars=max_chars) == expected


# --- wordpiece_scores -----------------------------------------------------------------------

@grade("wordpiece_scores", weight=3, hint="La puntuación de un par es freq(ab) / (freq(a) · freq(b)), con cada aparición "
                                          "multiplicada por la frecuencia de su palabra. Repasa el ejemplo de gato, gata "
                                          "y pato.")
def test_wordpiece_scores_published_example(student):
    """reproduce el ejemplo publicado"""
    result = student.wordpiece_scores(GATO_SPLITS)
    assert set(result) == {("g", "##a"), ("##a", "##t"), ("##t", "##o"), ("##t", "##a"), ("p", "##a")}
    assert result == near({("g", "##a"): 1 / 13, ("##a", "##t"): 1 / 13, ("##t", "##o"): 0.1,
                           ("##t", "##a"): 3 / 130, ("p", "##a"): 1 / 13})


@grade("wordpiece_scores", hint="Divide la frecuencia del par entre las frecuencias de sus dos unidades: "
                                "freq(ab) / (freq(a) · freq(b)). La frecuencia sola es el criterio de BPE, no el de "
                                "WordPiece.")
def test_wordpiece_scores_divides_by_the_units_frequencies(student):
    """la puntuación divide freq(ab) entre freq(a) · freq(b)"""
    assert student.wordpiece_scores({("s", "##i"): 2}) == near({("s", "##i"): 2 / (2 * 2)})
    assert student.wordpiece_scores({("s", "##i"): 3, ("n", "##o"): 1}) == near({("s", "##i"): 1 / 3, ("n", "##o"): 1.0})


@grade("wordpiece_scores", weight=2, hint="freq(u) cuenta todas las apariciones de la unidad, también en palabras de una sola "
                                          "unidad, que no tienen pares pero sí cuentan.")
def test_wordpiece_scores_count_single_unit_words(student):
    """las palabras de una sola unidad cuentan en freq(u)"""
    assert student.wordpiece_scores({("g", "##a"): 2, ("##a",): 2, ("g",): 6}) == near({("g", "##a"): 2 / (8 * 4)})


@grade("wordpiece_scores", hint="Los pares se cuentan solapados: ('##a', '##a', '##a') contiene dos veces el par "
                                "('##a', '##a').")
def test_wordpiece_scores_overlapping_pairs(student):
    """los pares solapados cuentan todos"""
    assert student.wordpiece_scores({("b", "##a", "##a", "##a"): 1}) == near({("b", "##a"): 1 / 3, ("##a", "##a"): 2 / 9})


@grade("wordpiece_scores", hint="Las claves van en el orden en que aparece cada par por primera vez (palabras en su orden, "
                                "de izquierda a derecha): no ordenes el diccionario. Sin pares, un dict vacío.")
def test_wordpiece_scores_first_appearance_order(student):
    """las claves siguen el orden de primera aparición"""
    assert list(student.wordpiece_scores({("z", "##o"): 1, ("a", "##z", "##o"): 3})) == \
        [("z", "##o"), ("a", "##z"), ("##z", "##o")]
    assert student.wordpiece_scores({}) == {}
    assert student.wordpiece_scores({("a",): 3, (): 1}) == {}


@grade("wordpiece_scores", hint="Tu función no debe cambiar los argumentos que recibe: ni añadir ni quitar claves o elementos, ni reordenarlos. Si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_wordpiece_scores_published_example")
def test_wordpiece_scores_leaves_the_splits_alone(student):
    """no modifica las palabras partidas"""
    leaves_alone(student, "wordpiece_scores", {("g", "##a"): 2, ("##a",): 2, ("g",): 6})


@grade("wordpiece_scores", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devuelve la respuesta de otra tabla).")
@requires("test_wordpiece_scores_published_example")
def test_wordpiece_scores_depends_only_on_its_arguments(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "wordpiece_scores", ({("g", "##a"): 2, ("g",): 6},), ({("g", "##a"): 2, ("g",): 2},))


@grade("wordpiece_scores", weight=2, hint="Compara con el contraejemplo: freq(ab) / (freq(a) · freq(b)), pares solapados y "
                                          "palabras de una unidad incluidas.", backstop=True)
@given(splits=word_splits)
def test_wordpiece_scores_matches_reference(student, reference, splits):
    """coincide con la referencia en corpus generados"""
    expected = reference.wordpiece_scores(splits)
    result = student.wordpiece_scores(splits)
    assert list(result) == list(expected)
    assert result == near(expected)


# --- train_wordpiece ------------------------------------------------------------------------

@grade("train_wordpiece", weight=3, hint="Repasa los ejemplos trabajados: en cada ronda, recalcula las puntuaciones, "
                                         "fusiona el mejor par en todas las palabras y guarda el par como una tupla.")
def test_train_wordpiece_published_examples(student):
    """reproduce los ejemplos publicados"""
    assert student.train_wordpiece({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, 3) == \
        [("##g", "##s"), ("h", "##u"), ("hu", "##gs")]
    assert student.train_wordpiece({"gato": 5, "gata": 3, "pato": 2}, 8) == [
        ("##t", "##o"), ("g", "##a"), ("##t", "##a"), ("p", "##a"), ("pa", "##to"), ("ga", "##to"), ("ga", "##ta")]


@grade("train_wordpiece", weight=2, hint="WordPiece no fusiona el par más frecuente (eso es BPE): fusiona el de mejor "
                                         "puntuación, freq(ab) / (freq(a) · freq(b)).")
def test_train_wordpiece_uses_the_score_not_the_frequency(student):
    """fusiona por puntuación, no por frecuencia"""
    assert as_tuples(student.train_wordpiece({"ab": 10, "ac": 1, "db": 2}, 1)) == [("a", "##c")]


@grade("train_wordpiece", weight=2, hint="En un empate gana el par que aparece antes (palabras en el orden del corpus, de "
                                         "izquierda a derecha): ni el primero en orden alfabético ni el último que viste. "
                                         "Compara las puntuaciones exactas (Fraction) y cambia de mejor par solo si la "
                                         "nueva es estrictamente mayor.")
def test_train_wordpiece_ties_go_to_the_first_pair(student):
    """en un empate gana el par que aparece antes"""
    assert as_tuples(student.train_wordpiece({"zo": 1, "ab": 1, "mu": 1}, 2)) == [("z", "##o"), ("a", "##b")]


@grade("train_wordpiece", weight=2, hint="Compara las puntuaciones exactas, con Fraction o multiplicando en cruz, no con "
                                         "floats: dividir dos veces redondea dos veces, y un empate puede dejar de serlo.")
def test_train_wordpiece_compares_exact_scores(student):
    """compara las puntuaciones exactas, sin redondeos"""
    # Two scores of exactly 1/5: n / freq(a) / freq(b) rounds them apart, and the later pair wins.
    assert as_tuples(student.train_wordpiece({"sa": 3, "so": 2}, 1)) == [("s", "##a")]


@grade("train_wordpiece", weight=2, hint="La unidad nueva es a + b sin el prefijo de b: ('s', '##o') da 'so' y "
                                         "('##s', '##o') da '##so'. El prefijo solo puede quedar al principio.")
def test_train_wordpiece_merged_unit_drops_the_inner_prefix(student):
    """la unidad fusionada no lleva el prefijo por dentro"""
    # No ties, and the most frequent pair is also the best scored: only the unit's name can go wrong.
    assert as_tuples(student.train_wordpiece({"ab": 1, "abc": 1, "bc": 2}, 3)) == [("a", "##b"), ("b", "##c"), ("ab", "##c")]


@grade("train_wordpiece", hint="Usa el `prefix` que recibes, con su longitud: al empezar, todas las letras menos la "
                               "primera lo llevan, y al fusionar se quita len(prefix) caracteres, no 2.")
def test_train_wordpiece_uses_the_prefix(student):
    """usa el prefijo que recibe"""
    merges = student.train_wordpiece({"ab": 1, "abc": 1, "bc": 2}, 3, prefix="+")
    assert as_tuples(merges) == [("a", "+b"), ("b", "+c"), ("ab", "+c")]


@grade("train_wordpiece", hint="Al fusionar, recorre cada palabra de izquierda a derecha y no solapes: con el par "
                               "('##a', '##a'), '##a ##a ##a' queda '##aa ##a'.")
def test_train_wordpiece_merges_left_to_right(student):
    """fusiona de izquierda a derecha, sin solapes"""
    # Names are compared without prefixes: a prefix left inside a unit has a test of its own.
    merges = student.train_wordpiece({"baaa": 1, "caaa": 1, "b": 5, "c": 5}, 2)
    assert [(a.replace("##", ""), b.replace("##", "")) for a, b in merges] == [("a", "a"), ("aa", "a")]


@grade("train_wordpiece", hint="Para antes de `num_merges` si ya no queda ningún par (palabras de una sola unidad, corpus "
                               "vacío), y lanza ValueError si num_merges es negativo.")
@requires("test_train_wordpiece_uses_the_score_not_the_frequency")
def test_train_wordpiece_stops_and_rejects(student):
    """para cuando no quedan pares y rechaza num_merges negativo"""
    assert as_tuples(student.train_wordpiece({"a": 3, "bc": 1}, 5)) == [("b", "##c")]
    assert student.train_wordpiece({}, 3) == []
    assert student.train_wordpiece({"sol": 1}, 0) == []
    with pytest.raises(ValueError):
        student.train_wordpiece({"sol": 1}, -1)
    with pytest.raises(ValueError):  # however small the corpus
        student.train_wordpiece({}, -1)


@grade("train_wordpiece", hint="Tu función no debe cambiar los argumentos que recibe: ni añadir ni quitar claves o elementos, ni reordenarlos. Si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_train_wordpiece_uses_the_score_not_the_frequency")
def test_train_wordpiece_leaves_the_corpus_alone(student):
    """no modifica el corpus"""
    leaves_alone(student, "train_wordpiece", {"gato": 5, "gata": 3, "pato": 2}, 3)


@grade("train_wordpiece", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devuelve la respuesta de otra tabla).")
@requires("test_train_wordpiece_uses_the_score_not_the_frequency")
def test_train_wordpiece_depends_only_on_its_arguments(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "train_wordpiece", ({"abb": 1, "ac": 1}, 1), ({"abb": 1, "ac": 5}, 1))


@grade("train_wordpiece", weight=2, hint="Compara con el contraejemplo: mejor puntuación exacta, empate al primero que "
                                         "aparece, unidad sin prefijo interior y parada sin pares.", backstop=True)
@settings(max_examples=25)
@given(corpus=corpora, num_merges=st.integers(0, 6), prefix=st.sampled_from(["##", "+", "@@@"]))
def test_train_wordpiece_matches_reference(student, reference, corpus, num_merges, prefix):
    """coincide con la referencia en corpus generados"""
    expected = reference.train_wordpiece(corpus, num_merges, prefix)
    assert as_tuples(student.train_wordpiece(corpus, num_merges, prefix)) == expected


# --- unigram_viterbi ------------------------------------------------------------------------

@grade("unigram_viterbi", hint="Devuelve las piezas en el orden del texto: al recorrer el camino desde el final "
                                "salen al revés, dales la vuelta (''.join(piezas) debe ser la palabra).")
def test_unigram_viterbi_pieces_in_text_order(student):
    """las piezas salen en el orden de la palabra"""
    pieces, _ = student.unigram_viterbi("sol", {"s": -1, "o": -1, "l": -1})
    assert list(pieces) == ["s", "o", "l"]


# Before the published example, which a `>=` also fails: failed fixed cases are shown in file order.
@grade("unigram_viterbi", weight=2, hint="Un candidato sustituye al mejor solo si es estrictamente mayor (>, no >=): en un "
                                         "empate se queda la segmentación cuya última pieza es más larga.")
def test_unigram_viterbi_ties_keep_the_longest_last_piece(student):
    """en un empate gana la última pieza más larga"""
    assert student.unigram_viterbi("ab", {"a": -1, "b": -1, "ab": -2}) == (["ab"], -2)
    assert student.unigram_viterbi("aab", {"a": -1, "b": -1, "ab": -2, "aab": -3}) == (["aab"], -3)


@grade("unigram_viterbi", weight=3, hint="Repasa el ejemplo trabajado: la mejor forma de llegar a cada posición es la mejor "
                                         "de (mejor hasta donde empieza una pieza + la log-probabilidad de la pieza). "
                                         "Devuelve una tupla (piezas, puntuación).")
def test_unigram_viterbi_published_example(student):
    """reproduce el ejemplo publicado"""
    result = student.unigram_viterbi("casas", CASAS)
    assert type(result) is tuple
    assert result == (["cas", "as"], -6)


@grade("unigram_viterbi", weight=2, hint="No cojas la pieza más larga de cada posición: la mejor segmentación es la de "
                                         "mayor suma total, y eso exige programación dinámica sobre todas las posiciones.")
def test_unigram_viterbi_best_total_not_greedy(student):
    """maximiza la suma total, no elige piezas largas con avidez"""
    assert student.unigram_viterbi("abc", {"ab": -5, "a": -1, "b": -1, "c": -1, "bc": -1}) == (["a", "bc"], -2)
    assert student.unigram_viterbi("ab", {"a": -1, "b": -1, "ab": -5}) == (["a", "b"], -2)


@grade("unigram_viterbi", weight=2, hint="Un carácter que no está en logp vale min(logp) - 10, y cada uno cuenta en la "
                                         "puntuación; los desconocidos seguidos salen como UNA sola pieza.")
def test_unigram_viterbi_unknown_characters(student):
    """los caracteres desconocidos seguidos son una pieza y cada uno cuenta"""
    assert student.unigram_viterbi("axyb", {"a": -1, "b": -2}) == (["a", "xy", "b"], -27)
    assert student.unigram_viterbi("zz", {"a": -1.5}) == (["zz"], -23)
    # An unknown last character can beat a known piece that ends there.
    assert student.unigram_viterbi("bax", {"b": -20, "ba": -1, "ax": -20}) == (["ba", "x"], -31)


@grade("unigram_viterbi", hint="Una palabra vacía se segmenta en ([], 0.0); un logp vacío lanza ValueError (compruébalo "
                               "antes que nada).")
@requires("test_unigram_viterbi_best_total_not_greedy")
def test_unigram_viterbi_edge_cases(student):
    """palabra vacía y logp vacío"""
    assert student.unigram_viterbi("", CASAS) == ([], 0)
    with pytest.raises(ValueError):
        student.unigram_viterbi("", {})
    with pytest.raises(ValueError):
        student.unigram_viterbi("casa", {})


@grade("unigram_viterbi", hint="Tu función no debe cambiar los argumentos que recibe: ni añadir ni quitar claves o elementos, ni reordenarlos. Si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_unigram_viterbi_best_total_not_greedy")
def test_unigram_viterbi_leaves_logp_alone(student):
    """no modifica logp"""
    leaves_alone(student, "unigram_viterbi", "abxy", {"a": -1, "b": -2, "ab": -2})


@grade("unigram_viterbi", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devuelve la respuesta de otra tabla).")
@requires("test_unigram_viterbi_best_total_not_greedy")
def test_unigram_viterbi_depends_only_on_its_arguments(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "unigram_viterbi", ("ab", {"ab": -1, "a": -1, "b": -1}), ("ab", {"ab": -3, "a": -1, "b": -1}))


@grade("unigram_viterbi", weight=2, hint="Compara con el contraejemplo: mayor suma total, empates a la última pieza más "
                                         "larga y desconocidos seguidos en una sola pieza.", backstop=True)
@given(word=st.text(alphabet="abcx", max_size=8), logp=log_probs("abc"))
def test_unigram_viterbi_matches_reference(student, reference, word, logp):
    """coincide con la referencia en palabras generadas"""
    assert student.unigram_viterbi(word, logp) == reference.unigram_viterbi(word, logp)


# --- unigram_prune --------------------------------------------------------------------------

@grade("unigram_prune", weight=3, hint="Repasa el ejemplo trabajado: la pérdida de una pieza es L(V) - L(V sin ella), con "
                                       "L la suma de frecuencia · puntuación de Viterbi, y van en el orden de logp; se "
                                       "proponen las de MENOR pérdida.")
def test_unigram_prune_published_example(student):
    """reproduce el ejemplo publicado"""
    losses, weakest = student.unigram_prune({"casa": 4, "cosa": 2}, CASA_COSA, 2)
    assert list(losses) == ["co", "ca", "sa", "casa"]
    assert losses == near({"co": 4, "ca": 0, "sa": 6, "casa": 4})
    assert weakest == ["ca", "co"]


@grade("unigram_prune", hint="Los caracteres sueltos nunca se quitan (sin ellos habría palabras imposibles): las pérdidas "
                             "y la lista solo tienen piezas de dos o más caracteres, aunque `n` sea mayor.")
def test_unigram_prune_never_removes_single_characters(student):
    """nunca propone caracteres sueltos"""
    losses, weakest = student.unigram_prune({"aba": 2, "ab": 3}, {"a": -2, "b": -2, "ab": -1}, 5)
    assert list(losses) == ["ab"]
    assert weakest == ["ab"]


@grade("unigram_prune", weight=2, hint="Se quitan las piezas que MENOS empeoran el corpus: las de menor pérdida, no las "
                                       "de mayor.")
def test_unigram_prune_removes_the_smallest_losses(student):
    """propone las piezas de menor pérdida"""
    logp = {"a": -2, "b": -2, "ab": -1, "ba": -3, "aba": -2}
    _, weakest = student.unigram_prune({"aba": 2, "ab": 3}, logp, 2)
    assert weakest == ["ba", "aba"]


@grade("unigram_prune", hint="L(V) suma frecuencia · puntuación de Viterbi de cada palabra: una palabra que aparece 3 "
                             "veces cuenta 3 veces.")
def test_unigram_prune_weights_words_by_frequency(student):
    """cada palabra cuenta tantas veces como su frecuencia"""
    # A ratio, so that this test sees the weighting only: the losses themselves have tests of their own.
    logp = {"a": -2, "b": -2, "ba": -3}
    once, _ = student.unigram_prune({"ba": 1}, logp, 0)
    thrice, _ = student.unigram_prune({"ba": 3}, logp, 0)
    assert once["ba"] != 0
    assert thrice["ba"] == near(3 * once["ba"])


@grade("unigram_prune", weight=2, hint="Al quitar una pieza, las demás log-probabilidades no cambian: no vuelvas a "
                                       "normalizar las probabilidades antes de recalcular L.")
def test_unigram_prune_keeps_the_other_log_probs(student):
    """no renormaliza las probabilidades al quitar una pieza"""
    logp = {"a": -2, "b": -2, "ab": -1, "ba": -3, "aba": -2}
    losses, _ = student.unigram_prune({"aba": 1, "ab": 1}, logp, 2)
    assert losses == near({"ab": 3, "ba": 0, "aba": 1})


@grade("unigram_prune", hint="En un empate de pérdidas gana la pieza que va antes en logp, no la primera en orden "
                             "alfabético (ordena por (pérdida, posición en logp)).")
def test_unigram_prune_ties_in_logp_order(student):
    """empates de pérdida en el orden de logp"""
    logp = {"z": -2, "a": -2, "zz": -5, "aa": -5, "az": -9}
    _, weakest = student.unigram_prune({"zz": 1, "aa": 1}, logp, 2)
    assert weakest == ["zz", "aa"]


@grade("unigram_prune", hint="Un corpus vacío tiene L = 0 y toda pérdida 0. Lanza ValueError si n < 0, si una frecuencia "
                             "no es un int positivo o si un carácter del corpus no es una pieza.")
@requires("test_unigram_prune_keeps_the_other_log_probs")
def test_unigram_prune_edge_cases(student):
    """corpus vacío y argumentos inválidos"""
    logp = {"a": -2, "b": -2, "ab": -1, "ba": -3}
    losses, weakest = student.unigram_prune({}, logp, 1)
    assert losses == near({"ab": 0, "ba": 0})
    assert weakest == ["ab"]
    for corpus, n in (({"ab": 1}, -1), ({}, -1), ({"ab": 0}, 1), ({"ab": 1.5}, 1), ({"ab": "1"}, 1), ({"abc": 1}, 1)):
        with pytest.raises(ValueError):
            student.unigram_prune(corpus, logp, n)


@grade("unigram_prune", hint="Tu función no debe cambiar los argumentos que recibe: ni añadir ni quitar claves o elementos, ni reordenarlos. Si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_unigram_prune_keeps_the_other_log_probs")
def test_unigram_prune_leaves_its_arguments_alone(student):
    """no modifica el corpus ni logp (tampoco su orden)"""
    logp = {"co": -4, "c": -3, "a": -2, "s": -3, "o": -3, "ca": -3, "sa": -2, "casa": -4}
    leaves_alone(student, "unigram_prune", {"casa": 4, "cosa": 2}, logp, 2)


@grade("unigram_prune", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devuelve la respuesta de otra tabla).")
@requires("test_unigram_prune_keeps_the_other_log_probs")
def test_unigram_prune_depends_only_on_its_arguments(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "unigram_prune", ({"casa": 4, "cosa": 2}, CASA_COSA, 2),
                   ({"casa": 4, "cosa": 2}, {**CASA_COSA, "ca": -1}, 2))


@grade("unigram_prune", weight=2, hint="Compara con el contraejemplo: L(V) - L(V sin la pieza), sin renormalizar, las "
                                       "`n` menores en el orden de logp y sin caracteres sueltos.", backstop=True)
@settings(max_examples=25)
@given(case=pruning_cases())
def test_unigram_prune_matches_reference(student, reference, case):
    """coincide con la referencia en corpus generados"""
    corpus, logp, n = case
    losses, weakest = student.unigram_prune(corpus, logp, n)
    expected_losses, expected_weakest = reference.unigram_prune(corpus, logp, n)
    assert list(losses) == list(expected_losses)
    assert losses == near(expected_losses)
    assert weakest == expected_weakest


# --- sp_encode ------------------------------------------------------------------------------

@grade("sp_encode", weight=3, hint="Repasa el ejemplo trabajado: cada espacio se convierte en ▁, se añade un ▁ delante y "
                                   "se segmenta todo el texto con Viterbi. Devuelve solo la lista de piezas.")
def test_sp_encode_published_example(student):
    """reproduce los ejemplos publicados"""
    assert student.sp_encode("la casa", LA_CASA) == ["▁la", "▁casa"]
    assert student.sp_encode(" la  casa", LA_CASA) == ["▁", "▁la", "▁", "▁casa"]


@grade("sp_encode", hint="sp_encode devuelve solo la lista de piezas, no la pareja (piezas, puntuación) que "
                                "devuelve unigram_viterbi.")
def test_sp_encode_returns_only_the_pieces(student):
    """devuelve solo la lista de piezas"""
    assert student.sp_encode("sol", {"sol": -1, "s": -2, "o": -2, "l": -2}, add_dummy_prefix=False) == ["sol"]


@grade("sp_encode", weight=2, hint="Con add_dummy_prefix (por defecto) se añade un ▁ delante del texto, para que la "
                                   "primera palabra se codifique como las demás; con add_dummy_prefix=False, no.")
def test_sp_encode_dummy_prefix(student):
    """añade el ▁ inicial solo con add_dummy_prefix"""
    logp = {"▁sol": -2, "sol": -3, "▁": -4, "s": -5, "o": -5, "l": -5}
    assert student.sp_encode("sol", logp) == ["▁sol"]
    assert student.sp_encode("sol sol", logp, add_dummy_prefix=False) == ["sol", "▁sol"]


@grade("sp_encode", weight=2, hint="No juntes los espacios seguidos: cada espacio es un ▁, así el texto se recupera tal "
                                   "cual.")
def test_sp_encode_keeps_runs_of_spaces(student):
    """no junta los espacios seguidos"""
    logp = {"▁sol": -2, "▁": -4, "s": -5, "o": -5, "l": -5}
    # The tail only: the leading ▁ has a test of its own.
    assert student.sp_encode("sol   sol ", logp)[-4:] == ["▁", "▁", "▁sol", "▁"]


@grade("sp_encode", hint="Solo el espacio ' ' (U+0020) se convierte en ▁: un tabulador o un salto de línea son caracteres "
                         "como los demás (aquí, desconocidos).")
def test_sp_encode_only_the_space_becomes_the_marker(student):
    """solo el espacio U+0020 se convierte en ▁"""
    # The tail only: the leading ▁ has a test of its own.
    assert student.sp_encode("la\tcasa", LA_CASA)[-2:] == ["\t", "casa"]
    assert student.sp_encode("la\ncasa", LA_CASA)[-2:] == ["\n", "casa"]


@grade("sp_encode", hint="Un texto vacío da una lista vacía (sin ▁). Un texto que ya contiene ▁ es ambiguo: lanza "
                         "ValueError.")
@requires("test_sp_encode_dummy_prefix")
def test_sp_encode_edge_cases(student):
    """texto vacío y texto con ▁"""
    assert student.sp_encode("", LA_CASA) == []
    with pytest.raises(ValueError):
        student.sp_encode("la▁casa", LA_CASA)


@grade("sp_encode", hint="Tu función no debe cambiar los argumentos que recibe: ni añadir ni quitar claves o elementos, ni reordenarlos. Si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_sp_encode_dummy_prefix")
def test_sp_encode_leaves_logp_alone(student):
    """no modifica logp"""
    leaves_alone(student, "sp_encode", "la la", {"▁la": -3, "l": -4, "a": -4})


@grade("sp_encode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devuelve la respuesta de otra tabla).")
@requires("test_sp_encode_dummy_prefix")
def test_sp_encode_depends_only_on_its_arguments(student):
    """cada llamada depende solo de sus argumentos"""
    without = {piece: score for piece, score in LA_CASA.items() if piece != "▁casa"}
    answers_afresh(student, "sp_encode", ("la casa", LA_CASA), ("la casa", without))


@grade("sp_encode", weight=2, hint="Compara con el contraejemplo: ▁ inicial con add_dummy_prefix, cada espacio un ▁ y "
                                   "Viterbi sobre el texto entero.", backstop=True)
@given(text=st.text(alphabet="ab \t", max_size=8), logp=log_probs("ab▁"), add_dummy_prefix=st.booleans())
def test_sp_encode_matches_reference(student, reference, text, logp, add_dummy_prefix):
    """coincide con la referencia en textos generados"""
    assert student.sp_encode(text, logp, add_dummy_prefix) == reference.sp_encode(text, logp, add_dummy_prefix)


# --- sp_decode ------------------------------------------------------------------------------

@grade("sp_decode", weight=2, hint="Une las piezas, cambia cada ▁ por un espacio y quita el espacio inicial que añadió "
                                   "add_dummy_prefix.")
def test_sp_decode_published_example(student):
    """reproduce los ejemplos publicados"""
    assert student.sp_decode(["▁la", "▁casa"]) == "la casa"
    assert student.sp_decode(["▁", "▁la", "▁", "▁casa"]) == " la  casa"


@grade("sp_decode", hint="Cada ▁ vuelve a ser un espacio: cámbialo por ' ', no lo borres.")
def test_sp_decode_turns_each_marker_into_a_space(student):
    """cada ▁ se convierte en un espacio"""
    assert student.sp_decode(["sol", "▁y", "▁luna"], add_dummy_prefix=False) == "sol y luna"


@grade("sp_decode", weight=2, hint="Quita UN solo espacio inicial, el que añadió add_dummy_prefix: lstrip() borraría "
                                   "también los espacios que el texto tenía de verdad.")
def test_sp_decode_removes_one_leading_space(student):
    """quita un solo espacio inicial, no todos"""
    assert student.sp_decode(["▁", "▁", "▁sol"]) == "  sol"


@grade("sp_decode", hint="Quita el espacio inicial solo si hay uno y solo con add_dummy_prefix=True; con False, el texto "
                         "queda tal cual.")
def test_sp_decode_leading_space_rules(student):
    """el espacio inicial según add_dummy_prefix"""
    assert student.sp_decode(["sol", "▁sol"]) == "sol sol"
    assert student.sp_decode(["▁sol"], add_dummy_prefix=False) == " sol"
    assert student.sp_decode([]) == ""


@grade("sp_decode", hint="Tu función no debe cambiar los argumentos que recibe: ni añadir ni quitar claves o elementos, ni reordenarlos. Si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_sp_decode_published_example")
def test_sp_decode_leaves_the_pieces_alone(student):
    """no modifica la lista de piezas"""
    leaves_alone(student, "sp_decode", ["▁sol", "▁y", "▁luna"])


@grade("sp_decode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devuelve la respuesta de otra tabla).")
@requires("test_sp_decode_published_example")
def test_sp_decode_depends_only_on_its_arguments(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "sp_decode", (["▁sol"], True), (["▁sol"], False))


@grade("sp_decode", weight=2, hint="Compara con el contraejemplo: unir, ▁ por espacio y, con add_dummy_prefix, un "
                                   "espacio inicial menos.", backstop=True)
# Pieces as sp_encode makes them: a space is always ▁ there, never a plain " ".
@given(pieces=st.lists(st.sampled_from(["▁", "a", "▁a", "b▁", "▁▁", "\t"]), max_size=6),
       add_dummy_prefix=st.booleans())
def test_sp_decode_matches_reference(student, reference, pieces, add_dummy_prefix):
    """coincide con la referencia en piezas generadas"""
    assert student.sp_decode(pieces, add_dummy_prefix) == reference.sp_decode(pieces, add_dummy_prefix)
