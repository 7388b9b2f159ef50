"""Starting, talking to and killing sandboxed workers (the grader's side).

A worker is one process tree. When the machine allows it, it lives in its own
network, mount and PID namespaces (``unshare``), so that killing it kills every
process it forked, it has no network, and its root directory holds nothing but
the system directories and this Python installation (see ``visible_paths``):
hidden suites, reference solutions and other submissions do not exist for it. As root it also drops to an unprivileged user. Where a
defence is not available the grader says so at start-up (``describe_defences``).
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import functools
import importlib.util
import json
import os
import py_compile
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from autograder.sandbox import codec

# The key under which a message read from a known frame carries its answer (Worker.receive): an object,
# so that no message a worker writes, whose keys are JSON strings, can carry one.
KNOWN_ANSWER = object()


class WorkerFailure(Exception):
    """The worker did not answer properly: it died, timed out or broke the protocol."""


class SandboxError(RuntimeError):
    """The sandbox itself failed (a grader problem, never the student's)."""


class WorkerTimeout(WorkerFailure):
    pass


class WorkerCrashed(WorkerFailure):
    pass


class RepliesOverBudget(WorkerFailure):
    """The worker's frames have carried more values than its ReplyBudget allows."""


@dataclasses.dataclass
class ReplyBudget:
    """How many values (JSON arrays: every list, tuple, dict entry and tagged scalar) the frames of
    a submission's workers may still carry. Reading them is the grader's work, not the worker's: a
    reply of 100,000 values costs the grader about half a second to parse, rebuild and check, time
    no call limit sees, so without a cap a submission could make the grader work minutes."""

    values_left: int

    def charge(self, values: int) -> None:
        if values > self.values_left:
            self.values_left = 0
            raise RepliesOverBudget(f"a frame of {values} values, past the submission's reply budget")
        self.values_left -= values


@dataclasses.dataclass(frozen=True)
class Limits:
    """Per-worker resource limits; course.yml can override each one."""

    call_seconds: float = 10.0
    load_seconds: float = 15.0
    submission_seconds: float = 300.0
    memory_mb: int = 1024
    cpu_seconds: int = 300
    processes: int = 32
    file_size_mb: int = 16
    open_files: int = 64


@functools.lru_cache(maxsize=None)
def namespace_mode() -> str | None:
    """'root' or 'user' when unshare can give a worker its own namespaces, else None.

    AUTOGRADER_NAMESPACES=off says "none" outright: for containers that refuse unshare
    (Gradescope's, many CI runners), and for testing the grader as it runs there."""
    unshare = shutil.which("unshare")
    if not unshare or os.environ.get("AUTOGRADER_NAMESPACES", "").lower() in ("off", "0", "no"):
        return None
    candidates = ["root"] if os.geteuid() == 0 else ["user"]
    for mode in candidates:
        if _unshare_works(_base_prefix(mode)):
            return mode
    return None


# Every worker needs these: its own network (none), mounts (a minimal root), process tree
# (killed whole) and SysV IPC / POSIX message queues (nothing shared with the host, nothing
# left behind: the kernel frees an IPC namespace with its last process).
REQUIRED_NAMESPACES = ("--net", "--mount", "--pid", "--ipc")
# Nice to have where the kernel allows it: its own host name and cgroup view.
OPTIONAL_NAMESPACES = ("--uts", "--cgroup")


def _base_prefix(mode: str) -> list[str]:
    user = ["--user", "--map-root-user"] if mode == "user" else []
    return ["unshare", *user, *REQUIRED_NAMESPACES, "--fork", "--kill-child", "--mount-proc"]


def _unshare_works(prefix: list[str]) -> bool:
    try:
        return subprocess.run(prefix + ["true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.lru_cache(maxsize=None)
def optional_namespaces(mode: str | None) -> tuple[str, ...]:
    """The optional namespaces (UTS, cgroup) that unshare grants on this machine, in `mode`."""
    if mode is None:
        return ()
    return tuple(flag for flag in OPTIONAL_NAMESPACES if _unshare_works(_base_prefix(mode)[:1] + [flag] + _base_prefix(mode)[1:]))


def _unshare_prefix(mode: str) -> list[str]:
    prefix = _base_prefix(mode)
    return _dies_with_its_parent() + prefix[:1] + list(optional_namespaces(mode)) + prefix[1:]


def _dies_with_its_parent() -> list[str]:
    """`unshare --kill-child` takes its namespace down when it dies, but nothing kills `unshare`
    when the grading process that started it is killed (over its budget, a cluster worker lost,
    kill -9 of the command): the sandbox, a fork bomb included, would run on as an orphan.
    setpriv (util-linux, like unshare) makes the kernel SIGKILL it when its parent goes; the
    parent is the thread that starts the worker, which is always the grading process's main thread."""
    return ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []


def describe_defences() -> dict[str, bool]:
    """Which defences are active on this machine, by name (for the start-up banner and docs)."""
    mode = namespace_mode()
    return {
        "separate worker process": True,
        "resource limits (CPU, memory, processes, file size, open files)": True,
        "wall-clock limits per call and per submission": True,
        "clean environment and empty working directory": True,
        "no network (network namespace)": mode is not None,
        "nothing but Python visible: hidden suites, solutions, other submissions (mount namespace)": mode is not None,
        "whole process tree killed (PID namespace)": mode is not None,
        "nothing shared with the host or left behind: SysV IPC, message queues (IPC namespace)": mode is not None,
        "own host name and cgroup view (UTS, cgroup namespaces)": len(optional_namespaces(mode)) == len(OPTIONAL_NAMESPACES),
        "unprivileged user": _drops_privileges(mode),
    }


INSECURE_OPT_IN = "AUTOGRADER_INSECURE_RUN_STUDENT_CODE_AS_ME"  # set by --insecure-run-student-code-as-me


def refusal() -> str | None:
    """Why this machine must not grade, or None.

    An ordinary user without namespaces has nothing to put between a submission and their
    own files: the worker runs as them, so it can read the hidden suites and rewrite the
    grader itself (the next run then scores anything 100), and kill(-1) kills every process
    they own. Grading there needs an explicit opt-in that names the risk."""
    if namespace_mode() is not None or os.geteuid() == 0 or os.environ.get(INSECURE_OPT_IN) == "1":
        return None
    return ("this machine gives the sandbox no Linux namespaces and the grader does not run as root, so "
            "student code would run as you: it could read the hidden suites and solutions, change the "
            "grader's own files and kill your processes. Grade as root (e.g. with sudo, as the CI templates "
            "do), or where unprivileged user namespaces are allowed (sysctl kernel.unprivileged_userns_clone=1; "
            "on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0). Only for submissions you "
            "trust: --insecure-run-student-code-as-me.")


def _drops_privileges(mode: str | None) -> bool:
    """Root drops to a uid of its own, with or without namespaces (a container without unshare
    still gets an unprivileged worker that cannot read root-only files). In a user namespace the
    worker is already an ordinary user outside it, and no other uid is mapped inside."""
    return os.geteuid() == 0 and mode != "user"


def _worker_uid(role: str) -> int:
    # A uid per grading process keeps concurrent workers from sharing a process count; the
    # reference's worker gets another, so that the student's cannot signal or trace it.
    return (65000 if role == "reference" else 61000) + os.getpid() % 4000


SYSTEM_PATHS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr", "/etc")


def visible_paths() -> list[str]:
    """The allow-list of a worker's root: system directories and this Python installation.

    Nothing else exists inside the worker: not the project, not the course directory, not
    other submissions, not other checkouts of the course elsewhere on the machine."""
    wanted = [Path(p) for p in SYSTEM_PATHS if os.path.lexists(p)]
    python = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    python.update(Path(p).resolve() for p in sys.path if p and "site-packages" in p and Path(p).is_dir())
    covered = [p.resolve() for p in wanted]
    for path in sorted(python):
        if not any(path == c or c in path.parents for c in covered):
            wanted.append(path)
            covered.append(path)
    return [str(p) for p in wanted]


def _count_own_processes() -> int:
    uid = os.getuid()
    return sum(1 for entry in Path("/proc").iterdir() if entry.name.isdigit() and _owner(entry) == uid)


def _owner(entry: Path):
    try:
        return entry.stat().st_uid
    except OSError:
        return None


# A budget is measured as an idle machine would measure it (Clock), and wall-clock time is only a
# safety net, this many times the budget: a machine shared with other grading jobs must not turn a
# slow-but-finishing call into a time-out, nor a time-out into a grader failure.
WALL_SAFETY_FACTOR = 4


class Clock:
    """Time a worker spends on a request, as on an idle machine: wall-clock time minus the time its
    main process spent runnable but waiting for a CPU (the kernel's schedstat). On a loaded machine a
    busy loop still times out after `seconds` of its own running, and a `sleep` after `seconds` of
    sleeping; where schedstat cannot be read, this is wall-clock time. However it is measured, no
    request outlives WALL_SAFETY_FACTOR times its budget of wall-clock time.

    `charge` adds time spent for it elsewhere (a reference helper serving it) while `paused`."""

    def __init__(self, seconds: float, pid_of=lambda: None):
        self.seconds = seconds
        self._pid_of = pid_of
        self._pid = pid_of()
        self._started = time.monotonic()
        self._waited_before = _runqueue_wait(self._pid)  # 0 if not known yet: it waited since it started
        self._wall_end = self._started + seconds * WALL_SAFETY_FACTOR
        self._excluded = 0.0  # wall-clock time while paused
        self._charged = 0.0

    def used(self) -> float:
        if self._pid is None:
            self._pid = self._pid_of()
        waited = max(0.0, _runqueue_wait(self._pid) - self._waited_before)
        return max(0.0, time.monotonic() - self._started - self._excluded - waited) + self._charged

    def remaining(self) -> float:
        return min(self.seconds - self.used(), self._wall_end - time.monotonic())

    def charge(self, seconds: float) -> None:
        self._charged += seconds

    def exclude(self, seconds: float) -> None:
        """Leave out of the measure time spent for the grader while the worker waited (callbacks)."""
        self._excluded += max(0.0, seconds)

    @contextlib.contextmanager
    def paused(self):
        started = time.monotonic()
        try:
            yield
        finally:
            self._excluded += time.monotonic() - started


def _runqueue_wait(pid: int | None) -> float:
    """Seconds the process `pid` has spent runnable but not running (0 if unknown)."""
    return 0.0 if pid is None else _schedstat_wait(f"/proc/{pid}/schedstat")


def own_runqueue_wait() -> float:
    """Seconds the calling thread has spent runnable but not running (0 if unknown)."""
    return _schedstat_wait(f"/proc/self/task/{threading.get_native_id()}/schedstat")


class _OpenSchedstats(threading.local):
    """Each thread's open schedstat files. They are read thousands of times per submission (every
    call, callback and served helper): pread on a file kept open costs 4 µs, against 22 µs to open,
    read and close it. A file opened for a process or thread stays that one's (a pid used again by
    another process is not confused with it), and reading it fails once it is gone."""

    KEPT = 8

    def __init__(self):
        self.descriptors: dict[str, int] = {}

    def read(self, path: str) -> bytes:
        descriptor = self.descriptors.get(path)
        if descriptor is None:
            descriptor = self.descriptors[path] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            if len(self.descriptors) > self.KEPT:
                os.close(self.descriptors.pop(next(iter(self.descriptors))))
        try:
            return os.pread(descriptor, 256, 0)
        except OSError:
            os.close(self.descriptors.pop(path))
            raise


_open_schedstats = _OpenSchedstats()


def _schedstat_wait(path: str) -> float:
    try:
        return int(_open_schedstats.read(path).split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


class Worker:
    """One sandboxed worker process and the pipes to it."""

    def __init__(self, limits: Limits, role: str = "student", wait: bool = True):
        """Start a worker; with `wait=False`, return at once and let `ready()` wait for it later
        (its interpreter starts meanwhile: about 40 ms that the caller can spend elsewhere)."""
        self.limits = limits
        self._ready = False
        self._main_pid: int | None = None  # the worker's own Python process, once it exists
        if (why := refusal()) is not None:
            raise SandboxError(why)
        interpreter = _worker_interpreter_arguments()
        # The worker's new root (or, without namespaces, its working directory).
        self.workdir = tempfile.mkdtemp(prefix=f"{workdir_prefix(os.getpid())}{_start_time(os.getpid())}-")
        mode = namespace_mode()
        config = {"root": self.workdir, "mount_namespace": mode is not None, "uid": None,
                  "ipc_namespace": mode is not None, "uts_namespace": "--uts" in optional_namespaces(mode),
                  "visible": visible_paths() if mode is not None else []}
        processes = limits.processes
        if _drops_privileges(mode):
            config["uid"] = _worker_uid(role)
        else:
            processes += _count_own_processes()  # the limit counts every process of this uid
        config["limits"] = dataclasses.asdict(limits) | {"processes": processes}
        self._uid, self._namespaced = config["uid"], mode is not None
        if self._uid is not None and mode is None:
            _check_python_readable_by_others()
        self._unread = bytearray()  # read from the pipe, not yet taken as a frame
        self.reply_budget: ReplyBudget | None = None  # the submission's, set by its session; None: the grader's own
        request_read, self._request_write = os.pipe()
        self._reply_read, reply_write = os.pipe()
        config["in_fd"], config["out_fd"] = request_read, reply_write
        command = [_worker_executable(), *interpreter, json.dumps(config)]
        if mode is not None:
            command = _unshare_prefix(mode) + command
        self.process = subprocess.Popen(
            command, pass_fds=(request_read, reply_write), env=_clean_environment(),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=self.workdir, start_new_session=True,
        )
        os.close(request_read)
        os.close(reply_write)
        if wait:
            self.ready()

    def ready(self) -> "Worker":
        """Wait for the worker's greeting (once): it is locked down and serving."""
        if self._ready:
            return self
        try:
            hello = self.receive(self.limits.load_seconds)
        except WorkerFailure:
            self.close()
            raise
        if hello.get("op") != "ready":
            self.close()
            raise SandboxError(f"the sandboxed worker did not start: {hello.get('message', hello)}")
        self._ready = True
        return self

    def send(self, message: dict | bytes) -> None:
        try:
            codec.write_frame(self._request_write, message)
        except OSError as exc:
            raise WorkerCrashed("the worker is gone") from exc

    def clock(self, seconds: float) -> Clock:
        """A budget of `seconds` for this worker, measured as on an idle machine (Clock)."""
        return Clock(seconds, self.main_pid)

    def main_pid(self) -> int | None:
        """The host pid of the worker's Python process: unshare's only child when it has namespaces."""
        if self._main_pid is None:
            if not self._namespaced:
                self._main_pid = self.process.pid
            elif children := _children(self.process.pid):
                self._main_pid = children[0]
        return self._main_pid

    def receive(self, seconds: "float | Clock", on_progress=None, known: dict | None = None) -> dict:
        """The worker's next message. `known` (codec.known_callbacks): callbacks recognised by their
        frame's bytes, given as {"op": "callback", "name": helper, KNOWN_ANSWER: the answer's frame}."""
        deadline = seconds if isinstance(seconds, Clock) else self.clock(seconds)
        while True:
            waited = own_runqueue_wait()
            message = self._read_frame(deadline, known)
            if message["op"] == "progress" and on_progress is not None:
                on_progress(message)  # the worker runs on meanwhile
                continue
            # The worker has answered, or asks the grader something, and waits from now on: this process's
            # own wait for a CPU before it could read the frame is not the worker's time. On a loaded
            # machine, thousands of callbacks in one call made it seconds, and a time-out under load only.
            deadline.exclude(own_runqueue_wait() - waited)
            return message

    def request(self, message: dict, seconds: "float | Clock", on_progress=None) -> dict:
        self.send(message)
        return self.receive(seconds, on_progress=on_progress)

    def _read_frame(self, deadline: Clock, known: dict | None = None) -> dict:
        (size,) = struct.unpack(">I", self._read_exact(4, deadline))
        if size > codec.MAX_FRAME_BYTES:
            raise WorkerCrashed("the worker sent an oversized message")
        payload = self._read_exact(size, deadline)
        if self.reply_budget is not None:
            self.reply_budget.charge(codec.values_in(payload))
        if known is not None and (hit := known.get(payload)) is not None:
            return {"op": "callback", "name": hit[0], KNOWN_ANSWER: hit[1]}
        try:
            return codec.loads_message(payload)
        except codec.CodecError as exc:
            raise WorkerCrashed(f"the worker broke the protocol: {exc}") from exc

    def _read_exact(self, size: int, deadline: Clock) -> bytes:
        # Whatever the pipe holds is read at once: answers sent ahead in a batch arrive together.
        while len(self._unread) < size:
            left = deadline.remaining()
            if left <= 0:
                raise WorkerTimeout("the worker did not answer in time")
            if not select.select([self._reply_read], [], [], left)[0]:
                continue  # the clock says whether that wait was the worker's own time or the machine's
            chunk = os.read(self._reply_read, min(max(size - len(self._unread), 1 << 16), 1 << 20))
            if not chunk:
                raise WorkerCrashed("the worker died")
            self._unread += chunk
        data = bytes(self._unread[:size])
        del self._unread[:size]
        return data

    def close(self) -> None:
        for fd in (self._request_write, self._reply_read):
            try:
                os.close(fd)
            except OSError:
                pass
        # The namespace's first process may have left unshare's process group: kill it by pid;
        # the kernel then kills everything else in its PID namespace.
        for pid in [*_children(self.process.pid), self.process.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self._uid is not None and not self._namespaced:
            _kill_every_process_of(self._uid)  # no PID namespace: a setsid() child escaped the group
            remove_leftovers(self._uid)  # no IPC or mount namespace: what it made would outlive it
        self.process.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


WORKDIR_NAME = "autograder-worker-"


def workdir_prefix(grading_pid: int) -> str:
    """The start of the name of every worker folder a grading process makes: this boot of this
    machine and its pid namespace, then the process's pid, say whose it is. The process's start time
    follows, so that a pid used again is not taken for the process that left the folder."""
    return f"{WORKDIR_NAME}{_pid_space()}-{grading_pid}-"


@functools.lru_cache(maxsize=None)
def _pid_space() -> str:
    """Where a pid means one process: this boot (the kernel's boot id) and this pid namespace (its
    inode). /tmp may be shared with containers or survive a reboot, and a pid read elsewhere names
    another process. Empty if either cannot be read: then no folder is ever judged abandoned."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip().replace("-", "")[:12]
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return ""
    return f"{boot}.{namespace}" if boot else ""


def _start_time(pid: int) -> str | None:
    """When process `pid` started, in clock ticks since boot (/proc/PID/stat); None if there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[19] if len(fields) > 19 else None


def sweep_abandoned_workdirs() -> list[str]:
    """Remove the worker folders whose grading process is gone, with no parent left to remove them: a
    cluster host that was lost, a single grading killed with SIGKILL. Only folders made in this boot and
    pid namespace whose process no longer runs (no such pid, or one started at another time) are
    touched: a grading process that runs, or has ended but is not reaped yet, keeps its own."""
    if not _pid_space():
        return []

    def abandoned(rest: str) -> bool:  # rest: "PID-START-random"
        pid, _, rest = rest.partition("-")
        started = rest.partition("-")[0]
        return pid.isdigit() and started.isdigit() and _start_time(int(pid)) != started

    return _remove_workdirs(f"{WORKDIR_NAME}{_pid_space()}-", abandoned)


def remove_workdirs_of(grading_pid: int) -> list[str]:
    """Remove the worker folders that a grading process, killed before it could close its workers, left
    in the temporary directory. Call it once that process is gone: each was the root of a sandbox that
    died with it (setpriv --pdeathsig), and a class of thousands would otherwise leave thousands."""
    return _remove_workdirs(workdir_prefix(grading_pid), lambda rest: True)


def _remove_workdirs(prefix: str, chosen) -> list[str]:
    """Remove this user's folders in the temporary directory named `prefix` + a rest that is `chosen`."""
    removed = []
    with contextlib.suppress(OSError), os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            if not entry.name.startswith(prefix) or not chosen(entry.name[len(prefix):]):
                continue
            try:
                if entry.stat(follow_symlinks=False).st_uid != os.getuid() or not entry.is_dir(follow_symlinks=False):
                    continue
            except OSError:
                continue
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    return removed


def _check_python_readable_by_others() -> None:
    """Without namespaces the worker reads Python from its real place, as another user."""
    for prefix in {sys.base_prefix, sys.prefix}:
        path = Path(prefix).resolve()
        for folder in [path, *path.parents]:
            if not folder.stat().st_mode & 0o001:
                raise SandboxError(
                    f"the worker runs as an unprivileged user, but it cannot reach Python at {prefix}: "
                    f"{folder} is not searchable by others (mode {folder.stat().st_mode & 0o777:o}). "
                    f"Install Python (and the virtualenv) where every user can read it, or allow "
                    f"Linux namespaces (unshare) so that the worker gets its own root.")


def _kill_every_process_of(uid: int) -> None:
    """kill(-1) as `uid`: the kernel kills every process of that uid, wherever it went."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


SHARED_WRITABLE_DIRECTORIES = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue")  # always, even if find fails


@functools.lru_cache(maxsize=None)
def writable_directories() -> tuple[str, ...]:
    """Every directory on the machine where a worker's uid could leave a file: the usual shared ones,
    and any other that is world-writable (/run/lock, an nbgrader exchange). Found once per batch with
    find(1), before the grading processes fork (prepare_batch), in a second or two. A directory the
    uid could make is inside one of these, and is removed with everything in it."""
    found = [d for d in SHARED_WRITABLE_DIRECTORIES if os.path.isdir(d)]
    try:
        listed = subprocess.run(["find", "/", "(", "-path", "/proc", "-o", "-path", "/sys", ")", "-prune", "-o",
                                 "-type", "d", "-perm", "-0002", "-print0"], capture_output=True, timeout=120).stdout
    except (OSError, subprocess.TimeoutExpired):
        listed = b""
    found += [d for d in listed.decode(errors="surrogateescape").split("\0") if d and d not in found]
    return tuple(found)


def prepare_batch() -> None:
    """Work every grading process would otherwise repeat, done once in the parent before it forks; and
    what grading processes killed outright left behind, removed."""
    sweep_abandoned_workdirs()
    with contextlib.suppress(SandboxError):  # each grading process meets it again, and reports it
        _worker_interpreter_arguments()  # a Python subprocess, and the workers' bytecode
    if namespace_mode() is None and os.geteuid() == 0:
        writable_directories()


_IPC_REMOVERS = {"shm": "shmctl", "msg": "msgctl", "sem": "semctl"}
IPC_RMID = 0


def remove_leftovers(uid: int) -> list[str]:
    """Delete what a worker running as `uid` without namespaces left on the host.

    With namespaces there is nothing to do: the worker's IPC namespace and tmpfs die with
    it. Without them (a container that refuses unshare, as root), its SysV segments,
    semaphores and message queues, and its files in any directory it could write to, would
    survive it: memory its limits never counted, and a place to hand data to the next
    grading. Returns what was removed, for the tests."""
    removed = []
    libc = ctypes.CDLL(None, use_errno=True)
    for kind, remover in _IPC_REMOVERS.items():
        for ident in _ipc_objects_of(kind, uid):
            arguments = (ident, 0, IPC_RMID) if kind == "sem" else (ident, IPC_RMID, None)
            if getattr(libc, remover)(*arguments) == 0:
                removed.append(f"{kind}:{ident}")
    for directory in writable_directories():
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
                removed.append(entry.path)
            except OSError:
                pass
    return removed


def _ipc_objects_of(kind: str, uid: int) -> list[int]:
    """Ids of SysV IPC objects of `kind` that `uid` owns or created (/proc/sysvipc)."""
    try:
        header, *rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
    except OSError:
        return []
    columns = header.split()
    ident = columns.index({"shm": "shmid", "msg": "msqid", "sem": "semid"}[kind])
    owners = [columns.index(name) for name in ("uid", "cuid")]
    return [int(row.split()[ident]) for row in rows if any(int(row.split()[o]) == uid for o in owners)]


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []


# The worker's interpreter skips `site` (-S): processing site-packages (the editable install's .pth
# finder imports pathlib and more) was a third of a worker's start-up, paid by every worker. It is
# given the module search path that processing gives instead, and finds the grader's own package
# where this process found it, through a directory on that path only while it imports the worker.
# -P rather than -I: the environment is already clean, and PYTHONHASHSEED must apply.
_WORKER_BOOTSTRAP = """\
import sys
sys.path[:] = {path!r} + [{home!r}]
from autograder.sandbox import worker
sys.path.pop()
import site
site.setquit(), site.setcopyright(), site.sethelper()  # exit(), quit(), help() as with site
worker.main()
"""


@functools.lru_cache(maxsize=None)
def _worker_interpreter_arguments() -> tuple[str, ...]:
    _compile_worker_modules()
    home = str(Path(__file__).resolve().parent.parent.parent)  # the directory that holds `autograder`
    return ("-S", "-P", "-c", _WORKER_BOOTSTRAP.format(path=list(_site_module_path()), home=home))


def _compile_worker_modules() -> None:
    """Write the bytecode of the modules a worker imports where it looks for it, if missing or
    older than the source. A worker compiles them afresh otherwise, 13 ms of every worker's start:
    an editable install under PYTHONDONTWRITEBYTECODE (this project's CI) has none, and the worker
    never writes it. Best effort: a read-only installation has its bytecode from pip already."""
    if sys.pycache_prefix is not None:
        return  # the worker, started without this environment, would not look there
    sandbox = Path(__file__).resolve().parent
    for source in [sandbox.parent / "__init__.py", *sorted(sandbox.glob("*.py"))]:
        compiled = importlib.util.cache_from_source(str(source))
        with contextlib.suppress(OSError, py_compile.PyCompileError):
            if not os.path.exists(compiled) or os.stat(compiled).st_mtime < source.stat().st_mtime:
                py_compile.compile(str(source), cfile=compiled, doraise=True)


@functools.lru_cache(maxsize=None)
def _worker_executable() -> str:
    """This interpreter, named through the real directory that holds it. The worker's root has the
    real directories only (`visible_paths`), and the name must be the same whichever symlinked path
    started the grader, since the student's code can read it. The file itself stays as named: a
    virtual environment's `python` is a symlink, and resolving it would leave the environment."""
    directory, name = os.path.split(sys.executable)
    return os.path.join(os.path.realpath(directory), name)


def _site_module_path() -> tuple[str, ...]:
    """The module search path this interpreter has after `site`, with neither the user's site
    directory nor the current directory (`python -s -P`): standard library, site-packages and what
    their .pth files add. Asked of the interpreter itself, once per process."""
    try:
        found = subprocess.run([_worker_executable(), "-s", "-P", "-c", "import sys, json; print(json.dumps(sys.path))"],
                               capture_output=True, text=True, env=_clean_environment(), cwd="/", timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxError(f"cannot learn this Python's module search path: {exc}") from None
    if found.returncode != 0:
        raise SandboxError(f"cannot learn this Python's module search path: {found.stderr.strip()[-300:]}")
    # Resolved, as `visible_paths` resolves them: a worker's root holds the real directories only,
    # so a path through a symlink (a virtual environment linked into a checkout) would not exist there.
    entries = (os.path.realpath(entry) for entry in json.loads(found.stdout) if entry and os.path.exists(entry))
    return tuple(dict.fromkeys(entries))


def _clean_environment() -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
        "HOME": "/tmp/trabajo",
        "TMPDIR": "/tmp",
    }
