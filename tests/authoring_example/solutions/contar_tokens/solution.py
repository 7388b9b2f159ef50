"""Contar tokens: solución de referencia."""


def count_tokens(tokens):
    """Cuántas veces aparece cada token, en orden de primera aparición.

    >>> count_tokens(["la", "tos", "la"])
    {'la': 2, 'tos': 1}
    """
    counts = {}
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    return counts


def most_common(counts):
    """El token de `counts` con la cuenta más alta; en un empate, el primero. None si está vacío.

    >>> most_common({"a": 1, "b": 3, "c": 3})
    'b'
    """
    best = None
    for token, count in counts.items():
        if best is None or count > counts[best]:
            best = token
    return best
