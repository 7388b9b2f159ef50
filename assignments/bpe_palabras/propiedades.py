"""Propiedades públicas de «BPE sobre un corpus de palabras»: reglas que cualquier solución correcta cumple.

Ninguna prueba compara con una solución: cada una enuncia una regla del enunciado y la
prueba con muchos ejemplos generados por hypothesis. Si una falla, el informe muestra el
ejemplo más pequeño que la rompe («Falsifying example»).
"""

from hypothesis import given, strategies as st

palabras = st.text(st.sampled_from("abcdeñ"), min_size=1, max_size=6)
corpus = st.dictionaries(palabras, st.integers(1, 5), min_size=1, max_size=5)
simbolos = st.lists(st.sampled_from(["a", "b", "c", "ab", "_"]), max_size=10).map(tuple)
pares = st.tuples(st.sampled_from(["a", "b", "c", "ab", "_"]), st.sampled_from(["a", "b", "c", "ab", "_"]))


@given(corpus=corpus)
def test_get_stats_suma_los_pares_de_cada_palabra(estudiante, corpus):
    """`get_stats`: el total de las cuentas es la suma de (símbolos - 1) × frecuencia"""
    palabras_con_marca = {tuple(palabra) + ("_",): frecuencia for palabra, frecuencia in corpus.items()}
    cuentas = estudiante.get_stats(palabras_con_marca)
    esperado = sum((len(s) - 1) * f for s, f in palabras_con_marca.items())
    assert sum(cuentas.values()) == esperado, "cada par de vecinos suma la frecuencia de su palabra"


@given(simbolos=simbolos, par=pares)
def test_merge_pair_no_pierde_ni_alarga(estudiante, simbolos, par):
    """`merge_pair` nunca alarga la palabra, no cambia sus letras y no deja el par fusionado"""
    nueva = estudiante.merge_pair(simbolos, par)
    assert isinstance(nueva, tuple), "devuelve una tupla"
    assert len(nueva) <= len(simbolos), "fusionar nunca alarga la palabra"
    assert "".join(nueva) == "".join(simbolos), "las letras de la palabra no cambian, solo cómo se agrupan"
    assert par not in list(zip(nueva, nueva[1:])), "después de fusionar, el par no puede quedar en la palabra"


@given(corpus=corpus, fusiones=st.integers(0, 15))
def test_train_bpe_no_aprende_de_mas(estudiante, corpus, fusiones):
    """`train_bpe` devuelve como mucho num_merges fusiones, cada una un par de símbolos"""
    aprendidas = estudiante.train_bpe(corpus, fusiones)
    assert len(aprendidas) <= fusiones, "no se aprenden más fusiones de las pedidas"
    assert all(len(f) == 2 and all(isinstance(s, str) for s in f) for f in aprendidas), \
        "cada fusión es un par de símbolos (dos str)"


@given(corpus=corpus, palabra=palabras, fusiones=st.integers(0, 15), marca=st.sampled_from(["_", None]))
def test_tokenize_reconstruye_la_palabra(estudiante, corpus, palabra, fusiones, marca):
    """`tokenize`: unidas, las subpalabras dan la palabra (más la marca de fin), con las fusiones de tu train_bpe"""
    aprendidas = estudiante.train_bpe(corpus, fusiones, end=marca)
    piezas = estudiante.tokenize(palabra, aprendidas, end=marca)
    assert all(piezas), "ninguna subpalabra vacía"
    assert "".join(piezas) == palabra + (marca or ""), "unidas, las subpalabras deben dar la palabra y su marca"


@given(palabra=palabras, frecuencia=st.integers(1, 5))
def test_una_palabra_con_fusiones_de_sobra_queda_entera(estudiante, palabra, frecuencia):
    """Con un corpus de una sola palabra y fusiones de sobra, `tokenize` la deja en un único token"""
    aprendidas = estudiante.train_bpe({palabra: frecuencia}, len(palabra) + 1)
    assert estudiante.tokenize(palabra, aprendidas) == [palabra + "_"], \
        "las fusiones aprendidas de la palabra la reconstruyen entera"
