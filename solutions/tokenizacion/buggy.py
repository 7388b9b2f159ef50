"""Plausible wrong implementations of `tokenizacion`: one misconception each.

Most are *mutants*: the reference function with one edit, so each entry states exactly
its mistake. The rest are written out whole, where the wrong idea changes the shape
of the code. `failing` is the exact set of hidden tests each one must fail
(tests/test_catalogue.py holds the suite to it); where a published check or a second
specific test catches the same bug as the intended test, both are listed.
"""

from functools import partial
from pathlib import Path

from autograder.samples import changing as _changing
from autograder.samples import mutant as _mutant
from autograder.samples import remembering as _remembering
from autograder.samples import rewrite

SOLUTION = Path(__file__).with_name("solution.py")  # the reference each mutant edits
mutant = partial(_mutant, SOLUTION)
changing = partial(_changing, SOLUTION)
remembering = partial(_remembering, SOLUTION)


EMPTY_CHECK = "    if not tokens:\n        return 0.0\n"

BUGGY = [
    # --- tokenize_chars -----------------------------------------------------------------
    mutant("tokenize_chars_strips_text", "strips the text before cutting it, losing whitespace at the ends",
           "tokenize_chars", [("return list(text)", "return list(text.strip())")],
           {"test_tokenize_chars_keeps_all_whitespace"}, "espacios del principio y del final", clause="tokenize_chars.keeps_whitespace"),
    mutant("tokenize_chars_skips_spaces", "drops the spaces, as if they were not characters", "tokenize_chars",
           [("return list(text)", 'return [c for c in text if c != " "]')],
           {"test_tokenize_chars_published_sentence", "test_tokenize_chars_inner_spaces_are_tokens",
            "test_tokenize_chars_keeps_all_whitespace"},
           "espacios incluidos", clause="tokenize_chars.every_character"),
    mutant("tokenize_chars_utf8_bytes", "one token per UTF-8 byte (mojibake) instead of per code point",
           "tokenize_chars", [("return list(text)", 'return [chr(b) for b in text.encode("utf-8")]')],
           {"test_tokenize_chars_non_ascii", "test_tokenize_chars_combining_marks"}, "no con sus bytes UTF-8", clause="tokenize_chars.code_points"),
    mutant("tokenize_chars_normalizes", "NFC-normalizes first, so e + U+0301 becomes a single é", "tokenize_chars",
           [("return list(text)", 'import unicodedata\n    return list(unicodedata.normalize("NFC", text))')],
           {"test_tokenize_chars_combining_marks"}, "no normalices", clause="tokenize_chars.no_grouping"),
    rewrite("tokenize_chars_groups_combining_marks", "attaches combining marks to the previous character", '''
def tokenize_chars(text):
    import unicodedata
    tokens = []
    for c in text:
        if tokens and unicodedata.combining(c):
            tokens[-1] += c
        else:
            tokens.append(c)
    return tokens
''', {"test_tokenize_chars_combining_marks"}, "dos tokens", clause="tokenize_chars.no_grouping"),

    # --- tokenize_words -----------------------------------------------------------------
    mutant("tokenize_words_split_on_space", "split(' '): empty tokens, and tabs or newlines do not separate",
           "tokenize_words", [("return text.split()", 'return text.split(" ")')],
           {"test_tokenize_words_no_empty_tokens", "test_tokenize_words_any_whitespace"}, "No devuelvas tokens vacíos", clause="tokenize_words.split"),
    mutant("tokenize_words_regex_split", "re.split(r'\\s+', text), as the seed's JavaScript: '' at the ends",
           "tokenize_words", [("return text.split()", 'import re\n    return re.split(r"\\s+", text)')],
           {"test_tokenize_words_no_empty_tokens"}, "no split(' ') ni re.split", clause="tokenize_words.split"),
    mutant("tokenize_words_spaces_only", "split(' ') with the empty tokens filtered: only the space separates",
           "tokenize_words", [("return text.split()", 'return [w for w in text.split(" ") if w]')],
           {"test_tokenize_words_any_whitespace"}, "tabuladores y los saltos de línea", clause="tokenize_words.any_whitespace"),
    mutant("tokenize_words_letters_only", "keeps runs of word characters, dropping the punctuation",
           "tokenize_words", [("return text.split()", 'import re\n    return re.findall(r"\\w+", text)')],
           {"test_tokenize_words_keeps_punctuation"}, "la puntuación queda pegada", clause="tokenize_words.keeps_punctuation"),
    mutant("tokenize_words_lowercases", "lowercases the text before splitting (as seed 004, step 4, does)",
           "tokenize_words", [("return text.split()", "return text.lower().split()")],
           {"test_tokenize_words_published_sentence", "test_tokenize_words_keeps_case"}, "No cambies las mayúsculas", clause="tokenize_words.keeps_case"),

    # --- build_vocab --------------------------------------------------------------------
    mutant("build_vocab_sorted", "numbers the tokens in alphabetical order", "build_vocab",
           [("(*specials, *tokens)", "(*specials, *sorted(tokens))")],
           {"test_build_vocab_published_sentence", "test_build_vocab_first_appearance_order"}, "no el orden alfabético", clause="build_vocab.first_appearance"),
    mutant("build_vocab_specials_last", "appends the specials after the tokens", "build_vocab",
           [("(*specials, *tokens)", "(*tokens, *specials)")],
           {"test_build_vocab_published_sentence", "test_build_vocab_specials_first"}, "Los especiales van primero", clause="build_vocab.specials_first"),
    mutant("build_vocab_ignores_specials", "always reserves [UNK] and ignores the `specials` argument", "build_vocab",
           [("(*specials, *tokens)", '("[UNK]", *tokens)')],
           {"test_build_vocab_specials_first"}, "Usa el parámetro `specials`", clause="build_vocab.specials_first"),
    mutant("build_vocab_duplicates_get_new_ids", "gives every occurrence the next id, so repeated tokens move",
           "build_vocab", [("        if token not in vocab:\n            vocab[token] = len(vocab)",
                            "        vocab[token] = len(vocab)")],
           {"test_build_vocab_no_duplicates"}, "conserva su primer id", clause="build_vocab.no_duplicates"),
    rewrite("build_vocab_specials_not_deduplicated", "dedupes the tokens among themselves but numbers them after "
            "the specials, so a special among the tokens gets a second id and leaves a hole", '''
def build_vocab(tokens, specials=("[UNK]",)):
    vocab = {special: i for i, special in enumerate(specials)}
    for i, token in enumerate(dict.fromkeys(tokens)):
        vocab[token] = len(specials) + i
    return vocab
''', {"test_build_vocab_no_duplicates"}, "un especial que también aparece", clause="build_vocab.no_duplicates"),

    # --- encode -------------------------------------------------------------------------
    rewrite("encode_grows_vocab", "adds unknown tokens to the vocabulary, as the seed's JavaScript does", '''
def encode(tokens, vocab, unk="[UNK]"):
    ids = []
    for token in tokens:
        if token not in vocab:
            vocab[token] = len(vocab)
        ids.append(vocab[token])
    return ids
''', {"test_encode_custom_unk_name", "test_encode_leaves_its_arguments_alone", "test_encode_missing_unk_raises", "test_encode_unk_id_comes_from_vocab", "test_encode_unknown_tokens_become_unk"}, "ni lo añadas al vocabulario", clause="encode.token_ids"),
    rewrite("encode_unk_is_zero", "vocab.get(token, 0): assumes [UNK] is id 0 and never checks it exists", '''
def encode(tokens, vocab, unk="[UNK]"):
    return [vocab.get(token, 0) for token in tokens]
''', {"test_encode_unk_id_comes_from_vocab", "test_encode_missing_unk_raises"}, "no siempre 0", clause="encode.unk_id_from_vocab"),
    mutant("encode_hardcoded_unk", "looks up '[UNK]' instead of the `unk` argument", "encode",
           [("unk_id = vocab[unk]", 'unk_id = vocab["[UNK]"]')],
           {"test_encode_custom_unk_name"}, "Usa el parámetro `unk`", clause="encode.unk_parameter"),
    rewrite("encode_lazy_unk_lookup", "looks up vocab[unk] only when an unknown token shows up", '''
def encode(tokens, vocab, unk="[UNK]"):
    return [vocab[token] if token in vocab else vocab[unk] for token in tokens]
''', {"test_encode_missing_unk_raises"}, "aunque todos los tokens sean conocidos", clause="encode.missing_unk"),

    rewrite("encode_no_tokens_no_check", "returns [] for an empty list before checking that unk is in the "
            "vocabulary", '''
def encode(tokens, vocab, unk="[UNK]"):
    if not tokens:
        return []
    unk_id = vocab[unk]
    return [vocab.get(token, unk_id) for token in tokens]
''', {"test_encode_missing_unk_raises"}, "o no haya ninguno", clause="encode.missing_unk"),
    mutant("encode_truthy_id", "vocab.get(token) or unk_id: a known token whose id is 0 becomes unk", "encode",
           [("vocab.get(token, unk_id) for token in tokens", "vocab.get(token) or unk_id for token in tokens")],
           {"test_encode_token_with_id_zero"}, "no si su id es verdadero", clause="encode.token_ids"),

    # --- decode -------------------------------------------------------------------------
    rewrite("decode_by_position", "takes the id as a position in the vocabulary: list(vocab)[id]", '''
def decode(ids, vocab):
    tokens = list(vocab)
    return [tokens[idx] for idx in ids]
''', {"test_decode_answers_each_call_afresh", "test_decode_inverse_lookup_not_position", "test_decode_unknown_id_raises"}, "no busques el token por su posición", clause="decode.by_id"),
    mutant("decode_unknown_id_as_unk", "decodes an unknown id as '[UNK]' instead of raising KeyError", "decode",
           [("id_to_token[idx] for idx in ids", 'id_to_token.get(idx, "[UNK]") for idx in ids')],
           {"test_decode_unknown_id_raises"}, "KeyError", clause="decode.unknown_id"),
    mutant("decode_joins_text", "joins the tokens into one string, as bpe_bytes' decode returns text", "decode",
           [("return [id_to_token[idx] for idx in ids]", 'return " ".join(id_to_token[idx] for idx in ids)')],
           # Every specific test fails or is gated, so the catch-all is not excused: decode earns nothing.
           {"test_decode_answers_each_call_afresh", "test_decode_inverse_lookup_not_position", "test_decode_leaves_its_arguments_alone", "test_decode_matches_reference", "test_decode_published_sentence"},
           "no un texto unido", clause="decode.token_list"),

    # --- oov_rate -----------------------------------------------------------------------
    mutant("oov_rate_percentage", "a percentage (×100), where the lesson asks for a fraction between 0 and 1",
           "oov_rate", [("return unknown / len(tokens)", "return 100 * unknown / len(tokens)")],
           {"test_oov_rate_basic", "test_oov_rate_is_a_fraction", "test_oov_rate_counts_occurrences",
            "test_oov_rate_divides_by_number_of_tokens", "test_oov_rate_vocab_without_unk",
            "test_oov_rate_matches_reference"}, "no un porcentaje",
           clause="oov_rate.fraction"),
    mutant("oov_rate_divides_by_vocab_size", "divides by the size of the vocabulary", "oov_rate",
           [("/ len(tokens)", "/ len(vocab)")],
           {"test_oov_rate_divides_by_number_of_tokens"}, "no entre el tamaño del vocabulario", clause="oov_rate.denominator"),
    mutant("oov_rate_distinct_unknown_tokens", "counts each unknown token once, however often it appears", "oov_rate",
           [("sum(token not in vocab for token in tokens)", "len({token for token in tokens if token not in vocab})")],
           {"test_oov_rate_counts_occurrences"}, "Cuenta apariciones", clause="oov_rate.occurrences"),
    mutant("oov_rate_distinct_tokens", "measures over the distinct tokens (a set) instead of the occurrences",
           "oov_rate", [("for token in tokens)", "for token in set(tokens))"), ("/ len(tokens)", "/ len(set(tokens))")],
           {"test_oov_rate_counts_occurrences"}, "Cuenta apariciones", clause="oov_rate.occurrences"),
    mutant("oov_rate_divides_by_zero", "lets an empty list raise ZeroDivisionError", "oov_rate",
           [(EMPTY_CHECK, "")], {"test_oov_rate_empty_list"}, "ZeroDivisionError", clause="oov_rate.empty"),
    rewrite("oov_rate_counts_unk_ids", "counts the tokens that would be encoded as vocab['[UNK]']", '''
def oov_rate(tokens, vocab):
    if not tokens:
        return 0.0
    unk_id = vocab["[UNK]"]
    return sum(vocab.get(token, unk_id) == unk_id for token in tokens) / len(tokens)
''', {"test_oov_rate_vocab_without_unk"}, "no hace falta que el vocabulario tenga [UNK]", clause="oov_rate.no_unk_needed"),

    # --- arguments after the call, and calls that repeat ('Cómo se califica') ------------
    changing("build_vocab_sorts_tokens", "build_vocab", 'tokens.sort()', {"test_build_vocab_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="build_vocab.leaves_arguments"),
    changing("encode_replaces_tokens_in_place", "encode", 'tokens[:] = result', {"test_encode_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="encode.leaves_arguments"),
    remembering("encode_cache_by_tokens", "encode", '(tokens, unk)', {"test_encode_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="encode.afresh"),
    changing("decode_replaces_ids_in_place", "decode", 'ids[:] = result', {"test_decode_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="decode.leaves_arguments"),
    remembering("decode_cache_by_ids", "decode", 'ids', {"test_decode_answers_each_call_afresh"}, "no guardes nada de una llamada para la siguiente", clause="decode.afresh"),
    changing("oov_rate_learns_unknown_tokens", "oov_rate", 'vocab.update({t: len(vocab) for t in tokens if t not in vocab})', {"test_oov_rate_leaves_its_arguments_alone"}, "no debe cambiar los argumentos", clause="oov_rate.leaves_arguments"),
]
