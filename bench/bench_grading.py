"""Throughput benchmark: nbgrader's own autograde vs this project's grader, same inputs, one run.

    .venv/bin/python bench/bench_grading.py [--n 20] [--jobs 2] [--out bench/results.json] [--keep DIR]

1. release ``bpe_bytes`` into a fresh temporary nbgrader course directory;
2. build N sample submissions (mostly correct, some stubs, buggy ones when
   ``autograder.samples.catalogue("bpe_bytes", "buggy")`` has any) and place them in
   ``submitted/<student>/bpe_bytes/``, each student registered in the gradebook;
3. nbgrader: ``NbGraderAPI.autograde`` once per student, sequentially (kernel start, run
   every cell including the visible checks, write the gradebook);
4. this grader: ``grade_batch`` on the same N notebooks with jobs=1 and jobs=J (sandboxed
   worker per submission, full hidden suite with hypothesis properties);
5. print a table and write a JSON file.

Each side gets one untimed warm-up submission first, so that one-off imports are not
charged to either. Memory: a separate sampler process (psutil) sums the RSS of this
process and all its descendants every 0.1 s; the peak of that sum and the largest single
process are reported per phase. The sampler is a separate process (not a thread) because
grade_batch forks, and forking with a live thread is unsafe.
See bench/README.md for what each side does and the measured figures.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "bpe_bytes"
TIMESTAMP = "2026-11-30 10:00:00.000000 UTC"
SAMPLE_PERIOD = 0.1


# --------------------------------------------------------------------------- memory sampler

def _sampler_main(pid: int) -> None:
    """Runs in its own process: on each line read from stdin, print the peaks since the last line."""
    import select

    import psutil

    me = os.getpid()
    root = psutil.Process(pid)

    def fresh():
        return {"tree_rss_bytes": 0, "largest_process_rss_bytes": 0, "max_processes": 0, "samples": 0}

    peaks = fresh()
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], SAMPLE_PERIOD)
        if ready:
            line = sys.stdin.readline()
            if not line:
                return
            print(json.dumps(peaks), flush=True)
            peaks = fresh()
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return
        sizes = []
        for process in tree:
            if process.pid == me:
                continue
            try:
                sizes.append(process.memory_info().rss)
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                pass
        if sizes:
            peaks["tree_rss_bytes"] = max(peaks["tree_rss_bytes"], sum(sizes))
            peaks["largest_process_rss_bytes"] = max(peaks["largest_process_rss_bytes"], max(sizes))
            peaks["max_processes"] = max(peaks["max_processes"], len(sizes))
            peaks["samples"] += 1


class MemorySampler:
    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--_sampler", str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def mark(self) -> dict:
        """Peaks since the previous mark (or since start), in MiB."""
        self.process.stdin.write("mark\n")
        self.process.stdin.flush()
        raw = json.loads(self.process.stdout.readline())
        return {"peak_tree_rss_mb": round(raw["tree_rss_bytes"] / 2**20, 1),
                "peak_largest_process_rss_mb": round(raw["largest_process_rss_bytes"] / 2**20, 1),
                "max_processes_in_tree": raw["max_processes"], "rss_samples": raw["samples"]}

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)


def cpu_seconds() -> float:
    """User + system CPU time of this process and of every descendant reaped so far."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# --------------------------------------------------------------------------- setup

def sample_mix(n: int, assignment) -> list:
    """Deterministic realistic mix: 1 in 5 is a stub; 1 in 5 buggy when the catalogue has any."""
    from autograder import samples

    buggy = samples.catalogue(ASSIGNMENT, "buggy")
    stub = samples.stub(assignment)
    correct = samples.correct(ASSIGNMENT)
    mix = []
    for i in range(n):
        if i % 5 == 4:
            mix.append(stub)
        elif buggy and i % 5 == 2:
            mix.append(buggy[(i // 5) % len(buggy)])
        else:
            mix.append(correct)
    return mix


def place_submissions(course_dir: Path, assignment, mix: list, db_url: str) -> list[tuple[str, object, Path]]:
    from nbgrader.api import Gradebook

    from autograder import samples

    placed = []
    with Gradebook(db_url) as gradebook:
        for i, sample in enumerate(mix):
            student = f"s{i:03d}-{sample.kind}-{sample.name}".replace("_", "-")
            folder = course_dir / "submitted" / student / ASSIGNMENT
            path = samples.build_notebook(assignment, sample, folder / f"{assignment.notebook}.ipynb")
            (folder / "timestamp.txt").write_text(TIMESTAMP + "\n", encoding="utf-8")
            gradebook.update_or_create_student(student)
            placed.append((student, sample, path))
    return placed


def visible_check_counts(course_dir: Path, assignment) -> dict:
    """How much nbgrader checks: the autograded grade cells of the released notebook and their asserts."""
    import ast

    import nbformat

    notebook = nbformat.read(course_dir / "release" / ASSIGNMENT / f"{assignment.notebook}.ipynb", as_version=4)
    cells = [c for c in notebook.cells
             if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")]
    asserts = 0
    for cell in cells:
        try:
            asserts += sum(isinstance(node, ast.Assert) for node in ast.walk(ast.parse(cell.source)))
        except SyntaxError:
            pass
    return {"grade_cells": len(cells), "assert_statements": asserts}


# --------------------------------------------------------------------------- the two graders

def run_nbgrader(api, students: list[str], course_dir: Path, db_url: str) -> dict:
    from nbgrader.api import Gradebook

    per_submission = []
    started = time.perf_counter()
    for student in students:
        t0 = time.perf_counter()
        outcome = api.autograde(ASSIGNMENT, student, force=True, create=False)
        per_submission.append(time.perf_counter() - t0)
        if not outcome.get("success"):
            raise SystemExit(f"nbgrader autograde failed for {student}:\n{outcome.get('log', '')}\n{outcome.get('error', '')}")
    seconds = time.perf_counter() - started
    scores = {}
    with Gradebook(db_url) as gradebook:
        for student in students:
            notebook = course_dir / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
            if not notebook.is_file():
                raise SystemExit(f"nbgrader reported success but {notebook} is missing")
            submission = gradebook.find_submission(ASSIGNMENT, student)
            scores[student] = (float(submission.score), float(submission.max_score))
    return {"seconds": seconds, "per_submission": per_submission, "scores": scores}


def run_ours(course, assignment, paths: list[Path], jobs: int) -> dict:
    from autograder.grading.batch import grade_batch

    started = time.perf_counter()
    results = grade_batch(course, assignment, paths, jobs=jobs)
    seconds = time.perf_counter() - started
    errors = [r for r in results if r.error_instructor]
    if errors:
        raise SystemExit("this grader failed on: " + "; ".join(f"{r.submission}: {r.error_instructor}" for r in errors))
    return {"seconds": seconds, "results": results}


def check_ours(placed, results) -> None:
    """A fast grader that grades wrongly proves nothing: check every verdict against the sample's kind."""
    for (student, sample, _), result in zip(placed, results):
        if sample.kind == "correct" and result.score != result.max_score:
            raise SystemExit(f"{student}: correct sample scored {result.score}/{result.max_score}")
        if sample.kind == "stub" and result.score != 0:
            raise SystemExit(f"{student}: stub scored {result.score}")
        if sample.kind == "buggy" and sample.failing:
            failed = {t.test_id for t in result.tests if not t.passed and t.outcome != "gated"}
            if not set(sample.failing) <= failed:
                raise SystemExit(f"{student}: buggy sample should fail {sorted(sample.failing)}, failed {sorted(failed)}")


# --------------------------------------------------------------------------- report

def per_minute(n: int, seconds: float) -> float:
    return round(60.0 * n / seconds, 2)


def machine() -> dict:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import nbgrader

    return {"cores": os.cpu_count(), "cpu": model, "platform": platform.platform(),
            "python": platform.python_version(), "nbgrader": nbgrader.__version__}


def table(report: dict) -> str:
    rows = [("phase", "seconds", "subs/min", "wall s/sub", "CPU s/sub", "peak tree RSS MiB", "largest proc MiB")]
    for key, label in (("nbgrader_autograde", "nbgrader autograde (sequential)"),
                       ("ours_jobs1", "this grader, jobs=1"),
                       ("ours_jobsJ", f"this grader, jobs={report['jobs']}")):
        p = report["phases"][key]
        rows.append((label, f"{p['seconds']:.1f}", f"{p['submissions_per_minute']:.1f}",
                     f"{p['mean_seconds_per_submission']:.2f}", f"{p['cpu_seconds_per_submission']:.2f}",
                     f"{p['memory']['peak_tree_rss_mb']:.0f}",
                     f"{p['memory']['peak_largest_process_rss_mb']:.0f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    r = report["ratios"]
    lines += ["",
              f"throughput ratio, this grader / nbgrader: jobs=1 {r['jobs1_vs_nbgrader']:.2f}x, "
              f"jobs={report['jobs']} {r['jobsJ_vs_nbgrader']:.2f}x (target >= {r['target']}x: "
              f"{'met' if r['target_met'] else 'NOT met'})",
              f"mean wall time of one submission's full hidden suite (grading process, jobs=1): "
              f"{report['hidden_suite']['mean_seconds_jobs1']:.2f} s",
              f"checks per submission: nbgrader {report['checks']['nbgrader']['grade_cells']} grade cells "
              f"({report['checks']['nbgrader']['assert_statements']} asserts); this grader "
              f"{report['checks']['ours']['hidden_tests']} hidden tests "
              f"({report['checks']['ours']['property_tests']} hypothesis properties)"]
    return "\n".join(lines)


# --------------------------------------------------------------------------- main

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20, help="number of submissions (default 20)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel grading processes for the jobs=J run (default 2)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    parser.add_argument("--keep", type=Path, help="use this (new) folder as the course directory and keep it")
    parser.add_argument("--_sampler", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._sampler:
        _sampler_main(args._sampler)
        return 0
    if args.n < 1 or args.jobs < 1:
        parser.error("--n and --jobs must be positive")

    # nbgrader runs `alembic` and `jupyter` subprocesses: this environment's scripts go first.
    scripts = str(Path(sys.executable).parent)
    os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")
    sys.path.insert(0, str(ROOT))

    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI

    from autograder import samples
    from autograder.course import load_course
    from autograder.grading.batch import grade_batch
    from autograder.release import nbgrader_config, release_assignment
    from autograder.sandbox.launcher import describe_defences

    course = load_course()
    assignment = course.assignment(ASSIGNMENT)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=False)
        course_dir = args.keep.resolve()
    else:
        course_dir = Path(tempfile.mkdtemp(prefix="bench-grading-course-"))
    db_url = f"sqlite:///{course_dir / 'gradebook.db'}"
    sampler = MemorySampler()
    try:
        t0 = time.perf_counter()
        release_assignment(course, assignment, course_dir)
        release_seconds = time.perf_counter() - t0
        nbgrader_checks = visible_check_counts(course_dir, assignment)
        mix = sample_mix(args.n, assignment)
        placed = place_submissions(course_dir, assignment, mix, db_url)
        students = [student for student, _, _ in placed]
        paths = [path for _, _, path in placed]
        api = NbGraderAPI(config=nbgrader_config(course_dir))
        print(f"course dir: {course_dir}\nreleased {ASSIGNMENT} in {release_seconds:.1f} s; "
              f"{args.n} submissions: " + ", ".join(f"{k} {sum(s.kind == k for s in mix)}"
                                                   for k in ("correct", "stub", "buggy")), file=sys.stderr)

        # Warm-ups, untimed: one nbgrader autograde (a student outside the measured set) and one grade_batch.
        warm_student = "warmup"
        warm_path = samples.build_notebook(assignment, samples.correct(ASSIGNMENT),
                                           course_dir / "submitted" / warm_student / ASSIGNMENT / f"{assignment.notebook}.ipynb")
        (warm_path.parent / "timestamp.txt").write_text(TIMESTAMP + "\n", encoding="utf-8")
        with Gradebook(db_url) as gradebook:
            gradebook.update_or_create_student(warm_student)
        if not api.autograde(ASSIGNMENT, warm_student, force=True, create=False).get("success"):
            raise SystemExit("nbgrader warm-up autograde failed")
        grade_batch(course, assignment, [warm_path], jobs=1)
        sampler.mark()

        print("nbgrader autograde ...", file=sys.stderr)
        cpu = cpu_seconds()
        nb = run_nbgrader(api, students, course_dir, db_url)
        nb["memory"], nb["cpu"] = sampler.mark(), cpu_seconds() - cpu
        print("this grader, jobs=1 ...", file=sys.stderr)
        cpu = cpu_seconds()
        one = run_ours(course, assignment, paths, 1)
        one["memory"], one["cpu"] = sampler.mark(), cpu_seconds() - cpu
        print(f"this grader, jobs={args.jobs} ...", file=sys.stderr)
        cpu = cpu_seconds()
        many = run_ours(course, assignment, paths, args.jobs)
        many["memory"], many["cpu"] = sampler.mark(), cpu_seconds() - cpu
    finally:
        sampler.close()
        if not args.keep:
            shutil.rmtree(course_dir, ignore_errors=True)

    check_ours(placed, one["results"])
    check_ours(placed, many["results"])
    for (student, sample, _) in placed:
        score, maximum = nb["scores"][student]
        if sample.kind == "correct" and score != maximum:
            raise SystemExit(f"nbgrader gave the correct sample {student} {score}/{maximum}")

    n = args.n
    suite_one = [r.duration_seconds for r in one["results"]]
    suite_many = [r.duration_seconds for r in many["results"]]
    phases = {
        "nbgrader_autograde": {
            "seconds": round(nb["seconds"], 2), "submissions_per_minute": per_minute(n, nb["seconds"]),
            "mean_seconds_per_submission": round(nb["seconds"] / n, 3),
            "cpu_seconds_per_submission": round(nb["cpu"] / n, 3),
            "mean_seconds_per_autograde_call": round(sum(nb["per_submission"]) / n, 3), "memory": nb["memory"]},
        "ours_jobs1": {
            "seconds": round(one["seconds"], 2), "submissions_per_minute": per_minute(n, one["seconds"]),
            "mean_seconds_per_submission": round(one["seconds"] / n, 3),
            "cpu_seconds_per_submission": round(one["cpu"] / n, 3), "memory": one["memory"]},
        "ours_jobsJ": {
            "jobs": args.jobs,
            "seconds": round(many["seconds"], 2), "submissions_per_minute": per_minute(n, many["seconds"]),
            "mean_seconds_per_submission": round(many["seconds"] / n, 3),
            "cpu_seconds_per_submission": round(many["cpu"] / n, 3), "memory": many["memory"]},
    }
    first = one["results"][0]
    target = 10
    ratio_many = nb["seconds"] / many["seconds"]
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": "bench/bench_grading.py " + " ".join(sys.argv[1:]) if argv is None else " ".join(argv),
        "machine": machine(),
        "sandbox_defences": describe_defences(),
        "n": n, "jobs": args.jobs,
        "mix": {k: sum(s.kind == k for s in mix) for k in ("correct", "stub", "buggy")},
        "release_seconds": round(release_seconds, 2),
        "phases": phases,
        "ratios": {"jobs1_vs_nbgrader": round(nb["seconds"] / one["seconds"], 3),
                   "jobsJ_vs_nbgrader": round(ratio_many, 3),
                   "target": target, "target_met": ratio_many >= target},
        "hidden_suite": {
            "mean_seconds_jobs1": round(sum(suite_one) / n, 3),
            "mean_seconds_jobsJ": round(sum(suite_many) / n, 3),
            "max_seconds_jobs1": round(max(suite_one), 3),
            "what": "GradeResult.duration_seconds: parse notebook, start sandboxed worker, run the cells, "
                    "run the whole hidden suite, score (measured inside the grading process)"},
        "checks": {"nbgrader": nbgrader_checks,
                   "ours": {"hidden_tests": len(first.tests),
                            "property_tests": sum(t.kind == "property" for t in first.tests)}},
        "memory_method": "psutil: a sampler process sums the RSS of this process and all its descendants "
                         f"every {SAMPLE_PERIOD} s; peak per phase (shared pages are counted once per process)",
        "submissions": [
            {"student": student, "kind": sample.kind, "sample": sample.name,
             "nbgrader_score": nb["scores"][student][0], "ours_score": r.score, "max_score": r.max_score,
             "nbgrader_seconds": round(nb["per_submission"][i], 3), "ours_seconds_jobs1": r.duration_seconds}
            for i, ((student, sample, _), r) in enumerate(zip(placed, one["results"]))],
    }
    print(table(report))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
