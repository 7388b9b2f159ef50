"""Batch benchmark: a whole class of one assignment, graded by `nbgrader autograde` and by `autograder grade`.

    .venv/bin/python bench/bench_batch.py [--sizes 50,200,800] [--nbgrader-sizes 50,200] [--jobs 2]
                                          [--quick] [--out bench/batch_results.json] [--keep DIR]

For each class size N (one run, baselines measured in the same run):

1. a course directory: ``bpe_bytes`` released once (``release_assignment``, as ``autograder release``
   does), then N synthetic submissions in ``submitted/STUDENT/bpe_bytes/`` with a ``timestamp.txt``:
   in every 20, 8 correct, 7 buggy, 3 untouched stubs and 2 hostile (see ``BLOCK`` and ``HOSTILE_ORDER``);
2. each grader, as an instructor runs it, as a command on its own copy of that directory:
   - ``autograder grade bpe_bytes --course-dir DIR --jobs 1`` (only where nbgrader also runs);
   - ``nbgrader autograde bpe_bytes --CourseDirectory.root=DIR`` (only for --nbgrader-sizes), then the
     same command again (nbgrader's own re-run: it skips what it graded and retries what failed);
   - ``autograder grade bpe_bytes --course-dir DIR --jobs J``, then the same command again with nothing
     changed (the resume path: every submission is skipped);
   ours runs before and after nbgrader, so a drift in the machine's load favours neither side;
3. per phase: wall time, CPU (getrusage of the reaped children), peak memory of the command's process
   tree (RSS and PSS, from a sampler process) and the load the rest of the machine added;
4. verdicts from both gradebooks and from our stored results; a table on stdout and a JSON file.

Helpers shared with bench_grading.py live in bench/measure.py. See bench/README.md for the method,
its caveats and the figures of the run of record.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import ROOT, MemorySampler, machine, measure, parallel_probe, sources_digest

ASSIGNMENT = "bpe_bytes"
TIMESTAMP = "2027-03-01 20:00:00.000000 UTC"  # before the due date (2027-03-01 22:59 UTC): no late penalty
TARGET = 10
VENV_BIN = Path(sys.executable).parent
NBGRADER_CELL_TIMEOUT = 30  # nbgrader 0.9.6's default Execute.timeout, per cell; interrupt_on_timeout=True
NBGRADER_MEMORY_CAP = 4 << 30  # RLIMIT_AS on nbgrader's processes: see HOSTILE_EXCLUDED and the README

# One block of 20 submissions, repeated: C correct, B buggy, S stub (the released notebook untouched),
# H hostile. 8 C, 7 B, 3 S, 2 H, interleaved so that any prefix of the class is a fair sample.
BLOCK = "CBCSBCBHCBCBSCBCHBSC"
KINDS = {"C": "correct", "B": "buggy", "S": "stub", "H": "hostile"}

# The hostile catalogue in the order the class cycles through it. The ones that hang or bomb
# (infinite_loop, escape_process_group, fork_bomb, memory_bomb) are spread out, so that every class
# size gets about its share of them (N=20 none, 50 one, 200 four, 800 eighteen). A catalogue entry
# that is neither listed nor excluded is appended, so a new attack is never silently left out.
HOSTILE_ORDER = (
    "lying_eq_object", "sys_exit", "infinite_loop", "builtin_subclasses", "os_exit", "patch_builtins",
    "settrace_setprofile", "escape_process_group", "ipython_hooks", "numpy_empty_array", "frame_walk_oracle",
    "fork_bomb", "worker_internals_patch", "oversized_replies", "noop_functions", "memory_bomb",
    "expected_exceptions_only", "malformed_replies",
)
# nbgrader runs every submission unsandboxed, as the user who runs it (root here), on a machine shared
# with other people. These attacks are left out of the class for both graders (tests/test_hostile.py
# covers them for ours):
HOSTILE_EXCLUDED = {
    "read_hidden_files": "as root and unsandboxed it would umount2(MNT_DETACH) every tmpfs mount it can see "
                         "(on this machine, one belongs to the tooling that runs these sessions)",
    "fake_results_files": "writes a fake results.json into /work/main (the project's working tree), its tests/ "
                          "and autograder/ folders, /tmp, /var/tmp, /dev/shm and ~",
    "network": "connects to 1.1.1.1 and 8.8.8.8 from the host's network: traffic this workplace forbids",
    "kill_signals": "SIGKILLs its parent, which under nbgrader is the `nbgrader autograde` command itself: "
                    "the rest of the class would go ungraded (checked once by hand, see the README)",
}
# memory_bomb stays in: nbgrader's processes get RLIMIT_AS = NBGRADER_MEMORY_CAP so that, unsandboxed, it
# raises MemoryError instead of taking the shared machine's 24 GiB (ours has its own limit, memory_mb).
# fork_bomb stays in: it forks only inside our sandbox (under nbgrader it raises at once).

STUDENT_LINE = re.compile(r"Creating/updating student with ID '([^']+)'")
SKIP_LINE = re.compile(r"Skipping existing assignment")
RESUMED_LINE = re.compile(r"graded (\d+), unchanged since last graded (\d+)")


# --------------------------------------------------------------------------- the class

def hostile_cycle(catalogue: list) -> list:
    by_name = {s.name: s for s in catalogue}
    unknown = [n for n in (*HOSTILE_ORDER, *HOSTILE_EXCLUDED) if n not in by_name]
    if unknown:
        raise SystemExit(f"hostile samples no longer in the catalogue: {unknown}; update HOSTILE_ORDER")
    extra = [s for s in catalogue if s.name not in HOSTILE_ORDER and s.name not in HOSTILE_EXCLUDED]
    return [by_name[n] for n in HOSTILE_ORDER] + extra


def class_mix(n: int, assignment) -> dict:
    """student id -> Sample, deterministic: position i takes BLOCK[i % 20]; the k-th buggy (hostile)
    position takes the k-th sample of the buggy catalogue (the hostile cycle), round and round."""
    from autograder import samples

    pools = {"C": [samples.correct(ASSIGNMENT)], "S": [samples.stub(assignment)],
             "B": samples.catalogue(assignment, "buggy"), "H": hostile_cycle(samples.catalogue(assignment, "hostile"))}
    taken = dict.fromkeys(pools, 0)
    students = {}
    for i in range(n):
        letter = BLOCK[i % len(BLOCK)]
        sample = pools[letter][taken[letter] % len(pools[letter])]
        taken[letter] += 1
        students[f"s{i:04d}-{sample.kind}-{sample.name}".replace("_", "-")[:64]] = sample
    return students


def release_template(course, assignment, folder: Path) -> Path:
    """A released course directory with no submissions (what `autograder release` writes)."""
    from autograder.release import release_assignment

    release_assignment(course, assignment, folder)
    # The release plugs this grader into nbgrader's autograde (classroom/nbgrader_autograde.py); the
    # benchmark measures nbgrader's own, so its course directory goes without the plug.
    from autograder.classroom.nbgrader_autograde import config_lines

    config, plug = folder / "nbgrader_config.py", set(config_lines(course))
    config.write_text("".join(line + "\n" for line in config.read_text().splitlines() if line not in plug),
                      encoding="utf-8")
    return folder


def place_class(template: Path, destination: Path, assignment, students: dict, cache: dict) -> None:
    """A copy of the template with each student's notebook and timestamp.txt in submitted/."""
    from autograder import samples

    shutil.copytree(template, destination)
    for student, sample in students.items():
        if sample.name not in cache:  # each distinct sample is built once, then its bytes are copied
            built = samples.build_notebook(assignment, sample, destination / ".build" / f"{assignment.notebook}.ipynb")
            cache[sample.name] = built.read_bytes()
        folder = destination / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / f"{assignment.notebook}.ipynb").write_bytes(cache[sample.name])
        (folder / "timestamp.txt").write_text(TIMESTAMP + "\n", encoding="utf-8")
    shutil.rmtree(destination / ".build", ignore_errors=True)


# --------------------------------------------------------------------------- running a grader

def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (NBGRADER_MEMORY_CAP, NBGRADER_MEMORY_CAP))


def run_command(argv: list[str], cwd: Path, log: Path, cap_memory: bool = False) -> dict:
    """Run one grader command; its stderr goes to `log`, each line stamped with seconds since the start.

    In a session of its own, so that a submission's killpg() cannot reach this bench; killed as a
    group if the bench is interrupted."""
    env = dict(os.environ, PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    started, starts, skipped, resumed = time.perf_counter(), {}, 0, None
    with open(log, "w", encoding="utf-8") as out, open(log.with_suffix(".stdout"), "w", encoding="utf-8") as stdout:
        out.write("$ " + " ".join(argv) + "\n")
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True,
                                   errors="replace", start_new_session=True,
                                   preexec_fn=_cap_memory if cap_memory else None)
        try:
            for line in process.stderr:
                now = time.perf_counter() - started
                out.write(f"{now:9.3f} {line}")
                if match := STUDENT_LINE.search(line):
                    starts[match[1]] = now
                skipped += bool(SKIP_LINE.search(line))
                if match := RESUMED_LINE.search(line):
                    resumed = {"graded": int(match[1]), "reused": int(match[2])}
            returncode = process.wait()
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise
    return {"returncode": returncode, "student_starts": starts, "command_seconds": time.perf_counter() - started,
            "skipped": skipped, "resumed": resumed, "log": str(log)}


def nbgrader_command(course_dir: Path) -> list[str]:
    return [str(VENV_BIN / "nbgrader"), "autograde", ASSIGNMENT, f"--CourseDirectory.root={course_dir}"]


def ours_command(course_dir: Path, jobs: int) -> list[str]:
    return [str(VENV_BIN / "autograder"), "grade", ASSIGNMENT, "--course-dir", str(course_dir), "--jobs", str(jobs)]


def per_student_seconds(outcome: dict, students: list[str]) -> dict[str, float]:
    """nbgrader: from one student's first log line to the next's (the last one: to the command's end)."""
    starts = sorted((t, s) for s, t in outcome["student_starts"].items())
    ends = [t for t, _ in starts[1:]] + [outcome["command_seconds"]]
    seconds = {s: round(end - t, 3) for (t, s), end in zip(starts, ends)}
    return {s: seconds.get(s) for s in students}


# --------------------------------------------------------------------------- verdicts

def gradebook_scores(course_dir: Path, students: list[str]) -> dict[str, float | None]:
    """Each student's total in the gradebook; None when the student has no submission there or when a
    grade cell has no score (nbgrader leaves every cell at auto_score None, "needs manual grade",
    when autograding a notebook failed)."""
    from nbgrader.api import Gradebook, MissingEntry

    scores = {}
    with Gradebook(f"sqlite:///{course_dir / 'gradebook.db'}") as gradebook:
        for student in students:
            try:
                submission = gradebook.find_submission(ASSIGNMENT, student)
            except MissingEntry:
                scores[student] = None
                continue
            grades = [g for notebook in submission.notebooks for g in notebook.grades]
            scored = grades and all(g.auto_score is not None or g.manual_score is not None for g in grades)
            scores[student] = round(float(submission.score), 4) if scored else None
    return scores


def nbgrader_verdicts(course_dir: Path, students: list[str], seconds: dict) -> dict[str, dict]:
    scores = gradebook_scores(course_dir, students)
    verdicts = {}
    for student in students:
        notebook = course_dir / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        errors = []
        if notebook.is_file():
            cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
            errors = [o.get("ename") for c in cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
        verdicts[student] = {"score": scores[student], "autograded_notebook": notebook.is_file(),
                             "cell_timeouts": errors.count("CellTimeoutError"), "seconds": seconds.get(student)}
    return verdicts


def ours_verdicts(course_dir: Path, students: list[str]) -> dict[str, dict]:
    sys.path.insert(0, str(ROOT))
    from autograder.grading.results import result_from_dict

    scores = gradebook_scores(course_dir, students)
    verdicts = {}
    for student in students:
        path = course_dir / "autograded" / student / ASSIGNMENT / "autograder.json"
        try:
            result = result_from_dict(json.loads(path.read_text(encoding="utf-8"))["result"])
        except (OSError, ValueError, KeyError):
            verdicts[student] = {"score": None, "gradebook_score": scores[student], "stored_result": False}
            continue
        verdicts[student] = {
            "score": result.score, "max_score": result.max_score, "gradebook_score": scores[student],
            "stored_result": True, "grader_error": result.error_instructor.startswith("grader error"),
            "error_instructor": result.error_instructor, "seconds": result.duration_seconds,
            "timeouts": sum(t.outcome == "timeout" for t in result.tests),
            "failed": sorted(t.test_id for t in result.tests if not t.passed and t.outcome != "gated"),
            "autograded_notebook": (path.parent / f"{ASSIGNMENT}.ipynb").is_file()}
    return verdicts


def check(students: dict, ours: dict, nb: dict | None, max_score: float) -> dict:
    """Problems (this grader got something wrong: the run fails) and findings (nbgrader's verdicts)."""
    problems, nb_findings = [], {"no_score": [], "correct_not_full": [], "stub_not_zero": [],
                                 "hostile_with_points": {}, "buggy_full_marks": []}
    for student, sample in students.items():
        o = ours[student]
        if not o["stored_result"]:
            problems.append(f"{student}: no stored result")
            continue
        if o["gradebook_score"] is None or abs(o["gradebook_score"] - o["score"]) > 1e-3:
            problems.append(f"{student}: gradebook {o['gradebook_score']} != stored {o['score']}")
        if not o["autograded_notebook"]:
            problems.append(f"{student}: no autograded notebook")
        if o["grader_error"]:
            problems.append(f"{student}: {o['error_instructor']}")
        if sample.kind == "correct" and o["score"] != max_score:
            problems.append(f"{student}: correct scored {o['score']}")
        if sample.kind in ("stub", "hostile") and o["score"] != 0:
            problems.append(f"{student}: {sample.kind} scored {o['score']}")
        if sample.kind == "buggy" and not set(sample.failing) <= set(o["failed"]):
            problems.append(f"{student}: should fail {sorted(sample.failing)}, failed {o['failed']}")
        if nb is None:
            continue
        v = nb[student]
        if v["score"] is None:
            nb_findings["no_score"].append(student)
        elif sample.kind == "correct" and v["score"] != max_score:
            nb_findings["correct_not_full"].append(student)
        elif sample.kind == "stub" and v["score"] != 0:
            nb_findings["stub_not_zero"].append(student)
        elif sample.kind == "hostile" and v["score"] > 0:
            nb_findings["hostile_with_points"][student] = v["score"]
        elif sample.kind == "buggy" and v["score"] == max_score:
            nb_findings["buggy_full_marks"].append(student)
    result = {"problems": problems}
    if nb is not None:
        same = sum(nb[s]["score"] is not None and abs(nb[s]["score"] - ours[s]["score"]) < 1e-3 for s in students)
        result |= {"nbgrader": nb_findings, "same_score_both": same, "different_score": len(students) - same}
    return result


def by_kind(students: dict, verdicts: dict, timeout_key: str) -> dict:
    """Per kind: count, mean score, mean/max/total seconds per submission, how many hit a timeout."""
    table = {}
    for kind in ("correct", "buggy", "stub", "hostile"):
        rows = [verdicts[s] for s, sample in students.items() if sample.kind == kind]
        seconds = [r["seconds"] for r in rows if r.get("seconds") is not None]
        scored = [r["score"] for r in rows if r.get("score") is not None]
        table[kind] = {"n": len(rows), "scored": len(scored),
                       "mean_score": round(statistics.fmean(scored), 2) if scored else None,
                       "mean_seconds": round(statistics.fmean(seconds), 3) if seconds else None,
                       "max_seconds": round(max(seconds), 3) if seconds else None,
                       "total_seconds": round(sum(seconds), 1),
                       "with_timeout": sum(bool(r.get(timeout_key)) for r in rows)}
    return table


def without_timeouts(phase_seconds: float, verdicts: dict, dropped: set) -> float | None:
    """Estimated phase time without the `dropped` submissions: the phase time times the share of
    per-submission time spent on the others (an estimate: per-submission times, not wall time)."""
    times = {s: v.get("seconds") for s, v in verdicts.items()}
    if any(t is None for t in times.values()):
        return None
    total = sum(times.values())
    kept = sum(t for s, t in times.items() if s not in dropped)
    return phase_seconds * kept / total if total else None


# --------------------------------------------------------------------------- one class size

def run_size(n: int, nbgrader: bool, jobs: int, course, assignment, template: Path, work: Path,
             sampler: MemorySampler, cache: dict) -> dict:
    students = class_mix(n, assignment)
    names = list(students)
    base = work / f"n{n}-class"
    place_class(template, base, assignment, students, cache)
    logs = work / "logs"
    phases, dirs = {}, {}

    def phase(key: str, argv: list[str], folder: Path, cap: bool = False):
        print(f"  N={n}: {key} ...", file=sys.stderr, flush=True)
        # Others may edit the grader while a long run goes on: each phase records the code it ran.
        before, when = sources_digest(), datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        phases[key] = measure(sampler, n, lambda: run_command(argv, folder, logs / f"n{n}-{key}.log", cap))
        phases[key] |= {"started": when, "sources_sha256": before, "sources_changed_during_phase": sources_digest() != before}

    def copy(label: str) -> Path:
        dirs[label] = work / f"n{n}-{label}"
        shutil.copytree(base, dirs[label])
        return dirs[label]

    nb_verdicts = None
    if nbgrader:
        phase("ours_jobs1", ours_command(copy("ours-jobs1"), 1), ROOT)
        folder = copy("nbgrader")
        phase("nbgrader", nbgrader_command(folder), folder, cap=True)
        nb_verdicts = nbgrader_verdicts(folder, names, per_student_seconds(phases["nbgrader"], names))
        phase("nbgrader_rerun", nbgrader_command(folder), folder, cap=True)
    phase(f"ours_jobs{jobs}", ours_command(copy(f"ours-jobs{jobs}"), jobs), ROOT)
    ours = ours_verdicts(dirs[f"ours-jobs{jobs}"], names)
    phase("ours_resume", ours_command(dirs[f"ours-jobs{jobs}"], jobs), ROOT)

    verdicts = check(students, ours, nb_verdicts, assignment.max_score)
    if nbgrader:
        ours1 = ours_verdicts(dirs["ours-jobs1"], names)
        verdicts["problems"] += [f"jobs=1: {p}" for p in check(students, ours1, None, assignment.max_score)["problems"]]
        verdicts["jobs1_vs_jobs2_different_scores"] = [s for s in names if ours1[s]["score"] != ours[s]["score"]]
    resumed, verdicts["notes"] = phases["ours_resume"]["resumed"], []
    first, second = phases[f"ours_jobs{jobs}"], phases["ours_resume"]
    if first["sources_changed_during_phase"] or first["sources_sha256"] != second["sources_sha256"]:
        # The stored results are keyed by a hash of the grader's code: an edit means grading again, by design.
        verdicts["notes"].append(f"the grader's sources changed between the two runs at N={n}: the second run "
                                 f"graded {resumed} again (by design), so it is not a resume figure")
    elif resumed != {"graded": 0, "reused": n}:
        verdicts["problems"].append(f"the second run was expected to grade 0 and reuse {n}, got {resumed}")
    for key, p in phases.items():
        expected = (0, 1) if key.startswith("nbgrader") else (0,)  # nbgrader exits 1 when a student failed
        if p["returncode"] not in expected:
            verdicts["problems"].append(f"{key} exited with {p['returncode']} (see {p['log']})")

    result = {"n": n, "mix": {k: sum(s.kind == k for s in students.values()) for k in KINDS.values()},
              "phases": {k: {f: v for f, v in p.items() if f not in ("student_starts",)} for k, p in phases.items()},
              "verdicts": verdicts,
              "ours_by_kind": by_kind(students, ours, "timeouts")}
    if nbgrader:
        nb = phases["nbgrader"]
        result["nbgrader_by_kind"] = by_kind(students, nb_verdicts, "cell_timeouts")
        result["nbgrader_startup_seconds"] = round(min(nb["student_starts"].values()), 2)
        result["nbgrader_rerun_regraded"] = len(phases["nbgrader_rerun"]["student_starts"])
        ratio = {f"jobs{j}": round(nb["seconds"] / phases[f"ours_jobs{j}"]["seconds"], 2) for j in (1, jobs)}
        # Submissions where either grader hit a timeout, left out of both sides (an estimate, see without_timeouts).
        dropped = {s for s in names if nb_verdicts[s]["cell_timeouts"] or ours[s].get("timeouts")}
        nb_kept = without_timeouts(nb["seconds"], nb_verdicts, dropped)
        for j, v in ((1, ours1), (jobs, ours)):
            kept = without_timeouts(phases[f"ours_jobs{j}"]["seconds"], v, dropped)
            if nb_kept and kept:
                ratio[f"jobs{j}_without_timeouts"] = round(nb_kept / kept, 2)
        ratio["dropped_for_without_timeouts"] = sorted(dropped)
        result["ratios"] = ratio
        result["submissions"] = [
            {"student": s, "kind": sample.kind, "sample": sample.name,
             "nbgrader_score": nb_verdicts[s]["score"], "nbgrader_seconds": nb_verdicts[s]["seconds"],
             "nbgrader_cell_timeouts": nb_verdicts[s]["cell_timeouts"],
             "ours_score": ours[s]["score"], "ours_seconds_jobs1": ours1[s].get("seconds"),
             f"ours_seconds_jobs{jobs}": ours[s].get("seconds"), "ours_timeouts": ours[s].get("timeouts")}
            for s, sample in students.items()]
    return result


# --------------------------------------------------------------------------- report

def table(report: dict) -> str:
    jobs = report["settings"]["jobs"]
    labels = {"ours_jobs1": "autograder grade --jobs 1", "nbgrader": "nbgrader autograde",
              "nbgrader_rerun": "nbgrader autograde, again", f"ours_jobs{jobs}": f"autograder grade --jobs {jobs}",
              "ours_resume": f"autograder grade --jobs {jobs}, again"}
    rows = [("N", "phase", "seconds", "subs/min", "wall s/sub", "CPU s/sub", "peak PSS MiB", "median PSS MiB",
             "peak RSS MiB", "largest MiB", "other load")]
    for size in report["sizes"]:
        for key, label in labels.items():
            if key not in size["phases"]:
                continue
            p, m = size["phases"][key], size["phases"][key]["memory"]
            rows.append((str(size["n"]), label, f"{p['seconds']:.1f}", f"{p['submissions_per_minute']:.1f}",
                         f"{p['wall_seconds_per_submission']:.3f}", f"{p['cpu_seconds_per_submission']:.3f}",
                         f"{m['peak_tree_pss_mb']:.0f}", f"{m['median_tree_pss_mb']:.0f}", f"{m['peak_tree_rss_mb']:.0f}",
                         f"{m['peak_largest_process_rss_mb']:.0f}", f"{p['other_load_cores']:.2f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    for size in report["sizes"]:
        if "ratios" in size:
            r = size["ratios"]
            lines.append(f"N={size['n']}: ratio ours/nbgrader (throughput) jobs=1 {r['jobs1']:.2f}x, jobs={jobs} "
                         f"{r[f'jobs{jobs}']:.2f}x; without the {len(r['dropped_for_without_timeouts'])} submissions "
                         f"that hit a timeout (estimate): jobs=1 {r.get('jobs1_without_timeouts', float('nan')):.2f}x, "
                         f"jobs={jobs} {r.get(f'jobs{jobs}_without_timeouts', float('nan')):.2f}x "
                         f"(target >= {TARGET}x)")
            nb = size["verdicts"]["nbgrader"]
            lines.append(f"    nbgrader: no score for {len(nb['no_score'])} {nb['no_score']}; hostile with points "
                         f"{nb['hostile_with_points'] or 'none'}; correct not full {len(nb['correct_not_full'])}; "
                         f"stub not 0 {len(nb['stub_not_zero'])}; buggy with full marks {len(nb['buggy_full_marks'])}; "
                         f"same score as ours {size['verdicts']['same_score_both']}/{size['n']}")
    lines.append("")
    lines.append("scaling, autograder grade --jobs %d:" % jobs)
    base = None
    for s in report["scaling"]:
        grow = "" if base is None else f"  x{s['ours_seconds'] / base['ours_seconds']:.2f} time for x{s['n'] / base['n']:.0f} N"
        nbg = f"; nbgrader {s['nbgrader_seconds']:.1f} s ({s['nbgrader_seconds_per_submission']:.3f} s/sub)" \
            if s.get("nbgrader_seconds") else ""
        lines.append(f"  N={s['n']:4d}: {s['ours_seconds']:7.1f} s, {s['ours_seconds_per_submission']:.3f} s/sub, "
                     f"peak PSS {s['ours_peak_pss_mb']:.0f} MiB, resume {s['resume_seconds']:.1f} s{nbg}{grow}")
        base = s
    problems = [f"N={size['n']}: {p}" for size in report["sizes"] for p in size["verdicts"]["problems"]]
    lines.append("")
    lines.append("verdicts of this grader: " + ("all as expected (correct full marks, stubs and hostile 0, buggy fail "
                                                "their declared tests, no grader error, gradebook = stored result)"
                                                if not problems else "PROBLEMS:\n  " + "\n  ".join(problems)))
    notes = [note for size in report["sizes"] for note in size["verdicts"].get("notes", [])]
    changed = [f"N={size['n']} {key}" for size in report["sizes"] for key, p in size["phases"].items()
               if p.get("sources_changed_during_phase")]
    lines += [f"note: {note}" for note in notes]
    if changed:
        lines.append(f"note: the grader's sources were edited during: {', '.join(changed)}")
    probe = report["parallel_probe"]
    lines.append(f"effective cores (CPU probe, {report['machine']['cores']} cores): "
                 f"{probe['start']['effective_cores']} at start, {probe.get('end', {}).get('effective_cores')} at end; "
                 f"load average at start {report['machine']['load_average_at_start']}")
    return "\n".join(lines)


def scaling(sizes: list[dict], jobs: int) -> list[dict]:
    rows = []
    for size in sizes:
        ours, resume = size["phases"][f"ours_jobs{jobs}"], size["phases"]["ours_resume"]
        row = {"n": size["n"], "ours_seconds": ours["seconds"], "ours_seconds_per_submission": ours["wall_seconds_per_submission"],
               "ours_cpu_seconds_per_submission": ours["cpu_seconds_per_submission"],
               "ours_peak_pss_mb": ours["memory"]["peak_tree_pss_mb"], "resume_seconds": resume["seconds"],
               "other_load_cores": ours["other_load_cores"]}
        if "nbgrader" in size["phases"]:
            nb = size["phases"]["nbgrader"]
            row |= {"nbgrader_seconds": nb["seconds"], "nbgrader_seconds_per_submission": nb["wall_seconds_per_submission"],
                    "nbgrader_peak_pss_mb": nb["memory"]["peak_tree_pss_mb"]}
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- main

def sizes_arg(text: str) -> list[int]:
    values = sorted({int(x) for x in text.split(",") if x.strip()})
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("a comma-separated list of positive class sizes")
    return values


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=sizes_arg, default=[50, 200, 800], help="class sizes for this grader")
    parser.add_argument("--nbgrader-sizes", type=sizes_arg, default=[50, 200],
                        help="the sizes at which nbgrader runs too (each must be in --sizes)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel grading processes for the main phase (default 2)")
    parser.add_argument("--quick", action="store_true", help="smoke run: --sizes 20,40 --nbgrader-sizes 20")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "batch_results.json")
    parser.add_argument("--keep", type=Path, help="a new folder to work in and keep (course directories, logs)")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.nbgrader_sizes = [20, 40], [20]
    if not set(args.nbgrader_sizes) <= set(args.sizes) or args.jobs < 2:
        parser.error("every --nbgrader-sizes value must be in --sizes, and --jobs must be at least 2")

    os.environ["PATH"] = f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"  # nbgrader runs alembic
    sys.path.insert(0, str(ROOT))
    import warnings

    warnings.filterwarnings("ignore", module="nbgrader")
    from autograder import samples
    from autograder.course import load_course
    from autograder.sandbox.launcher import describe_defences

    course = load_course()
    assignment = course.assignment(ASSIGNMENT)
    started = time.perf_counter()
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join([".venv/bin/python bench/bench_batch.py", *(sys.argv[1:] if argv is None else argv)]),
        "machine": machine(), "parallel_probe": {"start": parallel_probe(args.jobs)},
        "sandbox_defences": describe_defences(), "sources_sha256": sources_digest(),
        "settings": {"sizes": args.sizes, "nbgrader_sizes": args.nbgrader_sizes, "jobs": args.jobs,
                     "nbgrader_cell_timeout_seconds": NBGRADER_CELL_TIMEOUT,
                     "nbgrader_memory_cap_gib": NBGRADER_MEMORY_CAP / 2**30,
                     "ours_limits": {k: getattr(assignment.limits, k) for k in
                                     ("call_seconds", "load_seconds", "submission_seconds", "memory_mb")}},
        "mix": {"block": BLOCK, "per_20": {KINDS[k]: BLOCK.count(k) for k in KINDS},
                "buggy_cycle": [s.name for s in samples.catalogue(assignment, "buggy")],
                "hostile_cycle": [s.name for s in hostile_cycle(samples.catalogue(assignment, "hostile"))],
                "hostile_excluded": HOSTILE_EXCLUDED},
        "sizes": [],
    }
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=False)
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="bench-batch-"))
    (work / "logs").mkdir()
    sampler = MemorySampler(include_root=False)  # the commands' trees, not this process
    try:
        print(f"working in {work}; releasing {ASSIGNMENT} ...", file=sys.stderr, flush=True)
        template = release_template(course, assignment, work / "template")
        cache: dict = {}
        # Untimed warm-up of each command on a one-student class: disk caches, .pyc files.
        place_class(template, work / "warmup", assignment, {"warmup": samples.correct(ASSIGNMENT)}, cache)
        shutil.copytree(work / "warmup", work / "warmup-nbgrader")
        print("warming up both commands (untimed) ...", file=sys.stderr, flush=True)
        run_command(nbgrader_command(work / "warmup-nbgrader"), work / "warmup-nbgrader", work / "logs" / "warmup-nbgrader.log", True)
        run_command(ours_command(work / "warmup", args.jobs), ROOT, work / "logs" / "warmup-ours.log")
        for n in args.sizes:
            size = run_size(n, n in args.nbgrader_sizes, args.jobs, course, assignment, template, work, sampler, cache)
            report["sizes"].append(size)
            if not args.keep:
                for folder in work.glob(f"n{n}-*"):
                    shutil.rmtree(folder, ignore_errors=True)
        report["parallel_probe"]["end"] = parallel_probe(args.jobs)
    finally:
        sampler.close()
        failed = len(report["sizes"]) < len(args.sizes) or any(s["verdicts"]["problems"] for s in report["sizes"])
        if not args.keep:
            for folder in work.iterdir():
                if folder.name != "logs":
                    shutil.rmtree(folder, ignore_errors=True)
            if failed:
                print(f"the commands' logs are kept in {work / 'logs'}", file=sys.stderr)
            else:
                shutil.rmtree(work, ignore_errors=True)
    report["sources_changed_during_run"] = sources_digest() != report["sources_sha256"]
    report["scaling"] = scaling(report["sizes"], args.jobs)
    report["total_seconds"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(table(report))
    if report["sources_changed_during_run"]:
        print("WARNING: the grader's sources changed during the run", file=sys.stderr)
    print(f"\nwritten {args.out} ({report['total_seconds']:.0f} s)", file=sys.stderr)
    return 1 if any(size["verdicts"]["problems"] for size in report["sizes"]) else 0


if __name__ == "__main__":
    sys.exit(main())
