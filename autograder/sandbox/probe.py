"""Prove, in a real worker, that the defences the banner claims are in effect.

``describe_defences`` says what this machine *should* give a worker. This starts one
worker with a small trusted program and checks each claim from the inside: a defence
that is claimed but does not hold is a grader problem (the self-check fails, the
banner says so), never something to find out from a student's attack.
"""

from __future__ import annotations

import functools
import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path

from autograder.sandbox import codec
from autograder.sandbox.launcher import Limits, SandboxError, Worker, WorkerFailure, describe_defences

PROBE = '''
import ctypes, os, resource, socket

def look(marker):
    libc = ctypes.CDLL(None, use_errno=True)
    def namespace(kind):
        try:
            return os.readlink(f"/proc/self/ns/{kind}")
        except OSError:
            return ""
    return {
        "namespaces": {kind: namespace(kind) for kind in ("net", "mnt", "pid", "ipc", "uts", "cgroup")},
        "shared_memory": libc.shmget(0, 1 << 16, 0o1000 | 0o600) >= 0,
        "marker_visible": os.path.exists(marker),
        "hostname": socket.gethostname(),
        "uid": os.getuid(),
        "memory_limit": resource.getrlimit(resource.RLIMIT_AS)[0],
        "environment": sorted(os.environ),
        "workdir_entries": os.listdir("."),
    }
'''

def _own_namespace(kind: str) -> str:
    try:
        return os.readlink(f"/proc/self/ns/{kind}")
    except OSError:
        return ""


def _checks(seen: dict, limits: Limits) -> dict[str, bool]:
    """Each defence's name (as in describe_defences) -> whether the worker shows it holds."""
    differs = {kind: value != _own_namespace(kind) for kind, value in seen["namespaces"].items()}
    return {
        "resource limits (CPU, memory, processes, file size, open files)":
            seen["memory_limit"] == limits.memory_mb * 1024 * 1024,
        "clean environment and empty working directory":
            "PYTHONPATH" not in seen["environment"] and seen["workdir_entries"] == [],
        "no network (network namespace)": differs["net"],
        "nothing but Python visible: hidden suites, solutions, other submissions (mount namespace)":
            differs["mnt"] and not seen["marker_visible"],
        "whole process tree killed (PID namespace)": differs["pid"],
        "nothing shared with the host or left behind: SysV IPC, message queues (IPC namespace)":
            differs["ipc"] and not seen["shared_memory"],
        "own host name and cgroup view (UTS, cgroup namespaces)":
            differs["uts"] and differs["cgroup"] and seen["hostname"] != socket.gethostname(),
        "unprivileged user": seen["uid"] not in (0, os.getuid()),
    }


def _marker_directory() -> Path:
    return Path(tempfile.mkdtemp(prefix="autograder-probe-"))


@functools.lru_cache(maxsize=None)
def unverified_defences(limits: Limits = Limits()) -> tuple[str, ...]:
    """The defences describe_defences() claims that a real worker does not show (empty: all hold)."""
    claimed = [name for name, active in describe_defences().items() if active]
    try:
        worker = Worker(limits)
    except (WorkerFailure, SandboxError, OSError) as error:
        return (f"the worker did not start: {error}",)
    # A file of the grader's that is not on the worker's allow-list (like a hidden suite): the
    # worker must not see it. (The grader's own package may be visible: it can live in site-packages.)
    marker = _marker_directory() / "oculto.txt"
    marker.write_text("la sonda no debe ver esto\n")
    try:
        loaded = worker.request({"op": "load", "module_name": "sonda", "cells": [{"filename": "sonda.py", "source": PROBE}]},
                                limits.load_seconds, on_progress=lambda message: None)
        reply = worker.request({"op": "call", "name": "look", "args": [codec.encode_value(str(marker))], "kwargs": {},
                                "substitute": []}, limits.call_seconds)
        if loaded.get("op") != "loaded" or reply.get("op") != "return":
            return (f"the probe did not run in the worker: {reply.get('op')}",)
        checks = _checks(codec.decode_value(reply["value"]), limits)
    except (WorkerFailure, KeyError, TypeError) as error:
        return (f"the probe did not run in the worker: {error}",)
    finally:
        worker.close()
        shutil.rmtree(marker.parent, ignore_errors=True)
    return tuple(name for name in claimed if checks.get(name) is False)


def print_banner(out=None) -> str | None:
    """The start-up banner (English): which defences this machine gives, each claim checked in a
    worker. Returns None when grading may start, "refused" for a machine where the sandbox cannot
    protect the grader (see launcher.refusal), "broken" when a claimed defence does not hold."""
    from autograder.sandbox.launcher import namespace_mode, refusal

    out = out or sys.stderr
    if (why := refusal()) is not None:
        print(f"error: {why}", file=out)
        return "refused"
    defences, failed = describe_defences(), unverified_defences()
    mode = {"root": "as root", "user": "in a user namespace", None: "without namespaces"}[namespace_mode()]
    print(f"sandbox: {sum(defences.values())}/{len(defences)} defences active, {mode}; checked in a worker "
          f"(docs/security.md)", file=out)
    for name, active in defences.items():
        print(f"  {'FAILED' if name in failed else 'on    ' if active else 'OFF   '}  {name}", file=out)
    for problem in failed:
        if problem not in defences:
            print(f"  FAILED  {problem}", file=out)
    if failed:
        print("GRADER ERROR: a sandbox defence this machine claims does not hold in a worker; nothing was graded",
              file=out)
        return "broken"
    return None
