"""Hostile samples for `subpalabras`: a served helper driven to minutes, answers nested past any
recursion limit, and arguments emptied in place.

Each attack replaces every graded function (or makes it useless), so a sound grader gives
it exactly 0. tests/test_hostile.py grades them in one batch next to the reference and the
stub.
"""

from functools import partial
from pathlib import Path

from autograder.samples import Sample, replace_all
from autograder.samples.grader_attacks import grader_attacks
from autograder.samples.shape_attacks import vacuous_comparison_attacks

SOLUTION = Path(__file__).with_name("solution.py")  # whose signatures the attacks take
_functions = partial(replace_all, SOLUTION)

HOSTILE: list[Sample] = [
    Sample("subpalabras_served_viterbi_overload", "hostile",
           "while unigram_prune and sp_encode are graded, unigram_viterbi is the reference's: they call it on "
           "a word of 30 000 characters with a piece for every length up to 200 (about 6 million dictionary "
           "look-ups per call: far past a call's time limit). Only a few calls attack (the rest raise at "
           "once), so that the corpus stays quick to grade",
           replace=_functions(
               unigram_prune="if n == 5:\n    unigram_viterbi('a' * 30_000, {'a' * k: -1.0 for k in range(1, 200)})\n"
                             "raise ValueError('no')",
               sp_encode="if text == 'la\u2581casa':\n    unigram_viterbi('a' * 30_000, {'a' * k: -1.0 for k in range(1, 200)})\n"
                         "raise ValueError('no')",
           )),
    Sample("subpalabras_nested_past_recursion", "hostile",
           "every function answers a list nested 200 000 levels deep (or a tuple of such lists), deeper than "
           "any recursive encoder, comparison or repr can follow",
           replace=_functions(
               "deep = []\nfor _ in range(200_000):\n    deep = [deep]\nreturn deep",
               unigram_viterbi="deep = []\nfor _ in range(200_000):\n    deep = [deep]\nreturn deep, deep",
               unigram_prune="deep = []\nfor _ in range(200_000):\n    deep = [deep]\nreturn {'ab': deep}, deep",
               sp_decode="deep = []\nfor _ in range(200_000):\n    deep = [deep]\nreturn deep",
           )),
    Sample("subpalabras_oracle_through_served_viterbi", "hostile",
           "unigram_prune's property tests run first, with the reference's unigram_viterbi served: the attack asks "
           "it about the hidden fixed inputs of unigram_viterbi's own tests (learnt elsewhere; written here), "
           "keeps the answers in a global, and its unigram_viterbi answers from them. 11.67 points forged while "
           "those tests ran in the worker that had held the answers",
           replace=_functions(
               unigram_prune="kept = globals().setdefault('KEPT', {})\n"
                             "for word, table in [('sol', {'s': -1, 'o': -1, 'l': -1}), ('ab', {'a': -1, 'b': -1, 'ab': -2}),\n"
                             "                    ('aab', {'a': -1, 'b': -1, 'ab': -2, 'aab': -3}),\n"
                             "                    ('casas', {'c': -3, 'a': -2, 's': -2, 'ca': -3, 'sa': -3, 'cas': -4, 'casa': -4, 'as': -2})]:\n"
                             "    try:\n"
                             "        kept[repr((word, sorted(table.items())))] = unigram_viterbi(word, table)\n"
                             "    except Exception:\n"
                             "        pass\n"
                             "return {}, []",
               unigram_viterbi="kept = globals().get('KEPT', {})\n"
                               "return kept.get(repr((word, sorted(logp.items()))), ([], 0.0))",
           )),
    Sample("subpalabras_empty_the_arguments", "hostile",
           "no function computes anything: each empties the vocabulary, corpus, splits or log-probabilities it "
           "is given (the suite's own HIPER, CASAS, CASA_COSA and LA_CASA among them) and answers what the "
           "emptied arguments give",
           replace=_functions(
               wordpiece_encode="vocab.clear()\nreturn []",
               wordpiece_scores="splits.clear()\nreturn {}",
               train_wordpiece="corpus.clear()\nreturn []",
               unigram_viterbi="logp.clear()\nreturn [], 0.0",
               unigram_prune="corpus.clear()\nlogp.clear()\nreturn {}, []",
               sp_encode="logp.clear()\nreturn []",
               sp_decode="pieces.clear()\nreturn ''",
           )),
]

# Answers of the wrong type or shape that compare vacuously (issue 11): np.empty(0), np.empty((0, 0)),
# the right answer as a 0-d array, broadcast, with every number inside it an array or a float, or
# inside a list (autograder/samples/shape_attacks.py). Pure attacks: exactly 0.
HOSTILE += vacuous_comparison_attacks(SOLUTION, "subpalabras")

# Attacks on what the grader does around the sandbox (issue 26): a reply slow to decode, answers made
# for a huge assertion diff, the hidden inputs in exception details, files left in shared folders
# (autograder/samples/grader_attacks.py). Pure attacks: exactly 0.
HOSTILE += grader_attacks(SOLUTION, "subpalabras")
