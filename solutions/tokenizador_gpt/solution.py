"""Tokenizador al estilo GPT: solución de referencia.

El texto se corta primero en trozos con una expresión regular (pretokenización) y el
BPE a nivel de bytes trabaja dentro de cada trozo. Los tokens especiales se reconocen
aparte y reciben ids reservados. Con las fusiones recuperadas de la tabla de rangos de
tiktoken, el mismo código reproduce el tokenizador de GPT-4 (cl100k_base).
"""

from collections.abc import Collection, Mapping, Set as AbstractSet

import regex

# Los patrones que publica tiktoken (tiktoken_ext/openai_public.py): r50k_base (GPT-2) y cl100k_base (GPT-4).
GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    """Corta `text` en trozos con la expresión regular `pattern` (paquete `regex`).

    Devuelve la lista de coincidencias en orden; unidas, reconstruyen el texto
    (los espacios también son trozos). Por defecto se usa el patrón de GPT-4, que
    agrupa las cifras de tres en tres.

    >>> pretokenize("Hola, mundo 12345")
    ['Hola', ',', ' mundo', ' ', '123', '45']
    """
    return regex.findall(pattern, text)


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    """Aprende `vocab_size - 256` fusiones de BPE a nivel de bytes dentro de los trozos de `text`.

    Cada trozo de `pretokenize(text, pattern)` se pasa a sus bytes UTF-8 y los pares se
    cuentan dentro de cada trozo, nunca entre dos trozos; las cuentas se suman.
    La fusión k-ésima (desde 0) recibe el id 256 + k. Gana el par más frecuente y, en un
    empate, el que aparece antes recorriendo los trozos en el orden del texto.
    Se para antes si no queda ningún par. Lanza ValueError si vocab_size < 256.

    >>> train_regex_bpe("ab ab ab", 258)
    {(97, 98): 256, (32, 256): 257}
    """
    if vocab_size < 256:
        raise ValueError(f"vocab_size debe ser al menos 256, no {vocab_size}")
    chunks = [list(chunk.encode("utf-8")) for chunk in pretokenize(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for ids in chunks:
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        # dict keeps first-seen order and max() keeps the first maximum: that is the tie rule.
        pair = max(stats, key=stats.get)
        merges[pair] = idx
        for k, ids in enumerate(chunks):
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(idx)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            chunks[k] = out
    return merges


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    """Convierte `text` en ids sin tratar tokens especiales.

    Corta el texto con `pretokenize(text, pattern)` y codifica cada trozo por separado:
    sus bytes UTF-8 y, mientras haya algún par fusionable, la fusión de id más bajo.
    Devuelve los ids de todos los trozos, uno tras otro.

    >>> encode_ordinary("ab ab", {(97, 98): 256, (32, 256): 257})
    [256, 257]
    """
    out = []
    for chunk in pretokenize(text, pattern):
        ids = list(chunk.encode("utf-8"))
        while len(ids) >= 2:
            pairs = list(zip(ids, ids[1:]))
            pair = min(pairs, key=lambda p: merges.get(p, float("inf")))
            if pair not in merges:
                break
            idx, merged, i = merges[pair], [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    merged.append(idx)
                    i += 2
                else:
                    merged.append(ids[i])
                    i += 1
            ids = merged
        out.extend(ids)
    return out


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    """Convierte `text` en ids reconociendo los tokens especiales (`special_tokens`: nombre -> id).

    Los argumentos y su significado son los de `tiktoken.Encoding.encode` (solo por nombre):
    - `allowed_special`: "all" (todos los especiales) o un conjunto de nombres. Esos pasan a
      su id; un nombre que no es especial se ignora. Cualquier otra cosa: TypeError.
    - `disallowed_special`: "all" (todos los especiales no permitidos) o una colección de
      textos. Si alguno aparece en el texto, aunque no sea un especial: ValueError. Con ()
      no se prohíbe nada, y los especiales no permitidos se codifican como texto normal.
    Se busca de izquierda a derecha y, si varios especiales permitidos empiezan en el mismo
    sitio, gana el más largo. El texto entre especiales se codifica con `encode_ordinary`.

    >>> encode("a<|fin|>b", {}, {"<|fin|>": 300}, allowed_special="all")
    [97, 300, 98]
    >>> encode("a<|fin|>b", {}, {"<|fin|>": 300}, disallowed_special=())
    [97, 60, 124, 102, 105, 110, 124, 62, 98]
    """
    if allowed_special == "all":
        allowed = set(special_tokens)
    elif isinstance(allowed_special, AbstractSet):
        allowed = set(allowed_special)
    else:
        raise TypeError(f'allowed_special debe ser "all" o un conjunto de nombres, no {allowed_special!r}')
    if disallowed_special == "all":
        disallowed = set(special_tokens) - allowed
    elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
        disallowed = disallowed_special
    else:
        raise TypeError(f'disallowed_special debe ser "all" o una colección de textos, no {disallowed_special!r}')
    for name in disallowed:
        if name in text:
            raise ValueError(f"el texto contiene {name!r}, que no está permitido")
    names = sorted(allowed & set(special_tokens), key=len, reverse=True)  # longest first at one position
    if not names:
        return encode_ordinary(text, merges, pattern)
    out = []
    for k, part in enumerate(regex.split("(" + "|".join(regex.escape(name) for name in names) + ")", text)):
        if k % 2 == 1:
            out.append(special_tokens[part])
        elif part:
            out.extend(encode_ordinary(part, merges, pattern))
    return out


def decode(ids, vocab, special_tokens):
    """Convierte ids en texto: une los bytes de cada id y los lee como UTF-8.

    Un id de `vocab` aporta sus bytes; un id de token especial aporta el nombre del
    especial en UTF-8. Los bytes que no forman UTF-8 válido salen como U+FFFD
    (errors="replace"). Un id que no está en ninguno de los dos lanza KeyError.

    >>> decode([104, 300], {104: b"h"}, {"<|fin|>": 300})
    'h<|fin|>'
    """
    special_bytes = {idx: name.encode("utf-8") for name, idx in special_tokens.items()}
    parts = []
    for idx in ids:
        if idx in vocab:
            parts.append(vocab[idx])
        elif idx in special_bytes:
            parts.append(special_bytes[idx])
        else:
            raise KeyError(idx)
    return b"".join(parts).decode("utf-8", errors="replace")


def recover_merges(mergeable_ranks):
    """Reconstruye las fusiones que hay detrás de una tabla de rangos de tiktoken (bytes -> rango).

    Para cada token de dos o más bytes se repite BPE sobre sus bytes usando solo los
    tokens de rango menor que el suyo: siempre se fusiona el par presente de rango más
    bajo y al final quedan exactamente sus dos padres. La fusión es
    (rango del padre izquierdo, rango del padre derecho) -> rango del token.

    >>> recover_merges({b"a": 0, b"b": 1, b"ab": 2})
    {(0, 1): 2}
    """
    merges = {}
    rank_of = mergeable_ranks.get
    for token, rank in mergeable_ranks.items():
        if len(token) < 2:
            continue
        parts = [token[i:i + 1] for i in range(len(token))]
        while len(parts) > 2:
            # The present pair of lowest rank, among those below the token's own rank.
            best, best_rank = None, rank
            for i in range(len(parts) - 1):
                r = rank_of(parts[i] + parts[i + 1], rank)
                if r < best_rank:
                    best, best_rank = i, r
            if best is None:
                break
            parts[best:best + 2] = [parts[best] + parts[best + 1]]
        if len(parts) != 2:
            raise ValueError(f"la tabla no es de BPE: {token!r} no sale de fusionar dos tokens de rango menor")
        merges[mergeable_ranks[parts[0]], mergeable_ranks[parts[1]]] = rank
    return merges
