"""Propiedades públicas de «WordPiece, Unigram y el ▁ de SentencePiece»: reglas que cualquier solución correcta cumple.

Ninguna prueba compara con una solución: cada una enuncia una regla del enunciado y la
prueba con muchos ejemplos generados por hypothesis. Si una falla, el informe muestra el
ejemplo más pequeño que la rompe («Falsifying example»).
"""

from hypothesis import given, strategies as st

ESPACIO = "\u2581"  # ▁

# Log-probabilidades múltiplos de 1/8: las sumas son exactas y un empate es un empate.
octavos = st.integers(-64, -1).map(lambda k: k / 8)
trozos = st.text(st.sampled_from("abñ"), min_size=1, max_size=3)


@st.composite
def vocabularios_wordpiece(draw):
    iniciales = draw(st.lists(trozos, max_size=6))
    interiores = draw(st.lists(trozos, max_size=6))
    piezas = ["[UNK]", *iniciales, *("##" + t for t in interiores)]
    return {pieza: i for i, pieza in enumerate(dict.fromkeys(piezas))}


@st.composite
def logp_con_letras(draw, letras="abñ"):
    """Un logp con todas las letras sueltas (ninguna es desconocida) y algunas piezas más largas."""
    sueltas = {letra: draw(octavos) for letra in letras}
    largas = draw(st.dictionaries(st.text(st.sampled_from(letras), min_size=2, max_size=4), octavos, max_size=6))
    return {**sueltas, **largas}


@given(texto=st.text(st.sampled_from("abñ \t\n"), max_size=16), vocab=vocabularios_wordpiece())
def test_wordpiece_encode_una_primera_pieza_por_palabra(estudiante, texto, vocab):
    """`wordpiece_encode`: cada palabra aporta una pieza sin ## (la primera o [UNK]) y, sin [UNK], las piezas rehacen las palabras"""
    piezas = estudiante.wordpiece_encode(texto, vocab)
    assert all(pieza in vocab for pieza in piezas), "toda pieza devuelta está en el vocabulario"
    primeras = [pieza for pieza in piezas if not pieza.startswith("##")]
    assert len(primeras) == len(texto.split()), \
        "cada palabra de text.split() empieza con una pieza sin prefijo (o es un único [UNK])"
    if "[UNK]" not in piezas:
        unidas = "".join(pieza[2:] if pieza.startswith("##") else pieza for pieza in piezas)
        assert unidas == "".join(texto.split()), "sin [UNK], las piezas sin su prefijo rehacen las palabras"


@given(splits=st.dictionaries(st.lists(st.sampled_from(["g", "p", "##a", "##t", "ga", "##to"]), max_size=4).map(tuple),
                              st.integers(1, 6), max_size=5))
def test_wordpiece_scores_entre_cero_y_uno(estudiante, splits):
    """`wordpiece_scores`: una puntuación por cada par de vecinas, siempre mayor que 0 y como mucho 1"""
    puntuaciones = estudiante.wordpiece_scores(splits)
    pares = {par for palabra in splits for par in zip(palabra, palabra[1:])}
    assert set(puntuaciones) == pares, "hay una clave por cada par de unidades vecinas, y ninguna más"
    assert all(0 < valor <= 1 for valor in puntuaciones.values()), \
        "freq(ab) no supera freq(a) ni freq(b), así que la puntuación está entre 0 y 1"


@given(corpus=st.dictionaries(st.text(st.sampled_from("abc"), max_size=5), st.integers(1, 5), max_size=5),
       fusiones=st.integers(0, 8))
def test_train_wordpiece_fusiones_bien_formadas(estudiante, corpus, fusiones):
    """`train_wordpiece`: como mucho num_merges fusiones, y la segunda unidad de cada una lleva el prefijo"""
    aprendidas = estudiante.train_wordpiece(corpus, fusiones)
    assert len(aprendidas) <= fusiones, "no se aprenden más fusiones de las pedidas"
    for par in aprendidas:
        assert len(par) == 2 and all(isinstance(unidad, str) for unidad in par), "cada fusión es un par de str"
        assert par[1].startswith("##"), "la segunda unidad de una fusión nunca empieza palabra: lleva el prefijo"


@given(palabra=st.text(st.sampled_from("abñ"), max_size=10), logp=logp_con_letras())
def test_unigram_viterbi_suma_sus_piezas(estudiante, palabra, logp):
    """`unigram_viterbi`: si todas las letras son piezas, las piezas rehacen la palabra y sus logp suman la puntuación"""
    piezas, puntuacion = estudiante.unigram_viterbi(palabra, logp)
    assert "".join(piezas) == palabra, "unidas, las piezas dan la palabra"
    assert all(pieza in logp for pieza in piezas), "con todas las letras en logp, toda pieza es del vocabulario"
    assert puntuacion == sum(logp[pieza] for pieza in piezas), "la puntuación es la suma de las log-probabilidades"
    assert puntuacion >= sum(logp[letra] for letra in palabra), "nunca es peor que partir letra a letra"


@given(corpus=st.dictionaries(st.text(st.sampled_from("abñ"), min_size=1, max_size=5), st.integers(1, 4), max_size=4),
       logp=logp_con_letras(), n=st.integers(0, 8))
def test_unigram_prune_pierde_poco_y_nunca_letras(estudiante, corpus, logp, n):
    """`unigram_prune`: pérdidas de las piezas largas, nunca negativas, y las n propuestas son las de menor pérdida"""
    perdidas, flojas = estudiante.unigram_prune(corpus, logp, n)
    largas = [pieza for pieza in logp if len(pieza) >= 2]
    assert list(perdidas) == largas, "una pérdida por cada pieza de dos o más caracteres, en el orden de logp"
    assert all(valor >= -1e-9 for valor in perdidas.values()), "quitar una pieza nunca mejora el corpus: pérdida >= 0"
    assert len(flojas) == min(n, len(largas)) and set(flojas) <= set(largas), \
        "se proponen min(n, piezas largas) piezas, nunca caracteres sueltos"
    resto = [perdidas[pieza] for pieza in largas if pieza not in flojas]
    assert all(perdidas[pieza] <= min(resto, default=float("inf")) + 1e-9 for pieza in flojas), \
        "las propuestas son las de menor pérdida"


@given(texto=st.text(st.sampled_from("la s\t\n"), max_size=16), logp=logp_con_letras("las" + ESPACIO),
       prefijo=st.booleans())
def test_sp_decode_deshace_sp_encode(estudiante, texto, logp, prefijo):
    """`sp_encode` y `sp_decode`: la ida y vuelta devuelve el texto exacto, espacios incluidos"""
    piezas = estudiante.sp_encode(texto, logp, add_dummy_prefix=prefijo)
    inicio = ESPACIO if prefijo and texto else ""
    assert "".join(piezas) == inicio + texto.replace(" ", ESPACIO), \
        "unidas, las piezas son el texto con cada espacio cambiado por ▁ (y el ▁ inicial con add_dummy_prefix)"
    assert estudiante.sp_decode(piezas, add_dummy_prefix=prefijo) == texto, "sp_decode(sp_encode(texto)) == texto"
