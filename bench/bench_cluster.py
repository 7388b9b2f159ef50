"""Cluster benchmark: the same class graded here (`--jobs 2`) and on 2 single-threaded Dask workers.

    .venv/bin/python bench/bench_cluster.py [--sizes 20,60] [--out bench/cluster_results.json]

Both graders run as an instructor runs them, as commands on their own copy of one course directory
(bench_batch.py builds the class; its correct, buggy and stub submissions of ``bpe_bytes``, not the hostile ones):

    autograder grade bpe_bytes --course-dir DIR --jobs 2
    autograder grade bpe_bytes --course-dir DIR --cluster tcp://...   (a scheduler, 2 workers --nthreads 1)

on this machine, alternating, for each class size. A command's time is a fixed cost (the local
self-check; on the cluster, starting each host's grading server and its self-check) plus a cost per
submission. The per-submission cost is the slope between two class sizes, which the fixed cost
cancels out of; Dask's overhead per submission is how much the cluster's slope exceeds the local one
(target: at most 10 % of a submission's grading time). Verdicts of both runs must be identical.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_batch import ASSIGNMENT, VENV_BIN, class_mix, ours_command, ours_verdicts, place_class, release_template
from measure import ROOT, machine, sources_digest

TARGET_OVERHEAD = 0.10
REPEATS = 2  # each command twice, alternating; the faster of the two counts (noise only ever adds)


class LocalCluster:
    """`dask scheduler` and two `dask worker --nthreads 1` processes, each in a session of its own."""

    def __init__(self, folder: Path, workers: int = 2):
        self.processes = []
        scheduler_file = folder / "scheduler.json"
        self._start(folder / "scheduler.log", [str(VENV_BIN / "dask"), "scheduler", "--scheduler-file",
                                                str(scheduler_file), "--port", "0", "--dashboard-address", ":0"])
        while not scheduler_file.is_file():
            time.sleep(0.2)
        self.address = json.loads(scheduler_file.read_text())["address"]
        for number in range(workers):
            self._start(folder / f"worker-{number}.log", [str(VENV_BIN / "dask"), "worker", "--scheduler-file",
                                                          str(scheduler_file), "--nthreads", "1", "--no-nanny",
                                                          "--dashboard-address", ":0"])
        from distributed import Client

        with Client(self.address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=120)

    def _start(self, log: Path, argv: list[str]) -> None:
        self.processes.append(subprocess.Popen(argv, stdout=open(log, "wb"), stderr=subprocess.STDOUT,
                                               start_new_session=True))

    def stop(self) -> None:
        for process in self.processes:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def timed(argv: list[str], log: Path) -> float:
    started = time.perf_counter()
    with open(log, "w", encoding="utf-8") as out:
        subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, check=True)
    return time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="20,60", help="two class sizes (default: 20,60)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "cluster_results.json")
    args = parser.parse_args(argv)
    small, large = (int(n) for n in args.sizes.split(","))
    sys.path.insert(0, str(ROOT))
    from autograder.course import load_course

    course = load_course()
    assignment = course.assignment(ASSIGNMENT)
    work = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    cluster = LocalCluster(work)
    seconds: dict[str, dict[int, float]] = {"local": {}, "cluster": {}}
    verdicts_differ = {}
    try:
        template = release_template(course, assignment, work / "template")
        cache: dict = {}
        counts = {}
        for n in (small, large):
            # Without the hostile ones: a submission that hangs costs its time limit on either side,
            # and one more or less in flight at the end would swamp the per-submission cost measured.
            students = {name: sample for name, sample in class_mix(n, assignment).items() if sample.kind != "hostile"}
            counts[n] = len(students)
            for attempt in range(REPEATS):
                for where in ("local", "cluster"):
                    course_dir = work / f"{where}-{n}-{attempt}"
                    place_class(template, course_dir, assignment, students, cache)
                    command = ours_command(course_dir, 2)
                    if where == "cluster":
                        command = [*command[:-2], "--cluster", cluster.address]
                    took = timed(command, work / f"{where}-{n}-{attempt}.log")
                    seconds[where][counts[n]] = min(took, seconds[where].get(counts[n], took))
                    print(f"{where:8} N={counts[n]:3} (try {attempt + 1}): {took:6.1f} s", flush=True)
            local, remote = (ours_verdicts(work / f"{w}-{n}-0", list(students)) for w in ("local", "cluster"))
            verdicts_differ[counts[n]] = sorted(s for s in students if local[s]["score"] != remote[s]["score"])
        small, large = counts[small], counts[large]
    finally:
        cluster.stop()
    slope = {where: (times[large] - times[small]) / (large - small) for where, times in seconds.items()}
    overhead = (slope["cluster"] - slope["local"]) / slope["local"]
    report = {"machine": machine(), "sources": sources_digest(), "sizes": [small, large], "seconds": seconds,
              "seconds_per_submission": slope, "fixed_seconds": {w: seconds[w][small] - small * slope[w]
                                                                 for w in seconds},
              "dask_overhead_per_submission": overhead, "target": TARGET_OVERHEAD,
              "scores_that_differ": verdicts_differ}
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"per submission: local {slope['local']:.3f} s, cluster {slope['cluster']:.3f} s "
          f"-> Dask overhead {overhead:+.1%} (target <= {TARGET_OVERHEAD:.0%}); fixed: "
          + ", ".join(f"{w} {v:.1f} s" for w, v in report["fixed_seconds"].items()))
    print(f"scores that differ: {sum(map(len, verdicts_differ.values()))}")
    shutil.rmtree(work, ignore_errors=True)
    return 0 if not any(verdicts_differ.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
