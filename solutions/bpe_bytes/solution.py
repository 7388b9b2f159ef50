"""BPE a nivel de bytes: solución de referencia.

El texto se convierte en bytes UTF-8 (enteros de 0 a 255) y se aprende una lista
ordenada de fusiones: cada fusión sustituye un par de ids vecinos por un id nuevo.
"""


def get_stats(ids, counts=None):
    """Cuenta los pares de ids vecinos de `ids`.

    Los pares se solapan: [97, 97, 97] contiene dos veces el par (97, 97).
    Si se pasa `counts`, se actualiza ese mismo diccionario (sin copiarlo) y se
    devuelve; así se pueden sumar cuentas de varias secuencias.

    >>> get_stats([1, 2, 3, 1, 2])
    {(1, 2): 2, (2, 3): 1, (3, 1): 1}
    """
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    """Devuelve una lista nueva donde cada aparición de `pair` pasa a ser `idx`.

    Se recorre de izquierda a derecha y las apariciones no se solapan:
    merge([97, 97, 97], (97, 97), 256) da [256, 97]. La lista `ids` no se modifica.

    >>> merge([5, 6, 6, 7, 9, 1], (6, 7), 99)
    [5, 6, 99, 9, 1]
    """
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_bpe(text, vocab_size):
    """Aprende `vocab_size - 256` fusiones sobre los bytes UTF-8 de `text`.

    Devuelve {par: id_nuevo}; la fusión k-ésima (desde 0) recibe el id 256 + k.
    En cada vuelta gana el par más frecuente; en un empate gana el par que aparece
    antes en la secuencia actual. Se para antes si quedan menos de dos ids.
    Lanza ValueError si vocab_size < 256.

    >>> train_bpe("aaabdaaabac", 259)
    {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    """
    if vocab_size < 256:
        raise ValueError(f"vocab_size debe ser al menos 256, no {vocab_size}")
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        if len(ids) < 2:
            break
        stats = get_stats(ids)
        # dict keeps first-seen order and max() keeps the first maximum: that is the tie rule.
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges


def build_vocab(merges):
    """Tabla id -> bytes: los 256 bytes sueltos más una entrada por fusión.

    >>> build_vocab({(104, 105): 256})[256]
    b'hi'
    """
    vocab = {idx: bytes([idx]) for idx in range(256)}
    for (a, b), idx in sorted(merges.items(), key=lambda item: item[1]):
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges):
    """Convierte `text` en ids aplicando las fusiones aprendidas.

    Mientras haya algún par fusionable, se fusiona el que tiene el id de fusión
    más bajo (el que se aprendió antes), nunca el más frecuente en `text`.

    >>> encode("aaabdaaabac", train_bpe("aaabdaaabac", 259))
    [258, 100, 258, 97, 99]
    """
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def decode(ids, vocab):
    """Convierte ids en texto: une sus bytes y los lee como UTF-8.

    Una secuencia de bytes que no es UTF-8 válido no falla: cada trozo inválido se
    muestra como U+FFFD. Un id que no está en `vocab` lanza KeyError.

    >>> decode([104, 105], build_vocab({}))
    'hi'
    """
    raw = b"".join(vocab[idx] for idx in ids)
    return raw.decode("utf-8", errors="replace")


def compression_ratio(text, ids):
    """Bytes UTF-8 de `text` por cada token de `ids`; ValueError si `ids` está vacía.

    >>> compression_ratio("aaabdaaabac", [258, 100, 258, 97, 99])
    2.2
    """
    if not ids:
        raise ValueError("no se puede calcular la razón de compresión sin tokens")
    return len(text.encode("utf-8")) / len(ids)
