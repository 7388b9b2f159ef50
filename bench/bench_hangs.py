"""What a hanging submission costs, and whether load on the machine changes its score.

```
.venv/bin/python bench/bench_hangs.py [--out bench/hangs_results.json]
```

Each kind of hang is graded alone with the course's own limits, first on the idle machine,
then while 2 CPU hogs per core (each in a session of its own, as separate grading jobs are)
keep the load at about 4 on 2 cores. The reference of the same assignment is graded the same
way in the same run: its time is the baseline each hang is reported against, since these
machines are noisy. Then the whole set is graded with `--jobs 2`, idle and loaded, and the
`results.json` documents (without their grading time) must be identical.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import ROOT, machine, sources_digest

from autograder import samples
from autograder.course import load_course
from autograder.grading.batch import grade_batch
from autograder.render.gradescope import results_document

SLOW_CALLS = '''
def get_stats(ids, counts=None):
    import time
    start = time.process_time()
    while time.process_time() - start < 0.5:
        pass
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts
'''.strip("\n")


def kinds(course) -> dict[str, tuple[str, samples.Sample]]:
    """name -> (assignment id, sample): one submission per kind of hang, and each assignment's reference."""
    def hostile(assignment_id, name):
        return next(s for s in samples.catalogue(course.assignment(assignment_id), "hostile") if s.name == name)

    return {
        "reference bpe_bytes": ("bpe_bytes", samples.correct()),
        "endless loop (encode)": ("bpe_bytes", samples.Sample(
            "spins", "hostile", "", replace={"encode": "def encode(text, merges):\n    while True:\n        pass\n"})),
        "endless sleep (decode)": ("bpe_bytes", samples.Sample(
            "sleeps", "hostile", "", replace={"decode": "def decode(ids, vocab):\n    import time\n    time.sleep(10**6)\n"})),
        "every function loops": ("bpe_bytes", samples.Sample(
            "all_spin", "hostile", "", replace=samples.replace_all(course.assignment("bpe_bytes").solution_path,
                                                                    "while True:\n    pass"))),
        "many slow-but-finishing calls (0.5 s each)": ("bpe_bytes", samples.Sample(
            "slow_calls", "correct", "", replace={"get_stats": SLOW_CALLS})),
        "huge answers in every call (100,000 values)": ("bpe_bytes", hostile("bpe_bytes", "bpeb_assertion_diff_flood")),
        "a set of colliding hashes in every call": ("bpe_bytes", hostile("bpe_bytes", "bpeb_colliding_hash_reply")),
        "reference tokenizador_gpt": ("tokenizador_gpt", samples.correct()),
        "callback ReDoS (served pretokenize)": ("tokenizador_gpt", hostile("tokenizador_gpt", "served_helper_overload")),
        "reference bpe_palabras": ("bpe_palabras", samples.correct()),
        "magic flood (slow cells)": ("bpe_palabras", hostile("bpe_palabras", "magic_flood")),
    }


def _document(result) -> str:
    document = results_document(result)
    document.pop("execution_time")
    return json.dumps(document, ensure_ascii=False, sort_keys=True)


def _grade_each(course, built) -> dict:
    out = {}
    for name, (assignment_id, path) in built.items():
        assignment = course.assignment(assignment_id)
        started = time.monotonic()
        (result,) = grade_batch(assignment, [path], jobs=1, warm_up=False)
        out[name] = {"seconds": round(time.monotonic() - started, 1), "score": result.score,
                     "document": hashlib.sha256(_document(result).encode()).hexdigest()[:16]}
        print(f"  {name:45} {out[name]['seconds']:6.1f} s  score {result.score:6.2f}", flush=True)
    return out


def _grade_class(course, built) -> dict[str, str]:
    """Every submission, one batch per assignment, with two grading processes."""
    documents = {}
    for assignment_id in sorted({a for a, _ in built.values()}):
        names = [n for n, (a, _) in built.items() if a == assignment_id]
        results = grade_batch(course.assignment(assignment_id), [built[n][1] for n in names], jobs=2, warm_up=False)
        documents.update({n: _document(r) for n, r in zip(names, results)})
    return documents


class Hogs:
    def __enter__(self):
        self.hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                     for _ in range(2 * (os.cpu_count() or 1))]
        time.sleep(1.0)
        return self

    def __exit__(self, *exc):
        for hog in self.hogs:
            hog.kill()
            hog.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "hangs_results.json")
    args = parser.parse_args()
    course = load_course()
    folder = Path(tempfile.mkdtemp(prefix="bench-hangs-"))
    built = {}
    for index, (name, (assignment_id, sample)) in enumerate(kinds(course).items()):
        assignment = course.assignment(assignment_id)
        built[name] = (assignment_id, samples.build_notebook(assignment, sample, folder / f"{index}" / f"{assignment.notebook}.ipynb"))
    for assignment_id in {a for a, _ in built.values()}:  # banks built and hypothesis warm, outside the timings
        grade_batch(course.assignment(assignment_id), [built[f"reference {assignment_id}"][1]], jobs=1, warm_up=False)

    report = {"machine": machine(), "sources": sources_digest()}
    print("idle, one at a time:")
    report["idle"] = _grade_each(course, built)
    with Hogs():
        print(f"loaded ({2 * (os.cpu_count() or 1)} CPU hogs), one at a time:")
        report["loaded"] = _grade_each(course, built)
        loaded_class = _grade_class(course, built)
    idle_class = _grade_class(course, built)
    report["class_jobs2_identical_idle_and_loaded"] = {n: idle_class[n] == loaded_class[n] for n in built}
    for condition in ("idle", "loaded"):
        for name, row in report[condition].items():
            baseline = report[condition][f"reference {built[name][0]}"]["seconds"]
            row["x_reference"] = round(row["seconds"] / baseline, 1) if baseline else None
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\n{'kind':45} {'idle s':>7} {'loaded s':>9} {'score idle':>11} {'loaded':>7}  same results (jobs 2)")
    for name in built:
        idle, loaded = report["idle"][name], report["loaded"][name]
        print(f"{name:45} {idle['seconds']:7.1f} {loaded['seconds']:9.1f} {idle['score']:11.2f} {loaded['score']:7.2f}  "
              f"{report['class_jobs2_identical_idle_and_loaded'][name]}")
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
