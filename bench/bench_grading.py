"""Throughput benchmark: nbgrader's autograde vs this project's grader, same notebooks, one run.

    .venv/bin/python bench/bench_grading.py [--n 20] [--jobs 2] [--out bench/results.json] [--keep DIR]

1. release ``bpe_bytes`` into a fresh nbgrader course directory and place N sample
   submissions (3 correct, 1 buggy, 1 stub in every 5) in ``submitted/``;
2. nbgrader: ``NbGraderAPI.autograde`` once per student, sequentially: a kernel per
   notebook that runs every cell, including the 7 locked grade cells (the visible checks);
3. this grader, ``suite="visible"`` (the same checks cells, in the grader, against the
   sandboxed student), with jobs=1 and jobs=J: the headline ratio;
4. this grader, ``suite="hidden"`` (the full hidden suite), with jobs=1 and jobs=J;
5. check every verdict, print a table, write a JSON file.

Each side grades one submission untimed first (nbgrader: a ``warmup`` student; this grader:
``self_check`` for each suite), so that one-off imports are charged to neither. Inside the
timed phases ``grade_batch`` runs its own ``self_check`` again and that time is counted.
Per phase: wall time, CPU (getrusage self + children), peak memory of the process tree (RSS
and PSS, from a sampler *process*, since grade_batch forks) and the load the rest of the
machine added (helpers shared with bench_batch.py, in bench/measure.py). See bench/README.md
for the method and the measured figures.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from measure import ROOT, MemorySampler, cpu_seconds, machine, measure, parallel_probe, sources_digest

ASSIGNMENT = "bpe_bytes"
TIMESTAMP = "2026-11-30 10:00:00.000000 UTC"
TARGET = 10
SUITES = ("visible", "hidden")


# --------------------------------------------------------------------------- setup

def sample_mix(n: int, assignment) -> list:
    """Deterministic mix: in every 5, the 3rd is buggy (catalogue in turn) and the 5th a stub; the rest correct."""
    from autograder import samples

    buggy = samples.catalogue(assignment, "buggy")
    stub, correct = samples.stub(assignment), samples.correct(ASSIGNMENT)
    return [stub if i % 5 == 4 else buggy[(i // 5) % len(buggy)] if buggy and i % 5 == 2 else correct
            for i in range(n)]


def place(course_dir: Path, assignment, students: dict) -> dict[str, Path]:
    """Write each student's notebook into submitted/, with a timestamp, and register the student."""
    from nbgrader.api import Gradebook

    from autograder import samples

    paths = {}
    with Gradebook(f"sqlite:///{course_dir / 'gradebook.db'}") as gradebook:
        for student, sample in students.items():
            folder = course_dir / "submitted" / student / ASSIGNMENT
            paths[student] = samples.build_notebook(assignment, sample, folder / f"{assignment.notebook}.ipynb")
            (folder / "timestamp.txt").write_text(TIMESTAMP + "\n", encoding="utf-8")
            gradebook.update_or_create_student(student)
    return paths


def same_checks(course_dir: Path, assignment) -> dict:
    """nbgrader's grade cells (release notebook) vs this grader's checks cells: same ids, same source?"""
    import ast

    import nbformat

    from autograder.notebook.lesson import load_source_notebook

    released = nbformat.read(course_dir / "release" / ASSIGNMENT / f"{assignment.notebook}.ipynb", as_version=4)
    nbgrader = {c.metadata["nbgrader"]["grade_id"]: c.source.strip() for c in released.cells
                if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")}
    ours = {c.metadata["nbgrader"]["grade_id"]: c.source.strip() for c in load_source_notebook(assignment).cells
            if c.cell_type == "code" and c.metadata.get("autograder", {}).get("role") == "checks"}
    asserts = sum(isinstance(node, ast.Assert) for source in nbgrader.values() for node in ast.walk(ast.parse(source)))
    return {"grade_cells": len(nbgrader), "assert_statements": asserts, "identical": nbgrader == ours}


# --------------------------------------------------------------------------- the phases

def prepare(course, assignment, course_dir: Path, students: dict, report: dict):
    """Release, place the submissions, then one untimed warm-up per side, so that one-off imports are
    charged to neither: nbgrader autogrades a `warmup` student; this grader runs self_check per suite."""
    from nbgrader.apps import NbGraderAPI

    from autograder import samples
    from autograder.grading.batch import self_check
    from autograder.grading.kit import build_kit
    from autograder.release import nbgrader_config, release_assignment

    release_assignment(course, assignment, course_dir)
    report["checks"] = same_checks(course_dir, assignment)
    paths = list(place(course_dir, assignment, students).values())
    place(course_dir, assignment, {"warmup": samples.correct(ASSIGNMENT)})
    api = NbGraderAPI(config=nbgrader_config(course_dir))
    print(f"course dir: {course_dir}; {len(paths)} submissions; warming up ...", file=sys.stderr)
    if not api.autograde(ASSIGNMENT, "warmup", force=True, create=False).get("success"):
        raise SystemExit("nbgrader warm-up autograde failed")
    for suite in SUITES:
        self_check(build_kit(assignment), suite)
    return api, paths


def run_nbgrader(api, course_dir: Path, students: list[str]) -> dict:
    """nbgrader's autograde, one student after another (its default), in this process."""
    per_call, per_call_cpu = [], []
    for student in students:
        t0, cpu0 = time.perf_counter(), cpu_seconds()
        outcome = api.autograde(ASSIGNMENT, student, force=True, create=False)
        per_call.append(round(time.perf_counter() - t0, 3))
        per_call_cpu.append(round(cpu_seconds() - cpu0, 3))  # the kernel is reaped by then: included
        if not outcome.get("success"):
            raise SystemExit(f"nbgrader autograde failed for {student}:\n{outcome.get('log', '')}{outcome.get('error', '')}")
    return {"per_call": per_call, "per_call_cpu": per_call_cpu}


def nbgrader_verdicts(course_dir: Path, students: list[str]) -> dict[str, dict]:
    """Score and cell-timeout flag of each student, from the gradebook and the autograded notebook."""
    from nbgrader.api import Gradebook

    verdicts = {}
    with Gradebook(f"sqlite:///{course_dir / 'gradebook.db'}") as gradebook:
        for student in students:
            notebook = course_dir / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
            if not notebook.is_file():
                raise SystemExit(f"nbgrader reported success but {notebook} is missing")
            submission = gradebook.find_submission(ASSIGNMENT, student)
            # nbgrader stops a cell after ExecutePreprocessor.timeout (30 s) and records the error in the notebook.
            verdicts[student] = {"score": float(submission.score), "max_score": float(submission.max_score),
                                 "cell_timeout": "CellTimeoutError" in notebook.read_text(encoding="utf-8")}
    return verdicts


def run_ours(course, assignment, paths: list[Path], jobs: int, suite: str) -> dict:
    """grade_batch as shipped: it runs self_check first (N >= 4), then forks one grading process per submission."""
    from autograder.grading.batch import grade_batch

    results = grade_batch(assignment, paths, jobs=jobs, suite=suite)
    errors = [f"{r.submission}: {r.error_instructor}" for r in results if r.error_instructor]
    if errors:
        raise SystemExit(f"this grader ({suite}) failed on: " + "; ".join(errors))
    durations = [r.duration_seconds for r in results]
    return {"results": results, "mean_submission_seconds": round(sum(durations) / len(durations), 3),
            "max_submission_seconds": round(max(durations), 3)}


# --------------------------------------------------------------------------- verdicts

def check_verdicts(students: dict, scores: dict, failed: dict, who: str, suite: str) -> list[str]:
    """A fast grader that grades wrongly proves nothing. Raises on a wrong verdict; returns the
    buggy samples that `suite` legitimately cannot see (visible checks only)."""
    unseen = []
    for student, sample in students.items():
        score, maximum = scores[student]
        if sample.kind == "correct" and score != maximum:
            raise SystemExit(f"{who}: correct sample {student} scored {score}/{maximum}")
        if sample.kind == "stub" and score != 0:
            raise SystemExit(f"{who}: stub {student} scored {score}")
        if sample.kind != "buggy" or failed is None:
            continue
        if suite == "visible" and score == maximum:
            unseen.append(sample.name)  # the public checks cannot see every bug: recorded, not an error
        if suite == "hidden" and not set(sample.failing) <= failed[student]:
            raise SystemExit(f"{who}: buggy {student} should fail {sorted(sample.failing)}, "
                             f"failed {sorted(failed[student])}")
    return unseen


def check_ours(students: dict, suite: str, outcome: dict) -> list[str]:
    scores = {s: (r.score, r.max_score) for s, r in zip(students, outcome["results"])}
    failed = {s: {t.test_id for t in r.tests if not t.passed and t.outcome != "gated"}
              for s, r in zip(students, outcome["results"])}
    return check_verdicts(students, scores, failed, f"this grader ({suite})", suite)


# --------------------------------------------------------------------------- report

def ratios(nb: dict, ours: dict) -> dict:
    """nbgrader's phase time / ours, per jobs. "without nbgrader's timeouts": nbgrader's mean autograde call
    over the submissions where it did not hit its cell timeout, times N, against ours' whole phase."""
    kept = [t for t, hung in zip(nb["per_call"], nb["cell_timeouts"]) if not hung]
    result = {}
    for key, phase in ours.items():
        result[key] = round(nb["seconds"] / phase["seconds"], 2)
        if kept and len(kept) < len(nb["per_call"]):
            result[f"{key}_without_nbgrader_timeouts"] = round(
                sum(kept) / len(kept) * len(nb["per_call"]) / phase["seconds"], 2)
    return result


def summarise(report: dict, students: dict, phases: dict, nb_verdicts: dict) -> None:
    """Check every verdict, then add ratios, per-phase figures and per-submission rows to `report`."""
    jobs = report["jobs"]
    check_verdicts(students, {s: (v["score"], v["max_score"]) for s, v in nb_verdicts.items()}, None, "nbgrader", "")
    # Both jobs values are checked; the (deterministic) list of unseen bugs is taken from jobs=1.
    unseen = {suite: [check_ours(students, suite, phases[f"{suite}_jobs{j}"]) for j in (1, jobs)][0]
              for suite in SUITES}
    nb = phases["nbgrader"]
    nb |= {"mean_call_seconds": round(sum(nb["per_call"]) / len(students), 3), "max_call_seconds": max(nb["per_call"]),
           "cell_timeouts": [v["cell_timeout"] for v in nb_verdicts.values()]}
    ratio = {suite: ratios(nb, {f"jobs{j}": phases[f"{suite}_jobs{j}"] for j in (1, jobs)}) for suite in SUITES}
    visible, hidden = phases["visible_jobs1"]["results"], phases["hidden_jobs1"]["results"]
    report |= {
        "mix": {k: sum(s.kind == k for s in students.values()) for k in ("correct", "stub", "buggy")},
        "ratios": ratio | {"target": TARGET, "target_met": ratio["visible"][f"jobs{jobs}"] >= TARGET,
                           "target_met_without_nbgrader_timeouts": ratio["visible"].get(
                               f"jobs{jobs}_without_nbgrader_timeouts", ratio["visible"][f"jobs{jobs}"]) >= TARGET},
        "nbgrader": {"cell_timeouts": [s for s, v in nb_verdicts.items() if v["cell_timeout"]]},
        "visible_checks_miss": unseen["visible"],
        "visible_scores_differing_from_nbgrader": {
            s: [v["score"], r.score] for r, (s, v) in zip(visible, nb_verdicts.items()) if abs(r.score - v["score"]) > 1e-6},
        "hidden_suite": {"tests": len(hidden[0].tests), "property_tests": sum(t.kind == "property" for t in hidden[0].tests)},
        "phases": {key: {k: v for k, v in p.items() if k not in ("results", "per_call", "per_call_cpu", "cell_timeouts")}
                   for key, p in phases.items()},
        "submissions": [
            {"student": student, "kind": sample.kind, "sample": sample.name, "max_score": hidden[i].max_score,
             "nbgrader_score": nb_verdicts[student]["score"], "nbgrader_cell_timeout": nb_verdicts[student]["cell_timeout"],
             "nbgrader_seconds": nb["per_call"][i], "nbgrader_cpu_seconds": nb["per_call_cpu"][i],
             "visible_score": visible[i].score, "visible_seconds_jobs1": visible[i].duration_seconds,
             "hidden_score": hidden[i].score, "hidden_seconds_jobs1": hidden[i].duration_seconds}
            for i, (student, sample) in enumerate(students.items())],
    }


def table(report: dict) -> str:
    jobs, phases = report["jobs"], report["phases"]
    labels = {"nbgrader": "nbgrader autograde (sequential)"}
    for suite in SUITES:
        for j in (1, jobs):
            labels[f"{suite}_jobs{j}"] = f"this grader, {suite} suite, jobs={j}"
    rows = [("phase", "seconds", "subs/min", "wall s/sub", "CPU s/sub", "mean sub s", "max sub s",
             "peak RSS MiB", "peak PSS MiB", "largest MiB", "other load")]
    for key, label in labels.items():
        p, m = phases[key], phases[key]["memory"]
        rows.append((label, f"{p['seconds']:.1f}", f"{p['submissions_per_minute']:.1f}",
                     f"{p['wall_seconds_per_submission']:.2f}", f"{p['cpu_seconds_per_submission']:.2f}",
                     f"{p.get('mean_submission_seconds', p.get('mean_call_seconds')):.2f}",
                     f"{p.get('max_submission_seconds', p.get('max_call_seconds')):.2f}",
                     f"{m['peak_tree_rss_mb']:.0f}", f"{m['peak_tree_pss_mb']:.0f}",
                     f"{m['peak_largest_process_rss_mb']:.0f}", f"{p['other_load_cores']:.2f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    r, checks, nb = report["ratios"], report["checks"], report["nbgrader"]
    for suite, what in (("visible", "SAME CHECKS (headline)"), ("hidden", "full hidden suite (information)")):
        lines.append(f"ratio this grader / nbgrader, {what}: jobs=1 {r[suite]['jobs1']:.2f}x, "
                     f"jobs={jobs} {r[suite][f'jobs{jobs}']:.2f}x")
        if "jobs1_without_nbgrader_timeouts" in r[suite]:
            lines.append(f"    without nbgrader's cell timeouts: jobs=1 {r[suite]['jobs1_without_nbgrader_timeouts']:.2f}x, "
                         f"jobs={jobs} {r[suite][f'jobs{jobs}_without_nbgrader_timeouts']:.2f}x")
    met = {True: "met", False: "NOT met"}
    lines += [f"target >= {TARGET}x on the same checks at jobs={jobs}: {met[r['target_met']]} "
              f"(without nbgrader's cell timeouts: {met[r['target_met_without_nbgrader_timeouts']]})",
              f"checks: nbgrader {checks['grade_cells']} grade cells ({checks['assert_statements']} asserts), "
              f"identical to this grader's visible checks: {checks['identical']}; hidden suite "
              f"{report['hidden_suite']['tests']} tests ({report['hidden_suite']['property_tests']} hypothesis properties)",
              f"visible-suite scores that differ from nbgrader's (nbgrader, ours): "
              f"{report['visible_scores_differing_from_nbgrader'] or 'none'}",
              f"buggy samples the visible checks miss: {', '.join(report['visible_checks_miss']) or 'none'}",
              f"nbgrader hit its 30 s cell timeout on {len(nb['cell_timeouts'])} submission(s) "
              f"{nb['cell_timeouts']}; this grader's call limit is {report['call_seconds']} s",
              "mean/max sub s: GradeResult.duration_seconds (ours) or one autograde call (nbgrader)",
              "other load: cores kept busy by other processes during the phase (/proc/stat)",
              f"effective cores (CPU probe, {report['machine']['cores']} cores): "
              f"{report['parallel_probe']['start']['effective_cores']} at start, "
              f"{report['parallel_probe']['end']['effective_cores']} at end"]
    return "\n".join(lines)


# --------------------------------------------------------------------------- main

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20, help="number of submissions (default 20)")
    parser.add_argument("--jobs", type=int, default=2, help="grading processes for the jobs=J phases (default 2)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    parser.add_argument("--keep", type=Path, help="use this (new) folder as the course directory and keep it")
    args = parser.parse_args(argv)
    if args.n < 4 or args.jobs < 2:
        parser.error("--n must be at least 4 (grade_batch's self_check) and --jobs at least 2")

    # nbgrader runs `alembic` and `jupyter` subprocesses: this environment's scripts go first.
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    sys.path.insert(0, str(ROOT))
    import warnings

    warnings.filterwarnings("ignore", module="nbgrader")  # SQLAlchemy SAWarnings from nbgrader's gradebook code
    from autograder.course import load_course
    from autograder.sandbox.launcher import describe_defences

    course = load_course()
    assignment = course.assignment(ASSIGNMENT)
    report = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "command": " ".join([".venv/bin/python bench/bench_grading.py", *(sys.argv[1:] if argv is None else argv)]),
              "machine": machine(), "parallel_probe": {"start": parallel_probe(args.jobs)},
              "sandbox_defences": describe_defences(), "sources_sha256": sources_digest(), "n": args.n,
              "jobs": args.jobs, "call_seconds": assignment.limits.call_seconds}
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=False)
    course_dir = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="bench-grading-course-"))
    students = {f"s{i:03d}-{s.kind}-{s.name}".replace("_", "-"): s for i, s in enumerate(sample_mix(args.n, assignment))}
    sampler = MemorySampler()
    try:
        api, paths = prepare(course, assignment, course_dir, students, report)
        print("nbgrader autograde ...", file=sys.stderr)
        phases = {"nbgrader": measure(sampler, args.n, lambda: run_nbgrader(api, course_dir, list(students)))}
        for suite in SUITES:
            for jobs in (1, args.jobs):
                print(f"this grader, {suite} suite, jobs={jobs} ...", file=sys.stderr)
                phases[f"{suite}_jobs{jobs}"] = measure(
                    sampler, args.n, lambda: run_ours(course, assignment, paths, jobs, suite))
        report["parallel_probe"]["end"] = parallel_probe(args.jobs)
        nb_verdicts = nbgrader_verdicts(course_dir, list(students))
        report["sources_changed_during_run"] = sources_digest() != report["sources_sha256"]
        if report["sources_changed_during_run"]:
            print("WARNING: the grader's sources changed during the run", file=sys.stderr)
    finally:
        sampler.close()
        if not args.keep:
            shutil.rmtree(course_dir, ignore_errors=True)
    summarise(report, students, phases, nb_verdicts)
    print(table(report))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
