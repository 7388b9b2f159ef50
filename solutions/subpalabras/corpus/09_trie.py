"""A character trie of nested dicts does the string matching: WordPiece's longest match
walks it from the root (or from the node after the prefix) and Unigram's Viterbi walks it
from every position to enumerate the pieces that start there, relaxing forward."""
from collections import Counter
from fractions import Fraction

SPACE = "\u2581"

_END = ""  # key of a node's payload; never a single character, so it never collides


def _build_trie(keys_and_values):
    root = {}
    for key, value in keys_and_values:
        node = root
        for ch in key:
            node = node.setdefault(ch, {})
        node[_END] = value
    return root


def _descend(node, chars):
    for ch in chars:
        node = node.get(ch)
        if node is None:
            return None
    return node


def _matches(node, text, start):
    """Yield (end, payload) for every piece, read from `node`, that covers text[start:end]
    with end > start, shortest first."""
    for end in range(start + 1, len(text) + 1):
        node = node.get(text[end - 1])
        if node is None:
            return
        if _END in node:
            yield end, node[_END]


# ---------------------------------------------------------------- WordPiece encoding

def _longest_match_pieces(word, root, cont, prefix):
    pieces = []
    pos = 0
    while pos < len(word):
        node = root if pos == 0 else cont
        last = None
        if node is not None:
            for end, _ in _matches(node, word, pos):
                last = end
        if last is None:
            return None
        pieces.append(word[pos:last] if pos == 0 else prefix + word[pos:last])
        pos = last
    return pieces


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars no puede ser negativo")
    root = _build_trie((piece, True) for piece in vocab)
    cont = _descend(root, prefix)  # node reached after reading the prefix
    tokens = []
    for word in text.split():
        pieces = None if len(word) > max_chars else _longest_match_pieces(word, root, cont, prefix)
        if pieces is None:
            if unk not in vocab:
                raise KeyError(f"falta {unk!r} en el vocabulario")
            pieces = [unk]
        tokens.extend(pieces)
    return tokens


# ---------------------------------------------------------------- WordPiece training

def _unit_and_pair_counts(items):
    units, pairs = Counter(), Counter()
    for split, freq in items:
        for i, unit in enumerate(split):
            units[unit] += freq
            if i:
                pairs[split[i - 1], unit] += freq
    return units, pairs


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    units, pairs = _unit_and_pair_counts(splits.items())
    return {(a, b): c / (units[a] * units[b]) for (a, b), c in pairs.items()}


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges no puede ser negativo")
    words = [[w[0]] + [prefix + c for c in w[1:]] if w else [] for w in corpus]
    freqs = list(corpus.values())
    merges = []
    for _ in range(num_merges):
        units, pairs = _unit_and_pair_counts(zip(words, freqs))
        best, best_score = None, None
        for (a, b), c in pairs.items():
            score = Fraction(c, units[a] * units[b])
            if best_score is None or score > best_score:
                best, best_score = (a, b), score
        if best is None:
            break
        a, b = best
        merged = a + b[len(prefix):]
        for k, split in enumerate(words):
            out, i = [], 0
            while i < len(split):
                if i + 1 < len(split) and split[i] == a and split[i + 1] == b:
                    out.append(merged)
                    i += 2
                else:
                    out.append(split[i])
                    i += 1
            words[k] = out
        merges.append(best)
    return merges


# ---------------------------------------------------------------- Unigram

def _viterbi(word, trie, unk_score):
    n = len(word)
    best = [0.0] + [None] * n
    back = [None] * (n + 1)  # (start, is_unknown)
    for start in range(n):
        # Every start is reachable: each character is a piece or an unknown edge.
        single = trie.get(word[start])
        if single is None or _END not in single:
            cand = best[start] + unk_score
            if best[start + 1] is None or cand > best[start + 1]:
                best[start + 1], back[start + 1] = cand, (start, True)
        # Forward relaxation visits each end's candidates by increasing start, i.e.
        # longest piece first; only a strictly greater score replaces the stored one.
        for end, score in _matches(trie, word, start):
            cand = best[start] + score
            if best[end] is None or cand > best[end]:
                best[end], back[end] = cand, (start, False)
    pieces = []
    end, right_unknown = n, False
    while end > 0:
        start, unknown = back[end]
        if unknown and right_unknown:
            pieces[-1] = word[start:end] + pieces[-1]
        else:
            pieces.append(word[start:end])
        end, right_unknown = start, unknown
    pieces.reverse()
    return pieces, best[n]


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp no puede estar vacío")
    return _viterbi(word, _build_trie(logp.items()), min(logp.values()) - 10.0)


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n no puede ser negativo")
    trie = _build_trie(logp.items())
    for word, freq in corpus.items():
        if isinstance(freq, bool) or not isinstance(freq, int) or freq <= 0:
            raise ValueError(f"la frecuencia de {word!r} no es un entero positivo")
        for ch in word:
            node = trie.get(ch)
            if node is None or _END not in node:
                raise ValueError(f"el carácter {ch!r} del corpus no es una pieza")

    def likelihood(unk_score):
        if corpus and unk_score is None:
            raise ValueError("logp no puede estar vacío")
        return sum(f * _viterbi(w, trie, unk_score)[1] for w, f in corpus.items())

    floor = min(logp.values(), default=None)
    total = likelihood(None if floor is None else floor - 10.0)
    losses = {}
    for piece in logp:
        if len(piece) < 2:
            continue
        # Switch the piece off in place (drop its payload), score, then switch it back on.
        node = _descend(trie, piece)
        saved = node.pop(_END)
        try:
            rest = min((v for k, v in logp.items() if k != piece), default=None)
            losses[piece] = total - likelihood(None if rest is None else rest - 10.0)
        finally:
            node[_END] = saved
    ranked = sorted(enumerate(losses.items()), key=lambda item: (item[1][1], item[0]))
    return losses, [piece for _, (piece, _) in ranked[:n]]


# ---------------------------------------------------------------- SentencePiece's ▁

def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if text == "":
        return []
    if SPACE in text:
        raise ValueError("el texto no debe contener ▁")
    return unigram_viterbi((SPACE if add_dummy_prefix else "") + text.replace(" ", SPACE), logp)[0]


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    text = "".join(pieces).replace(SPACE, " ")
    if add_dummy_prefix and text.startswith(" "):
        text = text[1:]
    return text
