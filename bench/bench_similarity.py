"""Similarity flags: how often they are wrong, how often they catch a copy, and how fast they are.

```
.venv/bin/python bench/bench_similarity.py [--out bench/similarity_results.json] [--class-size 1000]
```

1. Rates, per assignment, on code the comparison was not designed around. False positives: every
   pair of the independent correct corpus (solutions/ID/corpus/), flagged or not. Detection: for
   each corpus file, its 9 disguised copies (autograder/samples/disguise.py) graded in a class with
   the whole corpus; every pair among the original and its copies should be flagged. The exact
   scores of both sets are what the threshold in course.yml was chosen from.
2. The prefilter's bound: the smallest share of fingerprints a pair scoring at least 0.3 shares.
3. Speed: a class of `--class-size` bpe_bytes submissions written to an nbgrader course directory
   and compared as `autograder similarity` does (read, fingerprint, index, compare), here and on a
   local Dask cluster of one worker per core. The class mixes everyone's functions from ten corpus
   files (each variant shared by many students: idioms), and rings of three (an original from the
   five other corpus files and two disguised copies) that must come out flagged, and nothing else.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from measure import ROOT, machine, sources_digest

from autograder.course import load_course
from autograder.notebook.lesson import load_source_notebook
from autograder.samples.disguise import disguised_copies
from autograder.similarity import compare_assignment
from autograder.similarity import compare as similarity
from autograder.similarity.code import read_student_code, template_sources


def _corpus(assignment) -> list[Path]:
    return sorted((Path(assignment.solution_path).parent / "corpus").glob("*.py"))


def rates(course, folder: Path) -> dict:
    out = {}
    for assignment_id, assignment in course.assignments.items():
        release, template = load_source_notebook(assignment), template_sources(assignment)
        boilerplate = similarity.template_hashes(template)
        corpus = _corpus(assignment)
        originals = [read_student_code(p.stem, p, assignment, release, template) for p in corpus]
        prints = {c.student: similarity.fingerprint_units(c.units, boilerplate) for c in originals}

        def exact(a, b, found):
            pair = similarity._exact(a, b, found[a], found[b], course.similarity_threshold)
            return pair.score if pair else 0.0

        independent = [exact(a.student, b.student, prints) for a, b in itertools.combinations(originals, 2)]
        flagged_independent = {frozenset((p.a, p.b)) for p in similarity.compare_class(
            originals, template, course.similarity_threshold) if p.flagged}
        copy_scores, copy_pairs, detected, prefilter = [], 0, 0, []
        for path in corpus:
            copies = []
            for name, source in disguised_copies(path.read_text(encoding="utf-8"), set(assignment.points)).items():
                written = folder / f"{assignment_id}-{path.stem}-{name.replace('+', '-')}.py"
                written.write_text(source, encoding="utf-8")
                copies.append(read_student_code(f"{path.stem}~{name}", written, assignment, release, template))
            group = [path.stem] + [c.student for c in copies]
            found = {**prints, **{c.student: similarity.fingerprint_units(c.units, boilerplate) for c in copies}}
            copy_scores += [exact(a, b, found) for a, b in itertools.combinations(group, 2)]
            pairs = similarity.compare_class(originals + copies, template, course.similarity_threshold)
            flagged = {frozenset((p.a, p.b)) for p in pairs if p.flagged}
            copy_pairs += len(group) * (len(group) - 1) // 2
            detected += sum(frozenset(pair) in flagged for pair in itertools.combinations(group, 2))
            for a, b in itertools.combinations(group, 2):
                common = sum(len(found[a][u].hashes & found[b][u].hashes) for u in found[a].keys() & found[b].keys())
                smaller = min(sum(len(f.hashes) for f in found[x].values()) for x in (a, b))
                if exact(a, b, found) >= 0.3:
                    prefilter.append(common / max(smaller, 1))
        out[assignment_id] = {
            "independent_pairs": len(independent), "independent_flagged": len(flagged_independent),
            "independent_max_score": max(independent), "copy_pairs": copy_pairs, "copies_detected": detected,
            "copy_min_score": min(copy_scores), "prefilter_min_share_at_0.3": round(min(prefilter), 3),
        }
        print(f"  {assignment_id:16} independent {len(flagged_independent)}/{len(independent)} flagged (max "
              f"{max(independent):.3f}); copies {detected}/{copy_pairs} flagged (min {min(copy_scores):.3f})", flush=True)
    return out


def _write_class(course, size: int, course_dir: Path) -> set[frozenset]:
    """A class of `size` bpe_bytes submissions in course_dir/submitted/; returns the planted rings' pairs."""
    assignment = course.assignment("bpe_bytes")
    release, template = load_source_notebook(assignment), template_sources(assignment)
    corpus = _corpus(assignment)
    pool, held_out = corpus[:10], corpus[10:]
    variants = []
    for path in pool:
        sources = [path.read_text(encoding="utf-8"), *disguised_copies(path.read_text(encoding="utf-8"),
                                                                      set(assignment.points)).values()]
        for source in sources:
            scratch = course_dir.parent / "scratch.py"
            scratch.write_text(source, encoding="utf-8")
            variants.append(read_student_code("x", scratch, assignment, release, template).units)
    rng = random.Random(27)
    rings, students = set(), {}
    for number, path in enumerate(held_out):
        source = path.read_text(encoding="utf-8")
        copies = disguised_copies(source, set(assignment.points))
        ring = [f"ring{number}-original", f"ring{number}-copy-a", f"ring{number}-copy-b"]
        students |= dict(zip(ring, [source, copies["all"], copies["rename+rewrite"]]))
        rings |= {frozenset(pair) for pair in itertools.combinations(ring, 2)}
    for index in range(size - len(students)):
        chosen = [rng.choice(variants) for _ in assignment.points]
        parts = [units[name] for name, units in zip(assignment.points, chosen) if name in units]
        students[f"student{index:04d}"] = "import collections\nimport numpy as np\n\n" + "\n\n\n".join(parts) + "\n"
    for student, source in students.items():
        folder = course_dir / "submitted" / student / assignment.id
        folder.mkdir(parents=True)
        (folder / "entrega.py").write_text(source, encoding="utf-8")
    return rings


def speed(course, size: int, folder: Path) -> dict:
    course_dir = folder / "class"
    course_dir.mkdir()
    rings = _write_class(course, size, course_dir)
    assignment = course.assignment("bpe_bytes")
    out = {"students": size, "rings_pairs": len(rings)}
    started = time.monotonic()
    run = compare_assignment(course, assignment, course_dir)
    out["here_seconds"] = round(time.monotonic() - started, 1)
    flagged = {frozenset((p.a, p.b)) for p in run.pairs if p.flagged}
    out["rings_flagged"] = len(flagged & rings)
    out["other_pairs_flagged"] = len(flagged - rings)
    out["pairs_listed"] = len(run.pairs)
    print(f"  {size} students here: {out['here_seconds']} s; rings {out['rings_flagged']}/{len(rings)} flagged, "
          f"{out['other_pairs_flagged']} other pairs flagged", flush=True)
    from distributed import LocalCluster

    with LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, dashboard_address=None) as cluster:
        started = time.monotonic()
        on_cluster = compare_assignment(course, assignment, course_dir, cluster=cluster.scheduler_address)
        out["cluster_seconds"] = round(time.monotonic() - started, 1)
    out["cluster_same_pairs"] = [(p.a, p.b, p.score) for p in on_cluster.pairs] == [(p.a, p.b, p.score) for p in run.pairs]
    print(f"  {size} students on a local Dask cluster ({os.cpu_count()} workers): {out['cluster_seconds']} s, "
          f"same pairs: {out['cluster_same_pairs']}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "similarity_results.json")
    parser.add_argument("--class-size", type=int, default=1000)
    args = parser.parse_args()
    course = load_course()
    folder = Path(tempfile.mkdtemp(prefix="bench-similarity-"))
    try:
        report = {"machine": machine(), "sources": sources_digest(), "threshold": course.similarity_threshold}
        print("rates on the corpora:")
        report["rates"] = rates(course, folder)
        print("speed:")
        report["speed"] = speed(course, args.class_size, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
