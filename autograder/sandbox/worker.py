"""The worker: the only process where student code runs.

It starts as trusted code, locks itself down (a minimal read-only root, resource limits,
unprivileged user), then serves requests from the grader over two pipes:

    load  -> runs the submission's cells in order, one namespace, skipping none
    call  -> calls one function with decoded arguments, answers with plain data

Once student code has run, nothing here can be trusted any more: the grader treats
every answer as data and decides everything itself. This module must import only
the standard library and the codec, and of the standard library only what every worker needs
(no inspect, traceback, socket, platform or ast: together a third of a worker's start), so that it stays
cheap to start.
"""

from __future__ import annotations

import builtins
import ctypes
import io
import json
import os
import resource
import sys
import types

from autograder import OPTIONAL_IMPORTS_SKIPPED
from autograder.sandbox import codec, magics, served

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 0x1, 0x2, 0x4, 0x8, 0x20
MS_BIND, MS_REC, MNT_DETACH = 0x1000, 0x4000, 2
PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}  # syscall numbers; glibc has no wrapper
WORKDIR = "/tmp/trabajo"  # inside the worker's root: the student's empty working directory
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38
OUTPUT_CAP = 8_000
MESSAGE_CAP = 300


# --- lock-down (trusted, before any student code) ---------------------------------------

def lock_down(config: dict) -> None:
    uid = config.get("uid")
    if config.get("ipc_namespace"):
        _close_system_v_ipc()
    if config.get("uts_namespace"):
        _set_host_name(b"entrega")
    if config.get("mount_namespace"):
        _enter_minimal_root(config["root"], config["visible"])
        if uid is None:
            _lock_mounts()
    else:
        os.chdir(config["root"])
    _set_limits(config["limits"])
    _silence_standard_streams()
    if uid is not None:
        os.chown(".", uid, uid)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    libc = _libc()
    # Changing credentials cleared unshare's --kill-child: die with our parent again.
    libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def _close_system_v_ipc() -> None:
    """No SysV shared memory, semaphores or message queues, and no POSIX message queues.

    Students need none of them, and shared-memory segments are memory that RLIMIT_AS does
    not count while no process has them attached. The limits belong to the worker's own IPC
    namespace (the host's are untouched), are set while the worker is still privileged there,
    and cannot be raised again once it has dropped to its user."""
    for name, value in (("kernel/shmmni", "0"), ("kernel/shmall", "0"), ("kernel/shmmax", "0"),
                        ("kernel/msgmni", "0"), ("kernel/msgmnb", "0"), ("kernel/sem", "0 0 0 0"),
                        ("fs/mqueue/queues_max", "0")):
        with open(f"/proc/sys/{name}", "w") as handle:
            handle.write(value)


def _enter_minimal_root(root: str, visible: list[str]) -> None:
    """Make a new root holding only what Python needs, and pivot into it.

    An allow-list, not a deny-list: the hidden suites, the reference solutions, other
    submissions, other checkouts and other courses are simply not there, wherever they
    live on the machine. Everything bound in is read-only; /tmp is a fresh, small tmpfs
    that holds the working directory.
    """
    _mount_tmpfs(root, "size=1m,mode=0755")
    os.makedirs(root + "/tmp")
    _mount_tmpfs(root + "/tmp", "size=64m,mode=1777")
    for path in visible:  # after /tmp: a virtualenv may live under /tmp (a CI checkout, say)
        target = root + path
        if os.path.islink(path):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(os.readlink(path), target)
        elif os.path.isdir(path):
            os.makedirs(target, exist_ok=True)
            _bind(path, target)
            _read_only(target)
    os.makedirs(root + "/dev")
    for device in ("null", "zero", "random", "urandom"):
        open(f"{root}/dev/{device}", "w").close()
        _bind(f"/dev/{device}", f"{root}/dev/{device}")
    os.makedirs(root + "/proc")
    _bind("/proc", root + "/proc")  # the PID namespace's own /proc (unshare --mount-proc)
    os.makedirs(root + WORKDIR)
    os.makedirs(root + "/.old")
    if _libc().syscall(PIVOT_ROOT[os.uname().machine], root.encode(), f"{root}/.old".encode()) != 0:
        raise OSError(ctypes.get_errno(), "pivot_root failed")
    os.chdir("/")
    if _libc().umount2(b"/.old", MNT_DETACH) != 0:
        raise OSError(ctypes.get_errno(), "cannot detach the old root")
    os.rmdir("/.old")
    os.chdir(WORKDIR)


def _read_only(target: str) -> None:
    # A bind mount keeps the source's flags, and a user namespace may not drop locked ones:
    # ask for read-only together with each combination of them.
    for extra in (0, MS_NOSUID, MS_NOSUID | MS_NODEV, MS_NOSUID | MS_NODEV | MS_NOEXEC):
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_REC | extra
        if _libc().mount(None, target.encode(), None, flags, None) == 0:
            return
    raise OSError(ctypes.get_errno(), f"cannot make {target} read-only")


def _lock_mounts() -> None:
    """Without a uid to drop to (a user namespace, no root), we are 'root' of our own
    namespace and could undo the mounts above. Entering a further user and mount
    namespace locks them: mounts inherited from a more privileged namespace cannot be
    taken apart or made writable again."""
    uid, gid = os.getuid(), os.getgid()
    if _libc().unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "cannot enter a nested user namespace")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as handle:
            handle.write(text)


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _set_host_name(name: bytes) -> None:
    # libc's own call, as socket.sethostname makes it: importing socket cost a worker 3 ms of its start.
    if _libc().sethostname(name, len(name)) != 0:
        raise OSError(ctypes.get_errno(), "cannot set the host name")


def _mount_tmpfs(target: str, options: str) -> None:
    if _libc().mount(b"tmpfs", target.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options.encode()) != 0:
        raise OSError(ctypes.get_errno(), f"cannot mount tmpfs on {target}")


def _bind(source: str, target: str) -> None:
    if _libc().mount(source.encode(), target.encode(), None, MS_BIND | MS_REC, None) != 0:
        raise OSError(ctypes.get_errno(), f"cannot bind {source} on {target}")


def _set_limits(limits: dict) -> None:
    mib = 1024 * 1024
    table = {
        resource.RLIMIT_AS: limits["memory_mb"] * mib,
        resource.RLIMIT_CPU: limits["cpu_seconds"],
        resource.RLIMIT_FSIZE: limits["file_size_mb"] * mib,
        resource.RLIMIT_NOFILE: limits["open_files"],
        resource.RLIMIT_NPROC: limits["processes"],
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_MSGQUEUE: 0,  # no POSIX message queue, even without an IPC namespace
    }
    for kind, value in table.items():
        resource.setrlimit(kind, (value, value))


def _silence_standard_streams() -> None:
    # Output written straight to fd 1/2 (os.write, C extensions) goes nowhere; Python-level
    # output is captured per request below.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


# --- the student namespace --------------------------------------------------------------

class _CappedOutput(io.TextIOBase):
    """A stdout that keeps the first few thousand characters and drops the rest."""

    def __init__(self):
        self.parts, self.size = [], 0

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        if self.size < OUTPUT_CAP:
            self.parts.append(text[: OUTPUT_CAP - self.size])
        self.size += len(text)
        return len(text)

    def getvalue(self) -> str:
        value = "".join(self.parts)
        return value + ("\n[… salida recortada …]" if self.size > OUTPUT_CAP else "")


class _NoIPython:
    """Stands in for get_ipython(): magics and shell escapes become no-ops."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def _student_frames(tb, filenames: set[str], sources: dict[str, str]) -> list[list]:
    frames = []
    while tb is not None:
        filename, lineno = tb.tb_frame.f_code.co_filename, tb.tb_lineno
        if filename in filenames:
            lines = sources[filename].splitlines()
            text = lines[lineno - 1].strip() if lineno and lineno <= len(lines) else ""
            frames.append([filename, lineno or 0, text[:200]])
        tb = tb.tb_next
    return frames[-8:]


def _describe_exception(exc: BaseException, frames: list[list]) -> dict:
    # The grader picks the first name here that really is a builtin exception.
    builtin = [k.__name__ for k in type(exc).__mro__ if k.__module__ == "builtins"][:12]
    try:
        message = str(exc)[:MESSAGE_CAP]
    except BaseException:  # a hostile __str__ must not break the reply
        message = ""
    return {"type": type(exc).__name__[:80], "builtin": builtin, "message": message, "frames": frames}


class Student:
    def __init__(self):
        self.namespace: dict = {}
        self.sources: dict[str, str] = {}

    def load(self, request: dict, send) -> dict:
        name = str(request.get("module_name", "__main__"))
        if name in sys.modules:  # a notebook runs as __main__, as in Jupyter; no module is ever shadowed
            self.namespace = {"__name__": name}
        else:
            # A .py submission runs as the module it is: @dataclass, pickle and typing look their
            # module up in sys.modules.
            module = types.ModuleType(name)
            sys.modules[name] = module
            self.namespace = module.__dict__
        self.namespace.update({"__builtins__": builtins, "get_ipython": _NoIPython})
        results, output = [], _CappedOutput()
        for index, cell in enumerate(request["cells"]):
            send({"op": "progress", "cell": index})
            filename = cell["filename"]
            source = self.sources[filename] = cell["source"]
            results.append(self._run_cell(source, filename, output, bool(request.get("ipython"))))
        functions = [name for name, value in list(self.namespace.items()) if callable(value) and not name.startswith("_")]
        return {"op": "loaded", "cells": results, "output": output.getvalue(), "functions": functions}

    def _run_cell(self, source: str, filename: str, output, ipython: bool) -> dict:
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = output
        try:
            if ipython:
                source = self.sources[filename] = magics.neutralize(source)
            exec(compile(source, filename, "exec"), self.namespace)
            return {"ok": True}
        except BaseException as exc:  # SystemExit and KeyboardInterrupt too: a cell never ends the load
            frames = _student_frames(exc.__traceback__, {filename}, self.sources)
            if isinstance(exc, SyntaxError) and exc.filename == filename and exc.lineno:
                frames.append([filename, exc.lineno, ""])  # compile() errors have no frame of their own
            return {"ok": False, "error": _describe_exception(exc, frames)}
        finally:
            sys.stdout, sys.stderr = saved

    def call(self, request: dict, channel) -> dict:
        function = self.namespace.get(request["name"])
        if not callable(function):
            return {"op": "missing", "name": request["name"]}
        served_calls: list[str] = []
        reply = self._attempt(function, request, request.get("substitute", []), channel, served_calls)
        if reply["op"] == "raise" and served_calls:
            # The function failed after being served the reference's helpers: it may rely on its
            # own helpers' conventions (a deque back from its own merge, say). Grade it as written.
            reply = self._attempt(function, request, [], channel, served_calls)
        return reply

    def probe(self, request: dict, send) -> dict:
        """Call each function once, all at the same time, each in a copy of this process, and say
        which copies finish: the grader judges the ones that do not, within one call's limit, as
        hung. The copies answer nothing else and change nothing here; a helper the grader would
        serve raises in them instead (the grader's channel is this process's alone)."""
        running = {}
        for index, call in enumerate(request["calls"]):
            function = self.namespace.get(call["name"])
            if not callable(function):
                send({"op": "probed", "index": index})
                continue
            pid = os.fork()
            if pid == 0:
                try:
                    for name in call.get("substitute", []):
                        self.namespace[name] = _not_served
                    sys.stdout = sys.stderr = _CappedOutput()
                    function(*[codec.decode_value(a) for a in call["args"]],
                             **{k: codec.decode_value(v) for k, v in call["kwargs"].items()})
                finally:
                    os._exit(0)
            running[pid] = index
        while running:
            try:
                pid, _ = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            if pid in running:
                send({"op": "probed", "index": running.pop(pid)})
        return {"op": "probe_done"}

    def _attempt(self, function, request: dict, substitute, channel, served_calls: list) -> dict:
        args = [codec.decode_value(a) for a in request["args"]]
        kwargs = {k: codec.decode_value(v) for k, v in request["kwargs"].items()}
        # Helpers graded elsewhere are served by the grader's reference during this call,
        # so that a bug in one function is not charged again in the functions that use it.
        replaced = {name: self.namespace.get(name) for name in substitute}
        for name, own in replaced.items():
            self.namespace[name] = served.served_helper(name, own, channel, served_calls)
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = _CappedOutput()
        try:
            result = function(*args, **kwargs)
        except BaseException as exc:
            return {"op": "raise", "error": _describe_exception(exc, _student_frames(exc.__traceback__, set(self.sources), self.sources))}
        finally:
            sys.stdout, sys.stderr = saved
            self.namespace.update(replaced)
        return reply_with(result, args, request["args"] if request.get("omit_unchanged") else None)


def _not_served(*args, **kwargs):
    raise RuntimeError("función no disponible en esta prueba")


def reply_with(result, args: list, sent: list | None = None) -> dict:
    """The reply to a call that returned `result`. Each list, dict, set or array argument goes back as
    the call left it. With `sent` (the arguments as they were received, still encoded), one the call
    left exactly as it came goes back as None: the grader holds it already, and the vocabularies and
    merge tables passed to every call would otherwise cross the boundary twice per call for nothing.
    An argument returned as the result (`same_as`) always goes back."""
    same_as = next((i for i, arg in enumerate(args) if result is arg), None)
    try:
        after = codec.argument_states(args)
        if sent is not None:
            after = [None if i != same_as and state == received else state
                     for i, (state, received) in enumerate(zip(after, sent))]
        value = None if same_as is not None else codec.encode_value(result)
    except codec.UnsupportedType as exc:
        return {"op": "bad_return", "type": exc.type_name[:80]}
    except codec.TooManyValues:
        return {"op": "bad_return", "type": codec.TooManyValues.reply_type}
    except (codec.CodecError, RecursionError):
        return {"op": "bad_return", "type": "estructura demasiado profunda"}
    return {"op": "return", "value": value, "same_as": same_as, "args_after": after}


# --- the serving loop -------------------------------------------------------------------

def _with_arguments(call: dict) -> dict:
    """A call sent ahead carries its arguments as the grader recorded them: [args, kwargs] (codec.wire_of)."""
    args, kwargs = call["wire"]
    return {**call, "args": args, "kwargs": kwargs}


def serve(in_fd: int, out_fd: int) -> None:
    student = Student()

    def send(message):
        codec.write_frame(out_fd, message)

    def receive():
        return codec.read_frame(in_fd)

    send({"op": "ready"})
    while True:
        try:
            request = codec.read_frame(in_fd)
        except EOFError:
            return
        if request["op"] == "load":
            replies = [student.load(request, send)]
        elif request["op"] == "call":
            replies = [student.call(request, (send, receive))]
        elif request["op"] == "probe":
            replies = [student.probe(request, send)]
        elif request["op"] == "batch":
            # Calls sent ahead in one frame: each answer goes out as soon as it is ready, so the
            # grader's clock for the next call starts from it, and a hang stops the batch there.
            replies = (student.call(_with_arguments(call), (send, receive)) for call in request["calls"])
        else:
            replies = [{"op": "error", "message": f"unknown op {request['op']!r}"}]
        for reply in replies:
            try:
                send(reply)
            except (codec.CodecError, ValueError):
                send({"op": "bad_return", "type": "respuesta demasiado grande"})


def main() -> None:
    config = json.loads(sys.argv[1])
    for name in OPTIONAL_IMPORTS_SKIPPED:  # the grader's own shortcut (autograder/__init__.py), not the student's
        if sys.modules.get(name, ...) is None:
            del sys.modules[name]
    try:
        lock_down(config)
    except Exception as exc:  # tell the grader why, instead of dying silently
        codec.write_frame(config["out_fd"], {"op": "fatal", "message": f"lock-down failed: {exc!r}"[:500]})
        os._exit(1)
    serve(config["in_fd"], config["out_fd"])
    os._exit(0)  # threads the student left running must not keep the worker alive


if __name__ == "__main__":
    main()
