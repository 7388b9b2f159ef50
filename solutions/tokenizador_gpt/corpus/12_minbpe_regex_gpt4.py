"""Style: a reimplementation of the design of Andrej Karpathy's minbpe (karpathy/minbpe,
MIT licence), its RegexTokenizer and GPT4Tokenizer, written from scratch: none of its
code, comments or docstrings is copied. What is kept is the shape of that design: two
free helpers (get_stats tallies adjacent pairs, optionally into a tally it is handed;
merge rewrites every occurrence of one pair as a new id), a Tokenizer base class that
holds the merges and the special tokens and derives the id -> bytes table from them, a
RegexTokenizer subclass with train / encode_ordinary / encode / decode and
register_special_tokens, and the GPT4Tokenizer side: bpe() replays BPE on one token of a
tiktoken rank table and recover_merges() uses it to rebuild the merge list, which a small
GPT4Tokenizer subclass loads. The graded functions are thin wrappers around a
RegexTokenizer.

Patches the assignment's spec forces on that design:
1. the split patterns are the assignment's given constants (tiktoken's current ones,
   with possessive quantifiers, `\\s++$` and a trailing `\\s`).
2. train rejects vocab_size < 256 with ValueError, and stops as soon as no pair is left
   to count instead of failing on an empty tally.
3. encode takes tiktoken's keyword-only allowed_special / disallowed_special instead of
   minbpe's single allowed_special ("all", "none", "none_raise" or a set): allowed_special
   is "all" or a set of names (names that are not special tokens are ignored),
   disallowed_special is "all" (every special token not allowed) or a collection of
   strings; any other value of either raises TypeError. A disallowed string found in the
   raw text, special token or not, raises ValueError. Allowed specials are found leftmost
   first and, at one position, longest first; the other special tokens are plain text.
4. decode receives the vocabulary and the special tokens as arguments, and an id found in
   neither raises KeyError.
5. recover_merges reports a table that is not a BPE table with ValueError.
"""

from collections.abc import Collection, Mapping, Set as AbstractSet

import regex

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_SPLIT_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""

BYTE_IDS = 256  # ids below this are raw byte values; learned tokens are numbered from here


# --- the two helpers ------------------------------------------------------------------

def get_stats(ids, counts=None):
    """Tally of every adjacent pair in `ids`; hand in `counts` to keep adding to it.

    Pairs enter the tally in the order they are first met, which is what the tie rule of
    training relies on.
    """
    if counts is None:
        counts = {}
    for left, right in zip(ids, ids[1:]):
        counts[left, right] = counts.get((left, right), 0) + 1
    return counts


def merge(ids, pair, new_id):
    """A new list where each occurrence of `pair`, taken left to right without overlap, is `new_id`."""
    first, second = pair
    result = []
    pos, end = 0, len(ids)
    while pos < end:
        if pos + 1 < end and ids[pos] == first and ids[pos + 1] == second:
            result.append(new_id)
            pos += 2
        else:
            result.append(ids[pos])
            pos += 1
    return result


# --- the base class -------------------------------------------------------------------

class Tokenizer:
    """State shared by every tokenizer of this design: the merges in the order they were
    learned, the named special tokens, and the id -> bytes table that follows from the merges.
    Subclasses decide how to train, encode and decode."""

    def __init__(self):
        self.merges = {}          # (left id, right id) -> id of the joined token
        self.special_tokens = {}  # name -> reserved id
        self.pattern = ""
        self.vocab = self._build_vocab()

    def _build_vocab(self):
        table = {value: bytes([value]) for value in range(BYTE_IDS)}
        # walking the merges by id guarantees both halves are already in the table
        for (left, right), new_id in sorted(self.merges.items(), key=lambda entry: entry[1]):
            table[new_id] = table[left] + table[right]
        return table

    def train(self, text, vocab_size):
        raise NotImplementedError(f"{type(self).__name__} cannot be trained")

    def encode(self, text):
        raise NotImplementedError(f"{type(self).__name__} has no encoder")

    def decode(self, ids):
        raise NotImplementedError(f"{type(self).__name__} has no decoder")


# --- the regex-splitting tokenizer ----------------------------------------------------

class RegexTokenizer(Tokenizer):
    """Byte-level BPE confined to the pieces a split pattern cuts the text into: no merge ever
    spans two pieces."""

    def __init__(self, pattern=None):
        super().__init__()
        if pattern is None:
            pattern = GPT4_SPLIT_PATTERN
        self.pattern = pattern
        self.splitter = regex.compile(self.pattern)
        self.special_ids = {}  # reserved id -> name, the reverse of special_tokens

    def pieces(self, text):
        return self.splitter.findall(text)

    def train(self, text, vocab_size):
        if vocab_size < BYTE_IDS:
            raise ValueError(f"vocab_size={vocab_size} leaves no room for the {BYTE_IDS} byte tokens")
        sequences = [list(piece.encode("utf-8")) for piece in self.pieces(text)]
        self.merges = {}
        for new_id in range(BYTE_IDS, vocab_size):
            counts = {}
            for seq in sequences:
                get_stats(seq, counts)
            if not counts:
                break  # every piece is down to a single token
            # on a tie max() keeps the earliest key, i.e. the pair met first in text order
            winner = max(counts, key=counts.__getitem__)
            sequences = [merge(seq, winner, new_id) for seq in sequences]
            self.merges[winner] = new_id
        self.vocab = self._build_vocab()
        return self.merges

    def register_special_tokens(self, special_tokens):
        self.special_tokens = dict(special_tokens)
        self.special_ids = {reserved: name for name, reserved in self.special_tokens.items()}

    def _encode_piece(self, data):
        """Ids of one piece: start from its bytes and keep applying the earliest-learned merge
        that is present, until none is."""
        ids = list(data)
        while len(ids) > 1:
            usable = [pair for pair in get_stats(ids) if pair in self.merges]
            if not usable:
                break
            chosen = min(usable, key=self.merges.__getitem__)
            ids = merge(ids, chosen, self.merges[chosen])
        return ids

    def encode_ordinary(self, text):
        """Ids of `text`, reading the names of special tokens as plain characters."""
        out = []
        for piece in self.pieces(text):
            out += self._encode_piece(piece.encode("utf-8"))
        return out

    def _permitted_specials(self, text, allowed_special, disallowed_special):
        """The name -> id table that encode may emit; ValueError if a disallowed string is in `text`."""
        if allowed_special == "all":
            permitted = set(self.special_tokens)
        elif isinstance(allowed_special, AbstractSet):
            permitted = set(allowed_special)
        else:
            raise TypeError(f"allowed_special must be 'all' or a set of names, not {allowed_special!r}")
        if disallowed_special == "all":
            forbidden = set(self.special_tokens) - permitted
        elif isinstance(disallowed_special, Collection) and not isinstance(disallowed_special, (str, bytes, Mapping)):
            forbidden = disallowed_special
        else:
            raise TypeError(f"disallowed_special must be 'all' or a collection of strings, not {disallowed_special!r}")
        # checked on the raw text: a forbidden string may overlap a permitted name
        for name in forbidden:
            if name in text:
                raise ValueError(f"{name!r} occurs in the text but is disallowed")
        return {name: reserved for name, reserved in self.special_tokens.items() if name in permitted}

    def encode(self, text, *, allowed_special=frozenset(), disallowed_special="all"):
        specials = self._permitted_specials(text, allowed_special, disallowed_special)
        if not specials:
            return self.encode_ordinary(text)
        # a single alternation: the engine scans the text left to right and, at one position,
        # tries the names in the order given, so the longest go first
        by_length = sorted(specials, key=len, reverse=True)
        finder = regex.compile("|".join(regex.escape(name) for name in by_length))
        out, done = [], 0
        for hit in finder.finditer(text):
            out += self.encode_ordinary(text[done:hit.start()])
            out.append(specials[hit.group()])
            done = hit.end()
        out += self.encode_ordinary(text[done:])
        return out

    def decode(self, ids):
        """Text of `ids`: their bytes joined and read as UTF-8 (bad bytes become U+FFFD)."""
        buffer = []
        for token_id in ids:
            if token_id in self.vocab:
                buffer.append(self.vocab[token_id])
            elif token_id in self.special_ids:
                buffer.append(self.special_ids[token_id].encode("utf-8"))
            else:
                raise KeyError(token_id)
        return b"".join(buffer).decode("utf-8", errors="replace")


# --- the GPT-4 side: merges rebuilt from a rank table ---------------------------------

def bpe(mergeable_ranks, token, max_rank=None):
    """Replay BPE on the bytes of `token` with the ranks of `mergeable_ranks`: start from single
    bytes and keep joining the adjacent pair whose join has the lowest rank, leaving out ranks
    of `max_rank` or more. Returns the pieces that remain."""
    pieces = [token[k:k + 1] for k in range(len(token))]
    while len(pieces) > 1:
        best_at, best_rank = None, max_rank
        for k in range(len(pieces) - 1):
            rank = mergeable_ranks.get(pieces[k] + pieces[k + 1])
            if rank is not None and (best_rank is None or rank < best_rank):
                best_at, best_rank = k, rank
        if best_at is None:
            break
        pieces[best_at:best_at + 2] = [pieces[best_at] + pieces[best_at + 1]]
    return pieces


def recover_merges(mergeable_ranks):
    """The merges (left rank, right rank) -> rank behind a tiktoken rank table (bytes -> rank).

    The table keeps only the joined byte strings. The pair that produced one of them comes
    out of bpe() run on it with only the tokens ranked below it: the two pieces left over are
    its parents."""
    merges = {}
    for token, rank in mergeable_ranks.items():
        if len(token) < 2:
            continue  # a single byte is a leaf, nobody merged it
        parents = bpe(mergeable_ranks, token, max_rank=rank)
        if len(parents) != 2:
            raise ValueError(f"{token!r} is not the join of two tokens of lower rank")
        left, right = parents
        merges[mergeable_ranks[left], mergeable_ranks[right]] = rank
    return merges


class GPT4Tokenizer(RegexTokenizer):
    """A RegexTokenizer loaded from a tiktoken rank table (cl100k_base's, say) instead of trained.

    Ids are the table's ranks. The single bytes of such a table are ranked in an order of
    their own, so each byte is first replaced by its rank and BPE then runs on ranks."""

    def __init__(self, mergeable_ranks, special_tokens=None):
        super().__init__(GPT4_SPLIT_PATTERN)
        self.merges = recover_merges(mergeable_ranks)
        self.byte_rank = [mergeable_ranks[bytes([value])] for value in range(BYTE_IDS)]
        self.vocab = {rank: token for token, rank in mergeable_ranks.items()}
        if special_tokens:
            self.register_special_tokens(special_tokens)

    def _encode_piece(self, data):
        return super()._encode_piece([self.byte_rank[value] for value in data])


# --- the assignment's functions -------------------------------------------------------

def _loaded(pattern=GPT4_SPLIT_PATTERN, merges=None, special_tokens=None, vocab=None):
    """A RegexTokenizer set up with the given state instead of trained."""
    loaded = RegexTokenizer(pattern)
    loaded.merges = dict(merges or {})
    loaded.register_special_tokens(special_tokens or {})
    if vocab is not None:
        loaded.vocab = vocab
    return loaded


def pretokenize(text, pattern=GPT4_SPLIT_PATTERN):
    return _loaded(pattern).pieces(text)


def train_regex_bpe(text, vocab_size, pattern=GPT4_SPLIT_PATTERN):
    return _loaded(pattern).train(text, vocab_size)


def encode_ordinary(text, merges, pattern=GPT4_SPLIT_PATTERN):
    return _loaded(pattern, merges).encode_ordinary(text)


def encode(text, merges, special_tokens, *, allowed_special=frozenset(), disallowed_special="all",
           pattern=GPT4_SPLIT_PATTERN):
    return _loaded(pattern, merges, special_tokens).encode(text, allowed_special=allowed_special,
                                                           disallowed_special=disallowed_special)


def decode(ids, vocab, special_tokens):
    return _loaded(special_tokens=special_tokens, vocab=vocab).decode(ids)
