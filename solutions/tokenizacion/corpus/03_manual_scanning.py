"""Manual index scanning, no helpers from the standard library beyond str.isspace().

Words are found by walking the text with two indices (start of a run of non-space
characters, end of it); the vocabulary, the codec and the OOV count are explicit loops
with counters, and decode searches the vocabulary linearly for each id.
"""


def tokenize_chars(text):
    out = []
    i = 0
    while i < len(text):
        out.append(text[i])
        i += 1
    return out


def tokenize_words(text):
    words = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i].isspace():
            i += 1
        start = i
        while i < n and not text[i].isspace():
            i += 1
        if i > start:
            words.append(text[start:i])
    return words


def build_vocab(tokens, specials=("[UNK]",)):
    vocab = {}
    next_id = 0
    for token in specials:
        if token not in vocab:
            vocab[token] = next_id
            next_id += 1
    for token in tokens:
        if token not in vocab:
            vocab[token] = next_id
            next_id += 1
    return vocab


def encode(tokens, vocab, unk="[UNK]"):
    if unk not in vocab:
        raise KeyError(unk)
    unk_id = vocab[unk]
    ids = []
    for token in tokens:
        if token in vocab:
            ids.append(vocab[token])
        else:
            ids.append(unk_id)
    return ids


def decode(ids, vocab):
    tokens = []
    for wanted in ids:
        for token, i in vocab.items():
            if i == wanted:
                tokens.append(token)
                break
        else:
            raise KeyError(wanted)
    return tokens


def oov_rate(tokens, vocab):
    n = len(tokens)
    if n == 0:
        return 0.0
    unknown = 0
    for token in tokens:
        if token not in vocab:
            unknown = unknown + 1
    return unknown / n
