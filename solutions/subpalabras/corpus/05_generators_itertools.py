"""Functional version: generators and itertools (pairwise, accumulate, groupby, islice,
chain) with functools.reduce; merges are a lazy stream and Viterbi is an accumulate."""

from fractions import Fraction
from functools import reduce
from itertools import accumulate, chain, groupby, islice, pairwise
from operator import add, itemgetter

SPACE = "\u2581"


# --- WordPiece encoding -------------------------------------------------------------------

def _greedy_pieces(word, vocab, prefix):
    """Yield the longest-match-first pieces of `word`; yield None where no piece fits."""
    start = 0
    while start < len(word):
        candidates = ((end, word[start:end] if start == 0 else prefix + word[start:end])
                      for end in range(len(word), start, -1))
        end, piece = next(((e, p) for e, p in candidates if p in vocab), (None, None))
        yield piece
        if piece is None:
            return
        start = end


def _word_tokens(word, vocab, unk, prefix, max_chars):
    pieces = None if len(word) > max_chars else list(_greedy_pieces(word, vocab, prefix))
    if pieces is None or None in pieces:
        if unk not in vocab:
            raise KeyError(f"la palabra {word!r} necesita {unk!r}, que no está en el vocabulario")
        return [unk]
    return pieces


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars debe ser un número no negativo")
    return list(chain.from_iterable(_word_tokens(word, vocab, unk, prefix, max_chars) for word in text.split()))


# --- WordPiece scores and training --------------------------------------------------------

def _tally(weighted):
    """Sum (key, weight) pairs into a dict that keeps the order of first appearance."""
    def add_one(acc, item):
        key, weight = item
        acc[key] = acc.get(key, 0) + weight
        return acc

    return reduce(add_one, weighted, {})


def _statistics(splits):
    units = _tally((unit, freq) for word, freq in splits for unit in word)
    pairs = _tally((pair, freq) for word, freq in splits for pair in pairwise(word))
    return units, pairs


def _exact_scores(splits):
    units, pairs = _statistics(splits)
    return ((pair, Fraction(freq, units[pair[0]] * units[pair[1]])) for pair, freq in pairs.items())


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    return {pair: float(score) for pair, score in _exact_scores(list(splits.items()))}


def _merge_word(units, pair, merged):
    a, b = pair

    def step(acc, unit):
        # merged is longer than a, so acc[-1] == a is always an unmerged unit
        return acc[:-1] + (merged,) if acc and acc[-1] == a and unit == b else acc + (unit,)

    return reduce(step, units, ())


def _merge_stream(splits, prefix):
    """Yield the merges one round after another, until no pair is left."""
    while True:
        scores = list(_exact_scores(splits))
        if not scores:
            return
        pair = max(scores, key=itemgetter(1))[0]  # max keeps the first of equal scores
        merged = pair[0] + pair[1][len(prefix):]
        splits = [(_merge_word(word, pair, merged), freq) for word, freq in splits]
        yield pair


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges debe ser un número no negativo")
    splits = [(tuple(chain(word[:1], (prefix + ch for ch in word[1:]))), freq) for word, freq in corpus.items()]
    return list(islice(_merge_stream(splits, prefix), num_merges))


# --- Unigram ------------------------------------------------------------------------------

def _last(iterable):
    return reduce(lambda _, item: item, iterable)


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp no puede ser un diccionario vacío")
    unk_score = min(logp.values()) - 10.0

    def arcs(end):
        # (start, score, unknown) of every piece ending at `end`, longest first
        for start in range(end):
            piece = word[start:end]
            if piece in logp:
                yield start, logp[piece], False
            elif end - start == 1:
                yield start, unk_score, True

    def extend(table, end):
        # max() keeps the first maximum: a later (shorter) piece must be strictly better
        best = max(((table[start][0] + score, start, unknown) for start, score, unknown in arcs(end)),
                   key=itemgetter(0))
        return table + (best,)

    # accumulate yields the growing table; the last one covers the whole word
    table = _last(accumulate(range(1, len(word) + 1), extend, initial=((0.0, None, False),)))

    def backwards(end):
        while end > 0:
            _, start, unknown = table[end]
            yield word[start:end], unknown
            end = start

    path = reversed(list(backwards(len(word))))
    pieces = chain.from_iterable(
        ["".join(map(itemgetter(0), group))] if unknown else map(itemgetter(0), group)
        for unknown, group in groupby(path, key=itemgetter(1))
    )
    return list(pieces), table[len(word)][0]


def _is_positive_int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n debe ser un número no negativo")
    if not all(map(_is_positive_int, corpus.values())):
        raise ValueError("todas las frecuencias deben ser enteros positivos")
    if any(ch not in logp for ch in chain.from_iterable(corpus)):
        raise ValueError("hay caracteres del corpus que no son piezas")

    def likelihood(table):
        return reduce(add, (freq * unigram_viterbi(word, table)[1] for word, freq in corpus.items()), 0.0)

    base = likelihood(logp)
    candidates = [piece for piece in logp if len(piece) >= 2]
    losses = {piece: base - likelihood({k: v for k, v in logp.items() if k != piece}) for piece in candidates}
    # sorted is stable: equal losses stay in logp order
    return losses, list(islice(sorted(losses, key=losses.__getitem__), n))


# --- SentencePiece's ▁ --------------------------------------------------------------------

def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if not text:
        return []
    if SPACE in text:
        raise ValueError("el texto contiene ▁, que está reservado")
    normalized = "".join(chain(SPACE if add_dummy_prefix else "", map(lambda ch: SPACE if ch == " " else ch, text)))
    return unigram_viterbi(normalized, logp)[0]


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    chars = (" " if ch == SPACE else ch for ch in chain.from_iterable(pieces))
    first = next(chars, "")
    head = "" if add_dummy_prefix and first == " " else first
    return head + "".join(chars)
