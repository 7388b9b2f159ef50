"""Hidden suite for `tokenizador_gpt`.

One misconception per test, each with its Spanish hint. Error cases, and tests that a
do-nothing function could pass, `require` the function's basic test. Fixed cases are
never shown to the student; the property tests compare with the reference on generated
input (and may show their shrunk counterexample). While `train_regex_bpe`,
`encode_ordinary` or `encode` are graded, the functions they call are served by the
reference (DEPENDS_ON), so one bug costs points in one place only.

recover_merges is graded on small rank tables here; its full GPT-4 parity (cl100k_base,
100 000 merges) is checked against tiktoken by tests/test_gpt4_parity.py.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.grading.expect import INT, STR, DictOf, ListOf, Tuple, answers_afresh, checked_student, leaves_alone
from autograder.grading.plugin import Feedback

# What each function returns (the spec): every answer is checked against it, deeply, before any
# test compares it, so no answer of the wrong type passes a test by comparing vacuously
# ([array([1])] == [1]; {(1.0, 2.0): 256} == {(1, 2): 256}).
RETURNS = {
    "pretokenize": ListOf(STR),
    "train_regex_bpe": DictOf(Tuple(INT, INT), INT),
    "encode_ordinary": ListOf(INT),
    "encode": ListOf(INT),
    "decode": STR,
    "recover_merges": DictOf(Tuple(INT, INT), INT),
}
# The inputs the lesson defines, per function (`a`: the call's arguments by name). The audit replays
# every call of this suite against them (tests/test_clauses.py): nothing outside them is graded.
DOMAIN = {
    "pretokenize": lambda a: isinstance(a["text"], str) and isinstance(a["pattern"], str),
    # §4: a vocab_size under 256 is a ValueError the lesson states.
    "train_regex_bpe": lambda a: isinstance(a["text"], str) and type(a["vocab_size"]) is int
                                 and isinstance(a["pattern"], str),
    "encode_ordinary": lambda a: isinstance(a["text"], str) and _is_merges(a["merges"])
                                 and isinstance(a["pattern"], str),
    # §6: any other value of allowed_special or disallowed_special is a TypeError the lesson states.
    "encode": lambda a: isinstance(a["text"], str) and _is_merges(a["merges"]) and _is_specials(a["special_tokens"])
                        and isinstance(a["pattern"], str),
    # §7: an id neither in vocab nor among the specials is a KeyError the lesson states.
    "decode": lambda a: all(type(i) is int for i in a["ids"]) and _is_specials(a["special_tokens"])
                        and all(type(i) is int and isinstance(b, bytes) for i, b in a["vocab"].items()),
    # §8: a table of ranks: distinct ranks, the 256 single bytes or any part of a table like cl100k's.
    "recover_merges": lambda a: isinstance(a["mergeable_ranks"], dict) and all(
        isinstance(t, bytes) and t and type(r) is int for t, r in a["mergeable_ranks"].items())
        and len(set(a["mergeable_ranks"].values())) == len(a["mergeable_ranks"]),
}


def _is_merges(merges):
    return isinstance(merges, dict) and all(
        isinstance(p, tuple) and len(p) == 2 and all(type(i) is int for i in p) and type(n) is int
        for p, n in merges.items())


def _is_specials(specials):
    return isinstance(specials, dict) and all(isinstance(s, str) and s and type(i) is int for s, i in specials.items())


student = checked_student(RETURNS, DOMAIN)

DEPENDS_ON = {
    "train_regex_bpe": ("pretokenize",),
    "encode_ordinary": ("pretokenize",),
    "encode": ("encode_ordinary", "pretokenize"),
}

# The lesson's rules for the graded functions (§ = its section), each with the hidden tests that pin
# it. `autograder audit` checks both ways (every test pins a rule) and that buggy.py breaks each one
# alone with one of those tests' hints first.
CLAUSES = {
    "pretokenize.findall": (
        "§3: devuelve todas las coincidencias de `pattern`, en orden, con el paquete regex: letras de cualquier "
        "alfabeto, emoji y espacios incluidos (unir los trozos da el texto)",
        {"test_pretokenize_uses_pattern", "test_pretokenize_unicode", "test_pretokenize_keeps_whitespace",
         "test_pretokenize_matches_reference"}),
    "pretokenize.gpt4_default": (
        "§2, §3: sin `pattern`, se corta con GPT4_SPLIT_PATTERN", {"test_pretokenize_gpt4_default"}),
    "train_regex_bpe.within_chunks": (
        "§4: se cuentan los pares dentro de cada trozo de `pattern` (por defecto GPT4_SPLIT_PATTERN), nunca entre "
        "trozos, y el más frecuente se fusiona en todos los trozos con el id 256 + k",
        {"test_train_regex_bpe_published_example", "test_train_regex_bpe_pairs_stay_in_chunks",
         "test_train_regex_bpe_gpt4_default", "test_train_regex_bpe_matches_reference"}),
    "train_regex_bpe.tie_rule": (
        "§4: en un empate gana el par de primera aparición, recorriendo los trozos en el orden del texto",
        {"test_train_regex_bpe_tie_rule"}),
    "train_regex_bpe.current_segmentation": (
        "§4: el desempate mira la segmentación actual, la de después de las fusiones anteriores",
        {"test_train_regex_bpe_ties_in_current_segmentation"}),
    "train_regex_bpe.every_occurrence": (
        "§4: cada aparición de un par dentro de un trozo cuenta", {"test_train_regex_bpe_counts_every_occurrence"}),
    "train_regex_bpe.repeated_chunks": (
        "§4: un trozo que se repite cuenta tantas veces como aparece", {"test_train_regex_bpe_repeated_chunks_count"}),
    "train_regex_bpe.uses_pattern": (
        "§4: los trozos salen del `pattern` que recibe", {"test_train_regex_bpe_uses_pattern"}),
    "train_regex_bpe.utf8_bytes": (
        "§4: se trabaja con los bytes UTF-8 de cada trozo", {"test_train_regex_bpe_uses_utf8_bytes"}),
    "train_regex_bpe.no_pair_left": (
        "§4: cuando no queda ningún par en ningún trozo, termina con las fusiones aprendidas",
        {"test_train_regex_bpe_stops_when_no_pair_left"}),
    "train_regex_bpe.vocab_size": (
        "§4: vocab_size menor que 256 lanza ValueError; 256 es válido y no aprende fusiones",
        {"test_train_regex_bpe_rejects_small_vocab", "test_train_regex_bpe_vocab_size_256"}),
    "encode_ordinary.chunks_first": (
        "§5: corta el texto en trozos, codifica los bytes UTF-8 de cada uno con las fusiones y junta los ids en "
        "orden: una fusión nunca une dos trozos", {"test_encode_ordinary_published_example",
                                                  "test_encode_ordinary_chunks_first", "test_encode_ordinary_gpt4_default",
                                                  "test_encode_ordinary_non_ascii", "test_encode_ordinary_empty_text",
                                                  "test_encode_ordinary_matches_reference"}),
    "encode_ordinary.lowest_id_first": (
        "§5: dentro de cada trozo se fusiona el par con el id de fusión más bajo, no el más frecuente",
        {"test_encode_ordinary_lowest_merge_id_not_frequency"}),
    "encode_ordinary.dict_order": (
        "§5: el orden del diccionario `merges` no importa", {"test_encode_ordinary_ignores_dict_order"}),
    "encode_ordinary.uses_pattern": (
        "§5: los trozos salen del `pattern` que recibe", {"test_encode_ordinary_uses_pattern"}),
    "encode.specials_to_ids": (
        "§6: cada especial permitido del texto pasa a su id y el texto de entre medias se codifica con "
        "encode_ordinary (sin especiales, el resultado es el de encode_ordinary)",
        {"test_encode_all_specials", "test_encode_text_without_specials", "test_encode_set_encodes_listed",
         "test_encode_matches_reference"}),
    "encode.nothing_disallowed": (
        "§6: con disallowed_special=() no se prohíbe nada y los especiales no permitidos se codifican como texto",
        {"test_encode_nothing_disallowed_treats_specials_as_text"}),
    "encode.default_rejects": (
        "§6: por defecto, un especial en el texto lanza ValueError", {"test_encode_default_rejects_specials"}),
    "encode.set_rejects_unlisted": (
        "§6: con un conjunto de nombres, cualquier otro especial del texto lanza ValueError",
        {"test_encode_set_rejects_unlisted"}),
    "encode.raw_text": (
        "§6: lo prohibido se busca en el texto original", {"test_encode_set_checks_raw_text"}),
    "encode.unknown_names": (
        "§6: un nombre de allowed_special que no es especial se ignora", {"test_encode_set_ignores_unknown_names"}),
    "encode.disallowed_as_given": (
        "§6: una colección en disallowed_special se usa tal cual", {"test_encode_disallowed_collection_as_given"}),
    "encode.disallowed_any_text": (
        "§6: lo prohibido es cualquier texto de la colección, aunque no sea un especial",
        {"test_encode_disallowed_any_text"}),
    "encode.other_values": (
        "§6: cualquier otro valor de allowed_special o disallowed_special lanza TypeError",
        {"test_encode_allowed_rejects_other_values", "test_encode_disallowed_rejects_other_values"}),
    "encode.longest_wins": (
        "§6: si varios especiales permitidos empiezan en el mismo sitio, gana el más largo",
        {"test_encode_longest_special_wins"}),
    "encode.left_to_right": (
        "§6: los especiales se buscan de izquierda a derecha", {"test_encode_leftmost_special_wins"}),
    "encode.uses_pattern": (
        "§6: el texto de entre medias se corta con el `pattern` que recibe", {"test_encode_uses_pattern"}),
    "decode.join_then_decode": (
        "§7: une los bytes de todos los ids y después decodifica en UTF-8: un carácter puede repartirse entre dos "
        "tokens", {"test_decode_joins_bytes", "test_decode_characters_split_across_tokens", "test_decode_round_trip"}),
    "decode.special_ids": (
        "§7: el id de un especial vuelve como el nombre del especial", {"test_decode_special_ids"}),
    "decode.replace": (
        "§7: los bytes que no forman UTF-8 válido no lanzan excepción: errors='replace'",
        {"test_decode_invalid_utf8_is_replaced"}),
    "decode.unknown_id": (
        "§7: un id desconocido lanza KeyError", {"test_decode_unknown_id_raises"}),
    "recover_merges.bpe_split": (
        "§8: para cada token de dos o más bytes se repite BPE sobre sus bytes con los tokens de rango menor; las dos "
        "piezas que quedan son sus padres (no el primer corte cuyas mitades existen); los bytes sueltos no son fusiones",
        {"test_recover_merges_trained_table", "test_recover_merges_bpe_split_not_first_split",
         "test_recover_merges_single_bytes_only", "test_recover_merges_matches_reference"}),
    "recover_merges.leftmost_tie": (
        "§8: si el par de rango más bajo aparece varias veces, se fusiona el de más a la izquierda",
        {"test_recover_merges_repeated_pair_leftmost"}),
    "recover_merges.byte_ranks": (
        "§8: los padres se dan por su rango en la tabla, también los bytes sueltos (en cl100k están permutados)",
        {"test_recover_merges_byte_permutation"}),
    "recover_merges.small_ranks": (
        "§8: un rango pequeño no es un byte suelto: lo es len(token) == 1", {"test_recover_merges_small_ranks"}),
    "recover_merges.any_order": (
        "§8: la tabla puede llegar en cualquier orden", {"test_recover_merges_unordered_table"}),
    "encode_ordinary.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_encode_ordinary_leaves_its_arguments_alone"}),
    "encode_ordinary.afresh": ("§Cómo se califica: el resultado depende solo de los argumentos de cada llamada", {"test_encode_ordinary_answers_each_call_afresh"}),
    "encode.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_encode_leaves_its_arguments_alone"}),
    "encode.afresh": ("§Cómo se califica: el resultado depende solo de los argumentos de cada llamada", {"test_encode_answers_each_call_afresh"}),
    "decode.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_decode_leaves_its_arguments_alone"}),
    "decode.afresh": ("§Cómo se califica: el resultado depende solo de los argumentos de cada llamada", {"test_decode_answers_each_call_afresh"}),
    "recover_merges.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_recover_merges_leaves_its_arguments_alone"}),
}

# Tests whose inputs are the lesson's own worked examples (the release's visible checks): a table of
# those examples passes them, so they earn their own points but no share of a catch-all test.
# `autograder audit` checks this list against such a table.
PUBLISHED_EXAMPLES = {
    "test_encode_ordinary_chunks_first",
    "test_encode_ordinary_gpt4_default",
    "test_encode_ordinary_published_example",
    "test_train_regex_bpe_published_example",
    "test_train_regex_bpe_uses_pattern",
}

grade = pytest.mark.grade
requires = pytest.mark.requires
texts = st.text(alphabet="ab  ñé1.'\n🙂S", max_size=30) | st.text(max_size=12)
SPECIALS = {"<|fin|>": 300, "<|fin|>\n": 301, "<|otro|>": 302}
BYTES = {i: bytes([i]) for i in range(256)}


def expect_type(value, kind, what):
    if type(value) is not kind:
        raise Feedback(f"{what} debe devolver un {kind.__name__}, no un {type(value).__name__}.")


def as_ranks(merges):
    """The tiktoken-style table (bytes -> rank) of some merges whose single bytes keep their value."""
    pieces = dict(BYTES)
    for (a, b), idx in sorted(merges.items(), key=lambda item: item[1]):
        pieces[idx] = pieces[a] + pieces[b]
    return {piece: idx for idx, piece in pieces.items()}


# Properties draw the constant's name, so a counterexample reads pattern='GPT2_SPLIT_PATTERN'.
pattern_names = st.sampled_from(["GPT4_SPLIT_PATTERN", "GPT2_SPLIT_PATTERN"])


# --- pretokenize ------------------------------------------------------------------------

@grade("pretokenize", weight=2, hint="Sin `pattern`, usa GPT4_SPLIT_PATTERN (no el de GPT-2): las cifras van de tres en "
                                     "tres y las contracciones no distinguen mayúsculas.")
def test_pretokenize_gpt4_default(student):
    """por defecto corta con el patrón de GPT-4"""
    result = student.pretokenize("Lote12345, I'LL")
    expect_type(result, list, "pretokenize")
    assert result == ["Lote", "123", "45", ",", " I", "'LL"]


@grade("pretokenize", hint="Usa el patrón que recibes en `pattern` y devuelve todas sus coincidencias en orden "
                           "(regex.findall).")
def test_pretokenize_uses_pattern(student, reference):
    """usa el patrón que recibe"""
    assert student.pretokenize("Lote12345, I'LL", reference.GPT2_SPLIT_PATTERN) == ["Lote", "12345", ",", " I", "'", "LL"]
    assert student.pretokenize("ab, cd", r"\p{L}+") == ["ab", "cd"]


@grade("pretokenize", hint="Los espacios y los saltos de línea también son trozos: no los descartes ni los recortes. "
                           "Unidos, los trozos deben dar el texto original.")
def test_pretokenize_keeps_whitespace(student):
    """conserva los trozos de espacios y saltos de línea"""
    assert student.pretokenize("hola   mundo\n\n") == ["hola", "  ", " mundo", "\n\n"]
    assert student.pretokenize("  ") == ["  "]


@grade("pretokenize", hint="Letras de cualquier alfabeto y emoji: usa el paquete `regex` con el patrón tal cual "
                           "(\\p{L} es cualquier letra).")
def test_pretokenize_unicode(student):
    """letras de otros alfabetos y emoji"""
    assert student.pretokenize("Olé 안녕 🙂🙂") == ["Olé", " 안녕", " 🙂🙂"]


@grade("pretokenize", weight=2, hint="Compara con el contraejemplo: todas las coincidencias del patrón, en orden.",
       backstop=True)
@given(pattern=pattern_names, text=texts)
def test_pretokenize_matches_reference(student, reference, pattern, text):
    """coincide con la referencia en textos generados"""
    pattern = getattr(reference, pattern)
    assert student.pretokenize(text, pattern) == reference.pretokenize(text, pattern)


# --- train_regex_bpe --------------------------------------------------------------------

@grade("train_regex_bpe", weight=3, hint="Repasa el ejemplo trabajado: corta en trozos, cuenta los pares dentro de cada "
                                         "trozo, fusiona el más frecuente con el id 256 + k en todos los trozos y repite.")
def test_train_regex_bpe_published_example(student):
    """reproduce el ejemplo trabajado perro. perro! perro?"""
    result = student.train_regex_bpe("perro. perro! perro?", 300)
    expect_type(result, dict, "train_regex_bpe")
    assert result == {(112, 101): 256, (256, 114): 257, (257, 114): 258, (258, 111): 259, (32, 259): 260}


@grade("train_regex_bpe", weight=2, hint="Los pares nunca cruzan de un trozo a otro: cuenta y fusiona dentro de cada trozo "
                                         "por separado, no sobre los bytes del texto entero.")
def test_train_regex_bpe_pairs_stay_in_chunks(student):
    """los pares no cruzan la frontera entre trozos"""
    assert student.train_regex_bpe("ab ab ab", 258) == {(97, 98): 256, (32, 256): 257}
    assert student.train_regex_bpe("do. do! do?", 257) == {(100, 111): 256}


@grade("train_regex_bpe", weight=2, hint="En un empate gana el par cuya primera aparición llega antes leyendo los trozos en "
                                         "el orden del texto: un solo dict de cuentas, sin ordenar ni agrupar los trozos, y max.")
def test_train_regex_bpe_tie_rule(student):
    """desempata por la primera aparición, trozo a trozo en orden"""
    assert student.train_regex_bpe("zy xw", 257) == {(122, 121): 256}
    assert student.train_regex_bpe("yz xw xw yz", 257) == {(121, 122): 256}
    assert student.train_regex_bpe("ab ab cd cd", 257) == {(97, 98): 256}


@grade("train_regex_bpe", hint="El desempate mira la segmentación actual: en cada vuelta cuenta los pares de nuevo, en "
                               "un dict nuevo, para que un par recién creado ocupe el sitio de su primera aparición (no "
                               "conserves el orden de la primera vuelta).")
def test_train_regex_bpe_ties_in_current_segmentation(student):
    """después de una fusión, desempata por la primera aparición en la segmentación actual"""
    assert student.train_regex_bpe("la lana lana", 258) == {(108, 97): 256, (32, 256): 257}


@grade("train_regex_bpe", hint="Cuenta cada aparición de un par, también las repetidas dentro de un mismo trozo "
                               "(aaa tiene dos pares (a, a)), no una vez por trozo.")
def test_train_regex_bpe_counts_every_occurrence(student):
    """cuenta todas las apariciones de un par dentro de un trozo"""
    assert student.train_regex_bpe("aaaaa bc bc", 257) == {(97, 97): 256}


@grade("train_regex_bpe", hint="Cada trozo cuenta tantas veces como aparece en el texto: no quites los trozos repetidos "
                               "(si los agrupas, multiplica sus cuentas por su frecuencia).")
def test_train_regex_bpe_repeated_chunks_count(student):
    """un trozo repetido suma sus pares cada vez que aparece"""
    assert student.train_regex_bpe("ab cd cd", 257) == {(32, 99): 256}


@grade("train_regex_bpe", hint="Sin `pattern`, los trozos son los de GPT4_SPLIT_PATTERN: 1000000 se corta en 100, 000 y 0.")
def test_train_regex_bpe_gpt4_default(student):
    """por defecto usa el patrón de GPT-4"""
    assert student.train_regex_bpe("1000000", 259) == {(48, 48): 256, (49, 256): 257, (256, 48): 258}


@grade("train_regex_bpe", hint="Corta el texto con el `pattern` que recibes (pásalo a pretokenize), no siempre con el de GPT-4.")
def test_train_regex_bpe_uses_pattern(student, reference):
    """usa el patrón que recibe"""
    merges = student.train_regex_bpe("1000000", 259, reference.GPT2_SPLIT_PATTERN)
    assert merges == {(48, 48): 256, (256, 256): 257, (49, 257): 258}


@grade("train_regex_bpe", hint="Trabaja con los bytes UTF-8 de cada trozo (chunk.encode('utf-8')), no con ord() de cada carácter.")
def test_train_regex_bpe_uses_utf8_bytes(student):
    """entrena sobre bytes UTF-8"""
    assert student.train_regex_bpe("año ñu", 257) == {(195, 177): 256}


@grade("train_regex_bpe", hint="Para cuando no quede ningún par en ningún trozo, aunque queden varios ids sueltos "
                               "(no llames a max sobre un diccionario vacío).")
def test_train_regex_bpe_stops_when_no_pair_left(student):
    """termina cuando ningún trozo tiene pares"""
    assert student.train_regex_bpe("a b c", 300) == {(32, 98): 256, (32, 99): 257}
    assert student.train_regex_bpe("", 300) == {}


@grade("train_regex_bpe", hint="Con vocab_size menor que 256 no caben ni los bytes: lanza ValueError.")
@pytest.mark.requires("test_train_regex_bpe_published_example")
def test_train_regex_bpe_rejects_small_vocab(student):
    """rechaza vocab_size < 256 con ValueError"""
    with pytest.raises(ValueError):
        student.train_regex_bpe("hola", 255)


@grade("train_regex_bpe", hint="vocab_size = 256 es válido (los 256 bytes y ninguna fusión): devuelve un dict vacío. "
                               "ValueError solo cuando vocab_size < 256.")
@pytest.mark.requires("test_train_regex_bpe_published_example")
def test_train_regex_bpe_vocab_size_256(student):
    """con vocab_size = 256 no aprende ninguna fusión"""
    assert student.train_regex_bpe("la lana", 256) == {}


@grade("train_regex_bpe", weight=2, hint="Compara con el contraejemplo: pares dentro de cada trozo, el más frecuente, "
                                         "empate por primera aparición, ids 256 + k, parada cuando no quedan pares.",
       backstop=True)
@settings(max_examples=25)
@given(pattern=pattern_names, text=texts, extra=st.integers(0, 12))
def test_train_regex_bpe_matches_reference(student, reference, pattern, text, extra):
    """coincide con la referencia en textos generados"""
    pattern = getattr(reference, pattern)
    assert student.train_regex_bpe(text, 256 + extra, pattern) == reference.train_regex_bpe(text, 256 + extra, pattern)


# --- encode_ordinary --------------------------------------------------------------------

PERRO = {(112, 101): 256, (256, 114): 257, (257, 114): 258, (258, 111): 259, (32, 259): 260}


@grade("encode_ordinary", weight=2, hint="Corta el texto en trozos y codifica cada uno con las fusiones; después junta "
                                         "los ids de todos los trozos en orden.")
def test_encode_ordinary_published_example(student):
    """reproduce el ejemplo trabajado"""
    result = student.encode_ordinary("perro. perro! perro?", PERRO)
    expect_type(result, list, "encode_ordinary")
    assert result == [259, 46, 260, 33, 260, 63]


@grade("encode_ordinary", weight=2, hint="Corta primero y codifica cada trozo por separado: una fusión nunca une bytes de "
                                         "dos trozos distintos.")
def test_encode_ordinary_chunks_first(student):
    """no aplica fusiones entre trozos"""
    assert student.encode_ordinary("ab ab", {(98, 32): 256, (97, 98): 257}) == [257, 32, 257]


@grade("encode_ordinary", hint="Dentro de cada trozo fusiona el par presente con el id de fusión más bajo, no el más "
                               "frecuente en el texto que codificas.")
def test_encode_ordinary_lowest_merge_id_not_frequency(student):
    """elige la fusión de id más bajo, no el par más frecuente"""
    assert student.encode_ordinary("abababc", {(98, 99): 256, (97, 98): 257}) == [257, 257, 97, 256]


@grade("encode_ordinary", hint="El orden del diccionario no importa: elige por el id de fusión, no por el orden en que "
                               "recorres `merges`.")
def test_encode_ordinary_ignores_dict_order(student):
    """no aplica las fusiones en el orden del diccionario"""
    assert student.encode_ordinary("xyzxy", {(121, 122): 257, (120, 121): 256}) == [256, 122, 256]


@grade("encode_ordinary", hint="Sin `pattern`, corta con GPT4_SPLIT_PATTERN: 12345 son los trozos 123 y 45.")
@pytest.mark.requires("test_encode_ordinary_published_example")
def test_encode_ordinary_gpt4_default(student):
    """por defecto corta con el patrón de GPT-4"""
    assert student.encode_ordinary("12345", {(51, 52): 256}) == [49, 50, 51, 52, 53]


@grade("encode_ordinary", hint="Corta con el `pattern` que recibes, no siempre con el de GPT-4.")
def test_encode_ordinary_uses_pattern(student, reference):
    """usa el patrón que recibe"""
    assert student.encode_ordinary("12345", {(51, 52): 256}, reference.GPT2_SPLIT_PATTERN) == [49, 50, 256, 53]


@grade("encode_ordinary", hint="Codifica los bytes UTF-8 de cada trozo (acentos y emoji ocupan 2 a 4 bytes).")
def test_encode_ordinary_non_ascii(student):
    """textos con acentos y emoji"""
    merges = {(195, 177): 256, (256, 97): 257, (32, 240): 258}
    assert student.encode_ordinary("ñandú 🙂", merges) == [257, 110, 100, 195, 186, 258, 159, 153, 130]


@grade("encode_ordinary", hint="Un texto vacío no tiene trozos: devuelve una lista vacía.")
@pytest.mark.requires("test_encode_ordinary_published_example")
def test_encode_ordinary_empty_text(student):
    """texto vacío"""
    assert student.encode_ordinary("", PERRO) == []


@grade("encode_ordinary", weight=2, hint="Compara con el contraejemplo: trozo a trozo, fusión de id más bajo primero.",
       backstop=True)
@settings(max_examples=25)
@given(pattern=pattern_names, train=texts, text=texts, extra=st.integers(0, 12))
def test_encode_ordinary_matches_reference(student, reference, pattern, train, text, extra):
    """coincide con la referencia en textos generados"""
    pattern = getattr(reference, pattern)
    merges = reference.train_regex_bpe(train + text, 256 + extra, pattern)
    assert student.encode_ordinary(text, merges, pattern) == reference.encode_ordinary(text, merges, pattern)


# --- encode -----------------------------------------------------------------------------

HOLA = {(104, 111): 256, (32, 109): 257}  # "ho" and " m"


@grade("encode", weight=3, hint="Con allowed_special='all', cada especial del texto pasa a su id y el texto de entre "
                                "medias se codifica con encode_ordinary (escapa los nombres con regex.escape).")
def test_encode_all_specials(student):
    """con 'all', los especiales pasan a su id"""
    result = student.encode("hola<|fin|> mundo<|otro|>", HOLA, SPECIALS, allowed_special="all")
    expect_type(result, list, "encode")
    assert result == [256, 108, 97, 300, 257, 117, 110, 100, 111, 302]


@grade("encode", weight=2, hint="Si el texto no contiene ningún especial, encode devuelve lo mismo que encode_ordinary "
                                "con cualquier valor de allowed_special y disallowed_special.")
def test_encode_text_without_specials(student):
    """sin especiales en el texto, igual que encode_ordinary"""
    expected = [256, 108, 97, 257, 117, 110, 100, 111]
    for allowed in ("all", set(), {"<|fin|>"}):
        assert student.encode("hola mundo", HOLA, SPECIALS, allowed_special=allowed) == expected
    assert student.encode("hola mundo", HOLA, SPECIALS, disallowed_special=()) == expected
    assert student.encode("hola mundo", HOLA, SPECIALS) == expected


@grade("encode", weight=2, hint="Con disallowed_special=() no se prohíbe nada: los especiales que no están permitidos "
                                "son texto normal y se codifican con encode_ordinary, sin lanzar ningún error.")
def test_encode_nothing_disallowed_treats_specials_as_text(student):
    """con disallowed_special=(), los especiales se codifican como texto"""
    assert student.encode("ho<|fin|>", HOLA, SPECIALS, disallowed_special=()) == [256, 60, 124, 102, 105, 110, 124, 62]


@grade("encode", weight=2, hint="Por defecto (allowed_special vacío, disallowed_special='all'), si aparece cualquier "
                                "especial en el texto, lanza ValueError, como tiktoken.")
@pytest.mark.requires("test_encode_all_specials")
def test_encode_default_rejects_specials(student):
    """por defecto, un especial en el texto lanza ValueError"""
    with pytest.raises(ValueError):
        student.encode("hola<|otro|>", HOLA, SPECIALS)
    with pytest.raises(ValueError):
        student.encode("<|fin|>", HOLA, SPECIALS, disallowed_special="all")


@grade("encode", weight=2, hint="Con un conjunto de nombres, los especiales del conjunto pasan a su id.")
def test_encode_set_encodes_listed(student):
    """con un conjunto, los especiales nombrados pasan a su id"""
    assert student.encode("ho<|otro|>ho", HOLA, SPECIALS, allowed_special={"<|otro|>"}) == [256, 302, 256]


@grade("encode", weight=2, hint="Con un conjunto de nombres y disallowed_special='all' (el valor por defecto), "
                                "cualquier otro especial que aparezca en el texto lanza ValueError; no lo codifiques "
                                "en silencio como texto.")
@pytest.mark.requires("test_encode_set_encodes_listed")
def test_encode_set_rejects_unlisted(student):
    """con un conjunto, un especial no nombrado lanza ValueError"""
    with pytest.raises(ValueError):
        student.encode("ho<|otro|>ho<|fin|>", HOLA, SPECIALS, allowed_special={"<|otro|>"})
    with pytest.raises(ValueError):
        student.encode("ho<|otro|>", HOLA, SPECIALS, allowed_special=set())


@grade("encode", hint="Busca los textos prohibidos en el texto original, antes de cortar por los especiales "
                      "permitidos: uno prohibido puede solaparse con uno permitido y también lanza ValueError.")
@pytest.mark.requires("test_encode_set_encodes_listed")
def test_encode_set_checks_raw_text(student):
    """un especial prohibido que se solapa con uno permitido lanza ValueError"""
    with pytest.raises(ValueError):
        student.encode("ho<|fin|>\nho", HOLA, SPECIALS, allowed_special={"<|fin|>"})


@grade("encode", hint="Un nombre del conjunto que no es un token especial no tiene id: ignóralo (no lo busques en "
                      "special_tokens).")
@pytest.mark.requires("test_encode_set_encodes_listed")
def test_encode_set_ignores_unknown_names(student):
    """con un conjunto, los nombres que no son especiales se ignoran"""
    assert student.encode("ho<|otro|>", HOLA, SPECIALS, allowed_special={"<|otro|>", "<|nada|>"}) == [256, 302]


@grade("encode", weight=2, hint="Una colección en disallowed_special se usa tal cual: solo se prohíben esos textos, y "
                                "los demás especiales no permitidos se codifican como texto normal.")
def test_encode_disallowed_collection_as_given(student):
    """con una colección prohibida, los demás especiales son texto"""
    assert student.encode("ho<|fin|>", HOLA, SPECIALS, disallowed_special=["<|otro|>"]) == \
        [256, 60, 124, 102, 105, 110, 124, 62]
    assert student.encode("ho<|fin|>", HOLA, SPECIALS, allowed_special={"<|fin|>"},
                          disallowed_special=("<|otro|>",)) == [256, 300]


@grade("encode", weight=2, hint="disallowed_special puede nombrar cualquier texto, no solo especiales: si aparece en "
                                "el texto, ValueError (recorre disallowed_special, no special_tokens).")
@pytest.mark.requires("test_encode_all_specials")
def test_encode_disallowed_any_text(student):
    """un texto prohibido que no es especial también lanza ValueError"""
    with pytest.raises(ValueError):
        student.encode("hola mundo", HOLA, SPECIALS, disallowed_special={"hola"})


@grade("encode", hint='allowed_special solo admite "all" o un conjunto (set o frozenset); "none", "none_raise" '
                      '(los de minbpe), una lista o None lanzan TypeError, como en tiktoken.')
@pytest.mark.requires("test_encode_all_specials")
def test_encode_allowed_rejects_other_values(student):
    """allowed_special: otro texto, una lista o None lanzan TypeError"""
    for allowed in ("none", "none_raise", ["<|fin|>"], None):
        with pytest.raises(TypeError):
            student.encode("hola", HOLA, SPECIALS, allowed_special=allowed)


@grade("encode", hint='disallowed_special solo admite "all" o una colección de textos (lista, tupla, conjunto); '
                      'otro texto como "none", o None, lanza TypeError.')
@pytest.mark.requires("test_encode_all_specials")
def test_encode_disallowed_rejects_other_values(student):
    """disallowed_special: otro texto o None lanzan TypeError"""
    for disallowed in ("none", None):
        with pytest.raises(TypeError):
            student.encode("hola", HOLA, SPECIALS, disallowed_special=disallowed)


@grade("encode", weight=2, hint="Si dos especiales empiezan en el mismo sitio, gana el más largo: ordénalos de más largo "
                                "a más corto en la alternativa de la expresión regular.")
def test_encode_longest_special_wins(student):
    """si dos especiales se solapan, gana el más largo"""
    assert student.encode("ho<|fin|>\nho<|fin|>", HOLA, SPECIALS, allowed_special="all") == [256, 301, 256, 300]


@grade("encode", hint="Se busca de izquierda a derecha: gana el especial que empieza antes, aunque otro sea más largo; "
                      "la longitud solo decide entre especiales que empiezan en el mismo sitio (una sola expresión "
                      "regular con todos los nombres, no un nombre tras otro).")
def test_encode_leftmost_special_wins(student):
    """gana el especial que empieza antes, aunque otro sea más largo"""
    assert student.encode("xabcdx", {}, {"ab": 300, "bcd": 301}, allowed_special="all") == [120, 300, 99, 100, 120]


@grade("encode", hint="Pasa el `pattern` que recibes a encode_ordinary, también para el texto de entre los "
                      "especiales: no cortes siempre con el patrón de GPT-4.")
def test_encode_uses_pattern(student, reference):
    """usa el patrón que recibe, con especiales y sin ellos"""
    digits = {(48, 48): 256, (256, 256): 257, (49, 257): 258}
    gpt2 = reference.GPT2_SPLIT_PATTERN
    assert student.encode("1000000", digits, SPECIALS, pattern=gpt2) == [258, 256]
    assert student.encode("1000000<|fin|>", digits, SPECIALS, allowed_special="all", pattern=gpt2) == [258, 256, 300]


@grade("encode", weight=2, hint="Compara con el contraejemplo: los especiales permitidos pasan a su id, los prohibidos "
                                "lanzan ValueError y el resto del texto, trozo a trozo, va con encode_ordinary.",
       backstop=True)
@settings(max_examples=25)
@given(pieces=st.lists(st.sampled_from(["ho", "la", " m", "ñ", "1", "\n", "<|fin|>", "<|fin|>\n", "<|otro|>", "<|"]),
                       max_size=8),
       allowed=st.sampled_from(["all", frozenset(), frozenset(SPECIALS), frozenset({"<|fin|>"})]),
       disallowed=st.sampled_from(["all", (), ("<|otro|>",)]))
def test_encode_matches_reference(student, reference, pieces, allowed, disallowed):
    """coincide con la referencia en textos generados"""
    text = "".join(pieces)
    arguments = {"allowed_special": allowed, "disallowed_special": disallowed}
    try:
        expected = reference.encode(text, HOLA, SPECIALS, **arguments)
    except ValueError:
        with pytest.raises(ValueError):
            student.encode(text, HOLA, SPECIALS, **arguments)
        return
    assert student.encode(text, HOLA, SPECIALS, **arguments) == expected


# --- decode -----------------------------------------------------------------------------

@grade("decode", weight=2, hint="Une los bytes de todos los ids con b''.join(...) y decodifica el resultado como UTF-8.")
def test_decode_joins_bytes(student):
    """concatena los bytes de los ids"""
    result = student.decode([256, 257, 33], BYTES | {256: b"ca", 257: b"sa"}, SPECIALS)
    expect_type(result, str, "decode")
    assert result == "casa!"


@grade("decode", weight=2, hint="Un id de token especial aporta el nombre del especial (en UTF-8); búscalo en "
                                "special_tokens invirtiendo el diccionario.")
def test_decode_special_ids(student):
    """los ids especiales se decodifican como su nombre"""
    assert student.decode([256, 300, 33, 302], BYTES | {256: b"ca"}, SPECIALS) == "ca<|fin|>!<|otro|>"


@grade("decode", hint="Los bytes que no forman UTF-8 válido no deben lanzar excepción: usa errors='replace' (U+FFFD).")
def test_decode_invalid_utf8_is_replaced(student):
    """UTF-8 inválido se sustituye por U+FFFD"""
    assert student.decode([104, 195, 105], BYTES, SPECIALS) == "h\ufffdi"
    assert student.decode([195], BYTES, SPECIALS) == "\ufffd"


@grade("decode", hint="Primero une todos los bytes y después decodifica: un carácter puede repartirse entre dos tokens.")
def test_decode_characters_split_across_tokens(student):
    """un carácter repartido entre tokens"""
    assert student.decode([256, 257], BYTES | {256: b"a\xc3", 257: b"\xb1o"}, SPECIALS) == "año"


@grade("decode", hint="Un id que no está ni en vocab ni en special_tokens debe lanzar KeyError (no lo saltes ni uses "
                      "un valor por defecto).")
@pytest.mark.requires("test_decode_joins_bytes")
def test_decode_unknown_id_raises(student):
    """un id desconocido lanza KeyError"""
    with pytest.raises(KeyError):
        student.decode([104, 5000], BYTES, SPECIALS)


@grade("decode", weight=2, hint="decode(encode(s)) debe devolver s: une los bytes de vocab y los nombres de los especiales "
                                "y decodifica en UTF-8.", backstop=True)
@settings(max_examples=25)
@given(pieces=st.lists(st.sampled_from(["ho", "la", " m", "ñ", "é", "🙂", "\n", "<|fin|>", "<|otro|>"]), max_size=8),
       extra=st.integers(0, 10))
def test_decode_round_trip(student, reference, pieces, extra):
    """decode(encode(s)) == s para textos generados"""
    text = "".join(pieces)
    merges = reference.train_regex_bpe(text, 256 + extra)
    vocab = {idx: piece for piece, idx in as_ranks(merges).items()}
    ids = reference.encode(text, merges, SPECIALS, allowed_special="all")
    assert student.decode(ids, vocab, SPECIALS) == text


# --- recover_merges ---------------------------------------------------------------------

TRAINING_TEXT = "El perro de San Roque no tiene rabo, porque Ramón Ramírez se lo ha cortado. ¿Y el gato? 12345"


@grade("recover_merges", weight=2, hint="Para cada token de dos o más bytes, repite BPE sobre sus bytes con los tokens de "
                                        "rango menor que el suyo; las dos piezas que quedan son sus padres.")
def test_recover_merges_trained_table(student, reference):
    """recupera las fusiones de una tabla entrenada"""
    merges = reference.train_regex_bpe(TRAINING_TEXT, 290)
    result = student.recover_merges(as_ranks(merges))
    expect_type(result, dict, "recover_merges")
    assert result == merges


@grade("recover_merges", weight=2, hint="No te quedes con el primer corte cuyas dos mitades están en la tabla: haz BPE con "
                                        "los rangos menores (siempre el par de rango más bajo) hasta que queden dos piezas.")
def test_recover_merges_bpe_split_not_first_split(student):
    """los padres salen de BPE, no del primer corte válido"""
    table = as_ranks({}) | {b"ab": 256, b"bc": 257, b"abc": 258, b"xy": 259, b"wx": 260, b"wxy": 261}
    assert student.recover_merges(table) == {(97, 98): 256, (98, 99): 257, (256, 99): 258,
                                             (120, 121): 259, (119, 120): 260, (119, 259): 261}


@grade("recover_merges", weight=2, hint="Los bytes sueltos tienen su propio rango en la tabla (en GPT-4 no coincide con el "
                                        "valor del byte): da cada padre por mergeable_ranks[padre], también si es un byte.")
def test_recover_merges_byte_permutation(student):
    """usa el rango de los bytes sueltos, que pueden estar permutados"""
    table = {bytes([b]): 255 - b for b in range(256)} | {b"ab": 256, b"abc": 257, b"ca": 258}
    assert student.recover_merges(table) == {(158, 157): 256, (256, 156): 257, (156, 158): 258}


@grade("recover_merges", hint="Un byte suelto es un token de un solo byte (len(token) == 1), no uno de rango menor que "
                              "256: en una tabla pequeña, un token de dos bytes puede tener rango 3.")
def test_recover_merges_small_ranks(student):
    """en una tabla pequeña, los tokens de varios bytes pueden tener rango menor que 256"""
    table = {b"\x00": 0, b"\x01": 1, b"\x02": 2, b"\x00\x01": 3, b"\x00\x01\x02": 4}
    assert student.recover_merges(table) == {(0, 1): 3, (3, 2): 4}


@grade("recover_merges", hint="Si el par de rango más bajo aparece más de una vez en el token, fusiona el de más a la "
                              "izquierda, como BPE al entrenar: en un empate de rangos quédate con el primero que "
                              "encuentras, no con el último.")
def test_recover_merges_repeated_pair_leftmost(student):
    """si el par de rango más bajo se repite, fusiona primero el de la izquierda"""
    table = as_ranks({}) | {b"aa": 256, b"aaa": 257}
    assert student.recover_merges(table) == {(97, 97): 256, (256, 97): 257}


@grade("recover_merges", hint="La tabla puede llegar en cualquier orden: decide los padres por los rangos, no por el "
                              "orden en que recorres el diccionario.")
@pytest.mark.requires("test_recover_merges_trained_table")
def test_recover_merges_unordered_table(student, reference):
    """funciona aunque la tabla llegue desordenada"""
    merges = reference.train_regex_bpe(TRAINING_TEXT, 290)
    table = dict(sorted(as_ranks(merges).items(), key=lambda item: -item[1]))
    assert student.recover_merges(table) == merges


@grade("recover_merges", hint="Los bytes sueltos no son fusiones: una tabla sin tokens de dos o más bytes da un dict vacío.")
@pytest.mark.requires("test_recover_merges_trained_table")
def test_recover_merges_single_bytes_only(student):
    """una tabla de bytes sueltos no tiene fusiones"""
    assert student.recover_merges(as_ranks({})) == {}


@grade("recover_merges", weight=2, hint="Compara con el contraejemplo: BPE de cada token con los rangos menores, padres "
                                        "dados por su rango.", backstop=True)
@settings(max_examples=20)
@given(text=texts, extra=st.integers(1, 12))
def test_recover_merges_matches_reference(student, reference, text, extra):
    """coincide con la referencia en tablas generadas"""
    table = as_ranks(reference.train_regex_bpe(text, 256 + extra))
    assert student.recover_merges(table) == reference.recover_merges(table)

# --- every function: its arguments after the call, and calls that repeat ------------------------
# 'Cómo se califica' tells students both rules; leaves_alone reads the arguments without mirroring them
# into the test's data, and answers_afresh asks two inputs and the first again.

@grade("encode_ordinary", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_encode_ordinary_published_example")
def test_encode_ordinary_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "encode_ordinary", "ab ab", {(97, 98): 256})


@grade("encode_ordinary", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devolvería la respuesta de otra tabla).")
@requires("test_encode_ordinary_published_example")
def test_encode_ordinary_answers_each_call_afresh(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "encode_ordinary", ("abab", {(97, 98): 256}), ("abab", {(98, 97): 256}))


@grade("encode", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_encode_all_specials")
def test_encode_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "encode", "abab", {(97, 98): 256}, {"<|fin|>": 300})


@grade("encode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devolvería la respuesta de otra tabla).")
@requires("test_encode_all_specials")
def test_encode_answers_each_call_afresh(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "encode", ("abab", {(97, 98): 256}, {"<|fin|>": 300}), ("abab", {(98, 97): 256}, {"<|fin|>": 300}))


@grade("decode", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_decode_joins_bytes")
def test_decode_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "decode", [256, 300], {97: b"a", 98: b"b", 256: b"ab"}, {"<|fin|>": 300})


@grade("decode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devolvería la respuesta de otra tabla).")
@requires("test_decode_joins_bytes")
def test_decode_answers_each_call_afresh(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "decode", ([256], {256: b"ab"}, {}), ([256], {256: b"ba"}, {}))


@grade("recover_merges", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_recover_merges_trained_table")
def test_recover_merges_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "recover_merges", {b"a": 0, b"b": 1, b"ab": 2})
