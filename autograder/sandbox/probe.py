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


# The banner for a student who grades their own submission (cli: one submission): the same claims, in Spanish.
SPANISH_DEFENCES = {
    "separate worker process": "un proceso aparte para tu código",
    "resource limits (CPU, memory, processes, file size, open files)":
        "límites de recursos (CPU, memoria, procesos, tamaño de archivos, archivos abiertos)",
    "wall-clock limits per call and per submission": "límites de tiempo por llamada y por entrega",
    "clean environment and empty working directory": "entorno limpio y carpeta de trabajo vacía",
    "no network (network namespace)": "sin red (espacio de nombres de red)",
    "nothing but Python visible: hidden suites, solutions, other submissions (mount namespace)":
        "solo Python a la vista: ni pruebas ocultas, ni soluciones, ni otras entregas (espacio de nombres de montaje)",
    "whole process tree killed (PID namespace)": "se termina todo el árbol de procesos (espacio de nombres PID)",
    "nothing shared with the host or left behind: SysV IPC, message queues (IPC namespace)":
        "nada compartido con la máquina ni dejado atrás: IPC de SysV, colas de mensajes (espacio de nombres IPC)",
    "own host name and cgroup view (UTS, cgroup namespaces)":
        "nombre de máquina y vista de cgroups propios (espacios de nombres UTS y cgroup)",
    "unprivileged user": "usuario sin privilegios",
}
SPANISH_REFUSAL = ("esta máquina no da al entorno aislado (sandbox) espacios de nombres de Linux y el corrector no se "
                   "ejecuta como root, así que el código calificado se ejecutaría como tú: podría leer y cambiar tus "
                   "archivos. Califica como root (por ejemplo con sudo) o donde se permitan los espacios de nombres "
                   "de usuario sin privilegios (docs/security.md). Solo para código en el que confías: "
                   "--insecure-run-student-code-as-me.")


def print_banner(out=None, spanish: bool = False) -> str | None:
    """The start-up banner (English, or Spanish for a student): which defences this machine gives, each
    claim checked in a worker. Returns None when grading may start, "refused" for a machine where the
    sandbox cannot protect the grader (see launcher.refusal), "broken" when a claimed defence does not hold."""
    from autograder.sandbox.launcher import namespace_mode, refusal

    out = out or sys.stderr
    if (why := refusal()) is not None:
        print(f"error: {SPANISH_REFUSAL if spanish else why}", file=out)
        return "refused"
    defences, failed = describe_defences(), unverified_defences()
    active = sum(defences.values())
    if spanish:
        mode = {"root": "como root", "user": "en un espacio de nombres de usuario",
                None: "sin espacios de nombres"}[namespace_mode()]
        print(f"entorno aislado (sandbox): {active}/{len(defences)} defensas activas, {mode}; comprobadas en un "
              f"proceso aparte (docs/security.md)", file=out)
        states = ("FALLA ", "activa", "NO    ")
    else:
        mode = {"root": "as root", "user": "in a user namespace", None: "without namespaces"}[namespace_mode()]
        print(f"sandbox: {active}/{len(defences)} defences active, {mode}; checked in a worker "
              f"(docs/security.md)", file=out)
        states = ("FAILED", "on    ", "OFF   ")
    for name, on in defences.items():
        state = states[0] if name in failed else states[1] if on else states[2]
        print(f"  {state}  {SPANISH_DEFENCES.get(name, name) if spanish else name}", file=out)
    for problem in failed:
        if problem not in defences:
            print(f"  {states[0]}  {problem}", file=out)
    if failed:
        print("ERROR DEL CORRECTOR: una defensa del entorno aislado que esta máquina declara no se cumple; no se "
              "calificó nada (no es culpa tuya)" if spanish else
              "GRADER ERROR: a sandbox defence this machine claims does not hold in a worker; nothing was graded",
              file=out)
        return "broken"
    return None
