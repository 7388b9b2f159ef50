"""The worker: the only process where student code runs.

It starts as trusted code, locks itself down (hidden paths, resource limits,
unprivileged user), then serves requests from the grader over two pipes:

    load  -> runs the submission's cells in order, one namespace, skipping none
    call  -> calls one function with decoded arguments, answers with plain data

Once student code has run, nothing here can be trusted any more: the grader treats
every answer as data and decides everything itself. This module must import only
the standard library and the codec, so that it stays cheap to start.
"""

from __future__ import annotations

import builtins
import ctypes
import inspect
import io
import json
import os
import resource
import sys
import traceback

from autograder.sandbox import codec

MS_NOSUID, MS_NODEV, MS_BIND, MS_REC, MNT_DETACH = 0x2, 0x4, 0x1000, 0x4000, 2
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38
OUTPUT_CAP = 8_000
MESSAGE_CAP = 300


# --- lock-down (trusted, before any student code) ---------------------------------------

def lock_down(config: dict) -> None:
    if config.get("mount_namespace"):
        _hide_paths(config["hide"], config.get("files_to_hide", []))
        _mount_tmpfs(config["workdir"], "size=64m,mode=0700")
        if config.get("uid") is not None:
            _expose(config.get("expose", []), config["workdir"])
    os.chdir(config["workdir"])
    uid = config.get("uid")
    if uid is not None:
        os.chown(config["workdir"], uid, uid)
    _set_limits(config["limits"])
    _silence_standard_streams()
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    elif config.get("mount_namespace"):
        _lock_mounts()
    libc = _libc()
    # Changing credentials cleared unshare's --kill-child: die with our parent again.
    libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def _lock_mounts() -> None:
    """Without a uid to drop to (a user namespace, no root), we are 'root' of our own
    namespace and could simply unmount the masks. Entering a further user and mount
    namespace locks them: mounts inherited from a more privileged namespace cannot be
    taken apart."""
    uid, gid = os.getuid(), os.getgid()
    if _libc().unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "cannot enter a nested user namespace")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as handle:
            handle.write(text)


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _mount_tmpfs(target: str, options: str) -> None:
    if _libc().mount(b"tmpfs", target.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options.encode()) != 0:
        if os.path.lexists(target):  # vanished meanwhile: fine
            raise OSError(ctypes.get_errno(), f"cannot mount tmpfs on {target}")


def _hide_paths(directories: list[str], files: list[str]) -> None:
    # A path planned by the grader may vanish before we get here (another worker's scratch
    # directory, say): what no longer exists needs no hiding.
    for path in directories:
        if os.path.lexists(path):
            _mount_tmpfs(path, "size=1m,mode=0755")
    for path in files:
        if os.path.lexists(path) and _libc().mount(b"/dev/null", path.encode(), None, MS_BIND, None) != 0:
            if os.path.lexists(path):
                raise OSError(ctypes.get_errno(), f"cannot hide {path}")


def _bind(source: str, target: str) -> None:
    if _libc().mount(source.encode(), target.encode(), None, MS_BIND | MS_REC, None) != 0:
        raise OSError(ctypes.get_errno(), f"cannot bind {source} on {target}")


def _blocked_ancestor(path: str) -> str | None:
    """The outermost ancestor that users other than its owner cannot traverse (e.g. /root)."""
    parts = path.strip("/").split("/")
    for depth in range(1, len(parts)):
        ancestor = "/" + "/".join(parts[:depth])
        if not os.stat(ancestor).st_mode & 0o001:
            return ancestor
    return None


def _expose(paths: list[str], workdir: str) -> None:
    """Make the Python installation reachable for the unprivileged user, even under /root.

    Each path behind a closed ancestor is bound aside, the ancestor is covered with an
    open, empty tmpfs, and the path is bound back in: the worker sees the installation
    and nothing else of what that ancestor held.
    """
    staged = []
    for index, path in enumerate(paths):
        ancestor = _blocked_ancestor(path)
        if ancestor is not None and os.path.isdir(path):
            staging = os.path.join(workdir, f".stage{index}")
            os.mkdir(staging)
            _bind(path, staging)
            staged.append((path, ancestor, staging))
    for ancestor in sorted({a for _, a, _ in staged}, key=len):
        _mount_tmpfs(ancestor, "size=1m,mode=0755")
    for path, _, staging in staged:
        os.makedirs(path, mode=0o755, exist_ok=True)
        _bind(staging, path)
        _libc().umount2(staging.encode(), MNT_DETACH)
        os.rmdir(staging)


def _set_limits(limits: dict) -> None:
    mib = 1024 * 1024
    table = {
        resource.RLIMIT_AS: limits["memory_mb"] * mib,
        resource.RLIMIT_CPU: limits["cpu_seconds"],
        resource.RLIMIT_FSIZE: limits["file_size_mb"] * mib,
        resource.RLIMIT_NOFILE: limits["open_files"],
        resource.RLIMIT_NPROC: limits["processes"],
        resource.RLIMIT_CORE: 0,
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
    for frame in traceback.extract_tb(tb):
        if frame.filename in filenames:
            lines = sources[frame.filename].splitlines()
            text = lines[frame.lineno - 1].strip() if frame.lineno and frame.lineno <= len(lines) else ""
            frames.append([frame.filename, frame.lineno or 0, text[:200]])
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
        self.namespace = {"__name__": request.get("module_name", "__main__"),
                          "__builtins__": builtins, "get_ipython": _NoIPython}
        results, output = [], _CappedOutput()
        for index, cell in enumerate(request["cells"]):
            send({"op": "progress", "cell": index})
            filename = cell["filename"]
            self.sources[filename] = cell["source"]
            results.append(self._run_cell(cell["source"], filename, output))
        functions = {}
        for name, value in list(self.namespace.items()):
            if callable(value) and not name.startswith("_"):
                functions[name] = _signature(value)
        return {"op": "loaded", "cells": results, "output": output.getvalue(), "functions": functions}

    def _run_cell(self, source: str, filename: str, output) -> dict:
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = output
        try:
            exec(compile(source, filename, "exec"), self.namespace)
            return {"ok": True}
        except BaseException as exc:  # SystemExit and KeyboardInterrupt too: a cell never ends the load
            return {"ok": False, "error": _describe_exception(exc, _student_frames(exc.__traceback__, {filename}, self.sources))}
        finally:
            sys.stdout, sys.stderr = saved

    def call(self, request: dict, channel) -> dict:
        function = self.namespace.get(request["name"])
        if not callable(function):
            return {"op": "missing", "name": request["name"]}
        args = [codec.decode_value(a) for a in request["args"]]
        kwargs = {k: codec.decode_value(v) for k, v in request["kwargs"].items()}
        # Helpers graded elsewhere are served by the grader's reference during this call,
        # so that a bug in one function is not charged again in the functions that use it.
        replaced = {name: self.namespace.get(name) for name in request.get("substitute", [])}
        for name in replaced:
            self.namespace[name] = _grader_callback(name, channel)
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = _CappedOutput()
        try:
            result = function(*args, **kwargs)
        except BaseException as exc:
            return {"op": "raise", "error": _describe_exception(exc, _student_frames(exc.__traceback__, set(self.sources), self.sources))}
        finally:
            sys.stdout, sys.stderr = saved
            self.namespace.update(replaced)
        return _reply_with(result, args)


class GraderError(Exception):
    """Raised inside student code when the grader's reference helper raised."""


def _grader_callback(name: str, channel):
    send, receive = channel

    def helper(*args, **kwargs):
        send({"op": "callback", "name": name, "args": [codec.encode_value(a) for a in args],
              "kwargs": {k: codec.encode_value(v) for k, v in kwargs.items()}})
        reply = receive()
        if reply.get("op") == "callback_raise":
            error = getattr(builtins, reply.get("builtin", ""), None)
            error = error if isinstance(error, type) and issubclass(error, Exception) else GraderError
            raise error(reply.get("message", ""))
        codec.sync_in_place(args, reply["args_after"])
        same_as = reply.get("same_as")
        return args[same_as] if same_as is not None else codec.decode_value(reply["value"])

    helper.__name__ = name
    return helper


def _signature(function) -> str:
    try:
        return str(inspect.signature(function))
    except (TypeError, ValueError):
        return "(...)"


def _reply_with(result, args: list) -> dict:
    same_as = next((i for i, arg in enumerate(args) if result is arg), None)
    try:
        after = codec.argument_states(args)
        value = None if same_as is not None else codec.encode_value(result)
    except codec.UnsupportedType as exc:
        return {"op": "bad_return", "type": exc.type_name[:80]}
    except (codec.CodecError, RecursionError):
        return {"op": "bad_return", "type": "estructura demasiado profunda"}
    return {"op": "return", "value": value, "same_as": same_as, "args_after": after}


# --- the serving loop -------------------------------------------------------------------

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
            reply = student.load(request, send)
        elif request["op"] == "call":
            reply = student.call(request, (send, receive))
        else:
            reply = {"op": "error", "message": f"unknown op {request['op']!r}"}
        try:
            send(reply)
        except (codec.CodecError, ValueError):
            send({"op": "bad_return", "type": "respuesta demasiado grande"})


def main() -> None:
    config = json.loads(sys.argv[1])
    try:
        lock_down(config)
    except Exception as exc:  # tell the grader why, instead of dying silently
        codec.write_frame(config["out_fd"], {"op": "fatal", "message": f"lock-down failed: {exc!r}"[:500]})
        os._exit(1)
    serve(config["in_fd"], config["out_fd"])
    os._exit(0)  # threads the student left running must not keep the worker alive


if __name__ == "__main__":
    main()
