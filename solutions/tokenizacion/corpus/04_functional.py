"""Functional style: dict.fromkeys for ordered de-duplication, map/filter, operator, itertools.

build_vocab is a single expression (`dict.fromkeys` keeps first appearances in order,
`enumerate` numbers them); the word cut filters the empty strings out of `re.split`;
encode and decode are `map`s over bound lookups.
"""
import re
from functools import partial
from itertools import chain
from operator import getitem, not_


def tokenize_chars(text):
    return [*text]


def tokenize_words(text):
    return list(filter(None, re.split(r"\s+", text)))


def build_vocab(tokens, specials=("[UNK]",)):
    return {token: i for i, token in enumerate(dict.fromkeys(chain(specials, tokens)))}


def encode(tokens, vocab, unk="[UNK]"):
    return list(map(vocab.get, tokens, [vocab[unk]] * len(tokens)))


def decode(ids, vocab):
    return list(map(partial(getitem, {v: k for k, v in vocab.items()}), ids))


def oov_rate(tokens, vocab):
    return sum(map(not_, map(vocab.__contains__, tokens))) / len(tokens) if tokens else 0.0
