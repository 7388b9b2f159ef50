"""Plausible wrong implementations of `contar_tokens`, one misconception each."""

from functools import partial
from pathlib import Path

from autograder.samples import mutant as _mutant
from autograder.samples import rewrite

SOLUTION = Path(__file__).with_name("solution.py")
mutant = partial(_mutant, SOLUTION)

BUGGY = [
    mutant("count_tokens_sorted", "returns the counts sorted by token", "count_tokens",
           [("    return counts", "    return dict(sorted(counts.items()))")],
           {"test_count_tokens_first_appearance_order"}, "primera vez", clause="count_tokens.order"),
    mutant("count_tokens_once_each", "counts each distinct token once", "count_tokens",
           [("counts.get(token, 0) + 1", "1")],
           {"test_count_tokens_basic"}, "cada aparición",
           clause="count_tokens.counts"),
    mutant("most_common_tie_goes_to_the_last", "takes the last of tied tokens", "most_common",
           [("count > counts[best]", "count >= counts[best]")],
           {"test_most_common_tie_goes_to_the_first"}, "empate", clause="most_common.tie"),
    mutant("most_common_lowest", "keeps the lowest count", "most_common",
           [("count > counts[best]", "count < counts[best]")],
           {"test_most_common_basic"}, "más alta", clause="most_common.highest"),
    rewrite("most_common_max_of_nothing", "max() of the counts, which raises when there are none", '''
def most_common(counts):
    return max(counts, key=counts.get)
''', {"test_most_common_empty"}, "None", clause="most_common.empty"),
]
