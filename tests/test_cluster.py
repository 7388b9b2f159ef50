"""A class graded on a Dask cluster: a real `dask scheduler` and `dask worker` processes on localhost.

One cluster run grades a small class (correct, buggy, hostile and broken submissions) with two
workers that can grade, one that is killed mid-batch, and one started without the sandbox's
namespaces; it must come out exactly as the local run of the same class. A second cluster loses
its scheduler mid-batch; the same command then grades the rest on a new one.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder import samples
from autograder.classroom.layout import CourseLayout
from autograder.classroom.pipeline import grade_class
from autograder.cluster import ClusterError, dask_hosts
from autograder.release import release_assignment

from course_content import catalogue

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the cluster's hosts grade as root here, as the CI does")

DASK = str(Path(sys.executable).parent / "dask")
HOSTILE = ("os_exit", "read_hidden_files")  # one that kills its process, one that fishes for the suite
BUGGY = ("merge_drops_tail",)


class Cluster:
    """A scheduler and its workers, each a process of its own (killed, with all it started, at the end)."""

    def __init__(self, folder: Path, scheduler_env: dict | None = None):
        self.folder, self.processes = folder, {}
        folder.mkdir(parents=True, exist_ok=True)
        self.file = folder / "scheduler.json"
        self._start("scheduler", [DASK, "scheduler", "--scheduler-file", str(self.file), "--port", "0",
                                  "--dashboard-address", ":0"], scheduler_env)
        deadline = time.monotonic() + 60
        while not self.file.is_file() and time.monotonic() < deadline:
            time.sleep(0.2)
        self.address = json.loads(self.file.read_text())["address"]

    def _start(self, name: str, argv: list[str], env: dict | None = None) -> None:
        log = open(self.folder / f"{name}.log", "wb")
        self.processes[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                                env={**os.environ, **(env or {})})

    def worker(self, name: str, env: dict | None = None) -> None:
        self._start(name, [DASK, "worker", "--scheduler-file", str(self.file), "--nthreads", "1", "--no-nanny",
                           "--name", name, "--dashboard-address", ":0"], env)

    def wait_for_workers(self, count: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(count, timeout=120)

    def kill(self, name: str) -> None:
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)  # with the grading server and whatever it started
        process.wait()

    def stop(self) -> None:
        for name in list(self.processes):
            self.kill(name)


def hand_in_class(course, assignment, course_dir: Path) -> list[str]:
    """A released assignment and a small class in nbgrader's submitted/ tree; returns the students."""
    release_assignment(course, assignment, course_dir)
    layout = CourseLayout(course_dir)
    release = layout.released_notebook(assignment)
    chosen = {"correct": samples.correct(assignment), "stub": None, "unreadable": b"{ not json"}
    chosen |= {f"buggy-{s.name}": s for s in catalogue(assignment.id, "buggy") if s.name in BUGGY}
    chosen |= {f"hostile-{s.name}": s for s in catalogue(assignment.id, "hostile") if s.name in HOSTILE}
    for student, sample in chosen.items():
        folder = layout.submitted(student, assignment.id)
        folder.mkdir(parents=True)
        if sample is None:
            shutil.copy(release, folder / release.name)
        elif isinstance(sample, bytes):
            (folder / release.name).write_bytes(sample)
        else:
            samples.build_notebook(assignment, sample, folder / release.name)
        (folder / "timestamp.txt").write_text("2027-02-28 12:00:00.000000 UTC\n")
    return sorted(chosen)


def comparable(result):
    return dataclasses.replace(result, duration_seconds=0.0, charged_seconds=0.0)


def autograded_notebooks(course_dir: Path, assignment) -> dict[str, bytes]:
    root = course_dir / "autograded"
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.glob(f"*/{assignment.id}/*.ipynb"))}


@pytest.fixture(scope="module")
def classes(tmp_path_factory, course, bpe_bytes):
    """The same class handed in twice: one course directory to grade here, one on the cluster.
    (The assignment as course.yml has it: a host checks the suite and its limits by hash.)"""
    here = tmp_path_factory.mktemp("here")
    students = hand_in_class(course, bpe_bytes, here)
    there = tmp_path_factory.mktemp("there")
    shutil.copytree(here, there, dirs_exist_ok=True)
    local = grade_class(course, bpe_bytes, here, jobs=2)
    return here, there, students, local


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Four workers: two that grade, one to be killed mid-batch, and one without namespaces
    (AUTOGRADER_NAMESPACES=off), which lacks defences."""
    started = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        for name in ("grader-1", "grader-2", "doomed"):
            started.worker(name)
        started.worker("undefended", env={"AUTOGRADER_NAMESPACES": "off"})
        started.wait_for_workers(4)
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def cluster_run(cluster, course, bpe_bytes, classes):
    """The class graded on the cluster; "doomed" is killed when the first result arrives."""
    _, there, _, _ = classes
    lines, killed = [], []

    class KillOnFirstResult:
        def __init__(self, total):
            pass

        def advance(self, result):
            if not killed:
                cluster.kill("doomed")
                killed.append(result.student)

    run = grade_class(course, bpe_bytes, there, cluster=cluster.address, log=lines.append,
                      progress=KillOnFirstResult)
    return run, lines, _graded_per_worker(cluster.address), killed


def _graded_per_worker(address: str) -> dict[str, int]:
    from distributed import Client

    from autograder.cluster.plugin import PLUGIN

    def graded(dask_worker):
        return dask_worker.plugins[PLUGIN].graded

    with Client(address, timeout=30, set_as_default=False) as client:
        names = {worker: info["name"] for worker, info in client.scheduler_info()["workers"].items()}
        return {names[worker]: count for worker, count in client.run(graded).items()}


def test_the_cluster_grades_exactly_as_this_machine(classes, cluster_run, bpe_bytes):
    here, there, students, local = classes
    run, _, _, _ = cluster_run
    assert [r.student for r in run.results] == students and run.graded == len(students)
    assert [comparable(r) for r in run.results] == [comparable(r) for r in local.results]
    assert {r.student: r.score for r in run.results}["correct"] == 100
    assert autograded_notebooks(there, bpe_bytes) == autograded_notebooks(here, bpe_bytes)
    assert len(autograded_notebooks(there, bpe_bytes)) == len(students)


def test_a_worker_killed_mid_batch_costs_nothing(cluster_run):
    run, _, graded, killed = cluster_run
    assert killed and "doomed" not in graded  # it died with tasks of its own; Dask ran them elsewhere
    assert not any(r.grader_failed() for r in run.results)


def test_a_worker_without_the_sandbox_defences_gets_no_submission(cluster_run):
    run, lines, graded, _ = cluster_run
    refused = [line for line in lines if "gets no submissions" in line]
    # Without namespaces, a host lacks the network and mount defences; here (Python under /root,
    # which no other user may read) its workers cannot even start: either way it is named, with why.
    assert len(refused) == 1 and "sandbox defences" in refused[0], lines
    assert graded["undefended"] == 0
    # every submission but the one "doomed" may have finished before it was killed
    assert graded["grader-1"] + graded["grader-2"] >= len(run.results) - 1


def test_similarity_on_the_cluster_finds_the_same_pairs_as_here(cluster, cluster_run, classes, course, bpe_bytes):
    from autograder.similarity import compare_assignment

    here, _, students, _ = classes
    local = compare_assignment(course, bpe_bytes, here)
    remote = compare_assignment(course, bpe_bytes, here, cluster=cluster.address)
    assert [c.student for c in local.codes] == sorted(students)
    assert any(p.flagged for p in local.pairs)  # the buggy samples are the reference with one change each
    assert [(p.a, p.b, p.score, p.flagged, p.units) for p in remote.pairs] == \
        [(p.a, p.b, p.score, p.flagged, p.units) for p in local.pairs]


def test_losing_the_scheduler_stops_cleanly_and_the_same_command_resumes(tmp_path, course, bpe_bytes, classes,
                                                                          monkeypatch):
    here, _, students, local = classes
    monkeypatch.setattr(dask_hosts, "CONNECT_SECONDS", 5)  # how long the client waits for a lost scheduler
    shutil.copytree(here, tmp_path / "course")
    course_dir = tmp_path / "course"
    shutil.rmtree(course_dir / "autograded")  # nothing graded yet in this copy
    first = Cluster(tmp_path / "first")
    recorded = []

    class StopSchedulerAfterTwo:
        def __init__(self, total):
            pass

        def advance(self, result):
            recorded.append(result.student)
            if len(recorded) == 2:
                first.kill("scheduler")

    try:
        first.worker("grader")
        first.wait_for_workers(1)
        with pytest.raises(ClusterError, match="lost the Dask scheduler"):
            grade_class(course, bpe_bytes, course_dir, cluster=first.address, log=lambda line: None,
                        progress=StopSchedulerAfterTwo)
    finally:
        first.stop()
    assert len(recorded) >= 2
    second = Cluster(tmp_path / "second")
    try:
        second.worker("grader")
        second.wait_for_workers(1)
        run = grade_class(course, bpe_bytes, course_dir, cluster=second.address, log=lambda line: None)
    finally:
        second.stop()
    assert run.reused == len(recorded) and run.graded == len(students) - len(recorded)
    assert [comparable(r) for r in run.results] == [comparable(r) for r in local.results]


def test_ctrl_c_stops_a_cluster_run_cleanly_and_the_next_run_resumes(cluster, cluster_run, classes, tmp_path):
    here, _, students, _ = classes
    course_dir = tmp_path / "course"
    shutil.copytree(here, course_dir)
    shutil.rmtree(course_dir / "autograded")
    command = [str(Path(sys.executable).parent / "autograder"), "grade", "bpe_bytes", "--course-dir", str(course_dir),
               "--cluster", cluster.address]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while not list(course_dir.glob("autograded/*/bpe_bytes/autograder.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    recorded = len(list(course_dir.glob("autograded/*/bpe_bytes/autograder.json")))
    assert 1 <= recorded < len(students)
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"graded {len(students) - recorded}, unchanged since last graded {recorded}" in again.stderr


def test_a_submission_whose_grading_keeps_killing_workers_is_a_broken_submission(tmp_path, course, bpe_bytes,
                                                                                  classes):
    """After the scheduler's allowed-failures (0 here, so the first death counts), Dask gives up on
    a task whose worker died while running it: that submission is broken, with why, never retried."""
    here, _, students, _ = classes
    course_dir = tmp_path / "course"
    shutil.copytree(here, course_dir)
    shutil.rmtree(course_dir / "autograded")
    cluster = Cluster(tmp_path / "cluster", {"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"})
    killed = []

    class KillDoomedWhileItGrades:
        def __init__(self, total):
            pass

        def advance(self, result):
            deadline = time.monotonic() + 30
            while not killed and time.monotonic() < deadline:
                if any(names[worker] == "doomed" and tasks for worker, tasks in watcher.processing().items()):
                    cluster.kill("doomed")
                    killed.append(True)
                time.sleep(0.01)

    from distributed import Client

    try:
        cluster.worker("grader")
        cluster.worker("doomed")
        cluster.wait_for_workers(2)
        with Client(cluster.address, timeout=30, set_as_default=False) as watcher:
            names = {worker: info["name"] for worker, info in watcher.scheduler_info()["workers"].items()}
            run = grade_class(course, bpe_bytes, course_dir, cluster=cluster.address, log=lambda line: None,
                              progress=KillDoomedWhileItGrades)
    finally:
        cluster.stop()
    broken = [r for r in run.results if "killed a cluster worker" in r.error_instructor]
    assert killed and 1 <= len(broken) <= 2, [r.error_instructor for r in run.results]
    assert all(r.score == 0 and "no se volvió a intentar" in r.error_student for r in broken)
    assert not any(r.grader_failed() for r in run.results) and len(run.results) == len(students)
