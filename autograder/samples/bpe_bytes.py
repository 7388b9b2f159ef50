"""Buggy and hostile samples for `bpe_bytes` (see autograder/samples/__init__.py)."""

from autograder.samples import Sample

BUGGY: list[Sample] = []
HOSTILE: list[Sample] = []
