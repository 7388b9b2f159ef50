"""One submission, as CI and Gradescope grade it: `autograder grade ASSIGNMENT one.ipynb`, from
the command's start to its results.json.

    .venv/bin/python bench/bench_single.py [--assignment bpe_bytes] [--runs 5]

Each run starts a new process in a new, empty working directory with CI=true, as a student's
repository in GitHub Actions does. Two notebooks: the reference (every test passes) and the first
entry of the assignment's catalogue (some tests fail, so hypothesis shrinks). Two states of the
machine: a cold cache (a new HOME: hypothesis computes its Unicode tables and the example banks are
made, as on a fresh runner) and a warm one (every later run on the same machine). Once, a module whose
every function loops forever (its wall time is about two call limits: one hang waited out, the rest
probed at once). Baselines measured in the same run, since
these machines are noisy: a bare `python -c pass`, and `python -c "import pytest, hypothesis"`,
which any pytest-based grader pays before grading anything. Prints a Markdown table of medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder import samples  # noqa: E402
from autograder.course import load_course  # noqa: E402


def wall(command: list[str], cwd: Path, home: Path) -> float:
    environment = {**os.environ, "CI": "true", "HOME": str(home)}
    environment.pop("XDG_CACHE_HOME", None)
    environment.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    start = time.perf_counter()
    # A submission that does not get full marks exits 1 in CI mode: only a usage or grader error fails here.
    finished = subprocess.run(command, cwd=cwd, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if finished.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {finished.returncode}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignment", default="bpe_bytes")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    course = load_course(ROOT / "course.yml")
    assignment = course.assignment(args.assignment)
    work = Path(tempfile.mkdtemp(prefix="bench-single-"))
    notebooks = {
        "correct": samples.build_notebook(assignment, samples.correct(args.assignment), work / "correct.ipynb"),
        "buggy": samples.build_notebook(assignment, samples.catalogue(assignment, "buggy")[0], work / "buggy.ipynb"),
    }
    python = sys.executable
    autograder = [python, "-m", "autograder.cli", "--course", str(ROOT / "course.yml"), "grade", args.assignment]
    warm_home = work / "warm-home"
    warm_home.mkdir()
    wall(autograder + [str(notebooks["correct"])], Path(tempfile.mkdtemp(dir=work)), warm_home)  # fills the cache

    rows: dict[str, list[float]] = {}
    hanging = work / "cuelga.py"  # every function loops forever: graded once, it takes two call limits
    hanging.write_text("\n\n".join(f"def {name}(*args, **kwargs):\n    while True:\n        pass\n"
                                     for name in assignment.points))
    rows["grade, every function hangs, warm cache"] = [wall(autograder + [str(hanging)], Path(tempfile.mkdtemp(dir=work)),
                                                          warm_home)]
    for run in range(args.runs):
        def fresh() -> Path:
            return Path(tempfile.mkdtemp(dir=work))

        rows.setdefault("python -c pass", []).append(wall([python, "-c", "pass"], fresh(), warm_home))
        rows.setdefault("python -c 'import pytest, hypothesis'", []).append(
            wall([python, "-c", "import pytest, hypothesis"], fresh(), warm_home))
        for kind, notebook in notebooks.items():
            rows.setdefault(f"grade, {kind} notebook, warm cache", []).append(
                wall(autograder + [str(notebook)], fresh(), warm_home))
            rows.setdefault(f"grade, {kind} notebook, cold cache", []).append(
                wall(autograder + [str(notebook)], fresh(), Path(tempfile.mkdtemp(dir=work))))
    base = statistics.median(rows["python -c 'import pytest, hypothesis'"])
    print(f"{args.assignment}, {args.runs} runs each, medians (min-max); ratio to importing pytest and hypothesis\n")
    print("| command | wall s | ratio |")
    print("|---|---|---|")
    for name, times in rows.items():
        median = statistics.median(times)
        print(f"| {name} | {median:.2f} ({min(times):.2f}-{max(times):.2f}) | {median / base:.1f} |")


if __name__ == "__main__":
    main()
