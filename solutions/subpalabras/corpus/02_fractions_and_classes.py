"""Object-oriented version: small classes (a greedy WordPiece matcher, a WordPieceTrainer, a
Unigram Lattice, a Pruner) carry the state, and every WordPiece score is an exact Fraction."""

from dataclasses import dataclass, field
from fractions import Fraction

SPACE = "\u2581"


class _GreedyMatcher:
    """Longest-match-first segmentation of a single word."""

    def __init__(self, vocab, prefix, max_chars):
        self.vocab = vocab
        self.prefix = prefix
        self.max_chars = max_chars

    def _candidate(self, word, start, end):
        return word[start:end] if start == 0 else self.prefix + word[start:end]

    def split(self, word):
        """Pieces of `word`, or None when the word must become the unknown token."""
        if len(word) > self.max_chars:
            return None
        pieces, start = [], 0
        while start < len(word):
            match = next(
                (end for end in range(len(word), start, -1)
                 if self._candidate(word, start, end) in self.vocab),
                None,
            )
            if match is None:
                return None
            pieces.append(self._candidate(word, start, match))
            start = match
        return pieces


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars debe ser mayor o igual que 0")
    matcher = _GreedyMatcher(vocab, prefix, max_chars)
    out = []
    for word in text.split():
        pieces = matcher.split(word)
        if pieces is None:
            if unk not in vocab:
                raise KeyError(f"{unk!r} no está en el vocabulario y la palabra {word!r} lo necesita")
            pieces = [unk]
        out.extend(pieces)
    return out


class _PairStatistics:
    """Unit and adjacent-pair frequencies of a set of split words."""

    def __init__(self, splits):
        self.units = {}
        self.pairs = {}
        for units, freq in splits:
            for unit in units:
                self.units[unit] = self.units.get(unit, 0) + freq
            for pair in zip(units, units[1:]):
                self.pairs[pair] = self.pairs.get(pair, 0) + freq

    def score(self, pair) -> Fraction:
        a, b = pair
        return Fraction(self.pairs[pair], self.units[a] * self.units[b])

    def exact_scores(self):
        return {pair: self.score(pair) for pair in self.pairs}


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    stats = _PairStatistics((tuple(units), freq) for units, freq in splits.items())
    return {pair: float(score) for pair, score in stats.exact_scores().items()}


class WordPieceTrainer:
    """Greedy WordPiece training on a word-frequency corpus."""

    def __init__(self, corpus, prefix="##"):
        self.prefix = prefix
        self.words = [
            (tuple(ch if i == 0 else prefix + ch for i, ch in enumerate(word)), freq)
            for word, freq in corpus.items()
        ]
        self.merges = []

    def best_pair(self):
        stats = _PairStatistics(self.words)
        best, best_score = None, None
        for pair, score in stats.exact_scores().items():
            if best is None or score > best_score:  # strict: the first pair wins ties
                best, best_score = pair, score
        return best

    def merged_unit(self, pair):
        a, b = pair
        return a + b[len(self.prefix):]

    def apply(self, pair):
        new_unit = self.merged_unit(pair)
        rewritten = []
        for units, freq in self.words:
            result, i = [], 0
            while i < len(units):
                if units[i:i + 2] == pair:
                    result.append(new_unit)
                    i += 2
                else:
                    result.append(units[i])
                    i += 1
            rewritten.append((tuple(result), freq))
        self.words = rewritten
        self.merges.append(pair)

    def train(self, num_merges):
        for _ in range(num_merges):
            pair = self.best_pair()
            if pair is None:
                break
            self.apply(pair)
        return list(self.merges)


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges debe ser mayor o igual que 0")
    return WordPieceTrainer(corpus, prefix).train(num_merges)


@dataclass
class _Node:
    start: int
    end: int
    score: float
    unknown: bool


@dataclass
class Lattice:
    """All candidate pieces of a word, indexed by end position, plus a Viterbi pass."""

    word: str
    logp: dict
    ends: list = field(init=False)

    def __post_init__(self):
        if not self.logp:
            raise ValueError("logp está vacío")
        unk_score = min(self.logp.values()) - 10.0
        n = len(self.word)
        self.ends = [[] for _ in range(n + 1)]
        for end in range(1, n + 1):
            for start in range(end):  # longest piece first
                piece = self.word[start:end]
                if piece in self.logp:
                    self.ends[end].append(_Node(start, end, self.logp[piece], False))
                elif end - start == 1:
                    self.ends[end].append(_Node(start, end, unk_score, True))

    def viterbi(self):
        n = len(self.word)
        total = [0.0] + [None] * n
        back = [None] * (n + 1)
        for end in range(1, n + 1):
            for node in self.ends[end]:
                candidate = total[node.start] + node.score
                if back[end] is None or candidate > total[end]:
                    total[end], back[end] = candidate, node
        path = []
        end = n
        while end > 0:
            path.append(back[end])
            end = back[end].start
        path.reverse()
        return self._fuse_unknown(path), total[n]

    def _fuse_unknown(self, path):
        pieces = []
        previous = None
        for node in path:
            text = self.word[node.start:node.end]
            if node.unknown and previous is not None and previous.unknown:
                pieces[-1] += text
            else:
                pieces.append(text)
            previous = node
        return pieces


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    return Lattice(word, logp).viterbi()


class _Pruner:
    def __init__(self, corpus, logp):
        for word, freq in corpus.items():
            if isinstance(freq, bool) or not isinstance(freq, int) or freq <= 0:
                raise ValueError(f"la frecuencia de {word!r} debe ser un entero positivo")
        missing = [ch for word in corpus for ch in word if ch not in logp]
        if missing:
            raise ValueError(f"el carácter {missing[0]!r} del corpus no es una pieza")
        self.corpus = corpus
        self.logp = logp

    def likelihood(self, logp):
        total = 0.0
        for word, freq in self.corpus.items():
            total += freq * Lattice(word, logp).viterbi()[1]
        return total

    def losses(self):
        base = self.likelihood(self.logp)
        return {
            piece: base - self.likelihood({k: v for k, v in self.logp.items() if k != piece})
            for piece in self.logp
            if len(piece) >= 2
        }


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n debe ser mayor o igual que 0")
    losses = _Pruner(corpus, logp).losses()
    position = {piece: i for i, piece in enumerate(logp)}
    ranked = sorted(losses, key=lambda piece: (losses[piece], position[piece]))
    return losses, ranked[:n]


class _SentencePieceText:
    def __init__(self, add_dummy_prefix):
        self.add_dummy_prefix = add_dummy_prefix

    def normalize(self, text):
        if SPACE in text:
            raise ValueError("el texto contiene el carácter reservado ▁")
        return (SPACE if self.add_dummy_prefix else "") + text.replace(" ", SPACE)

    def denormalize(self, pieces):
        text = "".join(pieces).replace(SPACE, " ")
        if self.add_dummy_prefix and text[:1] == " ":
            text = text[1:]
        return text


def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if not text:
        return []
    return Lattice(_SentencePieceText(add_dummy_prefix).normalize(text), logp).viterbi()[0]


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    return _SentencePieceText(add_dummy_prefix).denormalize(pieces)
