"""Grade a class on an existing Dask cluster (`autograder grade ASSIGNMENT --cluster tcp://HOST:8786`).

    admit     a worker plugin starts each host's grading server (server.py), which runs the
              grader's self-check there; a host whose sandbox lacks a defence this machine has,
              whose grader or suite differs, or whose self-check fails gets no submission
    grade     one task per submission: its files go to a host as bytes, the result comes
              back as plain data (and formgrader's autograded notebook as bytes)
    record    the caller's `on_result(index, result)`, in this process, as each arrives

Hidden suites and references never travel: every host has its own copy of the project, and
admission checks by hash that it is this one. Dask re-runs a task whose worker died; a
submission that kills `distributed.scheduler.allowed-failures` workers in a row (3 by default)
comes back as a broken submission, never retried again.
"""

from __future__ import annotations

import logging
import uuid
from pathlib import Path

from autograder.cluster import ClusterError, server
from autograder.grading.results import GradeResult, result_from_dict
from autograder.grading.session import broken_submission

CONNECT_SECONDS = 20
MAX_SUBMISSION_BYTES = 64 * 1024 * 1024  # as the loader's limit for one file


def _facts_of_this_host(dask_worker) -> dict | str:
    from autograder.cluster.plugin import PLUGIN

    plugin = dask_worker.plugins.get(PLUGIN)
    return plugin.facts if plugin is not None else "the grading plugin is not installed on it"


def admission(facts: dict | str, expected: dict) -> str | None:
    """Why a host may not grade (English, for the instructor), or None when it may."""
    if isinstance(facts, str):
        return facts
    if facts["refusal"]:
        return f"its sandbox cannot protect the grader: {facts['refusal']}"
    if facts["unverified"]:
        return "sandbox defences claimed but not in effect in a worker: " + "; ".join(facts["unverified"])
    if missing := sorted(set(expected["defences"]) - set(facts["defences"])):
        return "sandbox defences missing there: " + "; ".join(missing)
    if facts["suite"] != expected["suite"]:
        return (f"it has another version of the grader or of the suite (hash {facts['suite'][:12]} there, "
                f"{expected['suite'][:12]} here): install this project's version on it")
    if facts["problem"]:
        return f"its self-check failed: {facts['problem']}"
    return None


def expected_facts(course, assignment) -> dict:
    """What a host must show: this machine's defences (every defence, where this machine cannot
    run the sandbox itself) and this machine's hashes."""
    from autograder.sandbox.launcher import describe_defences

    mine = server.host_facts(course, assignment)
    if mine["refusal"] is not None:
        mine["defences"] = sorted(describe_defences())
    return mine


def submission_files(folder: Path) -> dict[str, bytes] | None:
    """A submission folder's regular files as bytes (symbolic links are never followed), or None
    when they add up to more than any submission may."""
    from autograder.notebook.loader import files_in_folder

    files, total = {}, 0
    for relative in files_in_folder(folder):
        total += (folder / relative).stat().st_size
        if total > MAX_SUBMISSION_BYTES:
            return None
        files[relative] = (folder / relative).read_bytes()
    return files


def grade_on_cluster(address: str, course, assignment, folders: list[Path], release_text: str,
                     on_result, on_autograded, log=print) -> list[GradeResult]:
    """Grade `folders` on the cluster whose scheduler is at `address`; results in input order.

    `on_result(index, result)` and `on_autograded(index, {name: bytes})` are called here as each
    submission comes back. Raises ClusterError when nothing can be graded or the scheduler goes
    away (results already handed to on_result are kept: a re-run resumes)."""
    from distributed import Client, as_completed
    from distributed.scheduler import KilledWorker

    from autograder.cluster.plugin import PLUGIN, GradingHost, grade_on_this_host

    quiet = _QuietDask()  # Dask logs a lost scheduler as tracebacks; the instructor reads one line instead
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        quiet.restore()
        raise ClusterError(f"no Dask scheduler answers at {address} ({error})") from None
    futures: dict = {}
    try:
        client.register_plugin(GradingHost(assignment.id, str(course.path), release_text), name=PLUGIN)
        expected = expected_facts(course, assignment)
        admitted = []
        for worker, facts in sorted(client.run(_facts_of_this_host).items()):
            why = admission(facts, expected)
            if why is None:
                admitted.append(worker)
            else:
                log(f"cluster: worker {worker} gets no submissions: {why}")
        if not admitted:
            raise ClusterError(f"no worker of the cluster at {address} can grade {assignment.id} (see above)")
        threads = sum(client.nthreads(admitted).values())
        log(f"cluster: grading on {len(admitted)} worker(s), {threads} thread(s), at {address}")
        run = uuid.uuid4().hex[:8]
        pending = list(enumerate(folders))
        results: dict[int, GradeResult] = {}
        completed = as_completed(loop=client.loop)

        def submit_next() -> None:
            index, folder = pending.pop(0)
            files = submission_files(folder)
            if files is None:
                finish(index, broken_submission(
                    assignment, str(folder), "La entrega es demasiado grande; borra las salidas de las celdas y "
                    "vuelve a enviarla.", f"{folder}: larger than {MAX_SUBMISSION_BYTES // 2**20} MiB"), {})
                return
            future = client.submit(grade_on_this_host, folder.name, files, key=f"grade-{assignment.id}-{run}-{index}",
                                   workers=admitted, allow_other_workers=False, pure=False)
            futures[future] = index
            completed.add(future)

        def finish(index: int, result: GradeResult, autograded: dict) -> None:
            results[index] = result
            on_autograded(index, autograded)
            on_result(index, result)

        while pending and len(futures) < 2 * threads:
            submit_next()
        for future in completed:
            index = futures.pop(future)
            finish(index, *_outcome(future, assignment, folders[index], address, KilledWorker))
            while pending and len(futures) < 2 * threads:
                submit_next()
        return [results[i] for i in range(len(folders))]
    finally:
        for future in futures:
            future.cancel()
        client.close()
        quiet.restore()


class _QuietDask:
    """Dask's own loggers held to CRITICAL while this process is a client; restored after."""

    def __init__(self):
        self.levels = {name: logging.getLogger(name).level for name in ("distributed", "tornado", "asyncio")}
        for name in self.levels:
            logging.getLogger(name).setLevel(logging.CRITICAL)

    def restore(self) -> None:
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)


def _outcome(future, assignment, folder: Path, address: str, killed_worker) -> tuple[GradeResult, dict]:
    from concurrent.futures import CancelledError

    try:
        data, autograded = future.result()
    except killed_worker:
        return broken_submission(
            assignment, str(folder),
            "Tu entrega hizo caer varias veces el proceso que la calificaba, así que no se volvió a intentar. "
            "Revisa si agota la memoria o crea procesos sin fin.",
            f"{folder}: its grading killed a cluster worker each time it was tried; not retried again"), {}
    except CancelledError:
        raise ClusterError(f"lost the Dask scheduler at {address}; every submission graded so far is recorded, "
                           "and the same command grades the rest") from None
    except Exception as error:  # the host's server failed on it: the grader's fault, as in a local batch
        from autograder.grading.batch import grader_failure

        return grader_failure(assignment, str(folder), f"on the cluster: {type(error).__name__}: {error}"), {}
    return result_from_dict(data), autograded
