"""Propiedades públicas de «Tres formas de cortar el texto»: reglas que cualquier solución correcta cumple.

Ninguna prueba compara con una solución: cada una enuncia una regla del enunciado y la
prueba con muchos ejemplos generados por hypothesis. Si una falla, el informe muestra el
ejemplo más pequeño que la rompe («Falsifying example»).
"""

from hypothesis import given, strategies as st

# Letras, acentos, emojis y toda clase de espacios (también los de Unicode, como U+00A0 y U+2003).
textos = st.text(st.sampled_from("ab ñé🙂.,\t\n\r\u00a0\u2003\u0301"), max_size=30) | st.text(max_size=30)
tokens = st.lists(st.text(st.sampled_from("abcñ[]UNK"), max_size=5), max_size=15)


@given(texto=textos)
def test_tokenize_chars_reconstruye_el_texto(estudiante, texto):
    """`tokenize_chars`: un token por carácter; unidos, dan el texto"""
    piezas = estudiante.tokenize_chars(texto)
    assert len(piezas) == len(texto), "un token por cada punto de código, espacios incluidos"
    assert "".join(piezas) == texto, "unidos, los tokens deben dar el texto original"


@given(texto=textos)
def test_tokenize_words_no_pierde_ni_inventa_letras(estudiante, texto):
    """`tokenize_words`: ningún token vacío ni con espacios; unidos, dan el texto sin sus espacios"""
    palabras = estudiante.tokenize_words(texto)
    assert all(palabras), "nunca aparecen tokens vacíos"
    assert not any(c.isspace() for palabra in palabras for c in palabra), "ningún token contiene espacios"
    assert "".join(palabras) == "".join(c for c in texto if not c.isspace()), \
        "unidas, las palabras deben dar el texto sin sus espacios (ni letras perdidas ni repetidas)"


@given(lista=tokens, especiales=st.lists(st.sampled_from(["[UNK]", "[PAD]", "[CLS]"]), min_size=1, max_size=3))
def test_build_vocab_numera_sin_huecos(estudiante, lista, especiales):
    """`build_vocab`: ids de 0 a n - 1 sin huecos, cada token una vez y los especiales primero"""
    vocab = estudiante.build_vocab(lista, specials=tuple(especiales))
    assert sorted(vocab.values()) == list(range(len(vocab))), "los ids van de 0 a n - 1, sin huecos ni repetidos"
    assert set(vocab) == set(especiales) | set(lista), "están todos los tokens y especiales, y nada más"
    assert vocab[especiales[0]] == 0, "el primer especial recibe el id 0"


@given(lista=tokens)
def test_decode_deshace_encode(estudiante, lista):
    """decode(encode(tokens, vocab), vocab) devuelve los tokens si todos están en el vocabulario"""
    vocab = estudiante.build_vocab(lista)
    ids = estudiante.encode(lista, vocab)
    assert len(ids) == len(lista), "un id por token"
    assert estudiante.decode(ids, vocab) == lista, "decodificar lo codificado devuelve los tokens"


@given(lista=tokens.filter(lambda t: "[UNK]" not in t))
def test_encode_usa_unk_para_lo_desconocido(estudiante, lista):
    """`encode` da el id de [UNK] a todo token que no está en el vocabulario"""
    assert estudiante.encode(lista, {"[UNK]": 7}) == [7] * len(lista), "todos son desconocidos: todos reciben el id de [UNK]"


@given(lista=tokens, conocidos=tokens)
def test_oov_rate_es_una_fraccion(estudiante, lista, conocidos):
    """`oov_rate` está entre 0 y 1: 0 con el vocabulario de los propios tokens y 1 con uno vacío"""
    tasa = estudiante.oov_rate(lista, estudiante.build_vocab(conocidos))
    assert 0 <= tasa <= 1, "una fracción de los tokens está entre 0 y 1"
    assert estudiante.oov_rate(lista, estudiante.build_vocab(lista)) == 0, "con su propio vocabulario, nada es desconocido"
    if any(t != "[UNK]" for t in lista):
        assert estudiante.oov_rate([t for t in lista if t != "[UNK]"], {"[UNK]": 0}) == 1, \
            "si ningún token está en el vocabulario, la tasa es 1"
