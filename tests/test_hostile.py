"""Hostile submissions cannot raise their score, stop the batch or read the hidden suite.

Every sample in ``autograder.samples.bpe_bytes_hostile.HOSTILE`` replaces every graded function
(or makes it useless), so a sound grader gives it exactly 0. All of them are graded in
ONE ``grade_batch`` call, next to the reference (which must keep full marks) and the
released stub, so an attack that disturbs the batch or a neighbour shows up here too.

Each attack below once found a real weakness (reference answers on request, a worker
outliving its submission, unmountable masks in user namespaces, ...); the tests keep
them fixed.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from autograder import samples
from autograder.course import load_course
from autograder.grading.batch import grade_batch
from autograder.grading.student import StudentError, StudentSession
from autograder.notebook.loader import Cell, Program
from autograder.sandbox import launcher

pytestmark = pytest.mark.slow

ASSIGNMENT = "bpe_bytes"
HOSTILE = samples.catalogue(ASSIGNMENT, "hostile")
AS_MODULE = {"lying_eq_object", "sys_exit", "read_hidden_files", "fake_results_files", "worker_internals_patch"}
ESCAPE_MARKER = "hostile-escape-marker"  # written by escape_process_group into its worker's cwd
RESULT_SIZE_CAP = 1_000_000  # bytes of JSON per GradeResult; honest results are ~20 kB

NAMESPACES = launcher.namespace_mode()

NEEDS_NAMESPACES = {  # attacks that only a namespace stops (describe_defences() says when it is off)
    "read_hidden_files": "hidden paths are only masked inside a mount namespace",
    "kill_signals": "without a PID namespace the worker's parent is the grading process",
    "network": "without a network namespace the worker has the machine's network",
}


def _entries():
    for sample in HOSTILE:
        yield sample, "notebook"
        if sample.name in AS_MODULE:
            yield sample, "module"


ENTRIES = list(_entries())


def _label(sample, form: str) -> str:
    return sample.name if form == "notebook" else f"{sample.name}.py"


def _param(sample, form: str):
    marks = []
    if NAMESPACES is None and sample.name in NEEDS_NAMESPACES:
        marks.append(pytest.mark.xfail(reason=f"no Linux namespaces here: {NEEDS_NAMESPACES[sample.name]}"))
    return pytest.param(_label(sample, form), marks=marks, id=_label(sample, form))


# --- the batch ----------------------------------------------------------------------------

@dataclasses.dataclass
class Batch:
    results: dict  # label -> GradeResult
    paths: dict  # label -> submission path
    files_before: dict
    files_after: dict
    escaped: list  # pids of workers that outlived their submission
    seconds: float


def _fast(assignment):
    limits = dataclasses.replace(assignment.limits, call_seconds=3, load_seconds=10, submission_seconds=60)
    return dataclasses.replace(assignment, limits=limits)


def _watched_files(course) -> dict:
    """Every results-like file an attack could plant where a grader or a person would pick it up."""
    ours = {course.path.parent, Path.cwd()}  # anything named like a result, here or in ./results/
    folders = {*ours, *(f / "results" for f in ours), Path("/autograder/results"), Path("/tmp")}
    found = {}
    for folder in folders:
        try:
            entries = list(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            if "result" in entry.name.lower() and (ours & {folder, folder.parent} or entry.name == "results.json"):
                try:
                    stat = entry.stat()
                except OSError:
                    continue
                found[str(entry)] = (stat.st_mtime_ns, stat.st_size)
    return found


def _escaped_workers() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "cwd" / ESCAPE_MARKER).exists():
                    pids.append(int(entry.name))
            except OSError:
                pass
    return pids


def _kill(pids) -> None:
    for pid in pids:  # only workers our own escape_process_group sample started
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


@pytest.fixture(scope="module")
def course():
    return load_course()


@pytest.fixture(scope="module")
def batch(course, tmp_path_factory) -> Batch:
    assignment = _fast(course.assignment(ASSIGNMENT))
    folder = tmp_path_factory.mktemp("hostile")
    paths: dict[str, Path] = {}
    for sample, form in ENTRIES:
        label = _label(sample, form)
        if form == "notebook":
            paths[label] = samples.build_notebook(assignment, sample, folder / f"{sample.name}.ipynb")
        else:
            paths[label] = samples.build_module(assignment, sample, folder / f"{sample.name}.py")
        if sample.name == "fork_bomb":  # the reference runs right next to the fork bomb
            paths["correct"] = samples.build_notebook(assignment, samples.correct(ASSIGNMENT), folder / "correct.ipynb")
    if "correct" not in paths:
        paths["correct"] = samples.build_notebook(assignment, samples.correct(ASSIGNMENT), folder / "correct.ipynb")
    paths["stub"] = samples.build_notebook(assignment, samples.stub(assignment), folder / "stub.ipynb")

    before = _watched_files(course)
    started = time.monotonic()
    results = grade_batch(course, assignment, list(paths.values()), jobs=2)
    seconds = time.monotonic() - started
    escaped = _escaped_workers()
    _kill(escaped)
    yield Batch(dict(zip(paths, results)), paths, before, _watched_files(course), escaped, seconds)
    _kill(_escaped_workers())


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def _hidden_suite_secrets(course) -> list[str]:
    """Lines of the hidden suite that must never reach a result: its code and hidden cases.

    Titles (one-line docstrings), hints, decorators and comments are shown to students on purpose."""
    text = course.assignment(ASSIGNMENT).hidden_suite_path.read_text(encoding="utf-8")
    secrets = []
    for raw in text.splitlines():
        line = raw.strip()
        if len(line) < 20 or line.startswith(("#", "@", "def ", '"', "'")) or "hint=" in line:
            continue
        secrets.append(line)
    return secrets


# --- the batch as a whole -----------------------------------------------------------------

def test_batch_grades_every_submission(batch):
    assert list(batch.results) == list(batch.paths)
    for label, result in batch.results.items():
        assert result.submission == str(batch.paths[label])
        assert result.tests, label


def test_reference_keeps_full_marks_next_to_the_attacks(batch):
    result = batch.results["correct"]
    failed = [f"{t.test_id}: {t.outcome} {t.instructor_note}" for t in result.tests if not t.passed]
    assert result.score == result.max_score, failed


def test_released_stub_scores_zero(batch):
    assert batch.results["stub"].score == 0


def test_no_results_file_is_planted(batch):
    assert batch.files_after == batch.files_before


# --- sample by sample ---------------------------------------------------------------------

@pytest.mark.parametrize("label", [_param(s, f) for s, f in ENTRIES])
def test_attack_scores_zero(batch, label):
    result = batch.results[label]
    earned = {t.test_id: round(t.score, 3) for t in result.tests if t.score}
    assert result.score == 0, earned


@pytest.mark.parametrize("label", [_param(s, f) for s, f in ENTRIES])
def test_attack_does_not_break_the_grader(batch, label):
    result = batch.results[label]
    assert not result.error_instructor.startswith("grader error"), result.error_instructor
    assert result.max_score == batch.results["correct"].max_score
    assert {t.test_id for t in result.tests} == {t.test_id for t in batch.results["correct"].tests}


@pytest.mark.parametrize("label", [_param(s, f) for s, f in ENTRIES] + ["correct", "stub"])
def test_no_hidden_suite_text_in_results(batch, course, label):
    data = dataclasses.asdict(batch.results[label])
    text = json.dumps(data, ensure_ascii=False) + "\n".join(_strings(data))
    leaked = [line for line in _hidden_suite_secrets(course) if line in text]
    assert not leaked, leaked[:5]


@pytest.mark.parametrize("label", [_param(s, f) for s, f in ENTRIES])
def test_result_size_is_bounded(batch, label):
    size = len(json.dumps(dataclasses.asdict(batch.results[label])))
    assert size < RESULT_SIZE_CAP, f"{size} bytes"


# Only root mode drops to another uid (which clears PDEATHSIG); without unshare, setpgid fails for the
# session leader the worker already is.
def test_no_worker_outlives_its_submission(batch):
    assert batch.escaped == [], f"workers still running after the batch (killed now): {batch.escaped}"




@pytest.mark.parametrize("label", [
    "malformed_replies", "noop_functions", "numpy_empty_array", "read_hidden_files",
    "lying_eq_object", "sys_exit", "os_exit", "infinite_loop", "fork_bomb", "oversized_replies",
])
def test_student_faults_are_not_blamed_on_the_grader(batch, label):
    blamed = [f"{t.test_id}: {t.instructor_note}" for t in batch.results[label].tests if t.outcome == "grader_error"]
    assert not blamed, blamed[:5]


# --- a worker cannot see the hidden suite -------------------------------------------------

needs_namespaces = pytest.mark.skipif(NAMESPACES is None,
                                      reason="this machine cannot create Linux namespaces, so nothing is hidden")

READ_CELL = '''
def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()
'''

UNMASK_CELL = '''
import ctypes

def unmask_and_read(path):
    libc = ctypes.CDLL(None, use_errno=True)
    for line in reversed(open("/proc/self/mountinfo").read().splitlines()):
        point = line.split()[4]
        if path.startswith(point.rstrip("/") + "/") or path == point:
            libc.umount2(point.encode(), 2)  # MNT_DETACH
    with open(path, encoding="utf-8") as handle:
        return handle.read()
'''


def _session(course, tmp_path, code: str) -> StudentSession:
    submission = tmp_path / "alumno" / "entrega.ipynb"
    limits = launcher.Limits(call_seconds=5, load_seconds=10, submission_seconds=30)
    return StudentSession(Program([Cell("<celda 1>", code)]), limits)


@needs_namespaces
def test_worker_cannot_read_the_hidden_suite(course, tmp_path):
    assignment = course.assignment(ASSIGNMENT)
    session = _session(course, tmp_path, READ_CELL)
    try:
        for secret in (assignment.hidden_suite_path, assignment.solution_path):
            assert secret.is_file()  # the grader itself can read it
            with pytest.raises(StudentError) as caught:
                session.call("read", str(secret.resolve()))
            assert caught.value.type_name in ("FileNotFoundError", "PermissionError", "IsADirectoryError"), caught.value
    finally:
        session.close()


@functools.lru_cache(maxsize=None)
def _user_namespaces_work() -> bool:
    try:
        probe = subprocess.run(launcher._unshare_prefix("user") + ["true"], capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


def _modes():
    if NAMESPACES is None:
        return [pytest.param(None, marks=needs_namespaces, id="none")]
    modes = [pytest.param(NAMESPACES, id=NAMESPACES)]
    if NAMESPACES == "root" and _user_namespaces_work():
        # What a grader started by an ordinary user gets (namespace_mode() == "user").
        modes.append(pytest.param("user", id="user"))
    return modes


@pytest.mark.parametrize("mode", _modes())
def test_worker_cannot_unmask_the_hidden_suite(course, tmp_path, monkeypatch, mode):
    monkeypatch.setattr(launcher, "namespace_mode", lambda: mode)
    path = str(course.assignment(ASSIGNMENT).hidden_suite_path.resolve())
    session = _session(course, tmp_path, UNMASK_CELL)
    try:
        with pytest.raises(StudentError):
            session.call("unmask_and_read", path)
    finally:
        session.close()


@pytest.mark.skipif(NAMESPACES != "root" or not _user_namespaces_work(),
                    reason="needs root and user namespaces, to grade as an ordinary user's grader would")
def test_file_reading_attack_under_user_namespaces(course, tmp_path, monkeypatch):
    # The grading process is forked from this one, so it inherits the patched namespace_mode().
    monkeypatch.setattr(launcher, "namespace_mode", lambda: "user")
    assignment = _fast(course.assignment(ASSIGNMENT))
    sample = next(s for s in HOSTILE if s.name == "read_hidden_files")
    path = samples.build_notebook(assignment, sample, tmp_path / "entrega.ipynb")
    (result,) = grade_batch(course, assignment, [path], jobs=1)
    assert not result.error_instructor
    data = dataclasses.asdict(result)
    text = json.dumps(data, ensure_ascii=False) + "\n".join(_strings(data))
    leaked = [line for line in _hidden_suite_secrets(course) if line in text]
    assert (result.score, leaked[:3]) == (0, [])
