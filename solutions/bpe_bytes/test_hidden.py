"""Hidden suite for `bpe_bytes`.

One misconception per test, each with its Spanish hint. A test that a do-nothing
function could pass (no mutation, empty answers, a relation between two calls)
`requires` the function's basic test, like the error cases do. Fixed cases are never shown
to the student; the `property` tests compare with the reference on generated input
and may show their shrunk counterexample. A function is graded on its own: while
`train_bpe` or `encode` run, the student's `get_stats` and `merge` are replaced by
the reference (DEPENDS_ON), so one bug costs points in one place only.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.grading.expect import BYTES, INT, NUMBER, STR, DictOf, ListOf, Tuple, answers_afresh, checked_student, leaves_alone
from autograder.grading.plugin import Feedback

# What each function returns (the spec): every answer is checked against it, deeply, before any
# test compares it, so no answer of the wrong type passes a test by comparing vacuously (an empty
# array is close to any number under approx; [array([1])] == [1]; {(1.0, 2.0): 256} == {(1, 2): 256}).
RETURNS = {
    "get_stats": DictOf(Tuple(INT, INT), INT),
    "merge": ListOf(INT),
    "train_bpe": DictOf(Tuple(INT, INT), INT),
    "build_vocab": DictOf(INT, BYTES),
    "encode": ListOf(INT),
    "decode": STR,
    "compression_ratio": NUMBER,  # a float; an int is the same number (the basic test charges the type)
}
# The inputs the lesson defines, per function (`a`: the call's arguments by name). The audit replays
# every call of this suite against them (tests/test_clauses.py): nothing outside them is graded.
DOMAIN = {
    # §3: ids are ints; `counts`, when given, is a {pair: count} dict to update.
    "get_stats": lambda a: _ints(a["ids"]) and (a["counts"] is None or _is_merges(a["counts"])),
    "merge": lambda a: _ints(a["ids"]) and _is_pair(a["pair"]) and type(a["idx"]) is int,
    # §5: a vocab_size under 256 is a ValueError the lesson states.
    "train_bpe": lambda a: isinstance(a["text"], str) and type(a["vocab_size"]) is int,
    # §5-§7: merges as train_bpe makes them: ids 256, 257, ... (in any order), each from earlier ids.
    "build_vocab": lambda a: _is_trained(a["merges"]),
    "encode": lambda a: isinstance(a["text"], str) and _is_trained(a["merges"]),
    # §8: an id not in vocab is a KeyError the lesson states.
    "decode": lambda a: _ints(a["ids"]) and isinstance(a["vocab"], dict)
                        and all(type(i) is int and isinstance(b, bytes) for i, b in a["vocab"].items()),
    # §9: an empty list of ids is a ValueError the lesson states.
    "compression_ratio": lambda a: isinstance(a["text"], str) and _ints(a["ids"]),
}


def _ints(values):
    return all(type(v) is int for v in values)


def _is_pair(pair):
    return isinstance(pair, tuple) and len(pair) == 2 and _ints(pair)


def _is_merges(merges):
    return isinstance(merges, dict) and all(_is_pair(p) and type(n) is int for p, n in merges.items())


def _is_trained(merges):
    if not _is_merges(merges):
        return False
    ids = sorted(merges.values())
    made = {pair: idx for pair, idx in merges.items()}
    return ids == list(range(256, 256 + len(ids))) and all(max(pair) < idx for pair, idx in made.items())


student = checked_student(RETURNS, DOMAIN)

DEPENDS_ON = {"train_bpe": ("get_stats", "merge"), "encode": ("get_stats", "merge")}
# Arguments whose in-place changes the tests must see (`counts` by contract, `ids` to catch a
# merge that mutates it); any other change a student makes stays in the worker.
MUTATES = {"get_stats": ("counts",), "merge": ("ids",)}

# The lesson's rules for the graded functions (§ = its section), each with the hidden tests that pin
# it. `autograder audit` checks both ways (every test pins a rule) and that buggy.py breaks each one
# alone with one of those tests' hints first.
CLAUSES = {
    "get_stats.pairs": (
        "§3: devuelve {(a, b): cuenta} con cada par de ids vecinos y todas sus apariciones; una lista vacía o de un "
        "id no tiene pares", {"test_get_stats_counts_pairs", "test_get_stats_repeated_pairs_add_up",
                              "test_get_stats_short_lists", "test_get_stats_matches_reference"}),
    "get_stats.overlaps": (
        "§2, §3: al contar, los pares se solapan: [97, 97, 97] contiene dos veces (97, 97)",
        {"test_get_stats_overlapping_pairs"}),
    "get_stats.counts_in_place": (
        "§3: si recibe `counts`, actualiza ese mismo diccionario y lo devuelve", {"test_get_stats_updates_counts_in_place"}),
    "get_stats.fresh_dict": (
        "§3: sin `counts`, cada llamada empieza con un diccionario nuevo (counts=None, no counts={})",
        {"test_get_stats_fresh_dict_each_call"}),
    "merge.replaces": (
        "§4: devuelve una lista nueva en la que cada aparición del par es `idx` y el resto se copia tal cual, "
        "también el último id", {"test_merge_replaces_pair", "test_merge_keeps_the_tail", "test_merge_matches_reference"}),
    "merge.no_overlap": (
        "§2, §4: al fusionar no hay solapes: después de fusionar en i se sigue en i + 2",
        {"test_merge_does_not_overlap"}),
    "merge.leaves_ids": (
        "§4: la lista `ids` que recibe no cambia", {"test_merge_leaves_input_alone"}),
    "train_bpe.most_frequent": (
        "§2, §5: en cada vuelta cuenta los pares de la secuencia actual y fusiona el más frecuente; en un empate gana "
        "el de primera aparición más temprana", {"test_train_bpe_published_example", "test_train_bpe_tie_rule",
                                                 "test_train_bpe_merges_most_frequent_pair",
                                                 "test_train_bpe_matches_reference"}),
    "train_bpe.new_ids": (
        "§5: la fusión k (desde 0) recibe el id 256 + k", {"test_train_bpe_new_ids"}),
    "train_bpe.utf8_bytes": (
        "§1, §5: se entrena sobre los bytes UTF-8 del texto, no sobre los caracteres", {"test_train_bpe_uses_utf8_bytes"}),
    "train_bpe.runs_out": (
        "§5: si quedan menos de dos ids no hay pares: termina con las fusiones aprendidas",
        {"test_train_bpe_stops_when_sequence_runs_out"}),
    "train_bpe.small_vocab": (
        "§5: con vocab_size menor que 256 lanza ValueError", {"test_train_bpe_rejects_small_vocab"}),
    "build_vocab.bytes": (
        "§6: los 256 bytes sueltos y, por cada fusión (a, b) -> idx, vocab[idx] = vocab[a] + vocab[b], como bytes",
        {"test_build_vocab_bytes_and_merges", "test_build_vocab_values_are_bytes"}),
    "build_vocab.by_id": (
        "§6: las fusiones se recorren por id creciente, no en el orden del diccionario ni por el par",
        {"test_build_vocab_unordered_merges", "test_build_vocab_sorted_by_id_not_by_pair"}),
    "encode.lowest_id_first": (
        "§7: parte de los bytes UTF-8 del texto y, mientras haya un par fusionable, fusiona el de id de fusión más "
        "bajo, no el más frecuente", {"test_encode_published_example", "test_encode_lowest_merge_id_not_frequency",
                                      "test_encode_short_texts", "test_encode_non_ascii",
                                      "test_encode_matches_reference"}),
    "encode.dict_order": (
        "§7: el orden del diccionario `merges` no importa: se elige por el id de fusión", {"test_encode_ignores_dict_order"}),
    "decode.join_then_decode": (
        "§8: primero se unen los bytes de todos los ids y después se decodifica: un carácter puede repartirse "
        "entre dos tokens", {"test_decode_joins_bytes", "test_decode_characters_split_across_tokens",
                             "test_decode_round_trip"}),
    "decode.replace": (
        "§8: los bytes que no forman UTF-8 válido no lanzan excepción: errors='replace'",
        {"test_decode_invalid_utf8_is_replaced"}),
    "decode.unknown_id": (
        "§8: un id que no está en vocab lanza KeyError", {"test_decode_unknown_id_raises"}),
    "compression_ratio.bytes_per_token": (
        "§9: la razón es bytes / tokens", {"test_compression_ratio_published_example"}),
    "compression_ratio.utf8_bytes": (
        "§9: se cuentan los bytes UTF-8 del texto, no sus caracteres", {"test_compression_ratio_counts_utf8_bytes"}),
    "compression_ratio.empty_ids": (
        "§9: sin ids lanza ValueError", {"test_compression_ratio_rejects_empty_ids"}),
    "build_vocab.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_build_vocab_leaves_its_arguments_alone"}),
    "encode.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_encode_leaves_its_arguments_alone"}),
    "encode.afresh": ("§Cómo se califica: el resultado depende solo de los argumentos de cada llamada", {"test_encode_answers_each_call_afresh"}),
    "decode.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_decode_leaves_its_arguments_alone"}),
    "decode.afresh": ("§Cómo se califica: el resultado depende solo de los argumentos de cada llamada", {"test_decode_answers_each_call_afresh"}),
    "compression_ratio.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_compression_ratio_leaves_its_arguments_alone"}),
}

# Tests whose inputs are the lesson's own worked examples (the release's visible checks): a table of
# those examples passes them, so they earn their own points but no share of a catch-all test.
# `autograder audit` checks this list against such a table.
PUBLISHED_EXAMPLES = {
    "test_compression_ratio_published_example",
    "test_encode_published_example",
    "test_train_bpe_published_example",
    "test_train_bpe_uses_utf8_bytes",
}

grade = pytest.mark.grade
requires = pytest.mark.requires
small_ids = st.lists(st.integers(0, 4), max_size=24)
texts = st.text(alphabet="abcab ñé🙂\u00e1", max_size=40) | st.text(max_size=20)


def expect_type(value, kind, what):
    # isinstance: the spec asks for a dict, and a Counter, defaultdict or OrderedDict is one.
    if not isinstance(value, kind):
        raise Feedback(f"{what} debe devolver un {kind.__name__}, no un {type(value).__name__}.")


def learned_pairs(merges):
    """The merges by increasing id, each as the pair of byte strings it joins, read with the
    student's own numbering: a test of which pairs win (and in what order) then passes or
    fails whatever ids the student gave them; the ids have a test of their own."""
    expect_type(merges, dict, "train_bpe")
    if not all(type(idx) is int for idx in merges.values()):
        raise Feedback("Los valores del diccionario de train_bpe deben ser los ids nuevos (enteros).")
    pieces = {i: bytes([i]) for i in range(256)}
    out = []
    for pair, idx in sorted(merges.items(), key=lambda item: item[1]):
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise Feedback("Cada clave de train_bpe debe ser una tupla (a, b) de dos ids.")
        left, right = (pieces.get(p) if isinstance(p, int) else None for p in pair)
        out.append((left, right))
        if left is not None and right is not None:
            pieces[idx] = left + right
    return out


# --- get_stats --------------------------------------------------------------------------

# First of the fixed cases: a shared `counts={}` default fails every later test too (the property
# tests run first and fill it), so this is the failure a student reads first for that bug. It is a
# relation between two calls (any miscount that repeats itself passes it), hence the gate.
@grade("get_stats", hint="No uses `counts={}` como valor por defecto: ese diccionario se crea una vez y se comparte "
                         "entre llamadas. Usa `counts=None` y crea uno nuevo dentro.")
@pytest.mark.requires("test_get_stats_counts_pairs")
def test_get_stats_fresh_dict_each_call(student):
    """cada llamada sin counts empieza de cero"""
    first = student.get_stats([5, 6, 7])
    second = student.get_stats([5, 6, 7])
    assert first == second


@grade("get_stats", weight=2, hint="Recorre todos los pares vecinos con zip(ids, ids[1:]) y suma 1 a cada uno.")
def test_get_stats_counts_pairs(student):
    """cuenta cada par de vecinos de una lista"""
    result = student.get_stats([3, 1, 4, 1, 5, 9, 2, 6])
    expect_type(result, dict, "get_stats")
    assert result == {(3, 1): 1, (1, 4): 1, (4, 1): 1, (1, 5): 1, (5, 9): 1, (9, 2): 1, (2, 6): 1}


@grade("get_stats", hint="Un par que aparece varias veces debe sumar todas sus apariciones, no contarse una sola vez.")
def test_get_stats_repeated_pairs_add_up(student):
    """un par repetido suma todas sus apariciones"""
    assert student.get_stats([1, 2, 3, 1, 2, 7, 1, 2]) == {(1, 2): 3, (2, 3): 1, (3, 1): 1, (2, 7): 1, (7, 1): 1}


@grade("get_stats", hint="Al contar, los pares se solapan: [97, 97, 97] contiene dos veces (97, 97). "
                         "No saltes posiciones al contar (eso solo se hace al fusionar).")
def test_get_stats_overlapping_pairs(student):
    """los pares solapados cuentan todos"""
    assert student.get_stats([120, 120, 120, 120, 7]) == {(120, 120): 3, (120, 7): 1}


@grade("get_stats", hint="Listas vacías o de un solo id no tienen pares: devuelve un diccionario vacío.")
@pytest.mark.requires("test_get_stats_counts_pairs")
def test_get_stats_short_lists(student):
    """listas sin pares"""
    assert student.get_stats([]) == {}
    assert student.get_stats([42]) == {}


@grade("get_stats", hint="Si recibes `counts`, actualiza ese mismo diccionario (sin copiarlo) y devuélvelo.")
def test_get_stats_updates_counts_in_place(student):
    """acumula sobre el diccionario counts recibido"""
    counts = {(9, 9): 5, (1, 2): 1}
    result = student.get_stats([1, 2, 9, 9], counts)
    assert counts == {(9, 9): 6, (1, 2): 2, (2, 9): 1}
    assert result is counts


@grade("get_stats", weight=2, hint="Compara tu resultado con el contraejemplo: cuenta cada par vecino, solapes incluidos.",
       backstop=True)
@given(ids=small_ids)
def test_get_stats_matches_reference(student, reference, ids):
    """coincide con la referencia en listas generadas"""
    assert student.get_stats(list(ids)) == reference.get_stats(list(ids))


# --- merge ------------------------------------------------------------------------------

@grade("merge", weight=2, hint="Sustituye cada aparición del par por `idx` y copia el resto tal cual.")
def test_merge_replaces_pair(student):
    """sustituye cada aparición del par"""
    result = student.merge([1, 2, 3, 1, 2], (1, 2), 256)
    expect_type(result, list, "merge")
    assert result == [256, 3, 256]


@grade("merge", hint="Al fusionar, las apariciones no se solapan: después de fusionar en i, sigue en i + 2. "
                     "[97, 97, 97] con (97, 97) da [256, 97].")
def test_merge_does_not_overlap(student):
    """fusiona sin solapes, de izquierda a derecha"""
    assert student.merge([7, 7, 7, 7, 7, 7], (7, 7), 300) == [300, 300, 300]
    assert student.merge([7, 7, 7, 7], (7, 7), 300) == [300, 300]


@grade("merge", hint="No pierdas el último elemento: cuando i es la última posición no hay par, pero ids[i] se copia igual.")
def test_merge_keeps_the_tail(student):
    """conserva el último elemento cuando no forma par"""
    assert student.merge([4, 5, 4, 5, 6], (4, 5), 260) == [260, 260, 6]
    assert student.merge([8], (8, 8), 261) == [8]
    assert student.merge([2, 1, 3], (1, 2), 256) == [2, 1, 3]
    assert student.merge([], (1, 2), 256) == []


@grade("merge", hint="`merge` debe construir una lista nueva; la lista `ids` que recibes no puede cambiar.")
@pytest.mark.requires("test_merge_replaces_pair")
def test_merge_leaves_input_alone(student):
    """no modifica la lista de entrada"""
    ids = [1, 2, 1, 2, 3]
    student.merge(ids, (1, 2), 256)
    assert ids == [1, 2, 1, 2, 3]


@grade("merge", weight=2, hint="Revisa el contraejemplo: recorre de izquierda a derecha, fusiona sin solapes y conserva el resto.",
       backstop=True)
@given(ids=small_ids, pair=st.tuples(st.integers(0, 4), st.integers(0, 4)))
def test_merge_matches_reference(student, reference, ids, pair):
    """coincide con la referencia en listas generadas"""
    assert student.merge(list(ids), pair, 256) == reference.merge(list(ids), pair, 256)


# --- train_bpe --------------------------------------------------------------------------

@grade("train_bpe", weight=3, hint="Repasa el ejemplo trabajado: cuenta, elige el par más frecuente, fusiona con el id "
                                   "256 + k y repite.")
def test_train_bpe_published_example(student):
    """reproduce el ejemplo publicado aaabdaaabac"""
    result = student.train_bpe("aaabdaaabac", 259)
    expect_type(result, dict, "train_bpe")
    assert result == {(97, 97): 256, (256, 97): 257, (257, 98): 258}


@grade("train_bpe", weight=2, hint="En un empate gana el par cuya primera aparición en la secuencia actual es la más temprana, "
                                   "no el menor ni el último: cuenta en un dict recorriendo de izquierda a derecha y usa max.")
def test_train_bpe_tie_rule(student):
    """desempata por la primera aparición en la secuencia"""
    # Which pairs win, in order, whatever their ids (test_train_bpe_new_ids checks the ids).
    assert learned_pairs(student.train_bpe("zyxwzyxw", 259)) == [(b"z", b"y"), (b"zy", b"x"), (b"zyx", b"w")]
    assert learned_pairs(student.train_bpe("dcbadcba", 257)) == [(b"d", b"c")]


@grade("train_bpe", weight=2, hint="En cada vuelta fusiona el par que más veces aparece en la secuencia actual: "
                                   "vuelve a contar después de cada fusión.")
def test_train_bpe_merges_most_frequent_pair(student):
    """cada vuelta fusiona el par más frecuente de la secuencia actual"""
    # No ties in any round and only ASCII: only the choice of the most frequent pair (recounted
    # after each merge) is checked, in order, whatever ids the student gave the merges.
    assert learned_pairs(student.train_bpe("cacao caca caca caca", 260)) == [
        (b"c", b"a"), (b"ca", b"ca"), (b" ", b"caca"), (b" caca", b" caca")]


@grade("train_bpe", hint="Los ids nuevos empiezan en 256: la fusión k (desde 0) recibe 256 + k.")
def test_train_bpe_new_ids(student):
    """los ids nuevos son 256, 257, 258, ..."""
    merges = student.train_bpe("el perro de pedro y el perro de rosa", 270)
    assert sorted(merges.values()) == list(range(256, 270))


@grade("train_bpe", hint="Trabaja con los bytes UTF-8 del texto (text.encode('utf-8')), no con ord() de cada carácter.")
def test_train_bpe_uses_utf8_bytes(student):
    """entrena sobre bytes UTF-8"""
    assert list(student.train_bpe("ññ", 257)) == [(195, 177)]


@grade("train_bpe", hint="Cuando quedan menos de dos ids no hay pares: termina y devuelve las fusiones aprendidas "
                         "(no llames a max sobre un diccionario vacío).")
def test_train_bpe_stops_when_sequence_runs_out(student):
    """termina antes si la secuencia se queda sin pares"""
    assert list(student.train_bpe("ab", 300)) == [(97, 98)]
    assert student.train_bpe("", 300) == {}


@grade("train_bpe", hint="Con vocab_size menor que 256 no caben ni los bytes: lanza ValueError.")
@pytest.mark.requires("test_train_bpe_merges_most_frequent_pair")
def test_train_bpe_rejects_small_vocab(student):
    """rechaza vocab_size < 256 con ValueError"""
    with pytest.raises(ValueError):
        student.train_bpe("hola", 255)


@grade("train_bpe", weight=2, hint="Compara con el contraejemplo: par más frecuente, empate por primera aparición, "
                                   "ids 256 + k, parada temprana.", backstop=True)
@settings(max_examples=25)
@given(text=texts, extra=st.integers(0, 12))
def test_train_bpe_matches_reference(student, reference, text, extra):
    """coincide con la referencia en textos generados"""
    assert student.train_bpe(text, 256 + extra) == reference.train_bpe(text, 256 + extra)


# --- build_vocab ------------------------------------------------------------------------

@grade("build_vocab", weight=2, hint="El vocabulario tiene los 256 bytes sueltos (bytes([i])) y, por cada fusión (a, b) -> idx, "
                                     "vocab[idx] = vocab[a] + vocab[b].")
def test_build_vocab_bytes_and_merges(student):
    """256 bytes sueltos más una entrada por fusión"""
    vocab = student.build_vocab({(104, 111): 256, (256, 108): 257})
    expect_type(vocab, dict, "build_vocab")
    assert len(vocab) == 258
    assert all(vocab[i] == bytes([i]) for i in range(256))
    assert vocab[256] == b"ho" and vocab[257] == b"hol"


@grade("build_vocab", hint="Los valores son bytes, no str: un token puede contener medio carácter.")
def test_build_vocab_values_are_bytes(student):
    """los valores son bytes"""
    vocab = student.build_vocab({(195, 177): 256})
    assert type(vocab[256]) is bytes and vocab[256] == "ñ".encode("utf-8")


@grade("build_vocab", hint="Recorre las fusiones por id creciente (sorted por el id): el diccionario puede llegar desordenado.")
def test_build_vocab_unordered_merges(student):
    """construye por id creciente aunque las fusiones lleguen desordenadas"""
    vocab = student.build_vocab({(257, 99): 258, (256, 98): 257, (97, 97): 256})
    assert vocab[258] == b"aabc"


@grade("build_vocab", hint="sorted(merges.items()) ordena por el par, no por el id: un token puede usar un id que se "
                           "creó antes pero cuyo par va después. Ordena por el id de fusión (el valor).")
def test_build_vocab_sorted_by_id_not_by_pair(student):
    """ordena por el id de fusión, no por el par"""
    vocab = student.build_vocab({(111, 108): 256, (104, 256): 257, (257, 97): 258})
    assert vocab[258] == b"hola"


# --- encode -----------------------------------------------------------------------------

@grade("encode", weight=2, hint="Parte de los bytes UTF-8 y aplica fusiones mientras haya algún par fusionable.")
def test_encode_published_example(student):
    """reproduce el ejemplo publicado"""
    result = student.encode("aaabdaaabac", {(97, 97): 256, (256, 97): 257, (257, 98): 258})
    expect_type(result, list, "encode")
    assert result == [258, 100, 258, 97, 99]


@grade("encode", weight=2, hint="En cada paso fusiona el par presente con el id de fusión más bajo, no el más frecuente "
                                "en el texto que codificas.")
def test_encode_lowest_merge_id_not_frequency(student):
    """elige la fusión de id más bajo, no el par más frecuente"""
    assert student.encode("abababc", {(98, 99): 256, (97, 98): 257}) == [257, 257, 97, 256]


@grade("encode", hint="El orden del diccionario no importa: elige por el id de fusión, no por el orden en que "
                      "recorres `merges`.")
def test_encode_ignores_dict_order(student):
    """no aplica las fusiones en el orden del diccionario"""
    assert student.encode("xyzxy", {(121, 122): 257, (120, 121): 256}) == [256, 122, 256]


@grade("encode", hint="Texto vacío o de un byte: no hay pares, devuelve los bytes tal cual.")
def test_encode_short_texts(student):
    """textos sin pares"""
    merges = {(97, 97): 256}
    assert student.encode("", merges) == []
    assert student.encode("a", merges) == [97]


@grade("encode", weight=2, hint="Codifica los bytes UTF-8 (acentos y emoji ocupan 2 a 4 bytes).")
def test_encode_non_ascii(student):
    """textos con acentos y emoji"""
    merges = {(195, 177): 256, (256, 97): 257, (240, 159): 258}
    assert student.encode("ñandú 🙂", merges) == [257, 110, 100, 195, 186, 32, 258, 153, 130]


@grade("encode", weight=2, hint="Compara con el contraejemplo: fusión de id más bajo primero, hasta que no quede ninguna.",
       backstop=True)
@settings(max_examples=25)
@given(train=texts, text=texts, extra=st.integers(0, 12))
def test_encode_matches_reference(student, reference, train, text, extra):
    """coincide con la referencia en textos generados"""
    merges = reference.train_bpe(train + text, 256 + extra)
    assert student.encode(text, merges) == reference.encode(text, merges)


# --- decode -----------------------------------------------------------------------------

@grade("decode", weight=2, hint="Une los bytes de todos los ids con b''.join(...) y decodifica el resultado como UTF-8.")
def test_decode_joins_bytes(student):
    """concatena los bytes de los ids"""
    vocab = {i: bytes([i]) for i in range(256)} | {256: b"ca", 257: b"sa"}
    result = student.decode([256, 257, 33], vocab)
    expect_type(result, str, "decode")
    assert result == "casa!"


@grade("decode", hint="Primero une todos los bytes y después decodifica: un carácter puede repartirse entre dos tokens.")
def test_decode_characters_split_across_tokens(student):
    """un carácter repartido entre tokens"""
    vocab = {i: bytes([i]) for i in range(256)} | {256: b"a\xc3", 257: b"\xb1o"}
    assert student.decode([256, 257], vocab) == "año"


@grade("decode", hint="Los bytes que no forman UTF-8 válido no deben lanzar excepción: usa errors='replace' (U+FFFD).")
def test_decode_invalid_utf8_is_replaced(student):
    """UTF-8 inválido se sustituye por U+FFFD"""
    vocab = {i: bytes([i]) for i in range(256)}
    assert student.decode([104, 195, 105], vocab) == "h\ufffdi"
    assert student.decode([195], vocab) == "\ufffd"


@grade("decode", hint="Un id que no está en vocab debe lanzar KeyError (indexa vocab[id]; no uses .get con un valor por defecto).")
@pytest.mark.requires("test_decode_joins_bytes")
def test_decode_unknown_id_raises(student):
    """un id desconocido lanza KeyError"""
    with pytest.raises(KeyError):
        student.decode([104, 5000], {i: bytes([i]) for i in range(256)})


@grade("decode", weight=2, hint="decode(encode(s)) debe devolver s para cualquier texto: une los bytes y decodifica en UTF-8.",
       backstop=True)
@settings(max_examples=25)
@given(text=st.text(max_size=30), extra=st.integers(0, 10))
def test_decode_round_trip(student, reference, text, extra):
    """decode(encode(s)) == s para textos generados"""
    merges = reference.train_bpe(text, 256 + extra)
    assert student.decode(reference.encode(text, merges), reference.build_vocab(merges)) == text


# --- compression_ratio ------------------------------------------------------------------

@grade("compression_ratio", weight=2, hint="La razón es bytes / tokens (no tokens / bytes).")
def test_compression_ratio_published_example(student):
    """11 bytes en 5 tokens"""
    result = student.compression_ratio("aaabdaaabac", [258, 100, 258, 97, 99])
    expect_type(result, float, "compression_ratio")
    assert result == pytest.approx(2.2)


@grade("compression_ratio", weight=2, hint="Cuenta bytes UTF-8 (len(text.encode('utf-8'))), no caracteres: la ñ son 2 bytes.")
@pytest.mark.requires("test_compression_ratio_published_example")
def test_compression_ratio_counts_utf8_bytes(student):
    """cuenta bytes UTF-8, no caracteres"""
    expect_type(student.compression_ratio("año 🙂", [1, 2, 3, 4]), float, "compression_ratio")
    # Same number of UTF-8 bytes (9) and of tokens: same ratio, whichever way it is divided.
    assert student.compression_ratio("año 🙂", [1, 2, 3, 4]) == pytest.approx(
        student.compression_ratio("abcdefghi", [1, 2, 3, 4]))


@grade("compression_ratio", hint="Sin tokens no hay razón que calcular: lanza ValueError (no ZeroDivisionError).")
@pytest.mark.requires("test_compression_ratio_published_example")
def test_compression_ratio_rejects_empty_ids(student):
    """ids vacía lanza ValueError"""
    with pytest.raises(ValueError):
        student.compression_ratio("hola", [])

# --- every function: its arguments after the call, and calls that repeat ------------------------
# 'Cómo se califica' tells students both rules; leaves_alone reads the arguments without mirroring them
# into the test's data, and answers_afresh asks two inputs and the first again.

@grade("build_vocab", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_build_vocab_bytes_and_merges")
def test_build_vocab_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "build_vocab", {(97, 98): 256, (256, 99): 257})


@grade("encode", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_encode_published_example")
def test_encode_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "encode", "abcab", {(97, 98): 256, (256, 99): 257})


@grade("encode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devolvería la respuesta de otra tabla).")
@requires("test_encode_published_example")
def test_encode_answers_each_call_afresh(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "encode", ("abab", {(97, 98): 256}), ("abab", {(98, 97): 256}))


@grade("decode", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_decode_joins_bytes")
def test_decode_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "decode", [104, 256], {104: b"h", 256: b"ol"})


@grade("decode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devolvería la respuesta de otra tabla).")
@requires("test_decode_joins_bytes")
def test_decode_answers_each_call_afresh(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "decode", ([256], {256: b"ab"}), ([256], {256: b"ba"}))


@grade("compression_ratio", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_compression_ratio_published_example")
def test_compression_ratio_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "compression_ratio", "hola", [104, 256, 97])
