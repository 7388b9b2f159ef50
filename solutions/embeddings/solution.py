"""De los ids a los vectores: solución de referencia.

Cada id de token selecciona una fila de la tabla de embeddings. Word2vec (skip-gram con
muestreo negativo) aprende esas filas a partir del contexto, y la similitud coseno las
compara mirando direcciones, no longitudes.
"""

import numpy as np


def embedding_params(vocab_size, dim):
    """Número de parámetros de una tabla de embeddings de `vocab_size` filas y `dim` columnas.

    Cada token del vocabulario tiene su propio vector de `dim` números, así que la tabla
    guarda vocab_size · dim números. Devuelve un int.

    >>> embedding_params(50257, 768)
    38597376
    """
    return vocab_size * dim


def embed(ids, E):
    """Las filas de `E` que corresponden a `ids`, en el mismo orden: un array de len(ids) x d.

    Cada id debe cumplir 0 <= id < len(E); si alguno no lo cumple, lanza IndexError.
    Los ids negativos también son un error: en numpy, E[-1] daría la última fila sin avisar.
    Sin ids, el resultado tiene 0 filas y d columnas.

    >>> embed([2, 0, 2], np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
    array([[4., 5.],
           [0., 1.],
           [4., 5.]])
    """
    E = np.asarray(E)
    for i in ids:
        if not 0 <= i < len(E):
            raise IndexError(f"el id {i} no tiene fila en una tabla de {len(E)} filas")
    return E[np.asarray(ids, dtype=np.int64)]


def cosine(a, b):
    """Similitud coseno de los vectores `a` y `b`: a·b / (|a| |b|), un float entre -1 y 1.

    Solo depende de la dirección: cosine(a, 3 * b) == cosine(a, b). Lanza ValueError si
    alguno de los dos es el vector cero o si no tienen la misma forma.

    >>> round(cosine(np.array([0.8, 0.6]), np.array([0.2, 0.9])), 3)
    0.759
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"los vectores tienen formas distintas: {a.shape} y {b.shape}")
    norm_a, norm_b = np.linalg.norm(a), np.linalg.norm(b)
    if norm_a == 0 or norm_b == 0:
        raise ValueError("la similitud coseno no está definida para el vector cero")
    return float(np.sum(a * b) / (norm_a * norm_b))


def euclidean(a, b):
    """Distancia euclídea entre `a` y `b`: la raíz de la suma de los cuadrados de las diferencias.

    >>> round(euclidean(np.array([0.8, 0.6]), np.array([0.2, 0.9])), 3)
    0.671
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    return float(np.sqrt(np.sum((a - b) ** 2)))


def most_similar(word, W, words, k=4):
    """Las `k` palabras más parecidas a `word`, de la más a la menos parecida.

    La fila i de `W` es el vector de words[i]. Se compara por similitud coseno (usa
    `cosine`) y la propia `word` nunca está en la respuesta, aunque otra palabra tenga
    exactamente su misma dirección. Si dos palabras empatan, va antes la que aparece
    antes en `words`.

    >>> most_similar("a", np.array([[1.0, 0.0], [0.0, 1.0], [5.0, 1.0]]), ["a", "b", "c"], k=1)
    ['c']
    """
    W = np.asarray(W, dtype=float)
    target = words.index(word)
    scores = [(cosine(W[i], W[target]), i) for i in range(len(words)) if i != target]
    scores.sort(key=lambda score: -score[0])  # sort is stable: ties keep the order of `words`
    return [words[i] for _, i in scores[:k]]


def noise_distribution(counts, power=0.75):
    """Distribución de muestreo negativo de word2vec: counts**power, normalizada a suma 1.

    Devuelve un array de floats con una probabilidad por palabra. Con power = 0.75, las
    palabras raras salen más a menudo que con su frecuencia relativa (power = 1).
    No modifica `counts`.

    >>> noise_distribution([16, 1]).tolist()
    [0.8888888888888888, 0.1111111111111111]
    """
    weights = np.asarray(counts, dtype=float) ** power
    return weights / weights.sum()


def skipgram_pairs(sentences, window=2):
    """Parejas (centro, contexto) de skip-gram: un array de enteros de forma (n, 2).

    Para cada frase, para cada posición i (el centro) y para cada posición j con
    0 < |i - j| <= window dentro de la misma frase (el contexto), una fila
    (sentence[i], sentence[j]). Orden: frase, posición del centro, posición del contexto.
    La ventana se recorta en los bordes de la frase y nunca pasa a otra frase. Una
    palabra no es su propio contexto, pero la misma palabra en otra posición sí lo es.
    Sin parejas, el resultado tiene forma (0, 2).

    >>> skipgram_pairs([[10, 11, 12]], window=1).tolist()
    [[10, 11], [11, 10], [11, 12], [12, 11]]
    """
    pairs = []
    for sentence in sentences:
        for i, center in enumerate(sentence):
            for j in range(max(0, i - window), min(len(sentence), i + window + 1)):
                if j != i:
                    pairs.append((center, sentence[j]))
    return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)


def sgns_loss_and_grads(v_c, u_o, u_neg):
    """Pérdida de skip-gram con muestreo negativo para un centro, su contexto y K negativas.

    v_c: vector del centro (d,); u_o: vector de contexto de la palabra vecina (d,);
    u_neg: vectores de contexto de las K muestras negativas (K, d). Con σ la sigmoide,

        pérdida = -log σ(u_o·v_c) - Σ_k log σ(-u_k·v_c)

    calculada de forma estable: -log σ(x) = np.logaddexp(0, -x), sin desbordar ni con
    productos escalares de ±1000. Devuelve (pérdida, grad_v_c, grad_u_o, grad_u_neg),
    un float y tres arrays de formas (d,), (d,) y (K, d).

    >>> loss, g_v, g_o, g_neg = sgns_loss_and_grads(np.array([1.0, 1.0]), np.array([1.0, -1.0]), np.array([[2.0, -2.0]]))
    >>> round(loss, 4), g_v.tolist(), g_o.tolist(), g_neg.tolist()
    (1.3863, [0.5, -0.5], [-0.5, -0.5], [[0.5, 0.5]])
    """
    v_c = np.asarray(v_c, dtype=float)
    u_o = np.asarray(u_o, dtype=float)
    u_neg = np.asarray(u_neg, dtype=float)
    score_o = u_o @ v_c  # should become large
    score_neg = u_neg @ v_c  # (K,), should become very negative
    loss = np.logaddexp(0, -score_o) + np.sum(np.logaddexp(0, score_neg))
    # d/dx [-log σ(x)] = σ(x) - 1 and d/dx [-log σ(-x)] = σ(x); σ(x) = exp(-logaddexp(0, -x)) never overflows.
    g_o = np.exp(-np.logaddexp(0, -score_o)) - 1
    g_neg = np.exp(-np.logaddexp(0, -score_neg))
    grad_v_c = g_o * u_o + g_neg @ u_neg
    grad_u_o = g_o * v_c
    grad_u_neg = np.outer(g_neg, v_c)
    return float(loss), grad_v_c, grad_u_o, grad_u_neg


def distance_ratio(points):
    """Distancia al punto más lejano dividida por la distancia al más cercano, vistas desde points[0].

    `points` tiene un punto por fila; se comparan points[1:] con points[0] usando
    `euclidean`. El resultado es siempre >= 1; cuanto más cerca de 1, más parecidas son
    todas las distancias.

    >>> distance_ratio(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 3.0], [-2.0, 0.0]]))
    3.0
    """
    points = np.asarray(points, dtype=float)
    distances = [euclidean(points[0], p) for p in points[1:]]
    return max(distances) / min(distances)
