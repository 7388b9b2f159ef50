"""What starting a sandboxed worker costs, against starting a bare Python, in the same run.

    .venv/bin/python bench/bench_worker_start.py [--count 30] [--rounds 3]

Each round starts and closes `--count` workers in turn, then starts as many bare interpreters
(`python -S -c pass`, the least any worker can cost), alternating so that the machine's load weighs
on both. Also timed: the workers as they started before the fourth stop of issue 28 (`python -s -P
-m autograder.sandbox.worker`: `site` processed, the worker's modules imported by name), to show what
`launcher._WORKER_BOOTSTRAP` saves. CPU is the whole machine's, from /proc/stat: a worker's own
CPU reaches no one's rusage (`unshare`, which reaps it, is killed). Run it on an idle machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.sandbox import launcher  # noqa: E402

BEFORE = ("-s", "-P", "-m", "autograder.sandbox.worker")


def machine_busy_seconds() -> float:
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / 100  # USER_HZ; all but idle and iowait


def timed(start_one, count: int) -> tuple[float, float]:
    """(wall ms, machine CPU ms) per start."""
    wall, busy = time.monotonic(), machine_busy_seconds()
    for _ in range(count):
        start_one()
    return (time.monotonic() - wall) / count * 1000, (machine_busy_seconds() - busy) / count * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    now = launcher._worker_interpreter_arguments()
    launcher.Worker(launcher.Limits()).close()  # caches warm: namespaces probed, bytecode written

    def worker_with(arguments):
        def start():
            launcher._worker_interpreter_arguments = lambda: arguments
            launcher.Worker(launcher.Limits()).close()
        return start

    kinds = {"bare python -S": lambda: subprocess.run([sys.executable, "-S", "-c", "pass"], check=True),
             "worker, before": worker_with(BEFORE), "worker, now": worker_with(now)}
    figures = {kind: [] for kind in kinds}
    for _ in range(args.rounds):
        for kind, start in kinds.items():
            figures[kind].append(timed(start, args.count))
    launcher._worker_interpreter_arguments = lambda: now
    baseline = statistics.median(cpu for _, cpu in figures["bare python -S"])
    print(f"{args.count} starts × {args.rounds} rounds, medians\n")
    print("| start | wall ms | machine CPU ms | CPU × bare Python |\n|---|---:|---:|---:|")
    for kind, runs in figures.items():
        wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
        print(f"| {kind} | {wall:.1f} | {cpu:.1f} | {cpu / baseline:.1f}× |")


if __name__ == "__main__":
    main()
