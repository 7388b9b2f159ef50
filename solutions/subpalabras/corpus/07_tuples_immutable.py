"""Immutable data only: every intermediate value is a tuple or a frozenset (counts are
tallied by sorting and grouping, lookups go through bisect on sorted tuples, loops are
`functools.reduce` folds), and nothing is ever mutated in place; a list or dict is built
only as the return value the spec asks for."""
from bisect import bisect_left
from fractions import Fraction
from functools import reduce
from itertools import chain, groupby
from operator import itemgetter

SPACE = "\u2581"


# ---------------------------------------------------------------- immutable helpers

def _tally(occurrences):
    """((key, weight), ...) -> ((key, total), ...) in order of first appearance."""
    indexed = tuple((key, index, weight) for index, (key, weight) in enumerate(occurrences))
    groups = tuple(
        (members[0][1], key, sum(weight for _, _, weight in members))
        for key, members in (
            (key, tuple(group))
            for key, group in groupby(sorted(indexed, key=itemgetter(0, 1)), key=itemgetter(0))
        )
    )
    return tuple((key, total) for _, key, total in sorted(groups, key=itemgetter(0)))


def _table(pairs):
    """A read-only lookup table: (sorted keys, values in the same order)."""
    ordered = tuple(sorted(pairs, key=itemgetter(0)))
    return tuple(key for key, _ in ordered), tuple(value for _, value in ordered)


def _lookup(table, key, default=None):
    keys, values = table
    position = bisect_left(keys, key)
    return values[position] if position < len(keys) and keys[position] == key else default


def _pairs(split):
    return tuple(zip(split, split[1:]))


# ---------------------------------------------------------------- WordPiece encoding

def _encode_word(word, vocab, prefix):
    """Greedy longest match; None when some position has no piece."""
    def piece(start, end):
        return word[start:end] if start == 0 else prefix + word[start:end]

    def step(state, _):
        start, pieces = state
        if start is None or start == len(word):
            return state
        end = next((e for e in range(len(word), start, -1) if piece(start, e) in vocab), None)
        return (None, None) if end is None else (end, pieces + (piece(start, end),))

    _, pieces = reduce(step, range(len(word)), (0, ()))
    return pieces


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars no puede ser negativo")

    def unknown():
        if unk not in vocab:
            raise KeyError(f"el token desconocido {unk!r} no está en el vocabulario")
        return (unk,)

    def word_pieces(word):
        pieces = None if len(word) > max_chars else _encode_word(word, vocab, prefix)
        return unknown() if pieces is None else pieces

    return list(chain.from_iterable(word_pieces(word) for word in text.split()))


# ---------------------------------------------------------------- WordPiece training

def _scores(words, divide):
    """words: ((split, freq), ...) -> ((pair, score), ...) in order of first appearance."""
    unit_freq = _table(_tally((unit, freq) for split, freq in words for unit in split))
    pair_freq = _tally((pair, freq) for split, freq in words for pair in _pairs(split))
    return tuple(
        (pair, divide(count, _lookup(unit_freq, pair[0]) * _lookup(unit_freq, pair[1])))
        for pair, count in pair_freq
    )


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    return dict(_scores(tuple((tuple(split), freq) for split, freq in splits.items()),
                        lambda num, den: num / den))


def _merge(split, pair, merged):
    """Replace `pair` left to right, without overlap; `merged` is never equal to pair[0]."""
    a, b = pair

    def fold(done, unit):
        return done[:-1] + (merged,) if done and done[-1] == a and unit == b else done + (unit,)

    return reduce(fold, split, ())


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges no puede ser negativo")
    start = tuple(
        (tuple(c if i == 0 else prefix + c for i, c in enumerate(word)), freq)
        for word, freq in corpus.items()
    )

    def round_(state, _):
        words, merges = state
        scored = _scores(words, Fraction)
        if not scored:
            return state
        # max() keeps the first of equal maxima: the pair that appears first.
        best = max(scored, key=itemgetter(1))[0]
        merged = best[0] + best[1][len(prefix):]
        return tuple((_merge(split, best, merged), freq) for split, freq in words), merges + (best,)

    _, merges = reduce(round_, range(num_merges), (start, ()))
    return list(merges)


# ---------------------------------------------------------------- Unigram

def _viterbi(word, score_of, unk_score):
    """score_of(piece) -> log-probability or None. Returns (pieces tuple, score)."""
    def candidates(table, end):
        # Longest last piece first; the single-character unknown edge comes last.
        for start in range(end):
            piece = word[start:end]
            known = score_of(piece)
            if known is not None:
                yield table[start][0] + known, start, False
            elif end - start == 1:
                yield table[start][0] + unk_score, start, True

    def extend(table, end):
        # max() keeps the first of equal maxima: a later candidate must be strictly better.
        return table + (max(candidates(table, end), key=itemgetter(0)),)

    table = reduce(extend, range(1, len(word) + 1), ((0.0, None, False),))

    def back(state, _):
        end, pieces = state
        if end == 0:
            return state
        _, start, unknown = table[end]
        return start, ((word[start:end], unknown),) + pieces

    _, marked = reduce(back, range(len(word)), (len(word), ()))

    def fuse(done, item):
        if done and item[1] and done[-1][1]:
            return done[:-1] + ((done[-1][0] + item[0], True),)
        return done + (item,)

    return tuple(piece for piece, _ in reduce(fuse, marked, ())), table[-1][0]


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp no puede estar vacío")
    pieces, score = _viterbi(word, logp.get, min(logp.values()) - 10.0)
    return list(pieces), score


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n no puede ser negativo")
    words = tuple(corpus.items())
    if any(not isinstance(freq, int) or isinstance(freq, bool) or freq <= 0
           for _, freq in words):
        raise ValueError("las frecuencias deben ser enteros positivos")
    pieces = frozenset(logp)
    if any(c not in pieces for word, _ in words for c in word):
        raise ValueError("hay un carácter del corpus que no es una pieza")

    def total(score_of, values):
        unk_score = min(values) - 10.0 if values else None
        if words and not values:
            raise ValueError("logp no puede estar vacío")
        return sum(freq * _viterbi(word, score_of, unk_score)[1] for word, freq in words)

    full = total(logp.get, tuple(logp.values()))

    def without(removed):
        return total(lambda piece: None if piece == removed else logp.get(piece),
                     tuple(v for k, v in logp.items() if k != removed))

    losses = tuple((piece, full - without(piece)) for piece in logp if len(piece) >= 2)
    weakest = tuple(piece for piece, _ in sorted(losses, key=itemgetter(1)))[:n]
    return dict(losses), list(weakest)


# ---------------------------------------------------------------- SentencePiece's ▁

def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if text == "":
        return []
    if SPACE in text:
        raise ValueError("el texto no puede contener ▁")
    return unigram_viterbi((SPACE if add_dummy_prefix else "") + text.replace(" ", SPACE), logp)[0]


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    text = "".join(pieces).replace(SPACE, " ")
    return text[1:] if add_dummy_prefix and text.startswith(" ") else text
