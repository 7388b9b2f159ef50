"""Propiedades públicas de «De los ids a los vectores»: reglas que cualquier solución correcta cumple.

Ninguna prueba compara con una solución: cada una enuncia una regla del enunciado y la
prueba con muchos ejemplos generados por hypothesis. Si una falla, el informe muestra el
ejemplo más pequeño que la rompe («Falsifying example»).
"""

from collections import Counter

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

numeros = st.floats(-10, 10, allow_nan=False, allow_infinity=False, allow_subnormal=False)


@st.composite
def dos_vectores(draw, dimension_maxima=6):
    d = draw(st.integers(1, dimension_maxima))
    return (np.array(draw(st.lists(numeros, min_size=d, max_size=d))),
            np.array(draw(st.lists(numeros, min_size=d, max_size=d))))


def no_nulo(v):
    return np.linalg.norm(v) > 1e-3


@given(vectores=dos_vectores(), escala=st.floats(0.1, 10))
def test_cosine_es_simetrico_y_esta_entre_menos_1_y_1(estudiante, vectores, escala):
    """`cosine` es simétrico, está entre -1 y 1, vale 1 con el propio vector y no depende de la longitud"""
    a, b = vectores
    assume(no_nulo(a) and no_nulo(b))
    c = estudiante.cosine(a, b)
    assert isinstance(c, float), "cosine devuelve un float, no un array"
    assert -1 - 1e-9 <= c <= 1 + 1e-9, "el coseno está entre -1 y 1"
    assert estudiante.cosine(b, a) == pytest.approx(c, abs=1e-9), "cosine(a, b) == cosine(b, a)"
    assert estudiante.cosine(a, a) == pytest.approx(1, abs=1e-9), "un vector forma un ángulo 0 consigo mismo: coseno 1"
    assert estudiante.cosine(a, escala * b) == pytest.approx(c, abs=1e-9), "alargar un vector no cambia el coseno"


@given(vectores=dos_vectores())
def test_cosine_rechaza_el_vector_cero(estudiante, vectores):
    """`cosine` lanza ValueError con el vector cero"""
    a, _ = vectores
    with pytest.raises(ValueError):
        estudiante.cosine(np.zeros_like(a), a)


@given(vectores=dos_vectores(), tercero=st.lists(numeros, min_size=6, max_size=6))
def test_euclidean_es_una_distancia(estudiante, vectores, tercero):
    """`euclidean`: 0 consigo mismo, simétrica, no negativa y con desigualdad triangular"""
    a, b = vectores
    c = np.array(tercero[: len(a)])
    assert estudiante.euclidean(a, a) == 0, "la distancia de un vector a sí mismo es 0"
    d = estudiante.euclidean(a, b)
    assert isinstance(d, float), "euclidean devuelve un float, no un array"
    assert d >= 0, "una distancia nunca es negativa"
    assert estudiante.euclidean(b, a) == pytest.approx(d, abs=1e-9), "euclidean(a, b) == euclidean(b, a)"
    assert d <= estudiante.euclidean(a, c) + estudiante.euclidean(c, b) + 1e-9, "desigualdad triangular"


@given(datos=st.data(), k=st.integers(1, 6))
def test_most_similar_nunca_devuelve_la_propia_palabra(estudiante, datos, k):
    """`most_similar` devuelve min(k, n - 1) palabras distintas, nunca la propia palabra"""
    palabras = datos.draw(st.lists(st.text("abcdef", min_size=1, max_size=3), min_size=2, max_size=7, unique=True))
    filas = datos.draw(st.lists(st.lists(st.integers(-3, 3), min_size=2, max_size=2).filter(any),
                                min_size=len(palabras), max_size=len(palabras)))
    palabra = datos.draw(st.sampled_from(palabras))
    vecinas = estudiante.most_similar(palabra, np.array(filas, dtype=float), palabras, k=k)
    assert isinstance(vecinas, list), "most_similar devuelve una lista de palabras"
    assert palabra not in vecinas, "la propia palabra nunca está en la respuesta"
    assert len(vecinas) == min(k, len(palabras) - 1), "devuelve k palabras (o todas las demás, si hay menos)"
    assert len(set(vecinas)) == len(vecinas) and set(vecinas) <= set(palabras), "palabras del vocabulario, sin repetir"


@given(cuentas=st.lists(st.integers(1, 1000), min_size=1, max_size=20), potencia=st.floats(0, 1))
def test_noise_distribution_es_una_distribucion(estudiante, cuentas, potencia):
    """`noise_distribution` suma 1, no tiene negativos, respeta el orden de las cuentas y no las modifica"""
    entrada = np.array(cuentas)
    p = estudiante.noise_distribution(entrada, power=potencia)
    assert entrada.tolist() == cuentas, "no modifica counts"
    assert isinstance(p, np.ndarray) and p.shape == (len(cuentas),), "un array con una probabilidad por palabra"
    assert float(np.sum(p)) == pytest.approx(1, abs=1e-9), "las probabilidades suman 1"
    assert all(x >= 0 for x in p), "ninguna probabilidad es negativa"
    orden = np.argsort(cuentas, kind="stable")
    assert all(p[i] <= p[j] + 1e-12 for i, j in zip(orden, orden[1:])), "una palabra más frecuente nunca es menos probable"


@given(frases=st.lists(st.lists(st.integers(0, 9), max_size=6), max_size=4), ventana=st.integers(1, 3))
def test_skipgram_pairs_es_simetrico(estudiante, frases, ventana):
    """`skipgram_pairs`: forma (n, 2), una pareja por vecino dentro de la ventana, y (a, b) con (b, a)"""
    pares = estudiante.skipgram_pairs(frases, window=ventana)
    assert isinstance(pares, np.ndarray) and pares.dtype.kind in "iu", "un array de enteros"
    esperadas = sum(min(i, ventana) + min(len(f) - 1 - i, ventana) for f in frases for i in range(len(f)))
    assert pares.shape == (esperadas, 2), "una fila por cada vecino a distancia <= window dentro de su frase"
    filas = [tuple(fila) for fila in pares.tolist()]
    assert Counter(filas) == Counter((b, a) for a, b in filas), "si b es contexto de a, a es contexto de b"


@given(datos=st.data())
def test_sgns_gradiente_coincide_con_la_derivada_numerica(estudiante, datos):
    """`sgns_loss_and_grads`: pérdida no negativa y grad_v_c igual a la derivada numérica"""
    d = datos.draw(st.integers(1, 4))
    k = datos.draw(st.integers(1, 3))
    pequenos = st.floats(-2, 2, allow_nan=False, allow_subnormal=False)
    v_c = np.array(datos.draw(st.lists(pequenos, min_size=d, max_size=d)))
    u_o = np.array(datos.draw(st.lists(pequenos, min_size=d, max_size=d)))
    u_neg = np.array(datos.draw(st.lists(st.lists(pequenos, min_size=d, max_size=d), min_size=k, max_size=k)))
    perdida, grad_v_c, grad_u_o, grad_u_neg = estudiante.sgns_loss_and_grads(v_c, u_o, u_neg)
    assert isinstance(perdida, float), "la pérdida es un float, no un array"
    assert perdida >= 0, "la pérdida es una suma de -log σ(...), nunca negativa"
    assert np.shape(grad_v_c) == (d,) and np.shape(grad_u_o) == (d,) and np.shape(grad_u_neg) == (k, d), \
        "formas (d,), (d,) y (K, d)"
    h = 1e-6
    for i in range(d):
        paso = np.zeros(d)
        paso[i] = h
        numerica = (estudiante.sgns_loss_and_grads(v_c + paso, u_o, u_neg)[0]
                    - estudiante.sgns_loss_and_grads(v_c - paso, u_o, u_neg)[0]) / (2 * h)
        assert grad_v_c[i] == pytest.approx(numerica, rel=1e-4, abs=1e-5), \
            f"grad_v_c[{i}] no coincide con la derivada numérica de la pérdida"


@given(datos=st.data())
def test_embed_devuelve_las_filas_pedidas(estudiante, datos):
    """`embed` devuelve la fila E[i] de cada id, en orden, y lanza IndexError fuera de la tabla"""
    filas, columnas = datos.draw(st.integers(1, 5)), datos.draw(st.integers(1, 4))
    E = np.arange(filas * columnas, dtype=float).reshape(filas, columnas)
    ids = datos.draw(st.lists(st.integers(0, filas - 1), max_size=8))
    resultado = estudiante.embed(ids, E)
    assert isinstance(resultado, np.ndarray), "embed devuelve un array de numpy"
    assert resultado.shape == (len(ids), columnas), "una fila por id, de d columnas"
    assert all((resultado[k] == E[i]).all() for k, i in enumerate(ids)), "la fila k es E[ids[k]]"
    fuera = datos.draw(st.sampled_from([filas, filas + 3, -1, -filas]))
    with pytest.raises(IndexError):
        estudiante.embed([fuera], E)


@given(puntos=st.lists(st.lists(st.integers(-5, 5), min_size=2, max_size=2), min_size=2, max_size=8))
def test_distance_ratio_es_al_menos_1(estudiante, puntos):
    """`distance_ratio` nunca es menor que 1"""
    assume(all(p != puntos[0] for p in puntos[1:]))
    razon = estudiante.distance_ratio(np.array(puntos, dtype=float))
    assert isinstance(razon, float), "distance_ratio devuelve un float, no un array"
    assert razon >= 1 - 1e-12, \
        "el más lejano nunca está más cerca que el más cercano"
