"""What student code can and cannot do inside the worker, checked from the inside."""

from __future__ import annotations

import ctypes
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from autograder.grading.student import StudentCrashed, StudentSession, StudentTimeout
from autograder.notebook.loader import Cell, Program
from autograder.sandbox import launcher
from autograder.sandbox.launcher import Limits, SandboxError, describe_defences, namespace_mode
from autograder.sandbox.probe import unverified_defences

PROJECT = Path(__file__).resolve().parents[1]
needs_namespaces = pytest.mark.skipif(namespace_mode() is None,
                                      reason="this machine cannot create Linux namespaces (unshare failed)")

PROBES = '''
import os, resource, socket, subprocess

def whoami():
    return os.getuid(), os.getgid()

def environment():
    return sorted(os.environ)

def workdir():
    return os.getcwd(), os.listdir(".")

def listing(path):
    try:
        return sorted(os.listdir(path))
    except OSError as error:
        return type(error).__name__

def read(path):
    with open(path, "rb") as handle:
        return handle.read()

def write_then_list(name):
    with open(name, "w") as handle:
        handle.write("x")
    return os.listdir(".")

def connect(host, port):
    socket.create_connection((host, port), timeout=2).close()
    return "connected"

def limit(name):
    return list(resource.getrlimit(getattr(resource, name)))

def stash(text):
    """Hide text in every place a later worker might look: SysV shared memory, a POSIX message
    queue, /dev/shm, /tmp. Returns where it managed to (only its own namespace may keep it)."""
    import ctypes
    kept = []
    libc = ctypes.CDLL(None, use_errno=True)
    data = text.encode()
    segment = libc.shmget(0x5EC2E7, 4096, 0o1000 | 0o666)
    if segment >= 0:
        libc.shmat.restype = ctypes.c_void_p
        address = libc.shmat(segment, None, 0)
        ctypes.memmove(address, data, len(data))
        kept.append("shm")
    for folder in ("/dev/shm", "/tmp", "/var/tmp"):
        try:
            with open(f"{folder}/escondite", "w") as handle:
                handle.write(text)
            kept.append(folder)
        except OSError:
            pass
    return kept

def recover():
    import ctypes
    found = []
    libc = ctypes.CDLL(None, use_errno=True)
    segment = libc.shmget(0x5EC2E7, 4096, 0o666)
    if segment >= 0:
        libc.shmat.restype = ctypes.c_void_p
        found.append(ctypes.string_at(libc.shmat(segment, None, 0)).decode())
    for folder in ("/dev/shm", "/tmp", "/var/tmp"):
        try:
            with open(f"{folder}/escondite") as handle:
                found.append(handle.read())
        except OSError:
            pass
    return found

def shared_memory_megabytes(count):
    """Create `count` 64 MiB SysV segments and leave them behind (memory RLIMIT_AS never sees)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    return sum(libc.shmget(0, 64 << 20, 0o1000 | 0o600) >= 0 for _ in range(count)) * 64

def hostname():
    return socket.gethostname()

def spawn_orphan(marker):
    subprocess.Popen(["sleep", marker], start_new_session=True)
    return "spawned"

def spin():
    while True:
        pass

def burn(seconds):
    import time
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
    return "hecho"

def nap(seconds):
    import time
    time.sleep(seconds)
    return "hecho"

def optional_module(name):
    import sys
    return repr(sys.modules.get(name, "sin importar"))

def interpreter():
    import builtins, importlib.util, sys
    names = ("exit", "quit", "help", "copyright", "credits", "license")
    return {"builtins": [n for n in names if hasattr(builtins, n)], "path": list(sys.path),
            "numpy": importlib.util.find_spec("numpy") is not None,
            "worker_bytecode": sys.modules["autograder.sandbox.worker"].__cached__}
'''


@pytest.fixture()
def worker(course, tmp_path):
    submission = tmp_path / "alumno" / "entrega.py"
    submission.parent.mkdir()
    submission.write_text(PROBES)
    limits = Limits(call_seconds=3, load_seconds=10, submission_seconds=60, memory_mb=768)
    session = StudentSession(Program([Cell("entrega.py", PROBES)], module_name="entrega"), limits)
    yield session
    session.close()


def test_defences_are_reported_by_name():
    defences = describe_defences()
    assert defences["separate worker process"] is True
    assert defences["no network (network namespace)"] is (namespace_mode() is not None)


def test_every_defence_the_banner_claims_holds_inside_a_worker():
    assert unverified_defences() == ()


@needs_namespaces
def test_a_claimed_defence_that_does_not_hold_is_caught(monkeypatch, tmp_path):
    # A mistake in the allow-list that shows the grader's files to the worker: the banner would
    # still say "on"; the probe sees its marker file and says FAILED.
    from autograder.sandbox import probe

    exposed = tmp_path / "expuesto"
    exposed.mkdir()
    exposed.chmod(0o755)
    tmp_path.chmod(0o755)
    monkeypatch.setattr(probe, "_marker_directory", lambda: exposed)
    wider = [*launcher.visible_paths(), str(exposed)]
    monkeypatch.setattr(launcher, "visible_paths", lambda: wider)
    failed = unverified_defences.__wrapped__()
    assert failed == ("nothing but Python visible: hidden suites, solutions, other submissions (mount namespace)",)


@needs_namespaces
def test_the_worker_shares_no_ipc_with_the_host_and_nothing_it_stashes_reaches_the_next_worker(worker):
    # Attack: a first grading hides every hidden input in a SysV segment or a shared folder; a
    # second grading (same or another submission) reads them back into its feedback.
    before = _system_v_shared_memory_bytes()
    assert worker.call("shared_memory_megabytes", 24) == 0  # 1.5 GiB the memory limit would not count
    assert "shm" not in worker.call("stash", "entrada oculta")
    assert worker.call("hostname") != socket.gethostname()
    worker.close()
    assert worker.call("recover") == []  # a fresh worker: nothing carried over
    assert _system_v_shared_memory_bytes() == before


def _system_v_shared_memory_bytes() -> int:
    rows = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    return sum(int(row.split()[3]) for row in rows)


@pytest.mark.skipif(os.geteuid() != 0, reason="creating objects as another uid needs root")
def test_without_namespaces_what_a_worker_uid_leaves_behind_is_removed():
    # What a worker without an IPC or mount namespace (a container as root) leaves on the host.
    uid = 61000 + os.getpid() % 4000
    # Any world-writable directory, not only the usual ones (/run/lock, an nbgrader exchange); one
    # the uid can reach, so not under pytest's private tmp_path.
    shared = Path(tempfile.mkdtemp(prefix="intercambio-", dir="/var/tmp"))
    shared.chmod(0o1777)
    launcher.writable_directories.cache_clear()
    child = os.fork()
    if child == 0:
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            libc = ctypes.CDLL(None, use_errno=True)
            made = [libc.shmget(0, 1 << 20, 0o1000 | 0o600), libc.msgget(0, 0o1000 | 0o600),
                    libc.semget(0, 1, 0o1000 | 0o600)]
            Path(f"/tmp/dejado-por-{uid}").write_text("entrada oculta")
            Path(f"{shared}/dejado-por-{uid}").write_text("entrada oculta")  # like /run/lock or an exchange
            os._exit(0 if min(made) >= 0 else 1)
        finally:
            os._exit(2)
    assert os.waitpid(child, 0)[1] == 0
    removed = launcher.remove_leftovers(uid)
    assert {r.split(":")[0] for r in removed if ":" in r} == {"shm", "msg", "sem"}
    assert f"/tmp/dejado-por-{uid}" in removed and not Path(f"/tmp/dejado-por-{uid}").exists()
    assert f"{shared}/dejado-por-{uid}" in removed and not (shared / f"dejado-por-{uid}").exists()
    assert launcher.remove_leftovers(uid) == []
    shared.rmdir()


def test_an_ordinary_user_without_namespaces_is_refused_unless_they_accept_the_risk(monkeypatch, capsys):
    # Measured: there a submission rewrote the grader's own code and kill(-1) killed the batch's shell.
    from autograder.cli import EXIT_USAGE, main

    monkeypatch.setattr(launcher, "namespace_mode", lambda: None)
    monkeypatch.setattr(launcher.os, "geteuid", lambda: 1000)
    monkeypatch.delenv(launcher.INSECURE_OPT_IN, raising=False)
    assert "run as you" in launcher.refusal()
    with pytest.raises(SandboxError, match="--insecure-run-student-code-as-me"):
        launcher.Worker(Limits())
    assert main(["grade", "bpe_bytes", str(PROJECT / "solutions" / "bpe_bytes" / "solution.py")]) == EXIT_USAGE
    assert "--insecure-run-student-code-as-me" in capsys.readouterr().err
    monkeypatch.setenv(launcher.INSECURE_OPT_IN, "1")
    assert launcher.refusal() is None


def test_environment_is_clean_and_workdir_empty(worker):
    assert set(worker.call("environment")) <= {"PATH", "LANG", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE",
                                               "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                               "MPLBACKEND", "HOME", "TMPDIR"}
    cwd, entries = worker.call("workdir")
    assert entries == []
    assert worker.call("write_then_list", "notas.txt") == ["notas.txt"]


def test_resource_limits_apply(worker):
    assert worker.call("limit", "RLIMIT_AS")[0] == 768 * 1024 * 1024
    assert worker.call("limit", "RLIMIT_NOFILE")[0] == Limits().open_files
    assert worker.call("limit", "RLIMIT_CORE") == [0, 0]


@needs_namespaces
def test_only_python_exists_inside(worker, tmp_path):
    # The project (hidden suites, solutions), the submission's folder (other students) and
    # any other checkout of the course on this machine are simply not there.
    for path in [PROJECT / "solutions", PROJECT / "tests", PROJECT / "autograder", tmp_path / "alumno",
                 Path("/root/.ssh"), Path("/home")]:
        assert worker.call("listing", str(path)) == "FileNotFoundError", path
    inside = worker.call("listing", str(PROJECT))  # at most the skeleton leading to a virtualenv
    assert inside == "FileNotFoundError" or set(inside) <= {".venv"}
    with pytest.raises(FileNotFoundError):
        worker.call("read", str(PROJECT / "solutions" / "bpe_bytes" / "test_hidden.py"))
    assert "python3" in " ".join(worker.call("listing", "/usr/bin"))


@needs_namespaces
def test_the_python_installation_is_read_only(worker):
    import sys

    with pytest.raises(OSError):
        worker.call("write_then_list", str(Path(sys.prefix) / "intruso.txt"))
    with pytest.raises(OSError):
        worker.call("write_then_list", "/etc/intruso")


@needs_namespaces
def test_no_network(worker):
    for host, port in [("127.0.0.1", 22), ("1.1.1.1", 53)]:
        with pytest.raises(OSError):
            worker.call("connect", host, port)


@pytest.mark.skipif(namespace_mode() != "root", reason="dropping to another user needs root")
def test_runs_as_an_unprivileged_user(worker):
    uid, gid = worker.call("whoami")
    assert uid != 0 and gid != 0


@needs_namespaces
def test_every_process_the_student_started_dies_with_the_worker(worker):
    marker = f"{time.time() % 1000 + 4000:.3f}"
    assert worker.call("spawn_orphan", marker) == "spawned"
    worker.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(marker in _cmdline(p) for p in Path("/proc").iterdir()):
        time.sleep(0.1)
    assert not any(marker in _cmdline(p) for p in Path("/proc").iterdir())


def _cmdline(entry: Path) -> str:
    try:
        return (entry / "cmdline").read_bytes().decode(errors="replace") if entry.name.isdigit() else ""
    except OSError:
        return ""


GRADING_PROCESS = """
import sys
from autograder.sandbox.launcher import Limits, Worker

worker = Worker(Limits())
print(worker.workdir, flush=True)
worker.request({"op": "load", "module_name": "bomba", "cells": [{"filename": "bomba.py", "source": sys.argv[1]}]},
               600, on_progress=lambda message: None)
"""
# Busy in student code, so the worker never reads that its grading process has gone.
FORKING_CELL = """
import os
for _ in range(3):
    os.fork()
while True:
    pass
"""


@needs_namespaces
def test_a_grading_process_killed_outright_takes_its_sandbox_with_it(tmp_path):
    """A grading process killed with SIGKILL (over its budget, a cluster worker lost, kill -9 of the
    command) cleans nothing up itself: the kernel must take its sandbox down, every process in it."""
    grading = subprocess.Popen([sys.executable, "-c", GRADING_PROCESS, FORKING_CELL], stdout=subprocess.PIPE,
                               text=True, cwd=PROJECT, start_new_session=True)
    workdir = grading.stdout.readline().strip()
    assert workdir.startswith("/")

    def sandboxed() -> int:
        return sum(workdir in _cmdline(p) for p in Path("/proc").iterdir())

    deadline = time.monotonic() + 30
    while sandboxed() < 1 + 7 and time.monotonic() < deadline:  # the worker and its 7 forks, all busy
        time.sleep(0.05)
    assert sandboxed() >= 8
    grading.kill()
    grading.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and sandboxed():
        time.sleep(0.1)
    assert sandboxed() == 0
    # What it leaves is its worker's folder, named for it, which its batch removes by its pid (or any
    # batch's sweep, once the process is gone: another test process may get there first).
    assert Path(workdir).name.startswith(launcher.workdir_prefix(grading.pid))
    launcher.remove_workdirs_of(grading.pid)
    assert not Path(workdir).exists()


def test_a_folder_is_swept_once_the_process_that_made_it_is_gone_and_only_then():
    """Folders named for this boot and pid namespace go once their process no longer runs (no such pid,
    or the pid used again by a process started at another time); a running process's stay, and so do
    folders named for another namespace, where the same pid is another process."""
    ended = subprocess.Popen(["sleep", "30"])
    ended_start = launcher._start_time(ended.pid)
    ended.kill()
    ended.wait()
    mine = launcher._start_time(os.getpid())
    other_space = launcher.WORKDIR_NAME + "0" * 12 + ".1-"
    made = {
        "ended": tempfile.mkdtemp(prefix=f"{launcher.workdir_prefix(ended.pid)}{ended_start}-"),
        "pid used again": tempfile.mkdtemp(prefix=f"{launcher.workdir_prefix(os.getpid())}{int(mine) - 1}-"),
        "running": tempfile.mkdtemp(prefix=f"{launcher.workdir_prefix(os.getpid())}{mine}-"),
        "another namespace": tempfile.mkdtemp(prefix=f"{other_space}{ended.pid}-{ended_start}-"),
    }
    try:
        launcher.sweep_abandoned_workdirs()  # another test process's batch may sweep them too
        assert [name for name, path in made.items() if Path(path).exists()] == ["running", "another namespace"]
        # Every batch sweeps before it starts (a lost cluster host's folders go at the next one).
        made["left by a lost host"] = tempfile.mkdtemp(prefix=f"{launcher.workdir_prefix(ended.pid)}{ended_start}-")
        launcher.prepare_batch()
        assert not Path(made["left by a lost host"]).exists()
    finally:
        for path in made.values():
            shutil.rmtree(path, ignore_errors=True)


def test_a_worker_folder_names_its_grading_process_and_when_it_started(worker):
    worker.call("interpreter")  # the worker is running
    name = Path(worker.worker.workdir).name
    assert name.startswith(f"{launcher.workdir_prefix(os.getpid())}{launcher._start_time(os.getpid())}-"), name


def test_a_hanging_call_times_out_and_the_next_call_gets_a_fresh_worker(worker):
    started = time.monotonic()
    with pytest.raises(StudentTimeout):
        worker.call("spin")
    assert time.monotonic() - started < 3 * launcher.WALL_SAFETY_FACTOR + 2  # 3 s of its own; more only on a busy machine
    with pytest.raises(StudentTimeout):  # the rest of the same test fails at once
        worker.call("whoami")
    worker.new_test()
    assert len(worker.call("whoami")) == 2
    started = time.monotonic()
    with pytest.raises(StudentTimeout) as again:  # in a later test, the function that hung is not called again
        worker.call("spin")
    assert again.value.earlier and time.monotonic() - started < 0.5


def test_load_on_the_machine_does_not_turn_a_finishing_call_into_a_time_out(cpu_hogs):
    """A call that runs for 60% of its limit, then one that sleeps for 60% of it, finish on a machine
    whose load would stretch the first past its limit in wall-clock time; a call that spins or sleeps
    for ever still times out. The limit is the call's own time (launcher.Clock), not the machine's."""
    limits = Limits(call_seconds=1.0, load_seconds=10, submission_seconds=60)
    session = StudentSession(Program([Cell("entrega.py", PROBES)], module_name="entrega"), limits)
    try:
        session.call("whoami")  # loaded: the calls below measure only themselves
        stretched = []
        for _ in range(3):
            started = time.monotonic()
            assert session.call("burn", 0.6) == "hecho"
            stretched.append(time.monotonic() - started > 1.0)
        assert any(stretched)  # the load is real: in wall-clock time, this call ran past its limit
        assert session.call("nap", 0.6) == "hecho"
        with pytest.raises(StudentTimeout):
            session.call("spin")
        session.new_test()
        with pytest.raises(StudentTimeout):
            session.call("nap", 30)
    finally:
        session.close()


def test_schedstat_files_kept_open_read_afresh_and_let_go_of_processes_that_are_gone():
    """The clock's schedstat files stay open between reads (launcher._OpenSchedstats): each read is
    today's figures, a process that ended reads as unknown (0) and is let go, and few stay open."""
    opened = launcher._OpenSchedstats()
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        path = f"/proc/{busy.pid}/schedstat"
        first = int(opened.read(path).split()[0])  # nanoseconds on a CPU
        deadline = time.monotonic() + 30  # however loaded the machine, the busy loop gets some CPU in time
        while int(opened.read(path).split()[0]) <= first + 50_000_000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert int(opened.read(path).split()[0]) > first + 50_000_000
        assert list(opened.descriptors) == [path]
    finally:
        busy.kill()
        busy.wait()
    with pytest.raises(OSError):
        opened.read(path)
    assert path not in opened.descriptors
    assert launcher._schedstat_wait(path) == 0.0
    sleepers = [subprocess.Popen(["sleep", "30"]) for _ in range(opened.KEPT + 4)]
    try:
        for sleeper in sleepers:
            opened.read(f"/proc/{sleeper.pid}/schedstat")
        assert len(opened.descriptors) == opened.KEPT
    finally:
        for sleeper in sleepers:
            sleeper.kill()
            sleeper.wait()


def test_a_worker_killed_from_outside_is_reported_as_a_crash(worker):
    worker.call("whoami")
    os.killpg(worker.worker.process.pid, 9)
    with pytest.raises(StudentCrashed):
        worker.call("whoami")


def _python_hidden_from_others() -> bool:
    path = Path(sys.base_prefix).resolve()
    return any(not folder.stat().st_mode & 0o001 for folder in [path, *path.parents])


@pytest.fixture()
def without_namespaces(monkeypatch):
    monkeypatch.setenv("AUTOGRADER_NAMESPACES", "off")
    namespace_mode.cache_clear()
    yield
    monkeypatch.delenv("AUTOGRADER_NAMESPACES")
    namespace_mode.cache_clear()


@pytest.mark.skipif(os.geteuid() != 0 or not _python_hidden_from_others(),
                    reason="needs root and a Python installation other users cannot reach (as on this machine)")
def test_without_namespaces_an_unreachable_python_is_a_clear_grader_error(without_namespaces):
    assert describe_defences()["unprivileged user"] and not describe_defences()["no network (network namespace)"]
    with pytest.raises(SandboxError, match="cannot reach Python at .* not searchable by others"):
        StudentSession(Program([Cell("entrega.py", PROBES)], module_name="entrega"), Limits()).call("whoami")


@pytest.mark.skipif(os.geteuid() != 0 or not _python_hidden_from_others(),
                    reason="needs root and a Python installation other users cannot reach (as on this machine)")
def test_a_sandbox_that_cannot_start_is_a_grader_error_not_a_zero(tmp_path, bpe_bytes):
    from autograder import samples

    notebook = samples.build_notebook(bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "bpe_bytes.ipynb")
    env = {**os.environ, "AUTOGRADER_NAMESPACES": "off"}
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", "bpe_bytes", str(notebook),
                           "--results", str(tmp_path / "r.json")], env=env, capture_output=True, text=True)
    assert done.returncode == 3, done.stderr
    # One file is a student's: the heading is Spanish; the reason stays the instructor's, in English.
    assert "ERROR DEL CORRECTOR" in done.stderr and "cannot reach Python" in done.stderr


def test_the_students_python_is_the_ordinary_one_though_the_worker_skips_site(worker):
    # The worker's interpreter starts with -S, for speed (launcher._WORKER_BOOTSTRAP). What `site`
    # gives a notebook must still be there, and the directory it imported the grader from must not.
    seen = worker.call("interpreter")
    assert seen["builtins"] == ["exit", "quit", "help", "copyright", "credits", "license"]
    assert seen["numpy"], seen["path"]  # installed packages import
    assert str(PROJECT) not in seen["path"] and "" not in seen["path"], seen["path"]
    # Its own modules' bytecode is there to import, whatever PYTHONDONTWRITEBYTECODE says: a worker
    # never writes it, and compiling them anew in each worker was 13 ms of its start.
    assert Path(seen["worker_bytecode"]).is_file(), seen["worker_bytecode"]


def test_a_python_reached_through_a_symlink_still_finds_itself_and_its_packages_in_the_worker(tmp_path):
    # The worker's root holds only the real directories of this installation (visible_paths), so the
    # module path and interpreter it is given must name them, not the symlinked ones the grader was
    # started by.
    linked = tmp_path / "linked-env"
    linked.symlink_to(sys.prefix, target_is_directory=True)
    script = (
        "from autograder.grading.student import StudentSession\n"
        "from autograder.notebook.loader import Cell, Program\n"
        "from autograder.sandbox.launcher import Limits\n"
        "source = 'import os, sys, numpy\\n\\ndef seen():\\n    return [numpy.__name__, os.path.exists(sys.executable)]\\n'\n"
        "limits = Limits(call_seconds=10, load_seconds=10, submission_seconds=30)\n"
        "session = StudentSession(Program([Cell('entrega.py', source)], module_name='entrega'), limits)\n"
        "try:\n    print(session.call('seen'))\nfinally:\n    session.close()\n"
    )
    done = subprocess.run([str(linked / "bin" / "python"), "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "['numpy', True]", (done.stdout, done.stderr[-2000:])


# What a worker leaves out of its start: about 15 ms of CPU of 36, paid again by every worker. A
# submission that needs them imports them itself, on its own clock.
NOT_IMPORTED_AT_START = ("inspect", "traceback", "linecache", "tokenize", "socket", "platform", "ast")


def test_a_worker_starts_without_the_modules_it_does_not_need(tmp_path):
    source = "import sys\n\ndef modules():\n    return sorted(sys.modules)\n"
    limits = Limits(call_seconds=10, load_seconds=10, submission_seconds=30)
    session = StudentSession(Program([Cell("entrega.py", source)], module_name="entrega"), limits)
    try:
        modules = session.call("modules")
    finally:
        session.close()
    assert "autograder.sandbox.worker" in modules
    assert sorted(set(NOT_IMPORTED_AT_START) & set(modules)) == []


def test_the_worker_parses_a_cell_with_the_flag_ast_names():
    import ast

    from autograder.sandbox import magics

    assert magics.ONLY_AST == ast.PyCF_ONLY_AST


def test_the_graders_import_shortcuts_are_not_the_students(worker):
    """autograder/__init__.py marks rfc3987_syntax as absent in the grader; student code sees the
    installation as it is."""
    from autograder import OPTIONAL_IMPORTS_SKIPPED

    for name in OPTIONAL_IMPORTS_SKIPPED:
        assert worker.call("optional_module", name) == repr("sin importar")
