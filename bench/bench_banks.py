"""Example banks against generating per submission: same grades, and how much faster.

    .venv/bin/python bench/bench_banks.py [--assignments bpe_bytes,embeddings] [--out bench/banks_results.json]

For each assignment, in one process and one run: the reference, the stub and every entry of the buggy
catalogue, each graded twice in turn by `grade_submission`:

- **banks**: as shipped (each property test replays its example bank; calls sent ahead; served
  helpers answered from the recording);
- **generating**: the same kit without banks or recorded helper answers, so hypothesis generates
  and shrinks for every submission and every served helper goes to the reference's worker, as the
  grader did before banks.

Each submission is graded once on each side, alternating, after one untimed warm-up of each, so a drift
in the machine's load favours neither. Reported per assignment: the total time of each side, their
ratio, and which results differ. A result differs in its *grade* when a test's outcome, score, hint or
feedback differs, leaving out the three lines about the counterexample (what it is, what the function
returned on it, what was expected); it differs in its *counterexample* when only those lines differ
(hypothesis shrank from another start). Exits 1 if any grade differs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder import samples  # noqa: E402
from autograder.course import load_course  # noqa: E402
from autograder.grading.kit import build_kit  # noqa: E402
from autograder.grading.session import grade_submission  # noqa: E402

EXAMPLE_LINES = ("Tu función devolvió:", "Se esperaba:", "Contraejemplo (generado):")


def grade_lines(result) -> list:
    return [(t.test_id, str(t.outcome), t.score, t.hint,
             [line for line in t.feedback.splitlines() if not line.startswith(EXAMPLE_LINES)]) for t in result.tests]


def timed(kit, notebook):
    start = time.perf_counter()
    result = grade_submission(kit, notebook)
    return result, time.perf_counter() - start


def compare(assignment_id: str, course, work: Path) -> dict:
    assignment = course.assignment(assignment_id)
    banked = build_kit(assignment)
    generating = dataclasses.replace(banked, banks={}, helper_answers={})
    entries = [("correct", samples.correct(assignment_id)), ("stub", samples.stub(assignment)),
               *[(entry.name, entry) for entry in samples.catalogue(assignment, "buggy")]]
    notebooks = [(name, samples.build_notebook(assignment, entry, work / assignment_id / f"{index}.ipynb"))
                 for index, (name, entry) in enumerate(entries)]
    grade_submission(banked, notebooks[0][1])  # warm-ups, untimed
    grade_submission(generating, notebooks[0][1])
    totals = {"banks": 0.0, "generating": 0.0}
    grade_differs, example_differs = [], []
    for name, notebook in notebooks:
        with_banks, seconds_banks = timed(banked, notebook)
        without, seconds_generating = timed(generating, notebook)
        totals["banks"] += seconds_banks
        totals["generating"] += seconds_generating
        if grade_lines(with_banks) != grade_lines(without) or with_banks.score != without.score:
            grade_differs.append(name)
        elif [t.feedback for t in with_banks.tests] != [t.feedback for t in without.tests]:
            example_differs.append(name)
    return {"submissions": len(notebooks), "seconds": {k: round(v, 2) for k, v in totals.items()},
            "speedup": round(totals["generating"] / totals["banks"], 2),
            "grade_differs": grade_differs, "counterexample_differs": example_differs}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    course = load_course(ROOT / "course.yml")
    parser.add_argument("--assignments", default=",".join(course.assignments))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-banks-"))
    report = {}
    print("| assignment | submissions | generating s | banks s | speed-up | grade differs | counterexample differs |")
    print("|---|---:|---:|---:|---:|---|---|")
    for assignment_id in args.assignments.split(","):
        row = report[assignment_id] = compare(assignment_id, course, work)
        print(f"| {assignment_id} | {row['submissions']} | {row['seconds']['generating']} | {row['seconds']['banks']} "
              f"| {row['speedup']}× | {len(row['grade_differs'])} {row['grade_differs'] or ''} "
              f"| {len(row['counterexample_differs'])} |", flush=True)
    if args.out:
        args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 1 if any(row["grade_differs"] for row in report.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
