"""Every choice is an explicit ordering: heaps keyed on (-score, first position) pick the
WordPiece merge and each Viterbi cell, `sorted` with explicit keys orders piece lengths
and first appearances, and `heapq.nsmallest` on (loss, position) picks the weakest pieces."""
import heapq
from fractions import Fraction
from itertools import groupby

SPACE = "\u2581"


# ---------------------------------------------------------------- WordPiece encoding

def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars debe ser >= 0")
    # Candidate lengths (in characters of the word), longest first.
    first_lengths = sorted({len(k) for k in vocab if k}, key=lambda n: -n)
    later_lengths = sorted(
        {len(k) - len(prefix) for k in vocab if k.startswith(prefix) and len(k) > len(prefix)},
        key=lambda n: -n,
    )
    out = []
    for word in text.split():
        pieces = []
        pos = 0
        while len(word) <= max_chars and pos < len(word):
            head = "" if pos == 0 else prefix
            lengths = first_lengths if pos == 0 else later_lengths
            found = next(
                (head + word[pos:pos + n] for n in lengths
                 if pos + n <= len(word) and head + word[pos:pos + n] in vocab),
                None,
            )
            if found is None:
                break
            pieces.append(found)
            pos += len(found) - len(head)
        if pos < len(word) or len(word) > max_chars:
            if unk not in vocab:
                raise KeyError(f"el token {unk!r} no está en el vocabulario")
            pieces = [unk]
        out.extend(pieces)
    return out


# ---------------------------------------------------------------- WordPiece training

def _counts(items):
    """Unit totals, pair totals and each pair's first position in the scan."""
    unit_freq, pair_freq, first_seen = {}, {}, {}
    for split, freq in items:
        for unit in split:
            unit_freq[unit] = unit_freq.get(unit, 0) + freq
        for pair in zip(split, split[1:]):
            pair_freq[pair] = pair_freq.get(pair, 0) + freq
            first_seen.setdefault(pair, len(first_seen))
    return unit_freq, pair_freq, first_seen


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    unit_freq, pair_freq, first_seen = _counts(splits.items())
    ordered = sorted(pair_freq, key=lambda pair: first_seen[pair])
    return {p: pair_freq[p] / (unit_freq[p[0]] * unit_freq[p[1]]) for p in ordered}


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges debe ser >= 0")
    splits = [tuple(w[:1]) + tuple(prefix + c for c in w[1:]) for w in corpus]
    freqs = list(corpus.values())
    merges = []
    while len(merges) < num_merges:
        unit_freq, pair_freq, first_seen = _counts(zip(splits, freqs))
        if not pair_freq:
            break
        # Exact scores; the smallest (-score, first position) is the best, earliest pair.
        heap = [
            (-Fraction(c, unit_freq[p[0]] * unit_freq[p[1]]), first_seen[p], p)
            for p, c in pair_freq.items()
        ]
        heapq.heapify(heap)
        _, _, (a, b) = heap[0]
        merged = a + b[len(prefix):]
        new_splits = []
        for split in splits:
            out = []
            i = 0
            while i < len(split):
                if split[i] == a and i + 1 < len(split) and split[i + 1] == b:
                    out.append(merged)
                    i += 2
                else:
                    out.append(split[i])
                    i += 1
            new_splits.append(tuple(out))
        splits = new_splits
        merges.append((a, b))
    return merges


# ---------------------------------------------------------------- Unigram

def _viterbi(word, logp, unk_score):
    n = len(word)
    best = [0.0]
    choice = [None]  # (start, is_unknown) of the last piece ending here
    for end in range(1, n + 1):
        heap = []
        for start in range(end):
            piece = word[start:end]
            if piece in logp:
                heapq.heappush(heap, (-(best[start] + logp[piece]), start, False))
            elif end - start == 1:
                heapq.heappush(heap, (-(best[start] + unk_score), start, True))
        # Top of the heap: highest score, then smallest start (longest piece), which is
        # what "longest first, replace only if strictly greater" keeps.
        neg, start, unknown = heap[0]
        best.append(-neg)
        choice.append((start, unknown))
    segments = []
    end = n
    while end > 0:
        start, unknown = choice[end]
        segments.append((start, end, unknown))
        end = start
    segments.sort(key=lambda seg: seg[0])
    pieces = []
    for unknown, run in groupby(segments, key=lambda seg: seg[2]):
        run = list(run)
        if unknown:
            pieces.append(word[run[0][0]:run[-1][1]])
        else:
            pieces.extend(word[s:e] for s, e, _ in run)
    return pieces, best[n]


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp está vacío")
    return _viterbi(word, logp, min(logp.values()) - 10.0)


def _corpus_score(corpus, logp):
    if corpus and not logp:
        raise ValueError("logp está vacío")
    unk = min(logp.values()) - 10.0 if logp else 0.0
    return sum(freq * _viterbi(word, logp, unk)[1] for word, freq in corpus.items())


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n debe ser >= 0")
    for word, freq in corpus.items():
        if type(freq) is bool or not isinstance(freq, int) or freq <= 0:
            raise ValueError(f"frecuencia no válida para {word!r}")
        missing = sorted(set(word) - set(logp))
        if missing:
            raise ValueError(f"caracteres del corpus que no son piezas: {missing}")
    total = _corpus_score(corpus, logp)
    losses = {}
    for piece in logp:
        if len(piece) >= 2:
            reduced = {k: v for k, v in logp.items() if k != piece}
            losses[piece] = total - _corpus_score(corpus, reduced)
    weakest = heapq.nsmallest(
        n, ((loss, position, piece) for position, (piece, loss) in enumerate(losses.items())),
        key=lambda item: (item[0], item[1]),
    )
    return losses, [piece for _, _, piece in weakest]


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
