"""Tres formas de cortar el texto: solución de referencia.

El texto se corta en tokens (caracteres o palabras), cada token distinto recibe un
id en un vocabulario y las listas de tokens se convierten en listas de ids y vuelta.
Los tokens que no están en el vocabulario se codifican con el token especial `unk`.
"""


def tokenize_chars(text):
    r"""Un token por cada punto de código Unicode de `text`, espacios incluidos.

    Lo que se ve como una sola letra puede ser dos puntos de código: "e\u0301"
    (una e seguida de la tilde combinante U+0301) da dos tokens.

    >>> tokenize_chars("Hola ñ")
    ['H', 'o', 'l', 'a', ' ', 'ñ']
    """
    return list(text)


def tokenize_words(text):
    r"""Corta `text` en palabras por los espacios en blanco, como `str.split()`.

    Cualquier tramo de espacios, tabuladores o saltos de línea separa dos palabras,
    y nunca aparecen tokens vacíos. La puntuación queda pegada a la palabra.

    >>> tokenize_words("  La paciente\ttiene fiebre\n")
    ['La', 'paciente', 'tiene', 'fiebre']
    """
    return text.split()


def build_vocab(tokens, specials=("[UNK]",)):
    """Vocabulario {token: id}: primero los tokens especiales, después los demás por orden
    de primera aparición.

    Los ids van de 0 a n - 1 sin huecos y cada token aparece una sola vez: un token
    repetido (o un especial que también está entre los tokens) conserva su primer id.

    >>> build_vocab(["el", "gato", "el"])
    {'[UNK]': 0, 'el': 1, 'gato': 2}
    """
    vocab = {}
    for token in (*specials, *tokens):
        if token not in vocab:
            vocab[token] = len(vocab)
    return vocab


def encode(tokens, vocab, unk="[UNK]"):
    """Convierte tokens en ids; un token que no está en `vocab` recibe el id de `unk`.

    Si `unk` no está en el vocabulario lanza KeyError, aunque todos los tokens sean
    conocidos.

    >>> encode(["el", "perro"], {"[UNK]": 0, "el": 1, "gato": 2})
    [1, 0]
    """
    unk_id = vocab[unk]
    return [vocab.get(token, unk_id) for token in tokens]


def decode(ids, vocab):
    """Convierte ids en tokens buscando, para cada id, el token que lo tiene en `vocab`.

    Un id que no pertenece al vocabulario lanza KeyError.

    >>> decode([1, 0], {"[UNK]": 0, "el": 1, "gato": 2})
    ['el', '[UNK]']
    """
    id_to_token = {idx: token for token, idx in vocab.items()}
    return [id_to_token[idx] for idx in ids]


def oov_rate(tokens, vocab):
    """Fracción de los tokens de `tokens` que no están en `vocab` (0.0 si no hay tokens).

    Cuenta apariciones: un token desconocido que aparece dos veces cuenta dos veces.

    >>> oov_rate(["el", "perro", "ladra", "el"], {"[UNK]": 0, "el": 1})
    0.5
    """
    if not tokens:
        return 0.0
    unknown = sum(token not in vocab for token in tokens)
    return unknown / len(tokens)
