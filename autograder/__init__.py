"""Sandboxed autograder for the course unit "Tokens y embeddings" (see README.md)."""

import sys

# nbformat validates notebooks with jsonschema, whose format checkers import rfc3987_syntax when it is
# installed (the Jupyter stack installs it) only to check the "iri" string format, which no notebook
# schema uses. That import compiles some 35 lark grammars: about 1 s of every command, more than a
# whole submission's grading (python-jsonschema/jsonschema#1428). Marked absent, it is skipped as if
# it were not installed; the sandbox's worker takes the mark away before any student code runs.
OPTIONAL_IMPORTS_SKIPPED = ("rfc3987_syntax",)
sys.modules.update({name: None for name in OPTIONAL_IMPORTS_SKIPPED if name not in sys.modules})
