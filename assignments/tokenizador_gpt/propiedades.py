"""Propiedades públicas de «Pretokenización, tokens especiales y paridad con GPT-4»: reglas que cualquier
solución correcta cumple.

Ninguna prueba compara con una solución: cada una enuncia una regla del enunciado y la
prueba con muchos ejemplos generados por hypothesis. Si una falla, el informe muestra el
ejemplo más pequeño que la rompe («Falsifying example»).
"""

import pytest
from hypothesis import given, strategies as st

# Palabras, cifras, signos, contracciones y espacios de todo tipo, y también texto cualquiera.
textos = st.text(st.sampled_from("ab ñÑ1234'sll.,¿?!🙂 \t\n\r\u00a0"), max_size=40) | st.text(max_size=30)
FIN = "<|fin|>"
ESPECIALES = {FIN: 1000}
sin_especiales = st.text(st.characters(codec="utf-8", exclude_characters="<|>"), max_size=15)
con_especiales = st.lists(sin_especiales | st.just(FIN), max_size=6).map("".join)


def tabla_de_bytes(fusiones):
    """id -> bytes: los 256 bytes y una entrada por fusión (como en la demostración del cuaderno)."""
    tabla = {i: bytes([i]) for i in range(256)}
    for (izquierda, derecha), nuevo in sorted(fusiones.items(), key=lambda f: f[1]):
        tabla[nuevo] = tabla[izquierda] + tabla[derecha]
    return tabla


@given(texto=textos)
def test_pretokenize_reconstruye_el_texto(estudiante, texto):
    """`pretokenize`: unidos, los trozos dan el texto, con el patrón de GPT-4 y con el de GPT-2"""
    assert "".join(estudiante.pretokenize(texto)) == texto, "con el patrón de GPT-4, los trozos reconstruyen el texto"
    trozos = estudiante.pretokenize(texto, estudiante.GPT2_SPLIT_PATTERN)
    assert "".join(trozos) == texto, "con el patrón que recibes (aquí el de GPT-2), los trozos reconstruyen el texto"


@given(texto=textos, fusiones=st.integers(0, 12))
def test_train_regex_bpe_numera_las_fusiones_desde_256(estudiante, texto, fusiones):
    """`train_regex_bpe` aprende como mucho vocab_size - 256 fusiones, con ids 256, 257, ..."""
    aprendidas = estudiante.train_regex_bpe(texto, 256 + fusiones)
    assert len(aprendidas) <= fusiones, "no se aprenden más de vocab_size - 256 fusiones"
    assert sorted(aprendidas.values()) == list(range(256, 256 + len(aprendidas))), \
        "la fusión k-ésima recibe el id 256 + k, sin huecos"


@given(texto=textos, otro=textos, fusiones=st.integers(0, 12))
def test_decode_deshace_encode_ordinary(estudiante, texto, otro, fusiones):
    """decode(encode_ordinary(texto, fusiones)) devuelve el texto, con las fusiones de tu train_regex_bpe"""
    aprendidas = estudiante.train_regex_bpe(texto + otro, 256 + fusiones)
    ids = estudiante.encode_ordinary(texto, aprendidas)
    assert len(ids) <= len(texto.encode("utf-8")), "codificar nunca da más ids que bytes"
    assert estudiante.decode(ids, tabla_de_bytes(aprendidas), {}) == texto, \
        "decodificar lo codificado devuelve el texto original"


@given(texto=con_especiales, fusiones=st.integers(0, 8))
def test_los_especiales_van_y_vuelven(estudiante, texto, fusiones):
    """Con allowed_special="all", cada especial es su id y decode(encode(texto)) devuelve el texto"""
    aprendidas = estudiante.train_regex_bpe(texto.replace(FIN, " "), 256 + fusiones)
    ids = estudiante.encode(texto, aprendidas, ESPECIALES, allowed_special="all")
    assert ids.count(1000) == texto.count(FIN), "cada aparición del especial se convierte en su id"
    assert estudiante.decode(ids, tabla_de_bytes(aprendidas), ESPECIALES) == texto, \
        "decodificar lo codificado devuelve el texto, especiales incluidos"
    normal = estudiante.encode(texto, aprendidas, ESPECIALES, disallowed_special=())
    assert 1000 not in normal, "con disallowed_special=() el especial se codifica como texto normal"
    if FIN in texto:
        with pytest.raises(ValueError):
            estudiante.encode(texto, aprendidas, ESPECIALES)  # por defecto, un especial en el texto es un error


@given(orden=st.permutations(range(256)), a=st.integers(0, 255), b=st.integers(0, 255), c=st.integers(0, 255))
def test_recover_merges_encuentra_los_padres(estudiante, orden, a, b, c):
    """`recover_merges` encuentra los padres de cada token, por su rango en la tabla"""
    rangos = {bytes([byte]): rango for byte, rango in zip(range(256), orden)}
    rangos[bytes([a, b])] = 256
    assert estudiante.recover_merges(rangos) == {(orden[a], orden[b]): 256}, "ab sale de a + b"
    if bytes([a, b, c]) not in rangos and bytes([b, c]) not in rangos:
        rangos[bytes([a, b, c])] = 257
        assert estudiante.recover_merges(rangos) == {(orden[a], orden[b]): 256, (256, orden[c]): 257}, \
            "abc sale de ab + c"
