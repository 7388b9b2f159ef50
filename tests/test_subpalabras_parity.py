"""The reference of `subpalabras` against the real libraries (course-spec.md, section 6).

WordPiece against `tokenizers`' WordPiece model, Unigram's Viterbi against `tokenizers`'
Unigram model and against `sentencepiece`, SentencePiece's ▁ handling against a
`sentencepiece` model built here, and WordPiece training against the Hugging Face
course's published outputs (`tokenizers`' WordPieceTrainer trains BPE by frequency, so
it is no oracle for training). Thousands of generated cases each, 0 differences, with the
deviations the spec names kept out of the generators: U+001C-U+001F, which `str.split`
splits and `tokenizers` does not; log-probabilities are multiples of 1/8, so float32
sums (sentencepiece) are exact.
"""

from __future__ import annotations

import random

import pytest
import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as model_pb2  # needs protobuf
from tokenizers import Tokenizer, models, pre_tokenizers

from autograder.course import PROJECT_ROOT
from autograder.grading.plugin import load_reference

CASES = 2000


@pytest.fixture(scope="module")
def ref():
    return load_reference(PROJECT_ROOT / "solutions" / "subpalabras" / "solution.py")


def draw_pieces(draw: random.Random, alphabet: str, count: int, longest: int) -> list[str]:
    pieces = {draw.choice(alphabet) for _ in range(count)}
    while len(pieces) < count:
        pieces.add("".join(draw.choice(alphabet) for _ in range(draw.randint(2, longest))))
    return sorted(pieces)


def eighths(draw: random.Random) -> float:
    return -draw.randint(1, 80) / 8


# --- WordPiece ----------------------------------------------------------------------------

def hf_wordpiece(vocab, unk, prefix, max_chars):
    tokenizer = Tokenizer(models.WordPiece(vocab=vocab, unk_token=unk, continuing_subword_prefix=prefix,
                                           max_input_chars_per_word=max_chars))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return tokenizer


def test_wordpiece_encode_matches_tokenizers(ref):
    draw, differences = random.Random(6), []
    for case in range(CASES):
        prefix = draw.choice(["##", "@@", "_"])
        alphabet = "abcñé"
        heads = draw_pieces(draw, alphabet, draw.randint(1, 8), 4)
        tails = draw_pieces(draw, alphabet, draw.randint(1, 8), 3)
        tokens = ["[UNK]", *heads, *(prefix + t for t in tails)]
        vocab = {token: i for i, token in enumerate(dict.fromkeys(tokens))}
        max_chars = draw.choice([100, 3, 5, 0])
        text = "".join(draw.choice(alphabet + "  \t\n") for _ in range(draw.randint(0, 24)))
        ours = ref.wordpiece_encode(text, vocab, "[UNK]", prefix, max_chars)
        theirs = hf_wordpiece(vocab, "[UNK]", prefix, max_chars).encode(text).tokens
        if ours != theirs:
            differences.append((text, vocab, prefix, max_chars, ours, theirs))
    assert differences == [], differences[:3]


# --- Unigram ------------------------------------------------------------------------------

def unigram_case(draw: random.Random, alphabet: str) -> tuple[str, dict[str, float]]:
    pieces = draw_pieces(draw, alphabet[:-1], draw.randint(2, 12), 4)  # the last letter is never a piece
    logp = {piece: eighths(draw) for piece in pieces}
    word = "".join(draw.choice(alphabet) for _ in range(draw.randint(0, 12)))
    return word, logp


def hf_unigram_pieces(word, logp):
    vocab = [("<unk>", 0.0), *logp.items()]  # the unknown piece's own score is above every other
    tokenizer = Tokenizer(models.Unigram(vocab, unk_id=0))
    encoding = tokenizer.encode(word)
    return [word[start:end] for start, end in encoding.offsets]


def sentencepiece_model(logp, add_dummy_prefix=False):
    model = model_pb2.ModelProto()
    model.trainer_spec.model_type = model_pb2.TrainerSpec.UNIGRAM
    model.trainer_spec.unk_id, model.trainer_spec.bos_id, model.trainer_spec.eos_id = 0, -1, -1
    model.normalizer_spec.name = "identity"
    model.normalizer_spec.add_dummy_prefix = add_dummy_prefix
    model.normalizer_spec.remove_extra_whitespaces = False
    model.normalizer_spec.escape_whitespaces = True
    unknown = model.pieces.add()
    unknown.piece, unknown.score, unknown.type = "<unk>", 0.0, model_pb2.ModelProto.SentencePiece.UNKNOWN
    for text, score in logp.items():
        piece = model.pieces.add()
        piece.piece, piece.score, piece.type = text, score, model_pb2.ModelProto.SentencePiece.NORMAL
    processor = spm.SentencePieceProcessor()
    processor.LoadFromSerializedProto(model.SerializeToString())
    return processor


def test_unigram_viterbi_matches_tokenizers(ref):
    draw, differences = random.Random(7), []
    for case in range(CASES):
        word, logp = unigram_case(draw, "abcdñ")
        ours = ref.unigram_viterbi(word, logp)[0]
        theirs = hf_unigram_pieces(word, logp)
        if ours != theirs:
            differences.append((word, logp, ours, theirs))
    assert differences == [], differences[:3]


def test_unigram_viterbi_matches_sentencepiece(ref):
    draw, differences = random.Random(8), []
    for case in range(CASES):
        word, logp = unigram_case(draw, "abcdñ")
        ours = ref.unigram_viterbi(word, logp)[0]
        theirs = sentencepiece_model(logp).encode(word, out_type=str) if word else []
        if ours != theirs:
            differences.append((word, logp, ours, theirs))
    assert differences == [], differences[:3]


# --- SentencePiece's ▁ --------------------------------------------------------------------

def test_sp_encode_and_decode_match_sentencepiece(ref):
    draw, differences = random.Random(9), []
    space = ref.SPACE
    for case in range(CASES // 4):
        alphabet = "ablc" + space
        pieces = draw_pieces(draw, alphabet, draw.randint(3, 12), 4)
        logp = {piece: eighths(draw) for piece in [*alphabet[:-1], space, *pieces]}
        add_dummy_prefix = draw.random() < 0.5
        text = "".join(draw.choice("ablc  ") for _ in range(draw.randint(0, 16)))
        ours = ref.sp_encode(text, logp, add_dummy_prefix)
        model = sentencepiece_model(logp, add_dummy_prefix)
        theirs = model.encode(text, out_type=str)
        if ours != theirs or ref.sp_decode(ours, add_dummy_prefix) != model.decode(theirs) or \
                ref.sp_decode(ours, add_dummy_prefix) != text:
            differences.append((text, logp, add_dummy_prefix, ours, theirs))
    assert differences == [], differences[:3]


# --- the spec's and the Hugging Face course's published examples ---------------------------

def test_published_examples(ref):
    vocab = {t: i for i, t in enumerate("[UNK] hiper hipo ##ten ##tens ##sión ##ión ##o ##s ##termia".split())}
    assert ref.wordpiece_encode("hipertensión e hipotermia", vocab) == \
        ["hiper", "##tens", "##ión", "[UNK]", "hipo", "##termia"]
    assert ref.wordpiece_encode("hipertenso hiperbólico", vocab) == ["hiper", "##tens", "##o", "[UNK]"]
    splits = {("g", "##a", "##t", "##o"): 5, ("g", "##a", "##t", "##a"): 3, ("p", "##a", "##t", "##o"): 2}
    assert ref.wordpiece_scores(splits) == pytest.approx(
        {("g", "##a"): 1 / 13, ("##a", "##t"): 1 / 13, ("##t", "##o"): 0.1, ("##t", "##a"): 3 / 130,
         ("p", "##a"): 1 / 13}, rel=1e-9)
    assert ref.train_wordpiece({"gato": 5, "gata": 3, "pato": 2}, 8) == [
        ("##t", "##o"), ("g", "##a"), ("##t", "##a"), ("p", "##a"), ("pa", "##to"), ("ga", "##to"), ("ga", "##ta")]
    assert ref.train_wordpiece({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, 3) == \
        [("##g", "##s"), ("h", "##u"), ("hu", "##gs")]  # the HF course, chapter 6.6
    logp = {"c": -3, "a": -2, "s": -2, "ca": -3, "sa": -3, "cas": -4, "casa": -4, "as": -2}
    assert ref.unigram_viterbi("casas", logp) == (["cas", "as"], -6.0)
    losses, weakest = ref.unigram_prune({"casa": 4, "cosa": 2},
                                        {"c": -3, "a": -2, "s": -3, "o": -3, "co": -4, "ca": -3, "sa": -2,
                                         "casa": -4}, 2)
    assert (losses, weakest) == ({"co": 4, "ca": 0, "sa": 6, "casa": 4}, ["ca", "co"])
    sp = {"▁": -2, "▁la": -3, "▁casa": -4, "la": -4, "casa": -5, "a": -3, "c": -4, "s": -4, "l": -4}
    assert ref.sp_encode("la casa", sp) == ["▁la", "▁casa"]
    assert ref.sp_encode(" la  casa", sp) == ["▁", "▁la", "▁", "▁casa"]


# The Hugging Face LLM course, chapter 6.6: its four sentences, split by BERT's pre-tokenizer.
HF_COURSE_SENTENCES = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
HF_COURSE_TOKENS = ["ab", "##fu", "Fa", "Fac", "##ct", "##ful", "##full", "##fully", "Th", "ch", "##hm", "cha",
                    "chap", "chapt", "##thm", "Hu", "Hug", "Hugg", "sh", "th", "is", "##thms", "##za", "##zat", "##ut"]


def test_train_wordpiece_reproduces_the_hf_course(ref):
    from tokenizers.pre_tokenizers import BertPreTokenizer

    freqs = {}
    for sentence in HF_COURSE_SENTENCES:
        for word, _ in BertPreTokenizer().pre_tokenize_str(sentence):
            freqs[word] = freqs.get(word, 0) + 1
    assert len(freqs) == 30
    merges = ref.train_wordpiece(freqs, 25)
    assert [a + b[len("##"):] for a, b in merges] == HF_COURSE_TOKENS
    alphabet = sorted({word[0] for word in freqs} | {"##" + letter for word in freqs for letter in word[1:]})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + alphabet + HF_COURSE_TOKENS
    assert len(vocab) == 70
    ids = {token: i for i, token in enumerate(vocab)}
    assert ref.wordpiece_encode("Hugging", ids) == ["Hugg", "##i", "##n", "##g"]
    assert ref.wordpiece_encode("HOgging", ids) == ["[UNK]"]
