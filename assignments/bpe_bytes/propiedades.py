"""Propiedades públicas de «BPE a nivel de bytes»: reglas que cualquier solución correcta cumple.

Ninguna prueba compara con una solución: cada una enuncia una regla del enunciado y la
prueba con muchos ejemplos generados por hypothesis. Si una falla, el informe muestra el
ejemplo más pequeño que la rompe («Falsifying example»).
"""

import pytest
from hypothesis import given, strategies as st

textos = st.text(max_size=40)
ids_pequenos = st.lists(st.integers(0, 5), max_size=30)
pares_pequenos = st.tuples(st.integers(0, 5), st.integers(0, 5))


@given(ids=ids_pequenos)
def test_get_stats_cuenta_cada_par_de_vecinos(estudiante, ids):
    """`get_stats` cuenta len(ids) - 1 pares de vecinos, solapados"""
    cuentas = estudiante.get_stats(list(ids))
    assert sum(cuentas.values()) == max(len(ids) - 1, 0), "cada posición (menos la última) empieza un par"


@given(ids=ids_pequenos, par=pares_pequenos)
def test_merge_nunca_alarga_la_lista(estudiante, ids, par):
    """`merge` nunca alarga la lista, no la modifica y no deja el par fusionado"""
    entrada = list(ids)
    nueva = list(estudiante.merge(entrada, par, 256))
    assert entrada == ids, "merge no debe modificar la lista que recibe"
    assert len(nueva) <= len(ids), "fusionar nunca alarga la lista"
    assert len(nueva) + nueva.count(256) == len(ids), "cada 256 ocupa el lugar de exactamente dos ids"
    assert par not in list(zip(nueva, nueva[1:])), "después de fusionar, el par no puede quedar en la lista"


@given(texto=textos, fusiones=st.integers(0, 12))
def test_train_bpe_numera_las_fusiones_desde_256(estudiante, texto, fusiones):
    """`train_bpe` aprende como mucho vocab_size - 256 fusiones, con ids 256, 257, ..."""
    aprendidas = estudiante.train_bpe(texto, 256 + fusiones)
    assert len(aprendidas) <= fusiones, "no se aprenden más de vocab_size - 256 fusiones"
    assert sorted(aprendidas.values()) == list(range(256, 256 + len(aprendidas))), \
        "la fusión k-ésima recibe el id 256 + k, sin huecos"


@given(tamano=st.integers(0, 255))
def test_train_bpe_rechaza_un_vocabulario_menor_que_256(estudiante, tamano):
    """`train_bpe` lanza ValueError si vocab_size < 256"""
    with pytest.raises(ValueError):
        estudiante.train_bpe("abc", tamano)


@given(texto=textos, otro=textos, fusiones=st.integers(0, 12))
def test_decode_deshace_encode(estudiante, texto, otro, fusiones):
    """decode(encode(texto, fusiones), build_vocab(fusiones)) devuelve el texto, con las fusiones de tu train_bpe"""
    aprendidas = estudiante.train_bpe(texto + otro, 256 + fusiones)
    vocab = estudiante.build_vocab(aprendidas)
    assert len(vocab) == 256 + len(aprendidas), "el vocabulario tiene los 256 bytes y una entrada por fusión"
    ids = estudiante.encode(texto, aprendidas)
    assert len(ids) <= len(texto.encode("utf-8")), "codificar nunca da más ids que bytes"
    assert estudiante.decode(ids, vocab) == texto, "decodificar lo codificado devuelve el texto original"


@given(texto=textos.filter(bool), fusiones=st.integers(0, 12))
def test_compression_ratio_es_al_menos_1(estudiante, texto, fusiones):
    """`compression_ratio` vale 1 sin fusiones y nunca menos de 1"""
    bytes_utf8 = list(texto.encode("utf-8"))
    assert estudiante.compression_ratio(texto, bytes_utf8) == 1, "sin fusiones, un token por byte"
    ids = estudiante.encode(texto, estudiante.train_bpe(texto, 256 + fusiones))
    assert estudiante.compression_ratio(texto, ids) >= 1, "cada token tiene al menos un byte"
