"""Hidden suite for `tokenizacion`.

One misconception per test, each with its Spanish hint. A test that a do-nothing
function could pass (an error case, an empty answer) `requires` the function's basic
test. Fixed cases are never shown to the student; the `property` tests compare with the
reference on generated input and may show their shrunk counterexample. The six
functions are independent (none calls another), so no DEPENDS_ON is needed.

The basic tests are built so that each catalogued mistake fails the test that names it
and, where possible, no other: e.g. the basic `oov_rate` case has as many tokens as the
vocabulary has entries, so dividing by the vocabulary size is charged only by
`test_oov_rate_divides_by_number_of_tokens`.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.grading.expect import INT, NUMBER, STR, DictOf, ListOf, answers_afresh, checked_student, leaves_alone
from autograder.grading.plugin import Feedback

# What each function returns (the spec): every answer is checked against it, deeply, before any
# test compares it, so no answer of the wrong type passes a test by comparing vacuously (an empty
# array is close to any number under approx; [array([1])] == [1] and {"a": array([0])} == {"a": 0}).
RETURNS = {
    "tokenize_chars": ListOf(STR),
    "tokenize_words": ListOf(STR),
    "build_vocab": DictOf(STR, INT),
    "encode": ListOf(INT),
    "decode": ListOf(STR),
    "oov_rate": NUMBER,  # a float; an int is the same number (the basic test charges the type)
}
# The inputs the lesson defines, per function (`a`: the call's arguments by name). The audit replays
# every call of this suite against them (tests/test_clauses.py): nothing outside them is graded.
DOMAIN = {
    "tokenize_chars": lambda a: isinstance(a["text"], str),
    "tokenize_words": lambda a: isinstance(a["text"], str),
    # §4: the specials are reserved names, each once; a token is any str.
    "build_vocab": lambda a: _strs(a["tokens"]) and _strs(a["specials"]) and _distinct(a["specials"]),
    # §5: a vocabulary {token: id}; a missing `unk` is a KeyError the lesson states.
    "encode": lambda a: _strs(a["tokens"]) and _is_vocab(a["vocab"]) and isinstance(a["unk"], str),
    # §6: ids are looked up by value, so each id names one token; an unknown id is a stated KeyError.
    "decode": lambda a: _ints(a["ids"]) and _is_vocab(a["vocab"]) and _distinct(a["vocab"].values()),
    "oov_rate": lambda a: _strs(a["tokens"]) and _is_vocab(a["vocab"]),
}


def _strs(values):
    return all(isinstance(v, str) for v in values)


def _ints(values):
    return all(type(v) is int for v in values)


def _distinct(values):
    values = list(values)
    return len(set(values)) == len(values)


def _is_vocab(vocab):
    return isinstance(vocab, dict) and _strs(vocab) and _ints(vocab.values())


student = checked_student(RETURNS, DOMAIN)

# Tests whose inputs are the lesson's own worked examples (the release's visible checks): a table of
# those examples passes them, so they earn their own points but no share of a catch-all test.
# `autograder audit` checks this list against such a table.
PUBLISHED_EXAMPLES = {
    "test_build_vocab_published_sentence",
    "test_oov_rate_basic",
    "test_tokenize_chars_published_sentence",
    "test_tokenize_words_published_sentence",
}

# The lesson's rules for the graded functions (§ = its section), each with the hidden tests that pin
# it. `autograder audit` checks both ways (every test pins a rule) and that buggy.py breaks each one
# alone with one of those tests' hints first.
CLAUSES = {
    "tokenize_chars.every_character": (
        "§2: cada carácter del texto es un token, y los espacios entre palabras son caracteres como cualquier otro",
        {"test_tokenize_chars_published_sentence", "test_tokenize_chars_inner_spaces_are_tokens",
         "test_tokenize_chars_matches_reference"}),
    "tokenize_chars.keeps_whitespace": (
        "§2: los espacios, tabuladores y saltos de línea son tokens y no hay que quitarlos",
        {"test_tokenize_chars_keeps_all_whitespace"}),
    "tokenize_chars.code_points": (
        "§2: la ñ, la á o un emoji son un punto de código cada uno: caracteres, no bytes",
        {"test_tokenize_chars_non_ascii"}),
    "tokenize_chars.no_grouping": (
        "§2: un token por punto de código, lo que se ve no siempre es un carácter (e + tilde combinante son dos)",
        {"test_tokenize_chars_combining_marks"}),
    "tokenize_words.split": (
        "§3: se separa como str.split() sin argumentos: varios espacios seguidos o en los extremos no crean tokens vacíos",
        {"test_tokenize_words_published_sentence", "test_tokenize_words_no_empty_tokens",
         "test_tokenize_words_matches_reference"}),
    "tokenize_words.any_whitespace": (
        "§3: cualquier espacio en blanco separa: espacio, tabulador, salto de línea",
        {"test_tokenize_words_any_whitespace"}),
    "tokenize_words.keeps_punctuation": (
        "§3: no separa la puntuación ('alta.' es un token)", {"test_tokenize_words_keeps_punctuation"}),
    "tokenize_words.keeps_case": (
        "§3: no pasa a minúsculas ('La' y 'la' son tokens distintos)", {"test_tokenize_words_keeps_case"}),
    "build_vocab.first_appearance": (
        "§4: después de los especiales, cada token nuevo recibe el siguiente id por orden de primera aparición, no alfabético",
        {"test_build_vocab_published_sentence", "test_build_vocab_first_appearance_order",
         "test_build_vocab_matches_reference"}),
    "build_vocab.specials_first": (
        "§4: primero van los tokens especiales de `specials`, en su orden", {"test_build_vocab_specials_first"}),
    "build_vocab.no_duplicates": (
        "§4: ids de 0 a n − 1 sin huecos ni repeticiones; un token repetido, o un especial que aparece entre los "
        "tokens, conserva su primer id", {"test_build_vocab_no_duplicates"}),
    "encode.token_ids": (
        "§5: cambia cada token por su id; uno que no está en el vocabulario recibe el id de `unk`, y el vocabulario "
        "no se toca", {"test_encode_published_sentence", "test_encode_unknown_tokens_become_unk",
                       "test_encode_token_with_id_zero", "test_encode_matches_reference"}),
    "encode.unk_id_from_vocab": (
        "§5: el id de [UNK] no es siempre 0: se busca en el vocabulario", {"test_encode_unk_id_comes_from_vocab"}),
    "encode.unk_parameter": (
        "§5: el token desconocido es el parámetro `unk`, no el texto '[UNK]'", {"test_encode_custom_unk_name"}),
    "encode.missing_unk": (
        "§5: si `unk` no está en el vocabulario, encode lanza KeyError siempre, aunque todos los tokens sean conocidos "
        "(también con una lista de tokens vacía)",
        {"test_encode_missing_unk_raises"}),
    "decode.token_list": (
        "§6: cambia cada id por el token que tiene ese id y devuelve la lista de tokens, no un texto unido",
        {"test_decode_published_sentence", "test_decode_matches_reference"}),
    "decode.by_id": (
        "§6: el token se busca por su id (diccionario inverso), no por su posición en el vocabulario",
        {"test_decode_inverse_lookup_not_position"}),
    "decode.unknown_id": (
        "§6: un id que no está en el vocabulario lanza KeyError", {"test_decode_unknown_id_raises"}),
    "oov_rate.fraction": (
        "§7: la tasa es (tokens fuera del vocabulario) / (número de tokens), una fracción entre 0 y 1 (float), "
        "no un porcentaje", {"test_oov_rate_basic", "test_oov_rate_is_a_fraction", "test_oov_rate_matches_reference"}),
    "oov_rate.occurrences": (
        "§7: se cuentan apariciones: una palabra desconocida que sale tres veces suma tres",
        {"test_oov_rate_counts_occurrences"}),
    "oov_rate.denominator": (
        "§7: se divide entre el número de tokens del texto, no entre el tamaño del vocabulario",
        {"test_oov_rate_divides_by_number_of_tokens"}),
    "oov_rate.empty": (
        "§7: con una lista vacía la tasa es 0.0, sin dividir entre cero", {"test_oov_rate_empty_list"}),
    "oov_rate.no_unk_needed": (
        "§7: no depende de [UNK]: un token está fuera si no es una clave de `vocab`",
        {"test_oov_rate_vocab_without_unk"}),
    "build_vocab.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_build_vocab_leaves_its_arguments_alone"}),
    "encode.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_encode_leaves_its_arguments_alone"}),
    "encode.afresh": ("§Cómo se califica: el resultado depende solo de los argumentos de cada llamada", {"test_encode_answers_each_call_afresh"}),
    "decode.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_decode_leaves_its_arguments_alone"}),
    "decode.afresh": ("§Cómo se califica: el resultado depende solo de los argumentos de cada llamada", {"test_decode_answers_each_call_afresh"}),
    "oov_rate.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_oov_rate_leaves_its_arguments_alone"}),
}

grade = pytest.mark.grade
requires = pytest.mark.requires

SENTENCE = "La paciente tiene fiebre alta"  # seed 004, step 2
WORDS = ["La", "paciente", "tiene", "fiebre", "alta"]
SENTENCE_VOCAB = {"[UNK]": 0, "La": 1, "paciente": 2, "tiene": 3, "fiebre": 4, "alta": 5}

texts = (st.text(alphabet=" \t\n\r\u00a0ab\u00f1\u00e9e\u0301\U0001F642.,", max_size=20)
         | st.text(max_size=20))
POOL = ["la", "La", "fiebre", "alta", "tos", "[UNK]", "[PAD]", "a"]
token_lists = st.lists(st.sampled_from(POOL), max_size=10)
special_tuples = st.lists(st.sampled_from(["[UNK]", "[PAD]", "[BOS]", "<unk>"]), unique=True, max_size=3).map(tuple)


def expect_type(value, kind, what):
    if type(value) is not kind:
        raise Feedback(f"{what} debe devolver un {kind.__name__}, no un {type(value).__name__}.")


@st.composite
def shuffled_vocabs(draw):
    """A vocabulary whose ids are a permutation, not the insertion order, and ids from it."""
    words = draw(st.lists(st.sampled_from(POOL), unique=True, min_size=1, max_size=6))
    ids = draw(st.permutations(range(len(words))))
    vocab = dict(zip(words, ids))
    return vocab, draw(st.lists(st.sampled_from(sorted(vocab.values())), max_size=8))


# --- tokenize_chars ---------------------------------------------------------------------

@grade("tokenize_chars", weight=2, hint="Cada carácter del texto, espacios incluidos, es un token: basta con list(text).")
def test_tokenize_chars_published_sentence(student):
    """la frase del ejemplo da 29 tokens de carácter"""
    result = student.tokenize_chars(SENTENCE)
    expect_type(result, list, "tokenize_chars")
    assert result == ["L", "a", " ", "p", "a", "c", "i", "e", "n", "t", "e", " ", "t", "i", "e", "n", "e", " ",
                      "f", "i", "e", "b", "r", "e", " ", "a", "l", "t", "a"]


@grade("tokenize_chars", hint="El espacio entre dos palabras también es un carácter: cada carácter del texto, espacios "
                              "incluidos, es un token. No lo saltes.")
def test_tokenize_chars_inner_spaces_are_tokens(student):
    """los espacios entre palabras son tokens"""
    assert student.tokenize_chars("tos seca") == ["t", "o", "s", " ", "s", "e", "c", "a"]
    assert student.tokenize_chars("a  b") == ["a", " ", " ", "b"]


@grade("tokenize_chars", hint="No limpies el texto: los espacios del principio y del final, los tabuladores y los "
                              "saltos de línea también son caracteres y cada uno es un token.")
def test_tokenize_chars_keeps_all_whitespace(student):
    """conserva los espacios de los extremos, tabuladores y saltos de línea"""
    assert student.tokenize_chars("  tos\tseca\n") == [" ", " ", "t", "o", "s", "\t", "s", "e", "c", "a", "\n"]


@grade("tokenize_chars", hint="Trabaja con los caracteres del str, no con sus bytes UTF-8: la ñ, la ú o un emoji "
                              "son un solo token cada uno.")
def test_tokenize_chars_non_ascii(student):
    """la ñ, las tildes y los emoji son un token cada uno"""
    assert student.tokenize_chars("ñandú🙂") == ["ñ", "a", "n", "d", "ú", "🙂"]


@grade("tokenize_chars", hint="Un token por punto de código: no normalices ni agrupes. 'e' seguida de la tilde "
                              "combinante U+0301 son dos tokens, aunque se vean como una sola é.")
def test_tokenize_chars_combining_marks(student):
    """una tilde combinante o un modificador de emoji son puntos de código propios"""
    assert student.tokenize_chars("cafe\u0301") == ["c", "a", "f", "e", "\u0301"]
    assert student.tokenize_chars("👍🏽") == ["👍", "🏽"]


@grade("tokenize_chars", weight=2, hint="Compara con el contraejemplo: un token por cada punto de código, sin quitar ni "
                                        "juntar nada.", backstop=True)
@settings(max_examples=25)
@given(text=texts)
def test_tokenize_chars_matches_reference(student, reference, text):
    """coincide con la referencia en textos generados"""
    assert student.tokenize_chars(text) == reference.tokenize_chars(text)


# --- tokenize_words ---------------------------------------------------------------------

@grade("tokenize_words", weight=2, hint="Separa el texto por los espacios en blanco con text.split().")
def test_tokenize_words_published_sentence(student):
    """la frase del ejemplo da 5 palabras"""
    result = student.tokenize_words(SENTENCE)
    expect_type(result, list, "tokenize_words")
    assert result == WORDS


@grade("tokenize_words", hint="No devuelvas tokens vacíos: varios espacios seguidos, o espacios al principio o al "
                              "final, no crean palabras. Usa text.split() sin argumentos, no split(' ') ni re.split.")
def test_tokenize_words_no_empty_tokens(student):
    """varios espacios seguidos o en los extremos no crean tokens vacíos"""
    assert student.tokenize_words("la  paciente   tiene fiebre") == ["la", "paciente", "tiene", "fiebre"]
    assert student.tokenize_words("  fiebre alta  ") == ["fiebre", "alta"]
    assert student.tokenize_words("") == []
    assert student.tokenize_words("   ") == []


@grade("tokenize_words", hint="Los tabuladores y los saltos de línea también separan palabras, no solo el espacio: "
                              "text.split() sin argumentos corta por cualquier espacio en blanco.")
def test_tokenize_words_any_whitespace(student):
    """tabuladores y saltos de línea también separan palabras"""
    assert student.tokenize_words("la\tpaciente\ntiene\r\nfiebre") == ["la", "paciente", "tiene", "fiebre"]


@grade("tokenize_words", hint="Solo se corta por los espacios en blanco: la puntuación queda pegada a su palabra "
                              "(no uses una expresión regular que se quede solo con letras).")
def test_tokenize_words_keeps_punctuation(student):
    """la puntuación queda pegada a la palabra"""
    assert student.tokenize_words("¡hola, doctora! ¿fiebre?") == ["¡hola,", "doctora!", "¿fiebre?"]


@grade("tokenize_words", hint="No cambies las mayúsculas: 'La' y 'la' son tokens distintos. Tokenizar no es "
                              "normalizar el texto.")
def test_tokenize_words_keeps_case(student):
    """conserva mayúsculas y minúsculas"""
    assert student.tokenize_words("Fiebre ALTA") == ["Fiebre", "ALTA"]


@grade("tokenize_words", weight=2, hint="Compara con el contraejemplo: el resultado debe ser el de text.split().",
       backstop=True)
@settings(max_examples=25)
@given(text=texts)
def test_tokenize_words_matches_reference(student, reference, text):
    """coincide con la referencia en textos generados"""
    assert student.tokenize_words(text) == reference.tokenize_words(text)


# --- build_vocab ------------------------------------------------------------------------

@grade("build_vocab", weight=2, hint="Primero los especiales ([UNK] recibe el 0) y después cada token nuevo recibe el "
                                     "siguiente id: 1, 2, 3...")
def test_build_vocab_published_sentence(student):
    """vocabulario de las 5 palabras de la frase del ejemplo"""
    result = student.build_vocab(list(WORDS))
    expect_type(result, dict, "build_vocab")
    assert result == SENTENCE_VOCAB


@grade("build_vocab", weight=2, hint="Los ids siguen el orden de primera aparición en `tokens`, no el orden alfabético: "
                                     "no ordenes los tokens.")
def test_build_vocab_first_appearance_order(student):
    """los ids siguen el orden de primera aparición, no el alfabético"""
    tokens = ["tos", "alta", "fiebre", "Dolor"]
    result = student.build_vocab(list(tokens))
    # Only the order of the tokens among themselves: where the specials go is charged by another test.
    ids = [result[token] for token in tokens]
    assert ids == list(range(ids[0], ids[0] + len(tokens)))


@grade("build_vocab", weight=2, hint="Los especiales van primero, en el orden de `specials` (ids 0, 1, ...), y los tokens "
                                     "después. Usa el parámetro `specials`: puede traer otros especiales o ninguno.")
def test_build_vocab_specials_first(student):
    """los especiales reciben los primeros ids, en su orden"""
    assert student.build_vocab(["hola", "mundo"], specials=("[PAD]", "[UNK]", "[BOS]")) == {
        "[PAD]": 0, "[UNK]": 1, "[BOS]": 2, "hola": 3, "mundo": 4}
    assert student.build_vocab(["hola", "mundo"], specials=()) == {"hola": 0, "mundo": 1}


@grade("build_vocab", weight=2, hint="Un token que ya está en el vocabulario (repetido, o un especial que también aparece "
                                     "entre los tokens) conserva su primer id y no gasta otro: los ids van de 0 a n - 1 "
                                     "sin huecos. Comprueba si ya está antes de darle id.")
def test_build_vocab_no_duplicates(student):
    """un token repetido, o un especial entre los tokens, conserva su primer id"""
    # Tokens whose first appearance is also alphabetical, and specials first or last give the same
    # checks: only the duplicates are charged here.
    repeated = student.build_vocab(["el", "gato", "el", "perro", "gato", "el"])
    assert set(repeated) == {"[UNK]", "el", "gato", "perro"}
    assert sorted(repeated.values()) == [0, 1, 2, 3]
    assert repeated["el"] < repeated["gato"] < repeated["perro"]
    special = student.build_vocab(["fiebre", "[UNK]", "la"])
    assert set(special) == {"[UNK]", "fiebre", "la"}
    assert sorted(special.values()) == [0, 1, 2]
    assert special["fiebre"] < special["la"]


@grade("build_vocab", weight=2, hint="Compara con el contraejemplo: especiales primero, luego los tokens por primera "
                                     "aparición, ids 0..n-1 sin repetir ningún token.", backstop=True)
@settings(max_examples=25)
@given(tokens=token_lists, specials=special_tuples)
def test_build_vocab_matches_reference(student, reference, tokens, specials):
    """coincide con la referencia en listas generadas"""
    assert student.build_vocab(list(tokens), specials) == reference.build_vocab(list(tokens), specials)


# --- encode -----------------------------------------------------------------------------

@grade("encode", weight=2, hint="Cambia cada token por su id: vocab[token].")
def test_encode_published_sentence(student):
    """codifica las palabras de la frase del ejemplo"""
    result = student.encode(list(WORDS), dict(SENTENCE_VOCAB))
    expect_type(result, list, "encode")
    assert result == [1, 2, 3, 4, 5]


@grade("encode", weight=2, hint="Un token que no está en el vocabulario se codifica con el id de `unk`: no lo quites de "
                                "la lista ni lo añadas al vocabulario.")
def test_encode_unknown_tokens_become_unk(student):
    """un token desconocido se codifica como [UNK]"""
    vocab = dict(SENTENCE_VOCAB)
    assert student.encode(["La", "paciente", "tiene", "gripe", "alta"], vocab) == [1, 2, 3, 0, 5]
    assert vocab == SENTENCE_VOCAB


@grade("encode", weight=2, hint="El id de `unk` es vocab[unk], no siempre 0: búscalo en el vocabulario (no uses "
                                "vocab.get(token, 0)).")
def test_encode_unk_id_comes_from_vocab(student):
    """el id de [UNK] se busca en el vocabulario, no se supone 0"""
    assert student.encode(["fiebre", "tos"], {"[PAD]": 0, "[UNK]": 1, "fiebre": 2}) == [2, 1]


@grade("encode", hint="Usa el parámetro `unk`: el token desconocido puede llamarse de otra forma que '[UNK]'.")
def test_encode_custom_unk_name(student):
    """respeta el nombre del token desconocido que se pasa en unk"""
    assert student.encode(["fiebre", "tos"], {"<unk>": 0, "fiebre": 1}, unk="<unk>") == [1, 0]


@grade("encode", weight=2, hint="Si `unk` no está en el vocabulario lanza KeyError siempre, aunque todos los tokens "
                                "sean conocidos o no haya ninguno: busca vocab[unk] al principio, antes de recorrer los tokens.")
@pytest.mark.requires("test_encode_published_sentence")
def test_encode_missing_unk_raises(student):
    """sin unk en el vocabulario lanza KeyError, aunque todos los tokens sean conocidos"""
    with pytest.raises(KeyError):
        student.encode(["fiebre", "alta"], {"fiebre": 0, "alta": 1})
    with pytest.raises(KeyError):
        student.encode(["fiebre", "tos"], {"fiebre": 0, "alta": 1})
    with pytest.raises(KeyError):
        student.encode([], {"fiebre": 0, "alta": 1})


@grade("encode", hint="Un token conocido cuyo id es 0 se codifica con 0 aunque no sea `unk`: comprueba si el token "
                        "está en el vocabulario (vocab.get(token, unk_id)), no si su id es verdadero "
                        "(vocab.get(token) or ...).")
def test_encode_token_with_id_zero(student):
    """un token conocido con id 0 que no es [UNK] conserva su id"""
    assert student.encode(["[PAD]", "tos", "[PAD]"], {"[PAD]": 0, "[UNK]": 1, "tos": 2}) == [0, 2, 0]


@grade("encode", weight=2, hint="Compara con el contraejemplo: vocab[token] si está, vocab[unk] si no.", backstop=True)
@settings(max_examples=25)
@given(known=token_lists, tokens=token_lists, specials=special_tuples)
def test_encode_matches_reference(student, reference, known, tokens, specials):
    """coincide con la referencia en listas generadas"""
    vocab = reference.build_vocab(list(known), specials + ("[UNK]",))
    assert student.encode(list(tokens), dict(vocab)) == reference.encode(list(tokens), vocab)


# --- decode -----------------------------------------------------------------------------

@grade("decode", weight=2, hint="decode devuelve la lista de tokens (no un texto unido): cambia cada id por el token "
                                "que tiene ese id en el vocabulario.")
def test_decode_published_sentence(student):
    """decodifica los ids de la frase del ejemplo"""
    result = student.decode([1, 2, 3, 0, 5], dict(SENTENCE_VOCAB))
    expect_type(result, list, "decode")
    assert result == ["La", "paciente", "tiene", "[UNK]", "alta"]


@grade("decode", weight=2, hint="Construye el diccionario inverso {id: token} a partir de vocab.items(): no busques el "
                                "token por su posición en el vocabulario (list(vocab)[id]).")
def test_decode_inverse_lookup_not_position(student):
    """busca el token por su id, no por su posición en el diccionario"""
    vocab = {"fiebre": 2, "[UNK]": 0, "tos": 7, "alta": 1}
    assert student.decode([7, 2, 1, 0, 2], vocab) == ["tos", "fiebre", "alta", "[UNK]", "fiebre"]


@grade("decode", weight=2, hint="Un id que no está en el vocabulario debe lanzar KeyError: indexa el diccionario "
                                "inverso (sin .get con valor por defecto).")
@pytest.mark.requires("test_decode_published_sentence")
def test_decode_unknown_id_raises(student):
    """un id desconocido lanza KeyError"""
    with pytest.raises(KeyError):
        student.decode([1, 99], dict(SENTENCE_VOCAB))
    with pytest.raises(KeyError):
        student.decode([-1], dict(SENTENCE_VOCAB))


@grade("decode", weight=2, hint="Compara con el contraejemplo: cada id se cambia por el token que tiene ese id.",
       backstop=True)
@settings(max_examples=25)
@given(case=shuffled_vocabs())
def test_decode_matches_reference(student, reference, case):
    """coincide con la referencia en vocabularios generados"""
    vocab, ids = case
    assert student.decode(list(ids), dict(vocab)) == reference.decode(list(ids), vocab)


# --- oov_rate ---------------------------------------------------------------------------

@grade("oov_rate", weight=2, hint="La tasa es (tokens que no están en vocab) / (número de tokens): un float entre 0 y 1, "
                                  "no un porcentaje.")
def test_oov_rate_basic(student):
    """fracción de tokens fuera del vocabulario"""
    # 6 tokens and 6 vocabulary entries, all tokens distinct: only the numerator is tested here.
    result = student.oov_rate(["La", "paciente", "tiene", "fiebre", "muy", "alta"], dict(SENTENCE_VOCAB))
    expect_type(result, float, "oov_rate")
    assert result == pytest.approx(1 / 6)


@grade("oov_rate", hint="La tasa es una fracción entre 0 y 1 (un float), no un porcentaje: no multipliques por 100.")
def test_oov_rate_is_a_fraction(student):
    """la tasa es una fracción entre 0 y 1, no un porcentaje"""
    # 4 distinct tokens and 4 vocabulary entries, as in the other fixed cases: only the scale is tested here.
    vocab = {"[UNK]": 0, "fiebre": 1, "alta": 2, "dolor": 3}
    assert student.oov_rate(["fiebre", "gripe", "alta", "dolor"], vocab) == pytest.approx(1 / 4)


@grade("oov_rate", weight=2, hint="Cuenta apariciones, no tokens distintos: un token desconocido que aparece tres veces "
                                  "cuenta tres veces, y se divide entre todos los tokens (repetidos incluidos).")
def test_oov_rate_counts_occurrences(student):
    """cada aparición de un token desconocido cuenta"""
    # 4 tokens and 4 vocabulary entries: dividing by the vocabulary size is not charged here.
    vocab = {"[UNK]": 0, "fiebre": 1, "alta": 2, "dolor": 3}
    assert student.oov_rate(["tos", "tos", "tos", "fiebre"], vocab) == pytest.approx(3 / 4)


@grade("oov_rate", weight=2, hint="Divide entre el número de tokens de la lista, no entre el tamaño del vocabulario.")
def test_oov_rate_divides_by_number_of_tokens(student):
    """divide entre el número de tokens, no entre el tamaño del vocabulario"""
    assert student.oov_rate(["tos", "fiebre"], dict(SENTENCE_VOCAB)) == pytest.approx(1 / 2)


@grade("oov_rate", hint="Un token está fuera del vocabulario si no es una clave de vocab; no hace falta que el "
                        "vocabulario tenga [UNK] (no pases por encode ni busques vocab['[UNK]']).")
def test_oov_rate_vocab_without_unk(student):
    """funciona con un vocabulario sin [UNK]"""
    # 4 tokens and 4 vocabulary entries, as in the other fixed cases.
    vocab = {"fiebre": 0, "alta": 1, "dolor": 2, "tos": 3}
    assert student.oov_rate(["fiebre", "gripe", "alta", "mareo"], vocab) == pytest.approx(1 / 2)


@grade("oov_rate", hint="Con una lista vacía no hay nada que dividir: devuelve 0.0 (no dejes que salte "
                        "ZeroDivisionError).")
@pytest.mark.requires("test_oov_rate_basic")
def test_oov_rate_empty_list(student):
    """una lista vacía da 0.0"""
    result = student.oov_rate([], dict(SENTENCE_VOCAB))
    expect_type(result, float, "oov_rate")
    assert result == 0.0
    assert student.oov_rate([], {}) == 0.0


@grade("oov_rate", weight=2, hint="Compara con el contraejemplo: apariciones fuera de vocab / número de tokens.",
       backstop=True)
@settings(max_examples=25)
@given(known=token_lists, tokens=token_lists, specials=special_tuples)
def test_oov_rate_matches_reference(student, reference, known, tokens, specials):
    """coincide con la referencia en listas generadas"""
    vocab = reference.build_vocab(list(known), specials)
    assert student.oov_rate(list(tokens), dict(vocab)) == pytest.approx(reference.oov_rate(list(tokens), vocab))

# --- every function: its arguments after the call, and calls that repeat ------------------------
# 'Cómo se califica' tells students both rules; leaves_alone reads the arguments without mirroring them
# into the test's data, and answers_afresh asks two inputs and the first again.

@grade("build_vocab", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_build_vocab_published_sentence")
def test_build_vocab_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "build_vocab", ["tos", "alta", "tos"], ("[PAD]", "[UNK]"))


@grade("encode", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_encode_published_sentence")
def test_encode_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "encode", ["La", "muy"], {"[UNK]": 0, "La": 1})


@grade("encode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devolvería la respuesta de otra tabla).")
@requires("test_encode_published_sentence")
def test_encode_answers_each_call_afresh(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "encode", (["tos"], {"[UNK]": 0, "tos": 1}), (["tos"], {"[UNK]": 0, "tos": 2}))


@grade("decode", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_decode_published_sentence")
def test_decode_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "decode", [1, 0], {"[UNK]": 0, "tos": 1})


@grade("decode", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devolvería la respuesta de otra tabla).")
@requires("test_decode_published_sentence")
def test_decode_answers_each_call_afresh(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "decode", ([1], {"a": 1, "[UNK]": 0}), ([1], {"b": 1, "[UNK]": 0}))


@grade("oov_rate", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_oov_rate_basic")
def test_oov_rate_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "oov_rate", ["tos", "muy"], {"[UNK]": 0, "tos": 1})
