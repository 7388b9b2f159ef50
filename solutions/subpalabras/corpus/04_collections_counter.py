"""Counting-centred version: collections.Counter, defaultdict and OrderedDict hold every
frequency, index and lattice, and the pruning picks its n pieces with Counter.most_common."""

from collections import Counter, OrderedDict, defaultdict
from fractions import Fraction

SPACE = "\u2581"


def _index_by_length(pieces):
    index = defaultdict(set)
    for piece in pieces:
        index[len(piece)].add(piece)
    return index


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars tiene que ser >= 0")
    # First pieces are vocabulary entries as they are; continuation pieces are the
    # entries that carry the prefix, stored without it. Both indexed by length.
    first = _index_by_length(vocab)
    continuation = _index_by_length(piece[len(prefix):] for piece in vocab if piece.startswith(prefix))

    def split_word(word):
        pieces, start = [], 0
        while start < len(word):
            index = first if start == 0 else continuation
            for length in sorted((k for k in index if 0 < k <= len(word) - start), reverse=True):
                if word[start:start + length] in index[length]:
                    pieces.append(word[start:start + length] if start == 0 else prefix + word[start:start + length])
                    start += length
                    break
            else:
                return None
        return pieces

    tokens = []
    for word in text.split():
        pieces = split_word(word) if len(word) <= max_chars else None
        if pieces is None:
            if unk not in vocab:
                raise KeyError(f"el vocabulario no contiene {unk!r}")
            pieces = [unk]
        tokens += pieces
    return tokens


def _unit_and_pair_counts(splits):
    units, pairs = Counter(), Counter()
    for word, freq in splits.items():
        for unit in word:
            units[unit] += freq
        for pair in zip(word, word[1:]):
            pairs[pair] += freq
    return units, pairs


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    units, pairs = _unit_and_pair_counts(splits)
    scores = OrderedDict()
    for (a, b), freq in pairs.items():  # Counter keeps first-appearance order
        scores[a, b] = freq / (units[a] * units[b])
    return dict(scores)


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges tiene que ser >= 0")
    splits = OrderedDict()
    for word, freq in corpus.items():
        key = tuple(word[:1]) + tuple(prefix + ch for ch in word[1:])
        splits[key] = splits.get(key, 0) + freq
    merges = []
    for _ in range(num_merges):
        units, pairs = _unit_and_pair_counts(splits)
        if not pairs:
            break
        # max() returns the first maximal pair, i.e. the one that appears first
        a, b = max(pairs, key=lambda pair: Fraction(pairs[pair], units[pair[0]] * units[pair[1]]))
        merged = a + b[len(prefix):]
        rewritten = OrderedDict()
        for word, freq in splits.items():
            out, i = [], 0
            while i < len(word):
                if word[i:i + 2] == (a, b):
                    out.append(merged)
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            rewritten[tuple(out)] = rewritten.get(tuple(out), 0) + freq
        splits = rewritten
        merges.append((a, b))
    return merges


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp no tiene ninguna pieza")
    unk_score = min(logp.values()) - 10.0
    lengths = _index_by_length(logp)

    # lattice[end] lists (start, score, unknown), longest piece first
    lattice = defaultdict(list)
    for end in range(1, len(word) + 1):
        for start in range(end):
            piece = word[start:end]
            if piece in lengths[end - start]:
                lattice[end].append((start, logp[piece], False))
            elif end - start == 1:
                lattice[end].append((start, unk_score, True))

    best = {0: (0.0, None, False)}
    for end in range(1, len(word) + 1):
        for start, score, unknown in lattice[end]:
            candidate = best[start][0] + score
            if end not in best or candidate > best[end][0]:
                best[end] = (candidate, start, unknown)

    runs = []  # (piece, unknown), built right to left
    end = len(word)
    while end > 0:
        _, start, unknown = best[end]
        runs.append((word[start:end], unknown))
        end = start
    pieces = []
    last_unknown = False
    for piece, unknown in reversed(runs):
        if unknown and last_unknown:
            pieces[-1] += piece
        else:
            pieces.append(piece)
        last_unknown = unknown
    return pieces, best[len(word)][0]


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n tiene que ser >= 0")
    bad = [word for word, freq in corpus.items()
           if isinstance(freq, bool) or not isinstance(freq, int) or freq <= 0]
    if bad:
        raise ValueError(f"la frecuencia de {bad[0]!r} no es un entero positivo")
    characters = Counter(ch for word in corpus for ch in word)
    missing = [ch for ch in characters if ch not in logp]
    if missing:
        raise ValueError(f"el carácter {missing[0]!r} no es una pieza")

    def likelihood(table):
        total = 0.0
        for word, freq in corpus.items():
            total += freq * unigram_viterbi(word, table)[1]
        return total

    base = likelihood(logp)
    losses = OrderedDict()
    for piece in logp:
        if len(piece) >= 2:
            without = OrderedDict(logp)
            del without[piece]
            losses[piece] = base - likelihood(without)
    # most_common sorts stably by descending count: negated losses give the smallest
    # losses first, ties in logp order
    ranking = Counter(OrderedDict((piece, -loss) for piece, loss in losses.items()))
    return dict(losses), [piece for piece, _ in ranking.most_common(n)]


def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if not text:
        return []
    if Counter(text)[SPACE]:
        raise ValueError("el texto no puede llevar ▁")
    normalized = (SPACE if add_dummy_prefix else "") + text.replace(" ", SPACE)
    return unigram_viterbi(normalized, logp)[0]


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    text = "".join(pieces).replace(SPACE, " ")
    if add_dummy_prefix and text.startswith(" "):
        return text[1:]
    return text
