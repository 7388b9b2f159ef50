"""Generator pipelines: every function is built from small `yield` helpers.

Characters and words are produced lazily by generators and only materialised at the
end; build_vocab consumes a generator of first appearances; oov_rate counts with one
pass over a generator of booleans, keeping the length and the count together.
"""


def _chars(text):
    for ch in text:
        yield ch


def _words(text):
    current = []
    for ch in text:
        if ch.isspace():
            if current:
                yield "".join(current)
                current = []
        else:
            current.append(ch)
    if current:
        yield "".join(current)


def _first_appearances(*streams):
    seen = set()
    for stream in streams:
        for token in stream:
            if token not in seen:
                seen.add(token)
                yield token


def tokenize_chars(text):
    return list(_chars(text))


def tokenize_words(text):
    return list(_words(text))


def build_vocab(tokens, specials=("[UNK]",)):
    return {token: i for i, token in enumerate(_first_appearances(specials, tokens))}


def encode(tokens, vocab, unk="[UNK]"):
    unk_id = vocab[unk]
    return list(vocab[t] if t in vocab else unk_id for t in tokens)


def _inverse(vocab):
    for token, i in vocab.items():
        yield i, token


def decode(ids, vocab):
    table = dict(_inverse(vocab))
    return list(table[i] for i in ids)


def oov_rate(tokens, vocab):
    total = unknown = 0
    for is_unknown in (t not in vocab for t in tokens):
        total += 1
        unknown += is_unknown
    return unknown / total if total else 0.0
