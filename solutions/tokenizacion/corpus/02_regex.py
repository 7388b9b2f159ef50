"""Regular expressions for both cuts: `.` with DOTALL for code points, `\\S+` for words.

Python's `re` treats `\\s` exactly as `str.isspace()` (the separators of `str.split()`),
so `findall(r"\\S+")` is the whitespace split. The vocabulary and the codec are plain
loops; the unknown id comes from a compiled lookup closure.
"""
import re

_CHAR = re.compile(r".", re.DOTALL)
_WORD = re.compile(r"\S+")


def tokenize_chars(text):
    return _CHAR.findall(text)


def tokenize_words(text):
    return [m.group(0) for m in _WORD.finditer(text)]


def build_vocab(tokens, specials=("[UNK]",)):
    vocab = {}
    for group in (specials, tokens):
        for token in group:
            vocab.setdefault(token, len(vocab))
    return vocab


def _lookup(vocab, unk):
    unk_id = vocab[unk]  # KeyError right away if the vocabulary has no unknown token

    def ident(token):
        return vocab[token] if token in vocab else unk_id

    return ident


def encode(tokens, vocab, unk="[UNK]"):
    return list(map(_lookup(vocab, unk), tokens))


def decode(ids, vocab):
    inverse = dict(zip(vocab.values(), vocab.keys()))
    out = []
    for i in ids:
        out.append(inverse[i])
    return out


def oov_rate(tokens, vocab):
    total = unknown = 0
    for token in tokens:
        total += 1
        if token not in vocab:
            unknown += 1
    return unknown / total if total else 0.0
