"""Grade many submissions, each in its own trusted grading process.

One process per submission means that nothing about one submission (a grader bug
it triggers, memory it makes the grader use) can touch the next one. Processes are
forked from this one, so pytest, hypothesis and the release notebook are loaded
once. A grading process that dies or overruns its budget yields a GradeResult that
says so; the batch always finishes.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
from multiprocessing.connection import wait
from pathlib import Path

from autograder.grading.kit import GradingKit, build_kit
from autograder.grading.plugin import SelfCheckFailed
from autograder.grading.results import GradeResult
from autograder.grading.session import broken_submission, grade_handed_in, grade_submission, read_submission
from autograder.grading.student import start_worker_soon
from autograder.sandbox.launcher import WALL_SAFETY_FACTOR, prepare_batch, remove_workdirs_of

GRACE_SECONDS = 60  # on top of the submission's own budget, for pytest and I/O


def _child(connection, kit: GradingKit, index, submission, suite, in_grading_process) -> None:
    # Ctrl-C reaches the whole process group; only the parent decides what an interruption means.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        started = time.monotonic()
        worker = start_worker_soon(kit.assignment.limits)  # its interpreter starts while the submission is read
        handed_in = read_submission(kit, submission)
        result = grade_handed_in(kit, str(submission), handed_in, suite, started, worker)
        if in_grading_process is not None:
            in_grading_process(index, result, handed_in)
        connection.send(("ok", result))  # pickled whole: this process is the grader's own, never the student's
    except BaseException:
        connection.send(("error", traceback.format_exc()))
    finally:
        connection.close()
        os._exit(0)


def overran(assignment, submission: str, seconds: float) -> GradeResult:
    """A grading process still running after the batch's safety net. The submission's own budget is
    measured as on an idle machine (launcher.Clock), so only what the submission made the grader do
    (data that is slow to read, a flood of output) gets here: its time-out, not a grader failure."""
    return broken_submission(
        assignment, submission,
        f"Se agotó el tiempo total de tu entrega: calificarla llevó más de {seconds:.0f} s. Revisa si alguna "
        "función devuelve datos enormes o escribe demasiado.",
        f"grading process killed after {seconds:.0f} s of wall-clock time (the batch's safety net)",
    )


def grader_failure(assignment, submission: str, why: str) -> GradeResult:
    return broken_submission(
        assignment, submission,
        "El corrector falló al calificar esta entrega; no es culpa tuya. El profesorado ha sido avisado.",
        f"grader error: {why}", grader_fault=True,
    )


def self_check(kit: GradingKit, suite: str = "hidden") -> GradeResult:
    """Grade the reference solution here, in the parent, before forking anyone.

    It proves the sandbox and the suite work on this machine, and it leaves pytest,
    hypothesis and the release notebook loaded and warm for every forked grader (about
    half the CPU time of each submission is otherwise spent importing them again).
    Before that, a worker shows from the inside that every defence the banner claims holds.
    """
    from autograder.sandbox.probe import unverified_defences

    if failed := unverified_defences():
        raise SelfCheckFailed("sandbox defences claimed but not in effect in a worker: " + "; ".join(failed))
    assignment = kit.assignment
    result = grade_submission(kit, assignment.solution_path, suite=suite)
    if result.score != result.max_score:
        problems = [f"{t.test_id}: {t.outcome} {t.instructor_note}" for t in result.tests if not t.passed]
        raise SelfCheckFailed(f"the reference solution of {assignment.id} scores {result.score}/{result.max_score} "
                              f"on this machine:\n" + "\n".join(problems[:10]))
    return result


def grade_batch(assignment, submissions: list[Path], jobs: int | None = None, on_result=None,
                suite: str = "hidden", warm_up: bool | None = None, in_grading_process=None,
                kit: GradingKit | None = None) -> list[GradeResult]:
    """Grade `submissions` with up to `jobs` processes; results come back in input order.

    `on_result(index, result)` is called here as each one finishes, `index` being its place in
    `submissions`. `warm_up` (default: for four submissions or more) runs `self_check` first.
    `in_grading_process(index, result, handed_in)` runs in the grading process after grading,
    within the submission's budget: per-submission work whose cost the submission controls, given
    what was read and parsed for grading (session.read_submission), so nothing is read twice.
    `kit`: one built already (a cluster host's grading server keeps its own)."""
    kit = kit or build_kit(assignment, suite)  # before forking: every grading process inherits it
    prepare_batch()
    if kit.reference is not None and (warm_up if warm_up is not None else len(submissions) >= 4):
        self_check(kit, suite)
    context = multiprocessing.get_context("fork")
    jobs = max(1, jobs or os.cpu_count() or 1)
    # A safety net only: the submission's budget is enforced in the grading process, as on an idle machine.
    budget = WALL_SAFETY_FACTOR * (assignment.limits.submission_seconds + GRACE_SECONDS)
    pending = list(enumerate(submissions))
    running: dict = {}  # connection -> (index, process, started)
    results: dict[int, GradeResult] = {}

    def finish(index: int, result: GradeResult) -> None:
        results[index] = result
        if on_result is not None:
            on_result(index, result)

    def start_grading_processes() -> None:
        while pending and len(running) < jobs:
            index, submission = pending.pop(0)
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_child, daemon=True,
                                      args=(sender, kit, index, submission, suite, in_grading_process))
            process.start()
            sender.close()
            running[receiver] = (index, process, time.monotonic())

    stop = _StopRequests()
    try:
        while pending or running:
            stop.check()
            start_grading_processes()
            arrived = []
            for connection in wait(list(running), timeout=1.0):
                index, process, _ = running.pop(connection)
                label = str(submissions[index])
                try:
                    status, payload = connection.recv()
                except (EOFError, OSError):
                    status, payload = "error", f"grading process died (exit code {process.exitcode})"
                if status == "ok":
                    process.join(5)
                else:
                    _stop_and_clean_up_after(process)
                connection.close()
                arrived.append((index, payload if status == "ok" else grader_failure(assignment, label, payload)))
            # The next submissions start grading before these are recorded (the gradebook, the stored
            # result): a free slot does not wait on this process's bookkeeping.
            try:
                start_grading_processes()
            finally:  # a fork that fails must not lose the results already here
                for index, result in arrived:
                    finish(index, result)
            now = time.monotonic()
            for connection, (index, process, started) in list(running.items()):
                if now - started > budget:
                    _stop_and_clean_up_after(process)
                    running.pop(connection)
                    connection.close()
                    finish(index, overran(assignment, str(submissions[index]), budget))
    finally:
        # Interrupted (Ctrl-C) or failed: no grading process outlives the batch; finished results were
        # already handed to on_result, so they are kept.
        for _, process, _ in running.values():
            _stop_and_clean_up_after(process)
        stop.restore()
    return [results[i] for i in range(len(submissions))]


def _stop_and_clean_up_after(process) -> None:
    """End a grading process that failed, died or overran, and remove the folders of the workers it
    could not close. They are found by its pid, so they are removed once it has ended but before it
    is reaped: until then no other process can have that pid. It is killed first (a no-op if it is
    gone already): a failed one must not keep the batch waiting, as join(5) used to bound."""
    process.kill()
    with contextlib.suppress(ChildProcessError):
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
    remove_workdirs_of(process.pid)
    process.join()


class _StopRequests:
    """Ctrl-C and SIGTERM during a batch, as a flag the batch loop checks between steps.

    A KeyboardInterrupt raised wherever the signal happens to land can be lost: inside an
    at-fork handler (while a grading process is being forked) Python prints it as "Exception
    ignored" and the batch runs on. The flag is checked at least once a second, and the loop
    then raises KeyboardInterrupt itself, where it is always seen."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.received: list[int] = []
        self.previous = {}
        if threading.current_thread() is threading.main_thread():
            self.previous = {number: signal.signal(number, self._record) for number in self.SIGNALS}

    def _record(self, number, frame) -> None:
        self.received.append(number)

    def check(self) -> None:
        if self.received:
            raise KeyboardInterrupt

    def restore(self) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        self.previous = {}
