"""Measuring helpers shared by the benchmarks in bench/ (bench_grading.py, bench_batch.py).

- ``MemorySampler``: peak RSS and PSS of a process tree, sampled every 0.1 s by a separate
  *process* (the graders fork, so a sampling thread would be unsafe);
- ``cpu_seconds``: user + system CPU of this process and of every descendant reaped so far;
- ``machine_busy_seconds``: busy CPU time of the whole machine, from /proc/stat;
- ``measure``: one phase's wall time, CPU, peak memory and the load the rest of the machine added;
- ``parallel_probe``: how many cores a run really got;
- ``machine`` and ``sources_digest``: what ran, and on what.

Run as a script, this file is the sampler process itself: ``measure.py PID [--descendants-only]``.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_PERIOD = 0.1


def _sampler_main(pid: int, include_root: bool = True) -> None:
    """Own process: sample the tree under `pid`; on each line read from stdin, print the peaks since the last."""
    import select

    import psutil

    me, root = os.getpid(), psutil.Process(pid)
    fresh = dict.fromkeys(("rss", "pss", "largest", "processes", "samples"), 0)
    peaks, history = dict(fresh), []
    while True:
        if select.select([sys.stdin], [], [], SAMPLE_PERIOD)[0]:
            if not sys.stdin.readline():
                return
            history.sort()
            print(json.dumps(peaks | {"pss_median": history[len(history) // 2] if history else 0}), flush=True)
            peaks, history = dict(fresh), []
        try:
            tree = [p for p in [*([root] if include_root else []), *root.children(recursive=True)] if p.pid != me]
        except psutil.NoSuchProcess:
            return
        infos = []
        for process in tree:
            try:
                infos.append(process.memory_full_info())  # smaps_rollup: rss and pss in one read
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                pass
        if infos:
            peaks["rss"] = max(peaks["rss"], sum(i.rss for i in infos))
            peaks["pss"] = max(peaks["pss"], sum(i.pss for i in infos))
            history.append(sum(i.pss for i in infos))
            peaks["largest"] = max(peaks["largest"], max(i.rss for i in infos))
            peaks["processes"] = max(peaks["processes"], len(infos))
            peaks["samples"] += 1


class MemorySampler:
    """Samples the tree under `pid` (default: this process). With `include_root=False` only its
    descendants count: a bench that runs each grader as a command leaves itself out."""

    def __init__(self, pid: int | None = None, include_root: bool = True):
        command = [sys.executable, str(Path(__file__).resolve()), str(pid or os.getpid())]
        self.process = subprocess.Popen(command + ([] if include_root else ["--descendants-only"]),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def mark(self) -> dict:
        """Peaks since the previous mark (and the median of the tree's PSS over the samples), in MiB."""
        self.process.stdin.write("mark\n")
        self.process.stdin.flush()
        raw = json.loads(self.process.stdout.readline())
        mib = lambda key: round(raw[key] / 2**20, 1)  # noqa: E731
        return {"peak_tree_rss_mb": mib("rss"), "peak_tree_pss_mb": mib("pss"),
                "peak_largest_process_rss_mb": mib("largest"), "max_processes_in_tree": raw["processes"],
                "samples": raw["samples"], "median_tree_pss_mb": mib("pss_median")}

    def cpu_seconds(self) -> float:
        import psutil

        return sum(psutil.Process(self.process.pid).cpu_times()[:2])

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)


def cpu_seconds() -> float:
    """User + system CPU of this process and of every descendant reaped so far."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def machine_busy_seconds() -> float:
    """Busy CPU seconds of the whole machine so far (all processes, all cores), from /proc/stat."""
    user, nice, system, _idle, _iowait, irq, softirq = (
        int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def measure(sampler: MemorySampler, n: int, run) -> dict:
    """Run one phase; return what it returned plus wall time, CPU, peak memory and the machine's other load."""
    sampler.mark()
    cpu, busy, sampling, started = cpu_seconds(), machine_busy_seconds(), sampler.cpu_seconds(), time.perf_counter()
    outcome = run()
    seconds = time.perf_counter() - started
    cpu, sampling = cpu_seconds() - cpu, sampler.cpu_seconds() - sampling
    other = max(0.0, machine_busy_seconds() - busy - cpu - sampling) / seconds
    return outcome | {"seconds": round(seconds, 2), "submissions_per_minute": round(60 * n / seconds, 2),
                      "wall_seconds_per_submission": round(seconds / n, 3),
                      "cpu_seconds_per_submission": round(cpu / n, 3), "memory": sampler.mark(),
                      "other_load_cores": round(other, 2), "sampler_cores": round(sampling / seconds, 3)}


def _burn(_=None) -> float:
    started = time.perf_counter()
    total = 0
    for i in range(8_000_000):
        total += i
    return time.perf_counter() - started


def parallel_probe(jobs: int) -> dict:
    """How many cores the run really got: a pure-Python loop alone, then `jobs` copies at once."""
    import multiprocessing

    alone, started = _burn(), time.perf_counter()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pool.map(_burn, range(jobs))
    together = time.perf_counter() - started
    return {"one_loop_seconds": round(alone, 3), "parallel_loops_seconds": round(together, 3),
            "effective_cores": round(jobs * alone / together, 2)}


def machine() -> dict:
    import nbgrader

    models = [line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
              if line.startswith("model name")]
    return {"cores": os.cpu_count(), "cpu": models[0] if models else "", "platform": platform.platform(),
            "python": platform.python_version(), "nbgrader": nbgrader.__version__,
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}


def sources_digest() -> str:
    """Identifies the graded code (the grader, the suites, the solutions, the samples) without git."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(p for folder in ("autograder", "assignments", "solutions") for p in (ROOT / folder).rglob("*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


if __name__ == "__main__":
    _sampler_main(int(sys.argv[1]), include_root="--descendants-only" not in sys.argv[2:])
