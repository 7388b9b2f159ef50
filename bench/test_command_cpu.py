"""Where the test command's CPU goes: machine CPU per test file, split by the kind of process that spent it.

    sudo .venv/bin/python bench/test_command_cpu.py [pytest arguments...]

It runs the test suite in ONE process (`-n 0`, so that the tests run one at a time and a process
belongs to the test that was running when it started), with two recorders:

- a pytest plugin that reads the machine's busy CPU seconds from /proc/stat before and after each
  test: everything the test cost, its subprocesses, sandboxed workers and the kernel's work
  included, even for processes nobody waited for (a per-process rusage misses those);
- the kernel's process accounting (acct(2), root only), one record per process that ends: its
  command name, user, CPU and start time. That says which kind of process spent it: the grader's
  grading processes (forked, not exec'd), sandboxed workers (uid 61000 and up), CLI and pytest
  subprocesses, pip, nbgrader's `alembic`...

The machine must be otherwise idle, or other jobs' CPU lands in the tests' figures. Prints two
Markdown tables (by file; by kind) and writes the raw records next to this file's results.
"""

from __future__ import annotations

import bisect
import collections
import ctypes
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKER_UIDS = 61000  # launcher._worker_uid: the sandboxed workers' uids start here
ACCT_V3 = struct.Struct("<BBHIIIIIIf8H16s")  # struct acct_v3 (linux/acct.h): 64 bytes
AFORK = 0x01  # forked but never exec'd: a grading process, or a worker's own children

PLUGIN = '''
import json, os, time
import pytest

TICK = os.sysconf("SC_CLK_TCK")


def _busy():
    fields = list(map(int, open("/proc/stat").readline().split()[1:]))
    return (sum(fields) - fields[3] - fields[4]) / TICK  # all but idle and iowait


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    busy, started = _busy(), time.time()
    yield
    with open(os.environ["TEST_CPU_LOG"], "a") as log:
        log.write(json.dumps({"id": item.nodeid, "cpu": _busy() - busy, "start": started,
                              "wall": time.time() - started}) + "\\n")
'''


def _comp_t(value: int) -> float:
    """acct's 16-bit float: 13-bit mantissa, 3-bit base-8 exponent, in AHZ (100) ticks."""
    return ((value & 0x1FFF) << (3 * (value >> 13))) / 100


def process_records(path: Path):
    data = path.read_bytes()
    for offset in range(0, len(data) - ACCT_V3.size + 1, ACCT_V3.size):
        fields = ACCT_V3.unpack_from(data, offset)
        flag, uid, started, comm = fields[0], fields[4], fields[8], fields[18]
        yield {"kind": _kind(comm.split(b"\0")[0].decode(errors="replace"), flag, uid),
               "cpu": _comp_t(fields[10]) + _comp_t(fields[11]), "start": started}


def _kind(command: str, flag: int, uid: int) -> str:
    if uid >= WORKER_UIDS:
        return "sandboxed worker" + (" (its own fork)" if flag & AFORK else "")
    if command.startswith("python") or command in ("autograder", "nbgrader", "pytest"):
        return "grading process (fork)" if flag & AFORK else f"subprocess: {command}"
    return f"other: {command}"


def main(argv: list[str]) -> int:
    if os.geteuid() != 0:
        sys.exit("process accounting (acct) needs root")
    libc = ctypes.CDLL(None, use_errno=True)
    work = Path(tempfile.mkdtemp(prefix="test-command-cpu-"))
    (work / "test_cpu_recorder.py").write_text(PLUGIN, encoding="utf-8")
    accounting, tests_log = work / "acct", work / "tests.jsonl"
    accounting.touch()
    if libc.acct(str(accounting).encode()) != 0:
        sys.exit(f"acct failed: {os.strerror(ctypes.get_errno())}")
    try:
        env = os.environ | {"TEST_CPU_LOG": str(tests_log), "PYTHONPATH": str(work)}
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "test_cpu_recorder", *argv],
                              cwd=ROOT, env=env)
    finally:
        libc.acct(None)
    report(tests_log, accounting)
    print(f"\nraw records: {work}")
    return done.returncode


def report(tests_log: Path, accounting: Path) -> None:
    tests = sorted((json.loads(line) for line in tests_log.read_text().splitlines()), key=lambda t: t["start"])
    starts = [t["start"] for t in tests]
    by_file, wall = collections.Counter(), collections.Counter()
    for test in tests:
        by_file[test["id"].split("::")[0]] += test["cpu"]
        wall[test["id"].split("::")[0]] += test["wall"]
    kinds, per_file_kind = collections.Counter(), collections.defaultdict(collections.Counter)
    for record in process_records(accounting):
        index = bisect.bisect_right(starts, record["start"] + 0.5) - 1  # acct's start time is in whole seconds
        owner = tests[index]["id"].split("::")[0] if index >= 0 else "(the pytest process itself)"
        kinds[record["kind"]] += record["cpu"]
        per_file_kind[owner][record["kind"]] += record["cpu"]
    total = sum(by_file.values())
    print(f"{len(tests)} tests: {total:.0f} s of machine CPU in {sum(wall.values()):.0f} s of wall time\n")
    print("| file | machine CPU s | wall s | most of it |\n|---|---:|---:|---|")
    for name, seconds in by_file.most_common():
        top = ", ".join(f"{kind} {cpu:.0f}" for kind, cpu in per_file_kind[name].most_common(3) if cpu >= 1)
        print(f"| `{name}` | {seconds:.1f} | {wall[name]:.1f} | {top} |")
    print("\n| kind of process | CPU s |\n|---|---:|")
    for kind, seconds in kinds.most_common(15):
        print(f"| {kind} | {seconds:.1f} |")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
