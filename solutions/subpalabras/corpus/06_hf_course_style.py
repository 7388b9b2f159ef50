"""Follows the code structure of the Hugging Face LLM course, chapters 6.6 (WordPiece) and
6.7 (Unigram): `compute_pair_scores`, `merge_pair`, `encode_word`, `compute_loss` and
`compute_scores`, written from the course's description with its names and loop shapes.

Patches the spec forces on the course's shape:
- globals become parameters: `word_freqs`, `splits`, `vocab` and `model` are arguments,
  and `prefix`, `unk` and `max_chars` replace the hard-coded "##", "[UNK]" and nothing.
- `max_chars`: a word longer than `max_chars` code points is `[unk]`; `ValueError` for a
  negative `max_chars`; `KeyError` when `[unk]` is needed and missing from the vocabulary.
- continuation lookup: the course prepends "##" to the rest of the word and searches its
  prefixes, which can match a piece made of the prefix alone (and loop); here only pieces
  with at least one character after the prefix are tried.
- pre-tokenization: `text.split()` instead of the BERT pre-tokenizer.
- exact scores: the course compares float scores; training compares `Fraction`s (the
  first pair keeps a tie, as in the course's strict `<`), and `wordpiece_scores` turns them
  into floats.
- stopping: `num_merges` rounds, or fewer when no pair is left; `ValueError` if negative.
- merged unit: `a + b[len(prefix):]` instead of `a + b[2:]`.
- Viterbi: the course minimises -log p from a start score of 1; here log-probabilities are
  maximised from 0.0, a character missing from the model scores `min(logp) - 10` (the
  course returns `["<unk>"]`), runs of such characters are fused, an empty model raises
  `ValueError` and `""` gives `([], 0.0)`.
- pruning: `compute_scores` returns L(V) - L(V without p) (the course's sign convention
  with log-probabilities) for pieces of length >= 2, and the `n` smallest are reported
  instead of removing a percentage; the corpus is validated first.
"""
from collections import defaultdict
from fractions import Fraction

SPACE = "\u2581"


# ---------------------------------------------------------------- WordPiece encoding

def encode_word(word, vocab, unk="[UNK]", prefix="##"):
    """Greedy longest-match-first on one word, as in the course's `encode_word`."""
    tokens = []
    rest = word
    first = True
    while len(rest) > 0:
        i = len(rest)
        while i > 0 and (rest[:i] if first else prefix + rest[:i]) not in vocab:
            i -= 1
        if i == 0:
            return [unk]
        tokens.append(rest[:i] if first else prefix + rest[:i])
        rest = rest[i:]
        first = False
    return tokens


def wordpiece_encode(text: str, vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##", max_chars: int = 100) -> list[str]:
    if max_chars < 0:
        raise ValueError("max_chars no puede ser negativo")
    pre_tokenized_text = text.split()
    encoded_words = []
    for word in pre_tokenized_text:
        if len(word) > max_chars:
            tokens = [unk]
        else:
            tokens = encode_word(word, vocab, unk, prefix)
        if tokens == [unk] and unk not in vocab:
            raise KeyError(f"el token desconocido {unk!r} no está en el vocabulario")
        encoded_words.append(tokens)
    return sum(encoded_words, [])


# ---------------------------------------------------------------- WordPiece training

def compute_pair_scores(splits, word_freqs, divide=lambda num, den: num / den):
    """Scores freq(ab) / (freq(a) * freq(b)), keys in order of first appearance."""
    letter_freqs = defaultdict(int)
    pair_freqs = defaultdict(int)
    for word, freq in word_freqs.items():
        split = splits[word]
        if len(split) == 1:
            letter_freqs[split[0]] += freq
            continue
        for i in range(len(split) - 1):
            pair = (split[i], split[i + 1])
            letter_freqs[split[i]] += freq
            pair_freqs[pair] += freq
        if split:
            letter_freqs[split[-1]] += freq
    scores = {
        pair: divide(freq, letter_freqs[pair[0]] * letter_freqs[pair[1]])
        for pair, freq in pair_freqs.items()
    }
    return scores


def wordpiece_scores(splits: dict[tuple[str, ...], int]) -> dict[tuple[str, str], float]:
    # The tuples themselves play the role of the course's words.
    return compute_pair_scores({word: list(word) for word in splits}, splits)


def merge_pair(a, b, splits, word_freqs, prefix="##"):
    """Replace every (a, b) by the merged unit, left to right, without overlap."""
    merge = a + b[len(prefix):]
    for word in word_freqs:
        split = splits[word]
        if len(split) == 1:
            continue
        i = 0
        while i < len(split) - 1:
            if split[i] == a and split[i + 1] == b:
                # The merged unit is longer than `a`, so it cannot start a new match.
                split = split[:i] + [merge] + split[i + 2:]
            else:
                i += 1
        splits[word] = split
    return splits


def train_wordpiece(corpus: dict[str, int], num_merges: int, prefix: str = "##") -> list[tuple[str, str]]:
    if num_merges < 0:
        raise ValueError("num_merges no puede ser negativo")
    word_freqs = dict(corpus)
    splits = {
        word: [c if i == 0 else f"{prefix}{c}" for i, c in enumerate(word)]
        for word in word_freqs
    }
    merges = []
    while len(merges) < num_merges:
        scores = compute_pair_scores(splits, word_freqs, Fraction)
        best_pair, max_score = None, None
        for pair, score in scores.items():
            if max_score is None or max_score < score:
                best_pair = pair
                max_score = score
        if best_pair is None:
            break
        splits = merge_pair(*best_pair, splits, word_freqs, prefix)
        merges.append(best_pair)
    return merges


# ---------------------------------------------------------------- Unigram

def encode_word_unigram(word, model):
    """Viterbi over end positions; returns (pieces, total log-probability)."""
    unk_score = min(model.values()) - 10.0
    best_segmentations = [{"start": 0, "score": 0.0, "unk": False}] + [
        {"start": None, "score": None, "unk": False} for _ in range(len(word))
    ]
    for start_idx in range(len(word)):
        # This should be properly filled by the previous steps of the loop
        best_score_at_start = best_segmentations[start_idx]["score"]
        for end_idx in range(start_idx + 1, len(word) + 1):
            token = word[start_idx:end_idx]
            is_unk = end_idx == start_idx + 1 and token not in model
            if (token in model or is_unk) and best_score_at_start is not None:
                score = best_score_at_start + (unk_score if is_unk else model[token])
                # Only a strictly better candidate replaces the one already stored
                if (
                    best_segmentations[end_idx]["score"] is None
                    or best_segmentations[end_idx]["score"] < score
                ):
                    best_segmentations[end_idx] = {
                        "start": start_idx, "score": score, "unk": is_unk,
                    }

    segmentation = best_segmentations[-1]
    score = segmentation["score"]
    tokens = []
    end = len(word)
    while end > 0:
        entry = best_segmentations[end]
        start = entry["start"]
        piece = word[start:end]
        if entry["unk"] and tokens and tokens[0][1]:
            tokens[0] = (piece + tokens[0][0], True)
        else:
            tokens.insert(0, (piece, entry["unk"]))
        end = start
    return [token for token, _ in tokens], score


def unigram_viterbi(word: str, logp: dict[str, float]) -> tuple[list[str], float]:
    if not logp:
        raise ValueError("logp no puede estar vacío")
    if word == "":
        return [], 0.0
    return encode_word_unigram(word, logp)


def compute_loss(model, word_freqs):
    loss = 0.0
    for word, freq in word_freqs.items():
        _, word_loss = encode_word_unigram(word, model)
        loss += freq * word_loss
    return loss


def compute_scores(model, word_freqs):
    scores = {}
    model_loss = compute_loss(model, word_freqs)
    for token, score in model.items():
        # We always keep tokens of length 1
        if len(token) == 1:
            continue
        if len(token) == 0:
            continue
        model_without_token = dict(model)
        _ = model_without_token.pop(token)
        scores[token] = model_loss - compute_loss(model_without_token, word_freqs)
    return scores


def unigram_prune(corpus: dict[str, int], logp: dict[str, float], n: int) -> tuple[dict[str, float], list[str]]:
    if n < 0:
        raise ValueError("n no puede ser negativo")
    for word, freq in corpus.items():
        if not isinstance(freq, int) or isinstance(freq, bool) or freq <= 0:
            raise ValueError(f"la frecuencia de {word!r} debe ser un entero positivo")
        for c in word:
            if c not in logp:
                raise ValueError(f"el carácter {c!r} no es una pieza del vocabulario")
    scores = compute_scores(logp, corpus)
    sorted_scores = sorted(scores.items(), key=lambda x: x[1])
    return scores, [token for token, _ in sorted_scores[:n]]


# ---------------------------------------------------------------- SentencePiece's ▁

def sp_encode(text: str, logp: dict[str, float], add_dummy_prefix: bool = True) -> list[str]:
    if text == "":
        return []
    if SPACE in text:
        raise ValueError("el texto no puede contener el carácter ▁")
    normalized = ("▁" if add_dummy_prefix else "") + text.replace(" ", SPACE)
    tokens, _ = unigram_viterbi(normalized, logp)
    return tokens


def sp_decode(pieces: list[str], add_dummy_prefix: bool = True) -> str:
    text = "".join(pieces).replace(SPACE, " ")
    if add_dummy_prefix and text.startswith(" "):
        text = text[1:]
    return text
