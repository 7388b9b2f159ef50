"""How good is a hidden suite? The suite-accuracy audit (`autograder audit`).

A grader is a measuring instrument, so each assignment's suite is measured against
submissions whose right score is known before grading:

- the correct corpus (`solutions/ID/corpus/*.py`, written by other hands than the suite, plus
  third-party code): every file must get full marks as a module and as a notebook, through
  the hidden suite and through the visible checks;
- the catalogue of plausible wrong implementations (`solutions/ID/buggy.py`):
  each must fail exactly its listed tests, with its misconception's hint shown first;
- mutants of the reference made by mutmut's own operators (mutants.py): every one must
  lose points, unless it is listed as equivalent, with a reason, beside the reference;
- a lookup table of the lesson's published examples (lookup.py): it must earn no more
  than the tests of those examples are worth.

`run.py` grades all of it in batches; `autograder/render/audit.py` writes the report.
"""
