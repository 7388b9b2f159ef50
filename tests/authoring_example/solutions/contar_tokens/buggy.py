"""Plausible wrong implementations of `contar_tokens`, one misconception each."""

from functools import partial
from pathlib import Path

from autograder.samples import mutant as _mutant

SOLUTION = Path(__file__).with_name("solution.py")
mutant = partial(_mutant, SOLUTION)

BUGGY = [
    mutant("count_tokens_sorted", "returns the counts sorted by token", "count_tokens",
           [("    return counts", "    return dict(sorted(counts.items()))")],
           {"test_count_tokens_first_appearance_order"}, "primera vez"),
    mutant("most_common_tie_goes_to_the_last", "takes the last of tied tokens", "most_common",
           [("count > counts[best]", "count >= counts[best]")],
           {"test_most_common_tie_goes_to_the_first"}, "empate"),
]
