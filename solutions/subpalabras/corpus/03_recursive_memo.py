"""Recursive formulation: the greedy WordPiece match and the Unigram Viterbi are memoized
recursions (functools.lru_cache), primed position by position so the stack stays shallow."""

from functools import lru_cache

SPACE = "\u2581"


def _primed(function, positions):
    # Fill the memo in dependency order so that no call recurses more than one level.
    for position in positions:
        function(position)
    return function


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars no puede ser negativo")

    def segment(word):
        if len(word) > max_chars:
            return None

        def piece(start, end):
            return word[start:end] if start == 0 else prefix + word[start:end]

        def longest_end(start):
            # Longest match first: word[start:], then shorter and shorter candidates.
            return next((end for end in range(len(word), start, -1) if piece(start, end) in vocab), None)

        @lru_cache(maxsize=None)
        def rest(start):
            # Pieces of word[start:], or None if some position has no piece.
            if start == len(word):
                return ()
            end = longest_end(start)
            if end is None:
                return None
            tail = rest(end)
            return None if tail is None else (piece(start, end),) + tail

        _primed(rest, range(len(word), -1, -1))
        return rest(0)

    tokens = []
    for word in text.split():
        pieces = segment(word)
        if pieces is None:
            if unk not in vocab:
                raise KeyError(f"falta el token desconocido {unk!r} en el vocabulario")
            pieces = (unk,)
        tokens.extend(pieces)
    return tokens


def _frequencies(splits):
    units, pairs = {}, {}
    for word, freq in splits:
        for unit in word:
            units[unit] = units.get(unit, 0) + freq
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + freq
    return units, pairs


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    units, pairs = _frequencies(splits.items())
    return {(a, b): freq / (units[a] * units[b]) for (a, b), freq in pairs.items()}


def _merge_units(units, a, b, merged):
    out, i = [], 0
    while i < len(units):
        if i + 1 < len(units) and units[i] == a and units[i + 1] == b:
            out.append(merged)
            i += 2
        else:
            out.append(units[i])
            i += 1
    return tuple(out)


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges no puede ser negativo")
    splits = [(tuple(word[:1]) + tuple(prefix + ch for ch in word[1:]), freq) for word, freq in corpus.items()]

    def rounds(splits, remaining):
        # (merges of the next `remaining` rounds, splits after them)
        if remaining == 0:
            return [], splits
        units, pairs = _frequencies(splits)
        if not pairs:
            return [], splits
        best = None
        for pair, freq in pairs.items():
            # exact comparison freq/den > best_freq/best_den by cross-multiplication;
            # strictly greater, so the pair that appears first wins ties
            den = units[pair[0]] * units[pair[1]]
            if best is None or freq * best[2] > best[1] * den:
                best = (pair, freq, den)
        a, b = best[0]
        merged = a + b[len(prefix):]
        later, final = rounds([(_merge_units(w, a, b, merged), f) for w, f in splits], remaining - 1)
        return [(a, b)] + later, final

    # Recurse over the rounds in chunks so that a large num_merges cannot exhaust the stack.
    merges = []
    while True:
        chunk = min(num_merges - len(merges), 200)
        new, splits = rounds(splits, chunk)
        merges.extend(new)
        if chunk == 0 or len(new) < chunk:
            return merges


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp está vacío")
    unk_score = min(logp.values()) - 10.0
    n = len(word)

    @lru_cache(maxsize=None)
    def best(end):
        # (score, start of the last piece, last piece is unknown) for word[:end]
        if end == 0:
            return (0.0, None, False)
        result = None
        for start in range(end):  # longest last piece first
            piece = word[start:end]
            if piece in logp:
                score, unknown = logp[piece], False
            elif end - start == 1:
                score, unknown = unk_score, True
            else:
                continue
            candidate = best(start)[0] + score
            if result is None or candidate > result[0]:
                result = (candidate, start, unknown)
        return result

    @lru_cache(maxsize=None)
    def pieces(end):
        # Segmentation of word[:end] as a tuple of (text, unknown), unknown runs fused.
        if end == 0:
            return ()
        _, start, unknown = best(end)
        head = pieces(start)
        text = word[start:end]
        if unknown and head and head[-1][1]:
            return head[:-1] + ((head[-1][0] + text, True),)
        return head + ((text, unknown),)

    _primed(best, range(n + 1))
    _primed(pieces, range(n + 1))
    return [text for text, _ in pieces(n)], best(n)[0]


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n no puede ser negativo")
    for word, freq in corpus.items():
        if isinstance(freq, bool) or not isinstance(freq, int) or freq <= 0:
            raise ValueError(f"frecuencia no válida para {word!r}: debe ser un entero positivo")
        for ch in word:
            if ch not in logp:
                raise ValueError(f"el carácter {ch!r} no es una pieza del vocabulario")

    def likelihood(table):
        total = 0.0
        for word, freq in corpus.items():
            total += freq * unigram_viterbi(word, table)[1]
        return total

    base = likelihood(logp)
    losses = {}
    for piece in logp:
        if len(piece) >= 2:
            losses[piece] = base - likelihood({k: v for k, v in logp.items() if k != piece})

    def smallest(candidates, k):
        # Recursive selection of the k smallest losses, the earliest piece on ties.
        if k == 0 or not candidates:
            return []
        first = min(candidates, key=lambda piece: losses[piece])  # min keeps the first on ties
        return [first] + smallest([p for p in candidates if p != first], k - 1)

    chosen = []
    remaining = list(losses)
    while len(chosen) < n and remaining:
        step = smallest(remaining, min(n - len(chosen), 200))
        chosen.extend(step)
        taken = set(step)
        remaining = [p for p in remaining if p not in taken]
    return losses, chosen


def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if text == "":
        return []
    if SPACE in text:
        raise ValueError("el texto no debe contener ▁")
    return unigram_viterbi((SPACE if add_dummy_prefix else "") + text.replace(" ", SPACE), logp)[0]


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    def join(rest):
        return "" if not rest else rest[0].replace(SPACE, " ") + join(rest[1:])

    text = "".join(join(pieces[i:i + 200]) for i in range(0, len(pieces), 200))
    return text[1:] if add_dummy_prefix and text.startswith(" ") else text
