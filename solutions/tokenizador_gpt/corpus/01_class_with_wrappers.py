"""Style: one RegexTokenizer class that owns the pattern, the merges and the special
tokens; the graded functions are thin module-level wrappers that build a throwaway
instance. Pair counting uses dict.get, merging rebuilds plain lists, special tokens are
cut with regex.split and a capturing group (longest names first)."""

from collections.abc import Collection, Mapping, Set

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


class RegexTokenizer:
    def __init__(self, merges=None, special_tokens=None, pattern=GPT4_SPLIT_PATTERN):
        self.merges = dict(merges or {})
        self.special_tokens = dict(special_tokens or {})
        self.pattern = pattern
        self.compiled = regex.compile(pattern)

    # --- helpers -----------------------------------------------------------
    @staticmethod
    def _pair_counts(ids, counts):
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        return counts

    @staticmethod
    def _merge(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    # --- public API ----------------------------------------------------------
    def split(self, text):
        return self.compiled.findall(text)

    def train(self, text, vocab_size):
        if vocab_size < 256:
            raise ValueError("vocab_size must be at least 256")
        chunks = [list(chunk.encode("utf-8")) for chunk in self.split(text)]
        self.merges = {}
        for idx in range(256, vocab_size):
            counts = {}
            for chunk in chunks:
                self._pair_counts(chunk, counts)
            if not counts:
                break
            best = max(counts, key=counts.get)  # first of the tied pairs (insertion order)
            chunks = [self._merge(chunk, best, idx) for chunk in chunks]
            self.merges[best] = idx
        return self.merges

    def _encode_chunk(self, data):
        ids = list(data)
        while len(ids) >= 2:
            present = self._pair_counts(ids, {})
            best = min(present, key=lambda p: self.merges.get(p, float("inf")))
            if best not in self.merges:
                break
            ids = self._merge(ids, best, self.merges[best])
        return ids

    def encode_ordinary(self, text):
        ids = []
        for chunk in self.split(text):
            ids.extend(self._encode_chunk(chunk.encode("utf-8")))
        return ids

    def encode(self, text, allowed_special=frozenset(), disallowed_special="all"):
        if allowed_special == "all":
            allowed = dict(self.special_tokens)
        elif isinstance(allowed_special, Set):
            allowed = {k: v for k, v in self.special_tokens.items() if k in allowed_special}
        else:
            raise TypeError(f"allowed_special={allowed_special!r} no se entiende")
        if disallowed_special == "all":
            disallowed = [name for name in self.special_tokens if name not in allowed]
        elif isinstance(disallowed_special, (str, bytes, Mapping)) or not isinstance(disallowed_special, Collection):
            raise TypeError(f"disallowed_special={disallowed_special!r} no se entiende")
        else:
            disallowed = disallowed_special
        for name in disallowed:
            if name in text:
                raise ValueError(f"el texto contiene {name!r}, que no está permitido")
        if not allowed:
            return self.encode_ordinary(text)
        names = sorted(allowed, key=len, reverse=True)
        parts = regex.split("(" + "|".join(regex.escape(n) for n in names) + ")", text)
        ids = []
        for position, part in enumerate(parts):
            if position % 2:
                ids.append(allowed[part])
            elif part:
                ids.extend(self.encode_ordinary(part))
        return ids

    def decode(self, ids, vocab):
        inverse = {v: k for k, v in self.special_tokens.items()}
        pieces = []
        for idx in ids:
            if idx in vocab:
                pieces.append(vocab[idx])
            elif idx in inverse:
                pieces.append(inverse[idx].encode("utf-8"))
            else:
                raise KeyError(idx)
        return b"".join(pieces).decode("utf-8", errors="replace")

    @staticmethod
    def recover(mergeable_ranks):
        merges = {}
        for token, rank in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
            if len(token) < 2:
                continue
            parts = [bytes([b]) for b in token]
            while True:
                ranked = [(mergeable_ranks.get(a + b), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
                ranked = [(r, i) for r, i in ranked if r is not None and r < rank]
                if not ranked:
                    break
                _, i = min(ranked)
                parts[i:i + 2] = [parts[i] + parts[i + 1]]
            left, right = parts
            merges[(mergeable_ranks[left], mergeable_ranks[right])] = rank
        return merges


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return RegexTokenizer(pattern=pattern).split(text)


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    return RegexTokenizer(pattern=pattern).train(text, vocab_size)


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    return RegexTokenizer(merges, pattern=pattern).encode_ordinary(text)


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    return RegexTokenizer(merges, special_tokens, pattern).encode(
        text, allowed_special=allowed_special, disallowed_special=disallowed_special)


def decode(ids, vocab, special_tokens):
    return RegexTokenizer(special_tokens=special_tokens).decode(ids, vocab)


def recover_merges(mergeable_ranks):
    return RegexTokenizer.recover(mergeable_ranks)
