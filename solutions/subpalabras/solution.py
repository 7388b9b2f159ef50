"""Subpalabras: WordPiece, Unigram y el ▁ de SentencePiece. Solución de referencia.

BPE fusiona el par más frecuente. WordPiece (BERT) fusiona el par con mejor puntuación,
frecuencia del par / (frecuencia de a · frecuencia de b), y codifica cada palabra con la
pieza más larga que encuentra. Unigram (T5, Gemma) parte de un vocabulario grande con
una log-probabilidad por pieza, segmenta cada palabra con el camino de mayor probabilidad
(Viterbi) y poda las piezas cuya ausencia menos empeora el corpus. SentencePiece trata el
espacio como un carácter más, ▁, así que decodificar es unir las piezas.
"""

from collections import Counter
from fractions import Fraction

SPACE = "\u2581"  # ▁, el espacio de SentencePiece


def wordpiece_encode(text, vocab, unk="[UNK]", prefix="##", max_chars=100):
    """Codifica `text` con WordPiece: en cada palabra, la pieza más larga del vocabulario.

    Las palabras son `text.split()`. Dentro de una palabra se busca, desde la posición
    actual, la pieza más larga que esté en `vocab` (con `prefix` delante si no es la
    primera). Si en alguna posición no hay ninguna, la palabra entera es `unk`; también
    lo es una palabra de más de `max_chars` caracteres. KeyError si hace falta `unk` y no
    está en `vocab`; ValueError si `max_chars < 0`.

    >>> wordpiece_encode("hipertenso", {"hiper": 0, "##tens": 1, "##o": 2})
    ['hiper', '##tens', '##o']
    """
    if max_chars < 0:
        raise ValueError(f"max_chars no puede ser negativo: {max_chars}")
    out = []
    for word in text.split():
        pieces, start = [], 0
        while start < len(word) <= max_chars:
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else prefix + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                break  # no piece starts here: the whole word is unknown
        if start < len(word) or len(word) > max_chars:
            if unk not in vocab:
                raise KeyError(unk)
            pieces = [unk]
        out.extend(pieces)
    return out


def wordpiece_scores(splits):
    """La puntuación de WordPiece de cada par de unidades vecinas: freq(ab) / (freq(a)·freq(b)).

    `splits` va de cada palabra, ya partida en unidades, a su frecuencia. freq(u) cuenta
    cada aparición de la unidad por la frecuencia de su palabra (también en palabras de
    una sola unidad); freq(ab), cada par de vecinas. Claves en orden de primera aparición.

    >>> wordpiece_scores({("g", "##a"): 2, ("##a",): 2})
    {('g', '##a'): 0.25}
    """
    units, pairs = Counter(), Counter()  # a Counter keeps the order in which keys first appear
    for word, freq in splits.items():
        for unit in word:
            units[unit] += freq
        for pair in zip(word, word[1:]):
            pairs[pair] += freq
    return {(a, b): n / (units[a] * units[b]) for (a, b), n in pairs.items()}


def train_wordpiece(corpus, num_merges, prefix="##"):
    """Aprende hasta `num_merges` fusiones de WordPiece sobre `corpus` (palabra -> frecuencia).

    Cada palabra empieza como su primera letra y el resto de letras con `prefix`. En cada
    ronda se fusiona el par de mejor puntuación (en un empate, el que aparece antes); la
    unidad nueva es a + b sin su prefijo, y se sustituye de izquierda a derecha, sin
    solapes. Se para antes si no queda ningún par. ValueError si `num_merges < 0`.

    Las puntuaciones se comparan exactas, como fracciones: con floats, dos puntuaciones
    iguales podrían redondearse distinto y cambiar quién gana un empate.

    >>> train_wordpiece({"gato": 5, "gata": 3, "pato": 2}, 2)
    [('##t', '##o'), ('g', '##a')]
    """
    if num_merges < 0:
        raise ValueError(f"num_merges no puede ser negativo: {num_merges}")
    words = [[word[0]] + [prefix + letter for letter in word[1:]] for word in corpus if word]
    freqs = [corpus[word] for word in corpus if word]
    merges = []
    for _ in range(num_merges):
        units, pairs = Counter(), Counter()
        for word, freq in zip(words, freqs):
            for unit in word:
                units[unit] += freq
            for pair in zip(word, word[1:]):
                pairs[pair] += freq
        if not pairs:
            break
        # max keeps the first of equal scores, which is the pair that appeared first
        a, b = max(pairs, key=lambda pair: Fraction(pairs[pair], units[pair[0]] * units[pair[1]]))
        merges.append((a, b))
        for word in words:
            i = 0
            while i < len(word) - 1:
                if word[i] == a and word[i + 1] == b:
                    word[i:i + 2] = [a + b[len(prefix):]]
                i += 1
    return merges


def unigram_viterbi(word, logp):
    """La segmentación de `word` con mayor log-probabilidad total, y esa log-probabilidad.

    Programación dinámica sobre las posiciones finales: la mejor forma de llegar a cada
    posición es la mejor de (mejor hasta el inicio de una pieza + su logp). Un candidato
    solo sustituye al mejor si es estrictamente mayor, probando de la pieza más larga a la
    más corta: en un empate gana la última pieza más larga. Un carácter que no está en
    `logp` vale min(logp) - 10 y los desconocidos seguidos salen como una sola pieza.
    ValueError si `logp` está vacío.

    >>> unigram_viterbi("casas", {"c": -3, "a": -2, "s": -2, "cas": -4, "as": -2})
    (['cas', 'as'], -6.0)
    """
    if not logp:
        raise ValueError("logp está vacío")
    unknown = min(logp.values()) - 10.0
    # best[i]: the score of the best way to reach position i, where its last piece starts, and is it unknown
    best = [(0.0, 0, False)] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(end):
            if best[start] is None or word[start:end] not in logp:
                continue
            score = best[start][0] + logp[word[start:end]]
            if best[end] is None or score > best[end][0]:
                best[end] = (score, start, False)
        if word[end - 1] not in logp:
            score = best[end - 1][0] + unknown
            if best[end] is None or score > best[end][0]:
                best[end] = (score, end - 1, True)
    pieces, end = [], len(word)
    while end > 0:
        _, start, is_unknown = best[end]
        if is_unknown and pieces and pieces[-1][1]:
            pieces[-1] = (word[start:end] + pieces[-1][0], True)
        else:
            pieces.append((word[start:end], is_unknown))
        end = start
    return [piece for piece, _ in reversed(pieces)], best[len(word)][0]


def unigram_prune(corpus, logp, n):
    """Lo que empeora el corpus al quitar cada pieza de dos o más caracteres, y las `n` que menos.

    L(V) = suma de frecuencia · puntuación de Viterbi de cada palabra. La pérdida de una
    pieza es L(V) - L(V sin ella), con las demás log-probabilidades sin cambios. Devuelve
    las pérdidas (en el orden de `logp`) y las `n` piezas de menor pérdida (empates en el
    orden de `logp`). Los caracteres sueltos nunca se quitan. ValueError si `n < 0`, si
    una frecuencia no es un int positivo o si un carácter del corpus no es una pieza.

    >>> unigram_prune({"casa": 4, "cosa": 2},
    ...               {"c": -3, "a": -2, "s": -3, "o": -3, "co": -4, "ca": -3, "sa": -2, "casa": -4}, 2)
    ({'co': 4.0, 'ca': 0.0, 'sa': 6.0, 'casa': 4.0}, ['ca', 'co'])
    """
    if n < 0:
        raise ValueError(f"n no puede ser negativo: {n}")
    for word, freq in corpus.items():
        if type(freq) is not int or freq <= 0:
            raise ValueError(f"la frecuencia de {word!r} debe ser un int positivo, no {freq!r}")
        missing = [ch for ch in word if ch not in logp]
        if missing:
            raise ValueError(f"el carácter {missing[0]!r} de {word!r} no es una pieza")

    def total(pieces):
        return sum(freq * unigram_viterbi(word, pieces)[1] for word, freq in corpus.items())

    whole = total(logp)
    losses = {}
    for piece in logp:
        if len(piece) >= 2:
            losses[piece] = float(whole - total({p: s for p, s in logp.items() if p != piece}))
    order = {piece: k for k, piece in enumerate(logp)}
    weakest = sorted(losses, key=lambda piece: (losses[piece], order[piece]))[:n]
    return losses, weakest


def sp_encode(text, logp, add_dummy_prefix=True):
    """Codifica `text` como SentencePiece: cada espacio es ▁ y se segmenta con Viterbi.

    Con `add_dummy_prefix`, se añade un ▁ delante, para que la primera palabra se
    codifique como las demás. Solo el espacio U+0020 se convierte, y los espacios
    seguidos no se juntan. ValueError si `text` ya contiene ▁.

    >>> sp_encode("la casa", {"▁la": -3, "▁casa": -4, "▁": -2, "a": -3})
    ['▁la', '▁casa']
    """
    if not text:
        return []
    if SPACE in text:
        raise ValueError("el texto ya contiene ▁ (U+2581)")
    return unigram_viterbi((SPACE if add_dummy_prefix else "") + text.replace(" ", SPACE), logp)[0]


def sp_decode(pieces, add_dummy_prefix=True):
    """Une las piezas, cambia ▁ por espacio y, con `add_dummy_prefix`, quita el primer espacio.

    >>> sp_decode(["▁la", "▁", "▁casa"])
    'la  casa'
    """
    text = "".join(pieces).replace(SPACE, " ")
    return text[1:] if add_dummy_prefix and text.startswith(" ") else text
