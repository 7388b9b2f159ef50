"""Hidden suite for `embeddings`.

One misconception per test, each with its Spanish hint. A test that a do-nothing
function could pass (an error case, a shape on empty input, a relation between two
calls) `requires` the function's basic test. Fixed cases are never shown to the
student; the `property` tests compare with the reference on generated input and may
show their shrunk counterexample. While `most_similar` is graded the student's `cosine`
is replaced by the reference, and while `distance_ratio` is graded their `euclidean`
is (DEPENDS_ON), so one bug costs points in one place only.

Every float comparison states its tolerance. Gradients are checked against central
finite differences of the loss (computed here, on the reference loss) and against the
reference gradients.
"""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from autograder.grading.expect import INT, NUMBER, STR, Array, ListOf, Tuple, answers_afresh, checked_student, leaves_alone
from autograder.grading.plugin import Feedback

# What each function returns (the spec): every answer is checked against it, deeply, before any
# test compares it, so no answer of the wrong type or shape passes a test by comparing vacuously
# (np.empty(0) == approx(x); a 0-d array or np.full(3, x) where a float is due). Shapes that the
# arguments fix are checked here; the gradients' shapes are charged by test_sgns_output_shapes.
RETURNS = {
    "embedding_params": INT,
    "embed": lambda a: Array((len(a["ids"]), np.shape(a["E"])[1])),
    "cosine": NUMBER,
    "euclidean": NUMBER,
    "most_similar": ListOf(STR),
    "noise_distribution": lambda a: Array((len(a["counts"]),)),
    # An empty answer's shape and dtype are charged by test_skipgram_pairs_none and _none_are_integers only.
    "skipgram_pairs": Array((None, 2), integers=True, empty_left_to_its_test=True),
    "sgns_loss_and_grads": Tuple(NUMBER, Array(), Array(), Array(), also_list=True),
    "distance_ratio": NUMBER,
}
# The inputs the lesson defines, per function (`a`: the call's arguments by name). The audit replays
# every call of this suite against them (tests/test_clauses.py): nothing outside them is graded.
DOMAIN = {
    "embedding_params": lambda a: _whole(a["vocab_size"]) and _whole(a["dim"]),
    # §2: an id outside 0 <= id < len(E) is an IndexError the lesson states.
    "embed": lambda a: np.ndim(a["E"]) == 2 and all(_integer(i) for i in np.ravel(np.asarray(a["ids"], dtype=object))),
    # §3: the zero vector and different shapes are ValueErrors the lesson states.
    "cosine": lambda a: _vector(a["a"]) and _vector(a["b"]),
    "euclidean": lambda a: _vector(a["a"]) and _vector(a["b"]) and np.shape(a["a"]) == np.shape(a["b"]),
    # §4: `word` is one of `words` (each once), a row of W per word, none of them the zero vector
    # (cosine refuses it), and at most every other word asked for.
    "most_similar": lambda a: _distinct(a["words"]) and a["word"] in a["words"]
                              and np.shape(a["W"])[0] == len(a["words"])
                              and all(np.any(np.asarray(row) != 0) for row in a["W"])
                              and _whole(a["k"], 0) and a["k"] <= len(a["words"]) - 1,
    # §5.1: counts of words (not all zero) raised to a power.
    "noise_distribution": lambda a: np.ndim(a["counts"]) == 1 and len(a["counts"]) > 0
                                    and all(c >= 0 for c in np.asarray(a["counts"]).tolist())
                                    and np.sum(a["counts"]) > 0 and _number(a["power"]),
    # §5.2: sentences of ids and a window of at least one position.
    "skipgram_pairs": lambda a: all(all(_integer(i) for i in s) for s in a["sentences"]) and _whole(a["window"]),
    # §5.3: v_c and u_o of d numbers, u_neg of K x d.
    "sgns_loss_and_grads": lambda a: _vector(a["v_c"]) and np.shape(a["u_o"]) == np.shape(a["v_c"])
                                     and np.ndim(a["u_neg"]) == 2 and np.shape(a["u_neg"])[1] == len(a["v_c"]),
    # §6: points[0] and at least one other point, none of them at distance 0 from it.
    "distance_ratio": lambda a: np.ndim(a["points"]) == 2 and len(a["points"]) >= 2 and all(
        np.any(np.asarray(p) != np.asarray(a["points"][0])) for p in a["points"][1:]),
}


def _integer(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _whole(value, least=1):
    return _integer(value) and value >= least


def _number(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _vector(value):
    return np.ndim(value) == 1


def _distinct(values):
    values = list(values)
    return len(set(values)) == len(values)


student = checked_student(RETURNS, DOMAIN)

DEPENDS_ON = {"most_similar": ("cosine",), "distance_ratio": ("euclidean",)}

# The lesson's rules for the graded functions (§ = its section), each with the hidden tests that pin
# it. `autograder audit` checks both ways (every test pins a rule) and that buggy.py breaks each one
# alone with one of those tests' hints first.
CLAUSES = {
    "embedding_params.product": (
        "§1: una tabla de vocab_size filas y dim columnas tiene vocab_size × dim parámetros",
        {"test_embedding_params_gpt2", "test_embedding_params_other_sizes"}),
    "embed.rows": (
        "§2: devuelve las filas de E de los ids, en su orden y con repeticiones, como un array nuevo de forma "
        "(len(ids), d); sin ids, forma (0, d)",
        {"test_embed_returns_rows_in_order", "test_embed_empty_ids", "test_embed_matches_reference"}),
    "embed.past_the_end": (
        "§2: un id que no cumple 0 <= id < len(E) lanza IndexError", {"test_embed_rejects_ids_past_the_end"}),
    "embed.negative": (
        "§2: un id negativo también lanza IndexError (E[-1] daría la última fila sin avisar)",
        {"test_embed_rejects_negative_ids"}),
    "cosine.formula": (
        "§3: cos = a · b / (|a| |b|), un float: no depende de la longitud de los vectores",
        {"test_cosine_published_values", "test_cosine_ignores_length", "test_cosine_matches_reference"}),
    "cosine.sign": (
        "§3: va de -1 (opuestos) a 1; 0 para perpendiculares", {"test_cosine_opposite_and_orthogonal"}),
    "cosine.zero_vector": (
        "§3: el vector cero lanza ValueError", {"test_cosine_rejects_zero_vector"}),
    "cosine.shapes": (
        "§3: vectores de formas distintas lanzan ValueError (sin broadcasting)", {"test_cosine_rejects_mismatched_shapes"}),
    "euclidean.formula": (
        "§3: la raíz de la suma de los cuadrados de las diferencias, un float",
        {"test_euclidean_published_values", "test_euclidean_takes_the_square_root", "test_euclidean_matches_reference"}),
    "euclidean.difference": (
        "§3: es la longitud de a - b (simétrica y nunca negativa), no la diferencia de longitudes",
        {"test_euclidean_symmetric_and_non_negative"}),
    "most_similar.descending": (
        "§4: las k palabras de mayor coseno con `word`, de la más a la menos parecida",
        {"test_most_similar_most_similar_first", "test_most_similar_matches_reference"}),
    "most_similar.excludes_word": (
        "§4: sin incluir a `word`, quitada por su posición en `words` (otra palabra puede tener coseno 1)",
        {"test_most_similar_excludes_the_word_even_when_tied"}),
    "most_similar.by_cosine": (
        "§4: se ordena por coseno, no por distancia ni por producto escalar", {"test_most_similar_ranks_by_cosine"}),
    "most_similar.stable_ties": (
        "§4: si dos palabras empatan, va antes la que aparece antes en `words`",
        {"test_most_similar_ties_keep_the_order_of_words"}),
    "noise_distribution.normalised": (
        "§5.1: P(w) = cuenta(w)^0.75 / Σ cuenta(w')^0.75: se eleva cada cuenta y se normaliza para que sume 1",
        {"test_noise_distribution_proportional_to_counts_power", "test_noise_distribution_sums_to_one",
         "test_noise_distribution_matches_reference"}),
    "noise_distribution.power": (
        "§5.1: la potencia es el argumento `power` (0.75 por defecto)", {"test_noise_distribution_uses_power"}),
    "noise_distribution.floats": (
        "§5.1: las cuentas pueden llegar como enteros: el resultado son probabilidades float",
        {"test_noise_distribution_integer_power"}),
    "skipgram_pairs.both_sides": (
        "§5.2: para cada centro, los contextos a distancia 1..window a los dos lados; cada pareja una fila "
        "(centro, contexto)", {"test_skipgram_pairs_small_sentence", "test_skipgram_pairs_both_sides",
                               "test_skipgram_pairs_matches_reference"}),
    "skipgram_pairs.never_itself": (
        "§5.2: una posición nunca forma pareja consigo misma (0 < |i - j|)", {"test_skipgram_pairs_never_itself"}),
    "skipgram_pairs.clipped": (
        "§5.2: la ventana se recorta en los bordes de la frase: no da la vuelta",
        {"test_skipgram_pairs_window_clipped_at_edges"}),
    "skipgram_pairs.row_order": (
        "§5.2: filas (centro, contexto), centros en orden y contextos de izquierda a derecha",
        {"test_skipgram_pairs_row_order"}),
    "skipgram_pairs.default_window": (
        "§5.2: la ventana por defecto es 2", {"test_skipgram_pairs_default_window"}),
    "skipgram_pairs.sentences_apart": (
        "§5.2: la ventana no pasa del final de una frase a la siguiente", {"test_skipgram_pairs_sentences_stay_apart"}),
    "skipgram_pairs.positions": (
        "§5.2: se excluye la misma posición, no el mismo id: una palabra repetida forma pareja consigo",
        {"test_skipgram_pairs_repeated_word"}),
    "skipgram_pairs.empty": (
        "§5.2: sin parejas, un array de enteros de forma (0, 2)",
        {"test_skipgram_pairs_none", "test_skipgram_pairs_none_are_integers"}),
    "sgns_loss_and_grads.loss": (
        "§5.3: L = -log σ(u_o · v_c) - Σ_k log σ(-u_k · v_c): las negativas se suman, no se promedian",
        {"test_sgns_loss_value", "test_sgns_matches_reference"}),
    "sgns_loss_and_grads.grad_u_o": (
        "§5.3: ∇u_o L = (σ(u_o · v_c) - 1) v_c, negativa", {"test_sgns_grad_u_o"}),
    "sgns_loss_and_grads.grad_u_neg": (
        "§5.3: ∇u_k L = σ(u_k · v_c) v_c, positiva: una fila de gradiente por cada negativa (K × d)",
        {"test_sgns_grad_u_neg", "test_sgns_output_shapes"}),
    "sgns_loss_and_grads.grad_v_c": (
        "§5.3: ∇v_c L = (σ(u_o · v_c) - 1) u_o + Σ_k σ(u_k · v_c) u_k", {"test_sgns_grad_v_c"}),
    "sgns_loss_and_grads.stable": (
        "§5.3: sin desbordamientos: -log σ(x) = logaddexp(0, -x)", {"test_sgns_stable_for_large_scores"}),
    "distance_ratio.farthest_over_nearest": (
        "§6: la distancia euclídea al más lejano dividida por la distancia al más cercano",
        {"test_distance_ratio_farthest_over_nearest", "test_distance_ratio_matches_reference"}),
    "distance_ratio.from_first_point": (
        "§6: las distancias se miden desde points[0] hasta cada uno de los demás",
        {"test_distance_ratio_seen_from_the_first_point"}),
    "most_similar.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_most_similar_leaves_its_arguments_alone"}),
    "most_similar.afresh": ("§Cómo se califica: el resultado depende solo de los argumentos de cada llamada", {"test_most_similar_answers_each_call_afresh"}),
    "skipgram_pairs.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_skipgram_pairs_leaves_its_arguments_alone"}),
    "noise_distribution.leaves_arguments": ("§Cómo se califica: la función deja sus argumentos como estaban", {"test_noise_distribution_leaves_its_arguments_alone"}),
}

# Tests whose inputs are the lesson's own worked examples (the release's visible checks): a table of
# those examples passes them, so they earn their own points but no share of a catch-all test.
# `autograder audit` checks this list against such a table.
PUBLISHED_EXAMPLES = {
    "test_cosine_published_values",
    "test_embedding_params_gpt2",
    "test_euclidean_published_values",
    "test_noise_distribution_proportional_to_counts_power",
    "test_skipgram_pairs_small_sentence",
}

grade = pytest.mark.grade
requires = pytest.mark.requires

DOCTOR, MEDICO, COCHE = np.array([0.8, 0.6]), np.array([0.7, 0.5]), np.array([0.2, 0.9])
TIGHT = {"rel": 1e-9, "abs": 1e-12}  # one float computed in a different order
GRADIENT = {"rel": 1e-5, "abs": 1e-7}  # central differences with h = 1e-6

coordinates = st.integers(-300, 300).map(lambda n: n / 100)  # two decimals: readable counterexamples


def vectors(dim):
    return st.lists(coordinates, min_size=dim, max_size=dim)


def expect_type(value, kind, what):
    """An instance of `kind` (a subclass too: np.float64 is a float, a NamedTuple a tuple); a bool is no number."""
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, float)):
        name = "array de numpy" if kind is np.ndarray else kind.__name__
        raise Feedback(f"{what} debe devolver un {name}, no un {type(value).__name__}.")
    return value


def expect_number(value, what):
    """One number (int or float, numpy scalars too), not an array: for tests about the value, not the type."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Feedback(f"{what} debe devolver un número, no un {type(value).__name__}.")
    return value


def expect_shape(value, shape, what):
    """An array of the expected shape; the message names only the number of dimensions, which the spec fixes."""
    expect_type(value, np.ndarray, what)
    if value.ndim != len(shape):
        raise Feedback(f"{what} devolvió un array de {value.ndim} dimensión(es); debería tener {len(shape)}.")
    if value.shape != shape:
        raise Feedback(f"{what} devolvió un array con las dimensiones correctas pero con un número de filas o "
                       "columnas distinto del esperado.")


def show(value):
    """A short, readable form of a value for property feedback (generated inputs are not secret)."""
    if isinstance(value, float):
        return f"{value:.10g}"
    if isinstance(value, (np.ndarray, list, tuple)):
        try:
            array = np.asarray(value)
            if array.dtype.kind in "iu":
                return repr(array.tolist())[:400]
            if array.dtype.kind == "f":
                return repr(np.round(array, 6).tolist())[:400]
        except (TypeError, ValueError):
            pass
    return repr(value)[:400]


def expect_same(value, expected, close=False, what=""):
    """Property tests only: equal (or equal within TIGHT), shown side by side when not."""
    if close:
        try:
            same = np.shape(value) == np.shape(expected) and np.asarray(value, dtype=float) == pytest.approx(
                np.asarray(expected, dtype=float), **TIGHT)
        except (TypeError, ValueError):
            same = False
    else:
        same = value == expected
    if not same:
        label = f" ({what})" if what else ""
        raise Feedback(f"El resultado no es el esperado.\nTu función devolvió{label}: {show(value)}\n"
                       f"Se esperaba{label}:        {show(expected)}")


def numeric_gradient(loss, x, h=1e-6):
    """Central differences of a scalar function at x (any shape)."""
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = h
        grad[index] = (loss(x + step) - loss(x - step)) / (2 * h)
    return grad


# --- embedding_params -------------------------------------------------------------------

@grade("embedding_params", weight=2, hint="La tabla tiene una fila de `dim` números por cada token: "
                                          "vocab_size * dim parámetros, como un int.")
def test_embedding_params_gpt2(student):
    """GPT-2 pequeño: 50 257 tokens x 768 dimensiones"""
    result = student.embedding_params(50257, 768)
    expect_type(result, int, "embedding_params")
    assert result == 38_597_376


@grade("embedding_params", hint="Multiplica vocab_size por dim para cualquier tamaño, no solo para GPT-2.")
def test_embedding_params_other_sizes(student):
    """otros tamaños de vocabulario y de embedding"""
    assert expect_number(student.embedding_params(10, 3), "embedding_params") == 30
    assert expect_number(student.embedding_params(32000, 4096), "embedding_params") == 131_072_000
    assert expect_number(student.embedding_params(1, 1), "embedding_params") == 1


# --- embed ------------------------------------------------------------------------------

E_SMALL = np.arange(15.0).reshape(5, 3) - 7.0


@grade("embed", weight=2, hint="Devuelve E[ids]: una fila de E por cada id, en el mismo orden y con repeticiones.")
def test_embed_returns_rows_in_order(student):
    """devuelve las filas de E en el orden de los ids"""
    result = student.embed([3, 0, 3, 4], E_SMALL)
    expect_shape(result, (4, 3), "embed")
    assert result.tolist() == E_SMALL[[3, 0, 3, 4]].tolist()


@grade("embed", hint="Sin ids el resultado es un array de 0 filas y d columnas, forma (0, d); np.array([]) tiene "
                     "forma (0,). Indexar E con un array de enteros vacío da la forma correcta.")
@pytest.mark.requires("test_embed_returns_rows_in_order")
def test_embed_empty_ids(student):
    """sin ids: un array de forma (0, d)"""
    result = student.embed([], E_SMALL)
    expect_shape(result, (0, 3), "embed")


@grade("embed", hint="Un id mayor o igual que len(E) no tiene fila: lanza IndexError, no lo recortes a la última fila.")
@pytest.mark.requires("test_embed_returns_rows_in_order")
def test_embed_rejects_ids_past_the_end(student):
    """un id >= len(E) lanza IndexError"""
    with pytest.raises(IndexError):
        student.embed([5], E_SMALL)
    with pytest.raises(IndexError):
        student.embed([1, 40], E_SMALL)


@grade("embed", hint="Un id negativo es un error: lanza IndexError. En numpy E[-1] es la última fila, así que "
                     "comprueba tú mismo que 0 <= id < len(E).")
@pytest.mark.requires("test_embed_returns_rows_in_order")
def test_embed_rejects_negative_ids(student):
    """un id negativo lanza IndexError (sin dar la vuelta)"""
    with pytest.raises(IndexError):
        student.embed([-1], E_SMALL)
    with pytest.raises(IndexError):
        student.embed([0, 2, -5], E_SMALL)


@grade("embed", weight=2, hint="Compara con el contraejemplo: una fila de E por id, en orden.", backstop=True)
@given(rows=st.integers(1, 6), dim=st.integers(1, 4), data=st.data())
def test_embed_matches_reference(student, reference, rows, dim, data):
    """coincide con la referencia en tablas generadas"""
    E = np.array(data.draw(st.lists(vectors(dim), min_size=rows, max_size=rows), label="E"))
    ids = data.draw(st.lists(st.integers(0, rows - 1), max_size=8), label="ids")
    result = student.embed(ids, E)
    expect_shape(result, (len(ids), dim), "embed")
    expect_same(result.tolist(), reference.embed(ids, E).tolist())


# --- cosine -----------------------------------------------------------------------------

@grade("cosine", weight=2, hint="cos(a, b) = a·b / (|a| |b|): el producto escalar dividido por el producto de las "
                                "dos normas.")
def test_cosine_published_values(student):
    """reproduce los valores publicados: 1.000 y 0.759"""
    near, far = student.cosine(DOCTOR, MEDICO), student.cosine(DOCTOR, COCHE)
    expect_type(near, float, "cosine")
    assert round(near, 3) == 1.0 and round(far, 3) == 0.759
    assert near == pytest.approx(0.86 / math.sqrt(0.74), **TIGHT)
    assert far == pytest.approx(0.70 / math.sqrt(0.85), **TIGHT)


@grade("cosine", hint="El coseno no depende de la longitud: divide por |a| y por |b|. Multiplicar un vector por 3 "
                      "no debe cambiar el resultado.")
def test_cosine_ignores_length(student):
    """escalar un vector no cambia el coseno"""
    assert expect_number(student.cosine(DOCTOR, 3 * MEDICO), "cosine") == pytest.approx(
        0.86 / math.sqrt(0.74), **TIGHT)
    assert expect_number(student.cosine(np.array([0.02, 0.0, 0.0]), np.array([5.0, 0.0, 5.0])),
                         "cosine") == pytest.approx(math.sqrt(0.5), **TIGHT)


@grade("cosine", hint="El coseno va de -1 a 1: vectores opuestos dan -1 y perpendiculares 0. No tomes el valor "
                      "absoluto ni recortes los negativos.")
def test_cosine_opposite_and_orthogonal(student):
    """vectores opuestos dan -1 y perpendiculares 0"""
    # Unit vectors: this test is about the sign, not about the normalisation.
    for a, b, expected in ((np.array([0.6, 0.8]), np.array([-0.6, -0.8]), -1.0),
                           (np.array([1.0, 0.0]), np.array([0.0, 5.0]), 0.0),
                           (np.array([1.0, 0.0]), np.array([-0.6, 0.8]), -0.6)):
        assert expect_number(student.cosine(a, b), "cosine") == pytest.approx(expected, **TIGHT)


@grade("cosine", hint="Con el vector cero el coseno no está definido (se dividiría por 0): lanza ValueError "
                      "en lugar de devolver nan.")
@pytest.mark.requires("test_cosine_published_values")
def test_cosine_rejects_zero_vector(student):
    """el vector cero lanza ValueError"""
    with pytest.raises(ValueError):
        student.cosine(np.zeros(3), np.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):
        student.cosine(np.array([0.5, -1.0]), np.zeros(2))


@grade("cosine", hint="Comprueba que a y b tienen la misma forma y, si no, lanza ValueError: numpy podría "
                      "'estirar' (broadcasting) un vector de longitud 1 sin avisar.")
@pytest.mark.requires("test_cosine_published_values")
def test_cosine_rejects_mismatched_shapes(student):
    """formas distintas lanzan ValueError"""
    with pytest.raises(ValueError):
        student.cosine(np.array([2.0]), np.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):
        student.cosine(np.array([1.0, 2.0]), np.array([1.0, 2.0, 3.0]))


@grade("cosine", weight=2, hint="Compara con el contraejemplo: a·b / (|a| |b|).", backstop=True)
@given(dim=st.integers(1, 6), data=st.data())
def test_cosine_matches_reference(student, reference, dim, data):
    """coincide con la referencia en vectores generados"""
    a = data.draw(vectors(dim), label="a")
    b = data.draw(vectors(dim), label="b")
    assume(any(a) and any(b))
    expect_same(student.cosine(np.array(a), np.array(b)), reference.cosine(np.array(a), np.array(b)), close=True)


# --- euclidean --------------------------------------------------------------------------

@grade("euclidean", weight=2, hint="d(a, b) = raíz de la suma de los cuadrados de las diferencias, coordenada a "
                                   "coordenada.")
def test_euclidean_published_values(student):
    """reproduce los valores publicados: 0.141, 0.671 y 1.581"""
    values = [student.euclidean(DOCTOR, MEDICO), student.euclidean(DOCTOR, COCHE), student.euclidean(DOCTOR, 3 * MEDICO)]
    expect_type(values[0], float, "euclidean")
    assert [round(v, 3) for v in values] == [0.141, 0.671, 1.581]
    assert values == pytest.approx([math.sqrt(0.02), math.sqrt(0.45), math.sqrt(2.5)], **TIGHT)


@grade("euclidean", hint="No olvides la raíz cuadrada: entre (0, 0) y (3, 4) la distancia es 5, no 25 (ni 7, que "
                         "sería sumar valores absolutos en vez de la suma de los cuadrados).")
def test_euclidean_takes_the_square_root(student):
    """el triángulo 3-4-5: se toma la raíz cuadrada"""
    assert expect_number(student.euclidean(np.array([3.0, 4.0]), np.zeros(2)), "euclidean") == pytest.approx(
        5.0, **TIGHT)
    assert expect_number(student.euclidean(np.array([1.0, 1.0, 1.0, 1.0]), np.zeros(4)),
                         "euclidean") == pytest.approx(2.0, **TIGHT)


@grade("euclidean", hint="Resta los vectores y luego mide: norm(a - b), no norm(a) - norm(b). La distancia nunca es "
                         "negativa, d(a, b) = d(b, a) y d(a, a) = 0.")
def test_euclidean_symmetric_and_non_negative(student):
    """d(a, b) = d(b, a) > 0 aunque a y b tengan longitudes parecidas, y d(a, a) = 0"""
    # Distances 1 and 0 on purpose: this test is about subtracting first, not about the square root,
    # and no constant answer passes it.
    a, b = np.array([1.0, 0.0, 2.0]), np.array([1.0, 1.0, 2.0])
    for x, y, expected in ((a, b, 1.0), (b, a, 1.0), (np.array([0.5, 0.0]), np.array([-0.5, 0.0]), 1.0),
                           (b, b.copy(), 0.0)):
        assert expect_number(student.euclidean(x, y), "euclidean") == pytest.approx(expected, **TIGHT)


@grade("euclidean", weight=2, hint="Compara con el contraejemplo: raíz de la suma de (a_i - b_i)².", backstop=True)
@given(dim=st.integers(1, 6), data=st.data())
def test_euclidean_matches_reference(student, reference, dim, data):
    """coincide con la referencia en vectores generados"""
    a = np.array(data.draw(vectors(dim), label="a"))
    b = np.array(data.draw(vectors(dim), label="b"))
    expect_same(student.euclidean(a, b), reference.euclidean(a, b), close=True)


# --- most_similar -----------------------------------------------------------------------

def unit(angle_degrees):
    radians = math.radians(angle_degrees)
    return [math.cos(radians), math.sin(radians)]


@grade("most_similar", weight=2, hint="Ordena las demás palabras de MAYOR a menor coseno con `word`, quita la propia "
                                      "`word` y devuelve las k primeras.")
def test_most_similar_most_similar_first(student):
    """la más parecida primero, sin la propia palabra"""
    words = ["norte", "sur", "este", "noreste", "oeste", "nornoreste"]
    W = np.array([unit(90), unit(280), unit(0), unit(45), unit(200), unit(70)])
    result = student.most_similar("norte", W, words, k=5)
    expect_type(result, list, "most_similar")
    assert result == ["nornoreste", "noreste", "este", "oeste", "sur"]
    assert student.most_similar("este", W, words, k=2) == ["noreste", "nornoreste"]


@grade("most_similar", weight=2, hint="Compara por similitud coseno: ni la distancia euclídea ni el producto escalar "
                                      "sin normalizar. Un vector largo que apunta en la misma dirección es muy parecido.")
def test_most_similar_ranks_by_cosine(student):
    """ordena por coseno, no por distancia ni por producto escalar"""
    words = ["doctor", "médico", "enfermera", "cirujano", "coche", "tren"]
    W = np.array([[0.8, 0.6], [0.7, 0.5], [0.9, 0.3], [2.5, 2.0], [0.2, 0.9], [0.1, 1.1]])
    assert student.most_similar("doctor", W, words, k=3) == ["médico", "cirujano", "enfermera"]
    assert student.most_similar("coche", W, words) == ["tren", "cirujano", "doctor", "médico"]


@grade("most_similar", hint="Quita la propia palabra por su posición en `words`, no suponiendo que sale la primera: "
                            "otra palabra con exactamente su misma dirección también tiene coseno 1.")
@pytest.mark.requires("test_most_similar_most_similar_first")
def test_most_similar_excludes_the_word_even_when_tied(student):
    """excluye la propia palabra aunque otra tenga su misma dirección"""
    words = ["doble", "base", "diagonal", "arriba"]
    W = np.array([[2.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert student.most_similar("base", W, words, k=3) == ["doble", "diagonal", "arriba"]
    assert student.most_similar("base", W, words, k=1) == ["doble"]


@grade("most_similar", hint="Si dos palabras empatan en coseno, va antes la que aparece antes en `words`. `sorted` "
                            "y `list.sort` son estables: ordena solo por el coseno (key=lambda ...: -coseno); si "
                            "ordenas parejas (coseno, posición) con reverse=True, los empates salen al revés.")
def test_most_similar_ties_keep_the_order_of_words(student):
    """con el mismo coseno, primero la palabra que aparece antes en words"""
    # Rows on the axes: every cosine is exactly 1, 0 or -1 however it is computed, so the ties are real ties.
    # Tied rows are equal, so ranking by distance or by dot product gives the same order (that is another test).
    words = ["arriba", "centro", "derecha", "abajo", "derecha2", "izquierda", "arriba2"]
    W = np.array([[0.0, 1.0], [2.0, 0.0], [1.0, 0.0], [0.0, -1.0], [1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])
    assert student.most_similar("centro", W, words, k=6) == ["derecha", "derecha2", "arriba", "abajo", "arriba2",
                                                            "izquierda"]
    assert student.most_similar("centro", W, words, k=3) == ["derecha", "derecha2", "arriba"]


@grade("most_similar", weight=2, hint="Compara con el contraejemplo: coseno de mayor a menor, sin la propia palabra, "
                                      "k resultados.", backstop=True)
@settings(max_examples=15)
@given(n=st.integers(2, 5), dim=st.integers(2, 4), data=st.data())
def test_most_similar_matches_reference(student, reference, n, dim, data):
    """coincide con la referencia en tablas generadas"""
    W = data.draw(st.lists(st.lists(st.integers(-3, 3), min_size=dim, max_size=dim), min_size=n, max_size=n),
                  label="W")
    assume(all(any(row) for row in W))
    W = np.array(W, dtype=float)
    words = data.draw(st.just([f"p{i}" for i in range(n)]), label="words")
    word = data.draw(st.sampled_from(words), label="word")
    k = data.draw(st.integers(1, n - 1), label="k")
    target = words.index(word)
    scores = sorted(reference.cosine(W[target], W[i]) for i in range(n) if i != target)
    assume(all(b - a > 1e-9 for a, b in zip(scores, scores[1:])))  # no ties: the order is not a matter of rounding
    expect_same(student.most_similar(word, W, words, k), reference.most_similar(word, W, words, k))


# --- noise_distribution -----------------------------------------------------------------

@grade("noise_distribution", weight=2, hint="Cada palabra pesa counts**power (con power = 0.75 por defecto): "
                                            "81, 16 y 1 pesan 27, 8 y 1.")
def test_noise_distribution_proportional_to_counts_power(student):
    """proporcional a counts**0.75"""
    result = student.noise_distribution(np.array([81, 16, 1]))
    expect_shape(result, (3,), "noise_distribution")
    assert (result / result[2]).tolist() == pytest.approx([27.0, 8.0, 1.0], **TIGHT)


@grade("noise_distribution", weight=2, hint="Es una distribución de probabilidad: eleva primero cada cuenta a "
                                            "`power` y divide después por la suma de esos pesos, para que sume 1.")
@pytest.mark.requires("test_noise_distribution_proportional_to_counts_power")
def test_noise_distribution_sums_to_one(student):
    """suma 1: se normaliza después de elevar a power"""
    assert student.noise_distribution(np.array([81, 16, 1])).tolist() == pytest.approx([0.75, 8 / 36, 1 / 36], **TIGHT)
    assert float(np.sum(student.noise_distribution(np.array([5, 1, 1, 30, 2])))) == pytest.approx(1.0, **TIGHT)
    assert student.noise_distribution(np.array([7])).tolist() == pytest.approx([1.0], **TIGHT)


@grade("noise_distribution", hint="Usa el argumento `power` que te pasan; 0.75 es solo su valor por defecto.")
def test_noise_distribution_uses_power(student):
    """respeta el argumento power"""
    p = student.noise_distribution(np.array([1, 3]), power=1.0)
    expect_shape(p, (2,), "noise_distribution")
    assert p[1] / p[0] == pytest.approx(3.0, **TIGHT)
    p = student.noise_distribution(np.array([9, 1]), power=0.5)
    expect_shape(p, (2,), "noise_distribution")
    assert p[0] / p[1] == pytest.approx(3.0, **TIGHT)
    p = student.noise_distribution(np.array([5, 50, 500]), power=0.0)
    expect_shape(p, (3,), "noise_distribution")
    assert (p / p[0]).tolist() == pytest.approx([1.0, 1.0, 1.0], **TIGHT)


@grade("noise_distribution", hint="Las cuentas son enteros: pásalas a float antes de elevarlas (np.asarray(counts, "
                                    "dtype=float)). Un array de enteros de numpy no admite potencias enteras negativas "
                                    "y, con una potencia entera, se desborda cuando las cuentas son grandes.")
def test_noise_distribution_integer_power(student):
    """cuentas enteras y una potencia entera: negativa, o con cuentas muy grandes"""
    # Ratios, not probabilities: this test is about computing in floats, not about normalising.
    p = student.noise_distribution(np.array([1, 2, 4]), power=-1)
    expect_shape(p, (3,), "noise_distribution")
    assert (p / p[2]).tolist() == pytest.approx([4.0, 2.0, 1.0], **TIGHT)
    p = student.noise_distribution(np.array([5_000_000_000, 1_000_000_000]), power=2)  # a large corpus' counts
    expect_shape(p, (2,), "noise_distribution")
    assert float(p[0] / p[1]) == pytest.approx(25.0, **TIGHT)


@grade("noise_distribution", weight=2, hint="Compara con el contraejemplo: counts**power dividido por su suma.",
       backstop=True)
@given(counts=st.lists(st.integers(1, 500), min_size=1, max_size=8), power=st.sampled_from([0.5, 0.75, 1.0]))
def test_noise_distribution_matches_reference(student, reference, counts, power):
    """coincide con la referencia en cuentas generadas"""
    result = student.noise_distribution(np.array(counts), power)
    expect_shape(result, (len(counts),), "noise_distribution")
    expect_same(result, reference.noise_distribution(np.array(counts), power), close=True)


# --- skipgram_pairs ---------------------------------------------------------------------

def rows(array):
    return sorted(map(tuple, array.tolist()))


@grade("skipgram_pairs", weight=2, hint="Cada palabra forma pareja con sus vecinas a los DOS lados, hasta `window` "
                                        "posiciones, pero nunca consigo misma (j != i).")
def test_skipgram_pairs_small_sentence(student):
    """las parejas de una frase corta"""
    result = student.skipgram_pairs([[10, 11, 12]], window=1)
    expect_shape(result, (4, 2), "skipgram_pairs")
    if result.dtype.kind not in "iu":
        raise Feedback("skipgram_pairs debe devolver un array de enteros (dtype int), no de floats.")
    assert rows(result) == [(10, 11), (11, 10), (11, 12), (12, 11)]


@grade("skipgram_pairs", hint="Una palabra nunca forma pareja consigo misma: el contexto son las posiciones j con "
                              "0 < |i - j| <= window, así que salta j == i.")
@pytest.mark.requires("test_skipgram_pairs_small_sentence")
def test_skipgram_pairs_never_itself(student):
    """ninguna posición es su propio contexto"""
    # Distinct ids in a sentence longer than the window: a row (x, x) can only be a position paired with itself.
    for window in (1, 2, 3):
        result = student.skipgram_pairs([[40, 41, 42, 43, 44]], window=window)
        assert all(center != context for center, context in np.asarray(result).tolist())


@grade("skipgram_pairs", hint="El contexto está a los DOS lados del centro: también las palabras de su izquierda, "
                              "de i - window a i - 1, no solo las que vienen después.")
def test_skipgram_pairs_both_sides(student):
    """el contexto incluye las palabras a la izquierda del centro"""
    sentence = [50, 51, 52, 53, 54]
    for window in (1, 2):
        found = set(rows(student.skipgram_pairs([sentence], window=window)))
        assert all((sentence[i], sentence[j]) in found for i in range(5) for j in range(max(0, i - window), i))


@grade("skipgram_pairs", hint="La ventana va de max(0, i - window) a min(len(frase) - 1, i + window): se recorta en "
                              "los bordes. Un índice negativo en Python da la vuelta y tomaría palabras del final.")
def test_skipgram_pairs_window_clipped_at_edges(student):
    """la ventana se recorta en los bordes de la frase"""
    sentence = [20, 21, 22, 23, 24, 25]
    for window in (2, 3):
        expected = sorted((sentence[i], sentence[j]) for i in range(6) for j in range(6) if 0 < abs(i - j) <= window)
        assert rows(student.skipgram_pairs([sentence], window=window)) == expected


@grade("skipgram_pairs", weight=2, hint="Filas (centro, contexto), en este orden: frase, posición del centro y "
                                        "posición del contexto de izquierda a derecha (de i - window a i + window).")
def test_skipgram_pairs_row_order(student):
    """filas (centro, contexto) en el orden pedido"""
    result = student.skipgram_pairs([[5, 3, 9, 1]], window=2)
    assert result.tolist() == [[5, 3], [5, 9], [3, 5], [3, 9], [3, 1], [9, 5], [9, 3], [9, 1], [1, 3], [1, 9]]


@grade("skipgram_pairs", hint="Si no te pasan `window`, la ventana es 2: es el valor por defecto de la firma, "
                              "skipgram_pairs(sentences, window=2).")
def test_skipgram_pairs_default_window(student):
    """sin el argumento window, la ventana es 2"""
    sentence = [30, 31, 32, 33, 34, 35]
    expected = sorted((sentence[i], sentence[j]) for i in range(6) for j in range(6) if 0 < abs(i - j) <= 2)
    assert rows(student.skipgram_pairs([sentence])) == expected


@grade("skipgram_pairs", hint="Cada frase va por separado: la ventana no pasa del final de una frase al principio "
                              "de la siguiente.")
def test_skipgram_pairs_sentences_stay_apart(student):
    """la ventana no cruza de una frase a otra"""
    result = student.skipgram_pairs([[1, 2], [3, 4, 5]], window=3)
    assert result.tolist() == [[1, 2], [2, 1], [3, 4], [3, 5], [4, 3], [4, 5], [5, 3], [5, 4]]


@grade("skipgram_pairs", hint="Lo que se excluye es la misma POSICIÓN (j != i), no el mismo id: una palabra repetida "
                              "en otra posición sí es contexto.")
def test_skipgram_pairs_repeated_word(student):
    """una palabra repetida en otra posición sí es su contexto"""
    assert rows(student.skipgram_pairs([[4, 4, 7]], window=1)) == [(4, 4), (4, 4), (4, 7), (7, 4)]


@grade("skipgram_pairs", hint="Sin parejas (frases vacías o de una palabra) devuelve un array de forma (0, 2): "
                              "np.array([]) tiene forma (0,); usa reshape(-1, 2) o reshape(len(pares), 2).")
@pytest.mark.requires("test_skipgram_pairs_small_sentence")
def test_skipgram_pairs_none(student):
    """sin parejas: forma (0, 2)"""
    expect_shape(student.skipgram_pairs([[7], [], [3]]), (0, 2), "skipgram_pairs")
    expect_shape(student.skipgram_pairs([]), (0, 2), "skipgram_pairs")


@grade("skipgram_pairs", hint="Aunque no haya ninguna pareja, el resultado es un array de ENTEROS: np.array([]) "
                              "es de floats, así que indica el tipo al crearlo (dtype=np.int64). Con un array de floats "
                              "no se pueden elegir filas de una tabla.")
@pytest.mark.requires("test_skipgram_pairs_small_sentence")
def test_skipgram_pairs_none_are_integers(student):
    """sin parejas, el array sigue siendo de enteros"""
    for sentences in ([[7], [], [3]], []):
        result = expect_type(student.skipgram_pairs(sentences), np.ndarray, "skipgram_pairs")
        if result.dtype.kind not in "iu":
            raise Feedback("skipgram_pairs debe devolver un array de enteros (dtype int) también cuando no hay "
                           "parejas, no de floats.")


@grade("skipgram_pairs", weight=2, hint="Compara con el contraejemplo: frase, centro, contexto de izquierda a "
                                        "derecha, ventana recortada en los bordes.", backstop=True)
@given(sentences=st.lists(st.lists(st.integers(0, 5), max_size=6), max_size=3), window=st.integers(1, 3))
def test_skipgram_pairs_matches_reference(student, reference, sentences, window):
    """coincide con la referencia en frases generadas"""
    expected = reference.skipgram_pairs(sentences, window)
    result = student.skipgram_pairs(sentences, window)
    expect_shape(result, expected.shape, "skipgram_pairs")
    expect_same(result.tolist(), expected.tolist())


# --- sgns_loss_and_grads ----------------------------------------------------------------

V_C = np.array([0.5, -1.2, 0.8])
U_O = np.array([1.1, 0.3, -0.7])
U_NEG = np.array([[-0.4, 0.9, 0.2], [1.5, -0.6, -1.0]])


def sgns_loss(reference, v_c, u_o, u_neg):
    return reference.sgns_loss_and_grads(v_c, u_o, u_neg)[0]


GRADIENT_OF = {1: "v_c", 2: "u_o", 3: "u_neg"}  # position in the answer -> the argument it differentiates by


def student_gradient_is_right(student, reference, position: int):
    """The student's gradient at `position` matches central differences of the reference's loss
    (by the argument it belongs to) and, tightly, the reference's own gradient."""
    grad = np.asarray(student.sgns_loss_and_grads(V_C, U_O, U_NEG)[position])
    arguments = {"v_c": V_C, "u_o": U_O, "u_neg": U_NEG}
    by = GRADIENT_OF[position]
    numeric = numeric_gradient(lambda x: sgns_loss(reference, **(arguments | {by: x})), arguments[by])
    if grad.shape != numeric.shape:
        raise Feedback(f"grad_{by} debe tener la forma de {by}" + (": una fila por cada muestra negativa, (K, d)."
                                                                   if by == "u_neg" else "."))
    assert grad == pytest.approx(numeric, **GRADIENT)
    assert grad == pytest.approx(reference.sgns_loss_and_grads(V_C, U_O, U_NEG)[position], **TIGHT)


@grade("sgns_loss_and_grads", weight=2, hint="pérdida = -log σ(u_o·v_c) - Σ_k log σ(-u_k·v_c): un término por la "
                                             "pareja real y uno por CADA negativa, sumados (no promediados).")
def test_sgns_loss_value(student):
    """el valor de la pérdida"""
    loss = student.sgns_loss_and_grads(V_C, U_O, U_NEG)[0]
    expect_type(loss, float, "la pérdida de sgns_loss_and_grads")
    score_o, score_neg = U_O @ V_C, U_NEG @ V_C
    expected = math.log1p(math.exp(-score_o)) + sum(math.log1p(math.exp(s)) for s in score_neg)
    assert loss == pytest.approx(expected, **TIGHT)
    assert expect_type(student.sgns_loss_and_grads(np.zeros(2), np.array([1.0, 2.0]), -np.eye(2))[0], float,
                       "la pérdida de sgns_loss_and_grads") == pytest.approx(3 * math.log(2), **TIGHT)


@grade("sgns_loss_and_grads", hint="Devuelve (pérdida, grad_v_c, grad_u_o, grad_u_neg): un float y arrays de formas "
                                   "(d,), (d,) y (K, d), una fila de gradiente por cada negativa.")
@pytest.mark.requires("test_sgns_loss_value")
def test_sgns_output_shapes(student):
    """devuelve un float y tres arrays de formas (d,), (d,), (K, d)"""
    result = student.sgns_loss_and_grads(np.ones(4), np.full(4, 0.5), np.arange(12.0).reshape(3, 4) / 10)
    expect_type(result, tuple, "sgns_loss_and_grads")
    if len(result) != 4:
        raise Feedback("sgns_loss_and_grads debe devolver 4 cosas: (pérdida, grad_v_c, grad_u_o, grad_u_neg).")
    expect_type(result[0], float, "la pérdida de sgns_loss_and_grads")
    expect_shape(result[1], (4,), "grad_v_c")
    expect_shape(result[2], (4,), "grad_u_o")
    expect_shape(result[3], (3, 4), "grad_u_neg")


@grade("sgns_loss_and_grads", weight=2, hint="grad_u_o = (σ(u_o·v_c) - 1)·v_c: la derivada de -log σ(x) es "
                                             "σ(x) - 1, negativa.")
def test_sgns_grad_u_o(student, reference):
    """grad_u_o coincide con las diferencias finitas"""
    student_gradient_is_right(student, reference, 2)


@grade("sgns_loss_and_grads", weight=2, hint="La fila k de grad_u_neg es σ(u_k·v_c)·v_c: la derivada de "
                                             "-log σ(-x) es σ(x), positiva, y multiplica a v_c.")
def test_sgns_grad_u_neg(student, reference):
    """grad_u_neg coincide con las diferencias finitas"""
    student_gradient_is_right(student, reference, 3)


@grade("sgns_loss_and_grads", weight=2, hint="grad_v_c = (σ(u_o·v_c) - 1)·u_o + Σ_k σ(u_k·v_c)·u_k: la pareja real "
                                             "empuja con signo negativo y cada negativa con signo positivo.")
def test_sgns_grad_v_c(student, reference):
    """grad_v_c coincide con las diferencias finitas"""
    student_gradient_is_right(student, reference, 1)


@grade("sgns_loss_and_grads", weight=2, hint="Con productos escalares de ±1000, σ vale 0 o 1 en coma flotante y "
                                             "log(0) = -inf. Calcula -log σ(x) como np.logaddexp(0, -x).")
def test_sgns_stable_for_large_scores(student):
    """la pérdida es finita y correcta con productos escalares de ±1000"""
    v_c = np.array([10.0, 0.0])
    for u_o, u_neg, loss in ((np.array([-100.0, 3.0]), np.array([[100.0, 1.0]]), 2000.0),  # scores -1000 and +1000
                             (np.array([100.0, 3.0]), np.array([[-100.0, 1.0]]), 0.0)):  # scores +1000 and -1000
        result = student.sgns_loss_and_grads(v_c, u_o, u_neg)
        expect_number(result[0], "la pérdida de sgns_loss_and_grads")
        assert math.isfinite(result[0])
        assert result[0] == pytest.approx(loss, rel=1e-9, abs=1e-9)
        assert all(np.all(np.isfinite(np.asarray(grad, dtype=float))) for grad in result[1:])


@grade("sgns_loss_and_grads", weight=2, hint="Compara con el contraejemplo: la pérdida y los tres gradientes.",
       backstop=True)
@settings(max_examples=20)
@given(dim=st.integers(1, 4), negatives=st.integers(1, 3), data=st.data())
def test_sgns_matches_reference(student, reference, dim, negatives, data):
    """coincide con la referencia en vectores generados"""
    v_c = np.array(data.draw(vectors(dim), label="v_c"))
    u_o = np.array(data.draw(vectors(dim), label="u_o"))
    u_neg = np.array(data.draw(st.lists(vectors(dim), min_size=negatives, max_size=negatives), label="u_neg"))
    result = student.sgns_loss_and_grads(v_c, u_o, u_neg)
    expected = reference.sgns_loss_and_grads(v_c, u_o, u_neg)
    if len(result) != 4:
        raise Feedback("sgns_loss_and_grads debe devolver 4 cosas: (pérdida, grad_v_c, grad_u_o, grad_u_neg).")
    for got, want, what in zip(result, expected, ("pérdida", "grad_v_c", "grad_u_o", "grad_u_neg")):
        expect_same(got, want, close=True, what=what)


# --- distance_ratio ---------------------------------------------------------------------

@grade("distance_ratio", weight=2, hint="Calcula la distancia euclídea (no su cuadrado) de points[0] a cada uno de los "
                                        "demás y divide la mayor entre la menor: el resultado es >= 1.")
def test_distance_ratio_farthest_over_nearest(student):
    """la distancia al más lejano dividida por la distancia al más cercano"""
    result = student.distance_ratio(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 3.0], [-2.0, 0.0]]))
    expect_type(result, float, "distance_ratio")
    assert result == pytest.approx(3.0, **TIGHT)
    assert expect_type(student.distance_ratio(np.array([[0.0, 0.0, 0.0], [0.0, 4.0, 0.0], [2.0, 0.0, 0.0]])), float,
                       "distance_ratio") == pytest.approx(2.0, **TIGHT)


@grade("distance_ratio", hint="Las distancias se miden desde points[0] hasta points[1:], es decir, a los DEMÁS puntos: "
                              "ni desde el origen ni incluyendo a points[0] consigo mismo (distancia 0).")
@pytest.mark.requires("test_distance_ratio_farthest_over_nearest")
def test_distance_ratio_seen_from_the_first_point(student):
    """se mide desde points[0], sin contarlo a él mismo"""
    # Every other point at distance 1 of points[0] (ratio 1), at different distances from the origin.
    for points in ([[5.0, 5.0], [6.0, 5.0], [5.0, 4.0], [4.0, 5.0]],
                   [[-1.0, 2.0, 0.0], [-1.0, 2.0, 2.0], [1.0, 2.0, 0.0]]):
        assert expect_number(student.distance_ratio(np.array(points)), "distance_ratio") == pytest.approx(
            1.0, **TIGHT)


@grade("distance_ratio", weight=2, hint="Compara con el contraejemplo: max / min de las distancias desde points[0].",
       backstop=True)
@settings(max_examples=15)
@given(n=st.integers(2, 5), dim=st.integers(1, 4), data=st.data())
def test_distance_ratio_matches_reference(student, reference, n, dim, data):
    """coincide con la referencia en puntos generados"""
    points = np.array(data.draw(st.lists(vectors(dim), min_size=n, max_size=n), label="points"))
    assume(all(np.any(p != points[0]) for p in points[1:]))
    expect_same(student.distance_ratio(points), reference.distance_ratio(points), close=True)

# --- every function: its arguments after the call, and calls that repeat ------------------------
# 'Cómo se califica' tells students both rules; leaves_alone reads the arguments without mirroring them
# into the test's data, and answers_afresh asks two inputs and the first again.

@grade("most_similar", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_most_similar_most_similar_first")
def test_most_similar_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "most_similar", "doctor", np.array([[0.8, 0.6], [0.7, 0.5], [0.9, 0.3]]), ["doctor", "médico", "enfermera"], 1)


@grade("most_similar", hint="El resultado depende solo de los argumentos de cada llamada: no guardes nada de una llamada para la siguiente (una caché por palabra o por texto devolvería la respuesta de otra tabla).")
@requires("test_most_similar_most_similar_first")
def test_most_similar_answers_each_call_afresh(student):
    """cada llamada depende solo de sus argumentos"""
    answers_afresh(student, "most_similar", ("doctor", np.array([[0.8, 0.6], [0.7, 0.5], [0.9, 0.3]]), ["doctor", "médico", "enfermera"], 1),
                   ("doctor", np.array([[0.8, 0.6], [0.1, 0.9], [0.9, 0.3]]), ["doctor", "médico", "enfermera"], 1))


@grade("skipgram_pairs", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_skipgram_pairs_small_sentence")
def test_skipgram_pairs_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "skipgram_pairs", [[10, 11, 12], [13, 14]], 1)


@grade("noise_distribution", hint="Tu función no debe cambiar los argumentos que recibe (ni añadir, quitar o reordenar elementos): si necesitas modificar algo, trabaja sobre una copia.")
@requires("test_noise_distribution_proportional_to_counts_power")
def test_noise_distribution_leaves_its_arguments_alone(student):
    """no modifica sus argumentos"""
    leaves_alone(student, "noise_distribution", [81, 16, 1])
