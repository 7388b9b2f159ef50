"""Class-based: a small `Vocabulary` object owns both directions of the table.

The functions are thin wrappers: build_vocab fills a Vocabulary and returns its
token->id dict; encode and decode build a Vocabulary from the dict they receive (so
ids with gaps or in any order work) and use its methods. The unknown-token check lives in
the object's `encoder` method.
"""


class Vocabulary:
    def __init__(self, mapping=None):
        self.token_to_id = {}
        self.id_to_token = {}
        for token, i in (mapping or {}).items():
            self.token_to_id[token] = i
            self.id_to_token[i] = token

    def add(self, token):
        if token not in self.token_to_id:
            new_id = len(self.token_to_id)
            self.token_to_id[token] = new_id
            self.id_to_token[new_id] = token
        return self.token_to_id[token]

    def __contains__(self, token):
        return token in self.token_to_id

    def encoder(self, unk):
        unk_id = self.token_to_id[unk]
        return lambda token: self.token_to_id.get(token, unk_id)

    def token(self, i):
        return self.id_to_token[i]


class Tokenizer:
    @staticmethod
    def chars(text):
        return [c for c in text]

    @staticmethod
    def words(text):
        return text.split()


def tokenize_chars(text):
    return Tokenizer.chars(text)


def tokenize_words(text):
    return Tokenizer.words(text)


def build_vocab(tokens, specials=("[UNK]",)):
    vocabulary = Vocabulary()
    for token in specials:
        vocabulary.add(token)
    for token in tokens:
        vocabulary.add(token)
    return vocabulary.token_to_id


def encode(tokens, vocab, unk="[UNK]"):
    to_id = Vocabulary(vocab).encoder(unk)
    return [to_id(token) for token in tokens]


def decode(ids, vocab):
    vocabulary = Vocabulary(vocab)
    return [vocabulary.token(i) for i in ids]


def oov_rate(tokens, vocab):
    if len(tokens) == 0:
        return 0.0
    vocabulary = Vocabulary(vocab)
    return len([t for t in tokens if t not in vocabulary]) / len(tokens)
