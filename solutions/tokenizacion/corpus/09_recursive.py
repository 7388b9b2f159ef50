"""Recursion where it is natural: divide and conquer on halves, so depth stays logarithmic.

Characters: a text is the characters of its left half followed by those of its right
half. Words: split at a whitespace character near the middle (any whitespace is a safe
cut point), recurse on both sides. build_vocab, encode and decode recurse on halves of
their input lists too; oov_rate is a recursive count.
"""


def tokenize_chars(text):
    if len(text) <= 1:
        return [text] if text else []
    mid = len(text) // 2
    return tokenize_chars(text[:mid]) + tokenize_chars(text[mid:])


def _space_near(text, mid):
    for offset in range(len(text)):
        for k in (mid - offset, mid + offset):
            if 0 <= k < len(text) and text[k].isspace():
                return k
    return -1


def tokenize_words(text):
    if len(text) < 2:
        return [] if not text or text.isspace() else [text]
    cut = _space_near(text, len(text) // 2)
    if cut < 0:
        return [text]
    return tokenize_words(text[:cut]) + tokenize_words(text[cut + 1:])


def _first_appearances(tokens):
    """Distinct tokens of a list in order of first appearance (recursive on halves)."""
    if len(tokens) <= 1:
        return list(tokens)
    mid = len(tokens) // 2
    left = _first_appearances(tokens[:mid])
    seen = set(left)
    return left + [t for t in _first_appearances(tokens[mid:]) if t not in seen]


def build_vocab(tokens, specials=("[UNK]",)):
    ordered = _first_appearances(list(specials) + list(tokens))
    return dict(zip(ordered, range(len(ordered))))


def _encode(tokens, vocab, unk_id):
    if len(tokens) <= 1:
        return [vocab.get(t, unk_id) for t in tokens]
    mid = len(tokens) // 2
    return _encode(tokens[:mid], vocab, unk_id) + _encode(tokens[mid:], vocab, unk_id)


def encode(tokens, vocab, unk="[UNK]"):
    return _encode(list(tokens), vocab, vocab[unk])


def _decode(ids, inverse):
    if len(ids) <= 1:
        return [inverse[i] for i in ids]
    mid = len(ids) // 2
    return _decode(ids[:mid], inverse) + _decode(ids[mid:], inverse)


def decode(ids, vocab):
    return _decode(list(ids), {i: t for t, i in vocab.items()})


def _count_unknown(tokens, vocab):
    if len(tokens) <= 1:
        return sum(1 for t in tokens if t not in vocab)
    mid = len(tokens) // 2
    return _count_unknown(tokens[:mid], vocab) + _count_unknown(tokens[mid:], vocab)


def oov_rate(tokens, vocab):
    return _count_unknown(list(tokens), vocab) / len(tokens) if tokens else 0.0
