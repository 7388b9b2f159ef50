"""BPE sobre un corpus de palabras: solución de referencia.

Un corpus es un diccionario {palabra: frecuencia}. Cada palabra se escribe como una
tupla de caracteres más la marca de fin de palabra `end` (ninguna si `end` es None),
y se aprende una lista ordenada de fusiones: cada una une dos símbolos vecinos.
"""


def get_stats(words):
    """Cuenta los pares de símbolos vecinos, ponderados por la frecuencia de cada palabra.

    `words` es {tupla_de_símbolos: frecuencia}. Los pares se solapan: ("a", "a", "a")
    con frecuencia f aporta 2 * f al par ("a", "a"). Las claves quedan en el orden en
    que cada par aparece por primera vez (palabras en orden, de izquierda a derecha).

    >>> get_stats({("l", "o", "w"): 5, ("l", "o", "s", "t"): 2})
    {('l', 'o'): 7, ('o', 'w'): 5, ('o', 's'): 2, ('s', 't'): 2}
    """
    counts = {}
    for symbols, freq in words.items():
        for pair in zip(symbols, symbols[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def merge_pair(symbols, pair):
    """Devuelve una tupla nueva donde cada aparición de `pair` pasa a ser un solo símbolo.

    Se recorre de izquierda a derecha y las apariciones no se solapan:
    merge_pair(("a", "a", "a"), ("a", "a")) da ("aa", "a"). Se comparan símbolos
    enteros, nunca trozos de un símbolo.

    >>> merge_pair(("l", "o", "w", "e", "r"), ("o", "w"))
    ('l', 'ow', 'e', 'r')
    """
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def train_bpe(corpus, num_merges, end="_", min_count=1):
    """Aprende hasta `num_merges` fusiones sobre el corpus {palabra: frecuencia}.

    Cada palabra empieza como sus caracteres más la marca `end` (sin marca si `end`
    es None). En cada vuelta gana el par más frecuente; en un empate, el que aparece
    antes al recorrer las palabras en el orden del corpus, de izquierda a derecha.
    Se para antes si no queda ningún par o si el mejor aparece menos de `min_count` veces.

    >>> train_bpe({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 4, end=None)
    [('e', 's'), ('es', 't'), ('l', 'o'), ('lo', 'w')]
    """
    marker = () if end is None else (end,)
    words = {tuple(word) + marker: freq for word, freq in corpus.items()}
    merges = []
    for _ in range(num_merges):
        stats = get_stats(words)
        if not stats:
            break
        # dict keeps first-seen order and max() keeps the first maximum: that is the tie rule.
        pair = max(stats, key=stats.get)
        if stats[pair] < min_count:
            break
        merges.append(pair)
        words = {merge_pair(symbols, pair): freq for symbols, freq in words.items()}
    return merges


def tokenize(word, merges, end="_"):
    """Parte `word` en subpalabras aplicando las fusiones en el orden en que se aprendieron.

    La palabra empieza como sus caracteres más la marca `end` (sin marca si `end` es None).

    >>> tokenize("lowest", [("e", "s"), ("es", "t"), ("l", "o"), ("lo", "w")], end=None)
    ['low', 'est']
    """
    symbols = tuple(word) + (() if end is None else (end,))
    for pair in merges:
        symbols = merge_pair(symbols, pair)
    return list(symbols)
