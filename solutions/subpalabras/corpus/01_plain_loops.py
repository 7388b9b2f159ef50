"""Subword tokenizers written as the most direct reading of the spec: plain for/while loops
and dicts, with no imports at all (exact score comparison by integer cross-multiplication)."""

SPACE = "\u2581"


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars no puede ser negativo")
    tokens = []
    for word in text.split():
        pieces = []
        if len(word) > max_chars:
            pieces = None
        else:
            start = 0
            while start < len(word):
                found = None
                end = len(word)
                while end > start:
                    piece = word[start:end]
                    if start > 0:
                        piece = prefix + piece
                    if piece in vocab:
                        found = piece
                        break
                    end -= 1
                if found is None:
                    pieces = None
                    break
                pieces.append(found)
                start = end
        if pieces is None:
            if unk not in vocab:
                raise KeyError(f"el token desconocido {unk!r} no está en el vocabulario")
            tokens.append(unk)
        else:
            for piece in pieces:
                tokens.append(piece)
    return tokens


def _count_units_and_pairs(splits):
    # splits: iterable of (units, freq)
    unit_freq = {}
    pair_freq = {}
    for units, freq in splits:
        for unit in units:
            unit_freq[unit] = unit_freq.get(unit, 0) + freq
        for i in range(len(units) - 1):
            pair = (units[i], units[i + 1])
            pair_freq[pair] = pair_freq.get(pair, 0) + freq
    return unit_freq, pair_freq


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    unit_freq, pair_freq = _count_units_and_pairs(splits.items())
    scores = {}
    for pair, freq in pair_freq.items():
        scores[pair] = freq / (unit_freq[pair[0]] * unit_freq[pair[1]])
    return scores


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges no puede ser negativo")
    words = []
    for word, freq in corpus.items():
        units = []
        for i in range(len(word)):
            if i == 0:
                units.append(word[i])
            else:
                units.append(prefix + word[i])
        words.append([units, freq])

    merges = []
    while len(merges) < num_merges:
        unit_freq, pair_freq = _count_units_and_pairs(words)
        if not pair_freq:
            break
        best = None
        best_num = 0
        best_den = 1
        for pair, freq in pair_freq.items():
            den = unit_freq[pair[0]] * unit_freq[pair[1]]
            # freq / den > best_num / best_den, compared exactly
            if best is None or freq * best_den > best_num * den:
                best = pair
                best_num = freq
                best_den = den
        a, b = best
        merged = a + b[len(prefix):]
        for entry in words:
            units = entry[0]
            new_units = []
            i = 0
            while i < len(units):
                if i + 1 < len(units) and units[i] == a and units[i + 1] == b:
                    new_units.append(merged)
                    i += 2
                else:
                    new_units.append(units[i])
                    i += 1
            entry[0] = new_units
        merges.append((a, b))
    return merges


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp no puede estar vacío")
    unk_score = min(logp.values()) - 10.0
    n = len(word)
    best_score = [None] * (n + 1)
    best_start = [0] * (n + 1)
    best_is_unk = [False] * (n + 1)
    best_score[0] = 0.0
    for end in range(1, n + 1):
        # start = 0 first: longest piece first
        for start in range(end):
            piece = word[start:end]
            if piece in logp:
                score = logp[piece]
                is_unk = False
            elif end - start == 1:
                score = unk_score
                is_unk = True
            else:
                continue
            candidate = best_score[start] + score
            if best_score[end] is None or candidate > best_score[end]:
                best_score[end] = candidate
                best_start[end] = start
                best_is_unk[end] = is_unk

    path = []
    end = n
    while end > 0:
        start = best_start[end]
        path.append((start, end, best_is_unk[end]))
        end = start
    path.reverse()

    pieces = []
    previous_unk = False
    for start, end, is_unk in path:
        if is_unk and previous_unk:
            pieces[-1] = pieces[-1] + word[start:end]
        else:
            pieces.append(word[start:end])
        previous_unk = is_unk
    return pieces, best_score[n]


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n no puede ser negativo")
    for word, freq in corpus.items():
        if isinstance(freq, bool) or not isinstance(freq, int) or freq <= 0:
            raise ValueError(f"la frecuencia de {word!r} debe ser un entero positivo")
    for word in corpus:
        for ch in word:
            if ch not in logp:
                raise ValueError(f"el carácter {ch!r} del corpus no es una pieza")

    def total_score(table):
        total = 0.0
        for word, freq in corpus.items():
            total += freq * unigram_viterbi(word, table)[1]
        return total

    base = total_score(logp)
    losses = {}
    for piece in logp:
        if len(piece) < 2:
            continue
        reduced = {}
        for other, value in logp.items():
            if other != piece:
                reduced[other] = value
        losses[piece] = base - total_score(reduced)

    # selection of the n smallest, ties kept in logp order
    remaining = list(losses)
    chosen = []
    while len(chosen) < n and remaining:
        best_index = 0
        for i in range(1, len(remaining)):
            if losses[remaining[i]] < losses[remaining[best_index]]:
                best_index = i
        chosen.append(remaining.pop(best_index))
    return losses, chosen


def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if text == "":
        return []
    if SPACE in text:
        raise ValueError("el texto no puede contener el carácter ▁")
    prepared = text.replace(" ", SPACE)
    if add_dummy_prefix:
        prepared = SPACE + prepared
    return unigram_viterbi(prepared, logp)[0]


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    text = ""
    for piece in pieces:
        text += piece
    text = text.replace(SPACE, " ")
    if add_dummy_prefix and text.startswith(" "):
        text = text[1:]
    return text
