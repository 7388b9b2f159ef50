"""The grading server a cluster worker host runs: the local batch, one submission at a time.

A Dask worker is a threaded process (its event loop, its task threads), and forking one is
unsafe: a lock another thread holds stays held in the child forever. So each worker host
starts this server once, as a plain process of its own, and asks it to grade; the server is
single-threaded, and forks a grading process per submission exactly as `grade_batch` does
on the instructor's machine. Its kit (reference, release, example banks) is built once.

It speaks on two pipes, stdin and stdout, in frames of an 8-byte length and a pickle: both
ends are the grader's own code, and student code never reaches this process (it runs in a
sandboxed worker, started by the grading process). Everything else this process or its
children might print goes to stderr, so nothing can corrupt a frame.

    python -m autograder.cluster.server ASSIGNMENT COURSE_YML < requests > replies
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
import struct
import sys
import tempfile
from pathlib import Path

_HEADER = struct.Struct("!Q")


def send(stream, value) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def receive(stream):
    """The next frame, or EOFError when the other end has gone."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)  # written by this module's other end, in the grader's own processes


def host_facts(course, assignment) -> dict:
    """What this host shows about itself, for the instructor's process to compare with its own:
    the sandbox's refusal (if any), the defences a real worker shows to hold, and the hash of the
    grader, the suite, the reference and the lesson (classroom/state.py)."""
    from autograder.classroom.state import suite_hash
    from autograder.sandbox.launcher import describe_defences, refusal
    from autograder.sandbox.probe import unverified_defences

    refused = refusal()
    failed = () if refused else unverified_defences()
    defences = [] if refused else [name for name, active in describe_defences().items()
                                   if active and name not in failed]
    return {"refusal": refused, "defences": sorted(defences), "unverified": list(failed),
            "suite": suite_hash(assignment), "problem": None}


def grade_files(kit, release, name: str, files: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
    """Grade a submission handed over as bytes: its files are written to a folder of their own,
    graded as the local batch grades a submission folder, and removed. Returns the result as
    plain data and the autograded notebook formgrader shows, as bytes."""
    from autograder.classroom.autograded import write_autograded
    from autograder.grading.batch import grade_batch

    scratch = Path(tempfile.mkdtemp(prefix="autograder-cluster-"))
    try:
        folder, autograded = scratch / "submission" / name, scratch / "autograded"
        for relative, data in files.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        folder.mkdir(parents=True, exist_ok=True)
        autograded.mkdir()

        def write_notebook(index, result, handed_in):  # in the grading process, as the local batch does
            write_autograded(handed_in, autograded, kit.assignment, result, release)

        (result,) = grade_batch(kit.assignment, [folder], jobs=1, warm_up=False, kit=kit,
                                in_grading_process=write_notebook)
        written = {path.name: path.read_bytes() for path in autograded.iterdir() if path.is_file()}
        return dataclasses.asdict(result), written
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def serve(assignment_id: str, course_file: str, requests, replies) -> None:
    """Say what this host is (host_facts, after the self-check), then grade what is asked until EOF."""
    import nbformat

    from autograder.course import load_course
    from autograder.grading.batch import self_check
    from autograder.grading.plugin import SelfCheckFailed
    from autograder.grading.kit import build_kit

    course = load_course(course_file)
    assignment = course.assignment(assignment_id)
    facts, kit = host_facts(course, assignment), None
    release = nbformat.reads(receive(requests), as_version=4)  # the instructor's release, as students got it
    if facts["refusal"] is None and not facts["unverified"]:
        try:
            kit = build_kit(assignment)
            self_check(kit)
        except SelfCheckFailed as error:
            facts["problem"] = str(error)
    send(replies, facts)
    while True:
        try:
            name, files = receive(requests)
        except EOFError:
            return
        send(replies, grade_files(kit, release, name, files))


def main(argv: list[str]) -> None:
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    # From here on, fd 0 and fd 1 are not the pipes: no print, here or in a forked child, reaches them.
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    serve(argv[0], argv[1], requests, replies)


if __name__ == "__main__":
    main(sys.argv[1:])
