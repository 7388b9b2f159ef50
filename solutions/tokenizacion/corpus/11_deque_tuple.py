"""Working structures in deque and tuple, handed to the module's own helpers.

The text is consumed from a `collections.deque` of characters (popleft); words are
accumulated in a deque and frozen into a tuple; build_vocab passes a tuple of tokens to
its own de-duplicating helper; encode and decode pass deques of tokens/ids to a shared
`_translate` helper that pops from the left.
"""
from collections import deque


def _drain(queue):
    out = []
    while queue:
        out.append(queue.popleft())
    return out


def tokenize_chars(text):
    return _drain(deque(text))


def tokenize_words(text):
    pending = deque(text)
    words, word = deque(), deque()
    while pending:
        ch = pending.popleft()
        if ch.isspace():
            if word:
                words.append("".join(word))
                word.clear()
        else:
            word.append(ch)
    if word:
        words.append("".join(word))
    return list(words)


def _unique(items):
    seen, out = set(), deque()
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return tuple(out)


def build_vocab(tokens, specials=("[UNK]",)):
    ordered = _unique(tuple(specials) + tuple(tokens))
    return {token: i for i, token in enumerate(ordered)}


def _translate(queue, table, default=None, strict=False):
    out = []
    while queue:
        item = queue.popleft()
        if strict:
            out.append(table[item])
        else:
            out.append(table.get(item, default))
    return out


def encode(tokens, vocab, unk="[UNK]"):
    unk_id = vocab[unk]
    return _translate(deque(tokens), vocab, default=unk_id)


def decode(ids, vocab):
    inverse = dict((i, t) for t, i in vocab.items())
    return _translate(deque(ids), inverse, strict=True)


def oov_rate(tokens, vocab):
    flags = tuple(t not in vocab for t in tokens)
    return flags.count(True) / len(flags) if flags else 0.0
