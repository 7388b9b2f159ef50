"""Idiomatic built-ins: list(text), str.split(), a dict filled in one pass, dict.get.

The baseline a careful student writes straight from the lesson: no imports, every
function a one- or two-liner over the built-in types.
"""


def tokenize_chars(text):
    return list(text)


def tokenize_words(text):
    return text.split()


def build_vocab(tokens, specials=("[UNK]",)):
    vocab = {}
    for token in list(specials) + list(tokens):
        if token not in vocab:
            vocab[token] = len(vocab)
    return vocab


def encode(tokens, vocab, unk="[UNK]"):
    unk_id = vocab[unk]
    return [vocab.get(token, unk_id) for token in tokens]


def decode(ids, vocab):
    id_to_token = {i: token for token, i in vocab.items()}
    return [id_to_token[i] for i in ids]


def oov_rate(tokens, vocab):
    if not tokens:
        return 0.0
    return sum(token not in vocab for token in tokens) / len(tokens)
