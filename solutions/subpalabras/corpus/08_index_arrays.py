"""Index arrays instead of substrings: words are (start, end) offsets into the text, units
are interned as integer ids with frequencies in id-indexed lists, and Viterbi fills
parallel lists of best scores, back-pointers and unknown flags before slicing any string.
Pair scores are compared exactly by cross-multiplying integer counts."""

SPACE = "\u2581"


# ---------------------------------------------------------------- WordPiece encoding

def _word_spans(text):
    """(start, end) offsets of the words of `text.split()` (same notion of whitespace)."""
    spans = []
    start = -1
    for i, ch in enumerate(text):
        if ch.isspace():
            if start >= 0:
                spans.append((start, i))
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        spans.append((start, len(text)))
    return spans


def _cut_points(text, lo, hi, vocab, prefix, first_max, rest_max):
    """Offsets lo = c0 < c1 < ... = hi of the greedy longest match, or None."""
    cuts = [lo]
    pos = lo
    while pos < hi:
        longest = first_max if pos == lo else rest_max
        end = min(hi, pos + longest)
        head = "" if pos == lo else prefix
        while end > pos and head + text[pos:end] not in vocab:
            end -= 1
        if end == pos:
            return None
        cuts.append(end)
        pos = end
    return cuts


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars debe ser mayor o igual que cero")
    # Longest possible match, in characters of the word, for a first and a later piece.
    first_max = max((len(k) for k in vocab), default=0)
    rest_max = max((len(k) - len(prefix) for k in vocab if k.startswith(prefix)), default=0)
    out = []
    for lo, hi in _word_spans(text):
        cuts = None if hi - lo > max_chars else _cut_points(
            text, lo, hi, vocab, prefix, first_max, rest_max)
        if cuts is None:
            if unk not in vocab:
                raise KeyError(f"{unk!r} no está en el vocabulario")
            out.append(unk)
            continue
        for j in range(len(cuts) - 1):
            piece = text[cuts[j]:cuts[j + 1]]
            out.append(piece if j == 0 else prefix + piece)
    return out


# ---------------------------------------------------------------- WordPiece training

class _Interner:
    """Unit string <-> integer id."""

    def __init__(self):
        self.ids = {}
        self.names = []

    def __call__(self, name):
        i = self.ids.get(name)
        if i is None:
            i = self.ids[name] = len(self.names)
            self.names.append(name)
        return i


def _count(seqs, freqs, n_units):
    """Unit frequencies (list indexed by id) and pair counts (dict in first-seen order)."""
    unit_freq = [0] * n_units
    pair_freq = {}
    for seq, f in zip(seqs, freqs):
        for k, u in enumerate(seq):
            unit_freq[u] += f
            if k:
                key = (seq[k - 1], u)
                pair_freq[key] = pair_freq.get(key, 0) + f
    return unit_freq, pair_freq


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    intern = _Interner()
    seqs = [[intern(u) for u in split] for split in splits]
    unit_freq, pair_freq = _count(seqs, list(splits.values()), len(intern.names))
    names = intern.names
    return {
        (names[a], names[b]): c / (unit_freq[a] * unit_freq[b])
        for (a, b), c in pair_freq.items()
    }


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges debe ser mayor o igual que cero")
    intern = _Interner()
    seqs = [[intern(w[k] if k == 0 else prefix + w[k]) for k in range(len(w))] for w in corpus]
    freqs = list(corpus.values())
    cut = len(prefix)
    merges = []
    while len(merges) < num_merges:
        unit_freq, pair_freq = _count(seqs, freqs, len(intern.names))
        best = None
        for (a, b), c in pair_freq.items():
            den = unit_freq[a] * unit_freq[b]
            # c / den > bc / bden  <=>  c * bden > bc * den  (denominators are positive)
            if best is None or c * best[2] > best[1] * den:
                best = ((a, b), c, den)
        if best is None:
            break
        a, b = best[0]
        names = intern.names
        m = intern(names[a] + names[b][cut:])
        for w, seq in enumerate(seqs):
            if len(seq) < 2:
                continue
            new = []
            k = 0
            while k < len(seq):
                if k + 1 < len(seq) and seq[k] == a and seq[k + 1] == b:
                    new.append(m)
                    k += 2
                else:
                    new.append(seq[k])
                    k += 1
            seqs[w] = new
        merges.append((names[a], names[b]))
    return merges


# ---------------------------------------------------------------- Unigram

def _lattice(word, logp, max_len):
    """edges[end] = [(start, piece_score_or_None), ...], starts ascending (longest first);
    None marks the one-character unknown edge."""
    edges = [[] for _ in range(len(word) + 1)]
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - max_len), end):
            score = logp.get(word[start:end])
            if score is not None:
                edges[end].append((start, score))
            elif start == end - 1:
                edges[end].append((start, None))
    return edges


def _best_path(n, edges, unk_score, skip=None):
    """Fill parallel lists best/back/unknown over end positions 0..n."""
    best = [0.0] + [None] * n
    back = [-1] * (n + 1)
    unknown = [False] * (n + 1)
    for end in range(1, n + 1):
        for start, score in edges[end]:
            if skip is not None and (start, end) in skip:
                continue
            is_unk = score is None
            cand = best[start] + (unk_score if is_unk else score)
            if best[end] is None or cand > best[end]:
                best[end], back[end], unknown[end] = cand, start, is_unk
    return best, back, unknown


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp está vacío")
    n = len(word)
    max_len = max(1, max(len(p) for p in logp))
    best, back, unknown = _best_path(n, _lattice(word, logp, max_len), min(logp.values()) - 10.0)
    # Walk the back-pointers into a list of cut offsets; an unknown segment that follows
    # another unknown segment drops the cut between them.
    cuts = [n]
    unk_right = False
    end = n
    while end > 0:
        if unknown[end] and unk_right:
            cuts[-1] = back[end]
        else:
            cuts.append(back[end])
        unk_right = unknown[end]
        end = back[end]
    cuts.reverse()
    return [word[cuts[j]:cuts[j + 1]] for j in range(len(cuts) - 1)], best[n]


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n debe ser mayor o igual que cero")
    for word, f in corpus.items():
        if type(f) is bool or not isinstance(f, int) or f < 1:
            raise ValueError(f"frecuencia no válida para {word!r}: {f!r}")
        for ch in word:
            if ch not in logp:
                raise ValueError(f"el carácter {ch!r} no es una pieza")
    names = list(logp)
    candidates = [i for i, p in enumerate(names) if len(p) >= 2]
    words = list(corpus)
    freqs = list(corpus.values())
    max_len = max((len(p) for p in names), default=0)
    lattices = [_lattice(w, logp, max_len) for w in words]
    # Every corpus character is a piece, so the unknown score is never used.
    base = [_best_path(len(w), lat, 0.0)[0][-1] for w, lat in zip(words, lattices)]
    total = sum(f * s for f, s in zip(freqs, base))
    # Offsets (start, end) where each candidate piece occurs, per word.
    index_of = {p: i for i, p in enumerate(names)}
    occurs = {i: [] for i in candidates}
    for wi, w in enumerate(words):
        for start in range(len(w)):
            for end in range(start + 2, min(len(w), start + max_len) + 1):
                i = index_of.get(w[start:end])
                if i is not None:
                    occurs[i].append((wi, start, end))
    losses = {}
    for i in candidates:
        skip_by_word = {}
        for wi, start, end in occurs[i]:
            skip_by_word.setdefault(wi, set()).add((start, end))
        reduced = 0.0
        for wi, (w, f, lat) in enumerate(zip(words, freqs, lattices)):
            if wi in skip_by_word:
                score = _best_path(len(w), lat, 0.0, skip_by_word[wi])[0][-1]
            else:
                score = base[wi]
            reduced += f * score
        losses[names[i]] = total - reduced
    order = sorted(range(len(candidates)), key=lambda k: (losses[names[candidates[k]]], k))
    return losses, [names[candidates[k]] for k in order[:n]]


# ---------------------------------------------------------------- SentencePiece's ▁

def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if not text:
        return []
    if SPACE in text:
        raise ValueError("el texto contiene ▁")
    return unigram_viterbi((SPACE if add_dummy_prefix else "") + text.replace(" ", SPACE), logp)[0]


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    text = "".join(pieces).replace(SPACE, " ")
    return text[1:] if add_dummy_prefix and text[:1] == " " else text
