"""What student code can and cannot do inside the worker, checked from the inside."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.grading.student import StudentCrashed, StudentSession, StudentTimeout
from autograder.notebook.loader import Cell, Program
from autograder.sandbox.launcher import Limits, SandboxError, describe_defences, namespace_mode

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

def spawn_orphan(marker):
    subprocess.Popen(["sleep", marker], start_new_session=True)
    return "spawned"

def spin():
    while True:
        pass
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


def test_a_hanging_call_times_out_and_the_next_call_gets_a_fresh_worker(worker):
    started = time.monotonic()
    with pytest.raises(StudentTimeout):
        worker.call("spin")
    assert time.monotonic() - started < 6
    with pytest.raises(StudentTimeout):  # the rest of the same test fails at once
        worker.call("whoami")
    worker.new_test()
    assert len(worker.call("whoami")) == 2


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
    assert "GRADER ERROR" in done.stderr and "cannot reach Python" in done.stderr
