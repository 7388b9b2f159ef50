"""Which pairs of submissions share much more code than independent work would.

Fingerprints are copydetect's (Pygments tokens with every name, string and comment
normalised away, then winnowed k-grams): renaming, reordering, comments, docstrings and
blank lines change none of them. On top of copydetect this module adds what a class needs:

- the template's fingerprints are removed from every unit (copydetect's boilerplate), so the
  code every student was given matches nothing;
- a fingerprint found in more than `common_in` submissions is an idiom of the class: never
  evidence of a copy (as MOSS ignores such passages), though still part of the code a share
  is taken of;
- pairs are found through an index of fingerprints, so that a class of 1,000 is not
  500,000 comparisons: only pairs sharing enough fingerprints are compared exactly.

A pair's score is the share of both submissions' code that the other one also has (the mean
of the two shares), over all their units; a unit "matches" when that share, for that unit
alone, reaches the threshold.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import math

import numpy as np
from copydetect import compare_files
from copydetect.utils import filter_code, get_token_coverage, winnow

from autograder.similarity.code import REST

NOISE = 25  # copydetect's default: a match shorter than 25 characters of normalised code is noise
GUARANTEE = 30  # ... and one of 30 or more is always found (winnowing window = 30 - 25 + 1)
DEFAULT_THRESHOLD = 0.55  # course.yml `similarity.threshold`; how it was chosen: bench/README.md


@dataclasses.dataclass(frozen=True)
class UnitMatch:
    unit: str  # a graded function, or code.REST
    score: float
    spans_a: list  # [start, end) character ranges of a's code that b also has
    spans_b: list


@dataclasses.dataclass(frozen=True)
class Pair:
    a: str
    b: str
    score: float  # in [0, 1]
    flagged: bool
    units: list[UnitMatch]  # the units that match, most similar first


@dataclasses.dataclass
class Fingerprint:
    """What copydetect's compare_files reads of a unit (its CodeFingerprint's attributes), made here
    with a hash of our own: copydetect hashes k-grams with Python's hash(), which changes from one
    process to the next, and the same class must get the same scores every time."""

    filtered_code: str
    offsets: np.ndarray
    hashes: set
    hash_idx: dict
    token_coverage: int
    k: int = NOISE


def _stable_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                          "little", signed=True)


def _fingerprint(code: str, boilerplate: set, window: int = GUARANTEE - NOISE + 1) -> Fingerprint | None:
    """A unit's winnowed fingerprints, without the template's; None when nothing of its own is left."""
    filtered, offsets = filter_code(code, "entrega.py", "python")
    every = np.array([_stable_hash(filtered[i:i + NOISE]) for i in range(len(filtered) - NOISE + 1)], dtype=np.int64)
    if not len(every):
        return None
    hashes, positions = winnow(every, window, remove_duplicates=False)
    where = collections.defaultdict(list)
    for value, position in zip(hashes.tolist(), positions.tolist()):
        if value not in boilerplate:
            where[value].append(position)
    if not where:
        return None
    where = dict(where)
    return Fingerprint(filtered, offsets, set(where), where, get_token_coverage(where, NOISE, len(filtered)))


def fingerprint_units(units: dict[str, str], boilerplate: set) -> dict[str, Fingerprint]:
    """Each unit's fingerprint; units with nothing of their own are left out."""
    found = {unit: _fingerprint(code, boilerplate) for unit, code in units.items()}
    return {unit: f for unit, f in found.items() if f is not None}


def template_hashes(template: list[str]) -> set:
    """Every k-gram of the template (no winnowing: nothing of it may survive in a student's unit)."""
    hashes = set()
    for source in template:
        found = _fingerprint(source, set(), window=1)
        hashes |= found.hashes if found is not None else set()
    return hashes


def _drop(fingerprint: Fingerprint, hashes: set) -> None:
    """Narrow the fingerprint to what is not in `hashes`. Its coverage stays that of the whole unit: an
    idiom of the class is not evidence of copying, but it is still part of the code, so a unit made
    mostly of idioms cannot reach a high share through the little that is left."""
    if fingerprint.hashes & hashes:
        fingerprint.hashes = fingerprint.hashes - hashes
        fingerprint.hash_idx = {h: i for h, i in fingerprint.hash_idx.items() if h in fingerprint.hashes}


def compare_class(codes, template: list[str], threshold: float = DEFAULT_THRESHOLD,
                  common_in: int | None = None, earlier=(), map_units=None) -> list[Pair]:
    """The pairs scoring at least half the threshold among `codes` (StudentCode), and between them
    and `earlier` (other semesters' StudentCode, never compared among themselves), most similar
    first; those at or above `threshold` are flagged. `map_units(fingerprint_units, units, boilerplate)`
    fingerprints every submission's units elsewhere (a Dask cluster); by default, here."""
    floor = threshold / 2
    everyone = list(codes) + list(earlier)
    current = len(codes)
    common_in = common_in if common_in is not None else max(10, math.ceil(0.05 * len(everyone)))
    boilerplate = template_hashes(template)
    if map_units is None:
        prints = [fingerprint_units(code.units, boilerplate) for code in everyone]
    else:
        prints = map_units(fingerprint_units, [code.units for code in everyone], boilerplate)

    holders = collections.defaultdict(set)  # (unit, hash) -> indices of the submissions that have it
    for index, units in enumerate(prints):
        for unit, found in units.items():
            for h in found.hashes:
                holders[unit, h].add(index)
    common = collections.defaultdict(set)
    for (unit, h), who in holders.items():
        if len(who) > common_in:
            common[unit].add(h)
    size = [sum(len(f.hashes) for f in units.values()) for units in prints]  # before idioms are dropped
    for units in prints:
        for unit, found in units.items():
            _drop(found, common[unit])

    shared = collections.Counter()
    for (unit, h), who in holders.items():
        if h in common[unit] or len(who) < 2:
            continue
        ordered = sorted(who)
        for position, i in enumerate(ordered):
            if i >= current:
                break
            for j in ordered[position + 1:]:
                shared[i, j] += 1

    pairs = []
    for (i, j), count in shared.items():
        # A cheap bound first: over the course's corpora and their disguised copies, every pair scoring at
        # least 0.3 shared at least 0.2 of the smaller one's fingerprints (bench/README.md, "Similarity");
        # a pair sharing under half the floor is not compared exactly.
        if count < 0.5 * floor * min(size[i], size[j]):
            continue
        pair = _exact(everyone[i].student, everyone[j].student, prints[i], prints[j], threshold)
        if pair is not None and pair.score >= floor:
            pairs.append(pair)
    pairs.sort(key=lambda p: (-p.score, p.a, p.b))
    return pairs


def _exact(a: str, b: str, units_a: dict, units_b: dict, threshold: float) -> Pair | None:
    overlap_a = overlap_b = 0
    coverage_a = sum(f.token_coverage for f in units_a.values())
    coverage_b = sum(f.token_coverage for f in units_b.values())
    if not coverage_a or not coverage_b:
        return None
    matches = []
    for unit in units_a.keys() & units_b.keys():
        tokens, (share_a, share_b), (slices_a, slices_b) = compare_files(units_a[unit], units_b[unit])
        if not tokens:
            continue
        overlap_a += share_a * units_a[unit].token_coverage
        overlap_b += share_b * units_b[unit].token_coverage
        score = (share_a + share_b) / 2
        if score >= threshold:
            matches.append(UnitMatch(unit, round(float(score), 3), _spans(slices_a), _spans(slices_b)))
    score = round(float((overlap_a / coverage_a + overlap_b / coverage_b) / 2), 3)
    matches.sort(key=lambda m: (m.unit == REST, -m.score, m.unit))  # the graded functions first
    return Pair(a, b, min(score, 1.0), score >= threshold, matches)


def _spans(slices) -> list[list[int]]:
    return [[int(s), int(e)] for s, e in zip(slices[0], slices[1])] if len(slices) and len(slices[0]) else []
