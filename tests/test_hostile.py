"""Hostile submissions cannot raise their score, stop the batch or read the hidden suite.

Every assignment has a hostile corpus: the generic shape attacks and, most, attacks of their own
in ``solutions/<id>/hostile.py``. A pure attack
replaces every graded function (or makes it useless), so a sound grader gives it exactly 0;
a mixed attack (its module's ``HONEST_PARTS``) must earn exactly what its honest part earns
alone. Each assignment's attacks are graded in ONE ``grade_batch`` call, next to the
reference (which must keep full marks), the released stub and the honest parts, so an
attack that disturbs the batch or a neighbour shows up here too.

Each attack below once found a real weakness, or still does: those are pinned with a
strict xfail that names the weakness (reference answers on request, a worker outliving
its submission, unmountable masks in user namespaces, ... were found and fixed this way).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import multiprocessing
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from autograder import samples
from autograder.course import load_course
from autograder.grading.batch import grade_batch
from autograder.grading.plugin import suite_published_examples
from autograder.grading.student import StudentError, StudentSession
from autograder.samples.grader_attacks import LEFTOVER_MARKER
from autograder.notebook.loader import Cell, Program
from autograder.sandbox import launcher

from conftest import UNSANDBOXED
from course_content import COURSE, catalogue
from leaks import hidden_inputs, hidden_suite_secrets, leaked_inputs, published_text, strings, student_text

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(UNSANDBOXED, reason="no sandbox here (an ordinary user without namespaces): "
                                                     "attacks are only run where the grader would grade")]

ASSIGNMENT = "bpe_bytes"  # the worker-level checks at the end use its hidden suite
ASSIGNMENTS = tuple(COURSE.assignments)
HOSTILE = {a: catalogue(a, "hostile") for a in ASSIGNMENTS}
HONEST_PARTS = {a: samples.honest_parts(COURSE.assignment(a)) for a in ASSIGNMENTS}
AS_MODULE = {  # also graded as a .py module (build_module): import-time code is the whole module
    "bpe_bytes": {"lying_eq_object", "sys_exit", "read_hidden_files", "fake_results_files", "worker_internals_patch"},
    "tokenizacion": {"feedback_exfiltration"},
    "bpe_palabras": {"output_flood", "import_side_effects"},
    "tokenizador_gpt": {"ctypes_segfault"},
    "embeddings": {"numpy_patched_at_load"},
    "subpalabras": {"subpalabras_nested_past_recursion"},
}
ESCAPE_MARKER = "hostile-escape-marker"  # written into their cwd by escape_process_group and import_side_effects
RESULT_SIZE_CAP = 1_000_000  # bytes of JSON per GradeResult; honest results are ~20 kB

NAMESPACES = launcher.namespace_mode()

NEEDS_NAMESPACES = {  # attacks that only a namespace stops (describe_defences() says when it is off)
    "read_hidden_files": "hidden paths are only masked inside a mount namespace",
    "kill_signals": "without a PID namespace the worker's parent is the grading process",
    "network": "without a network namespace the worker has the machine's network",
    "reads_other_submissions": "without a mount namespace the other submissions of the batch are readable",
}

# --- weaknesses found by these attacks ----------------------------------------------------
# Fixed, and kept fixed by the checks below: stashed fixed inputs replayed in property-test
# messages (property tests now run first, and hidden suites never echo messages), a "missing"
# name taken from the worker's reply, hypothesis' FlakyFailure blamed on the grader, argument
# rewrites mirrored into the test's own data (only MUTATES arguments are mirrored now), and
# replies of millions of tiny values (node count capped before parsing).

# Labels whose check is expected to fail, by check: {check: {label: reason}}.
KNOWN: dict = {}
MAY_BE_FLAKY: set = set()


@dataclasses.dataclass(frozen=True)
class Entry:
    assignment: str
    sample: samples.Sample
    form: str  # "notebook" or "module"
    honest: bool = False  # the honest part of a mixed attack, not an attack

    @property
    def label(self) -> str:
        name = f"honest:{self.sample.name}" if self.honest else self.sample.name
        return f"{self.assignment}/{name}" + (".py" if self.form == "module" else "")


def _entries() -> list[Entry]:
    entries = []
    for assignment in ASSIGNMENTS:
        for sample in HOSTILE[assignment]:
            entries.append(Entry(assignment, sample, "notebook"))
            if sample.name in AS_MODULE.get(assignment, ()):
                entries.append(Entry(assignment, sample, "module"))
        for sample in HONEST_PARTS[assignment].values():
            entries.append(Entry(assignment, sample, "notebook", honest=True))
    return entries


ENTRIES = _entries()
ATTACKS = [e for e in ENTRIES if not e.honest]
HONEST_OF = {f"{a}/{attack}": f"{a}/honest:{sample.name}" for a in ASSIGNMENTS
             for attack, sample in HONEST_PARTS[a].items()}


def _param(entry: Entry, check: str = ""):
    marks = []
    if NAMESPACES is None and entry.sample.name in NEEDS_NAMESPACES:
        marks.append(pytest.mark.xfail(reason=f"no Linux namespaces here: {NEEDS_NAMESPACES[entry.sample.name]}"))
    if entry.label in KNOWN.get(check, {}):
        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[check][entry.label]))
    return pytest.param(entry.label, marks=marks, id=entry.label)


NEIGHBOURS = [f"{a}/{name}" for a in ASSIGNMENTS for name in ("correct", "stub")]


def _params(entries, check: str = "", extra=()):
    return [_param(e, check) for e in entries] + [pytest.param(label, id=label) for label in extra]


def test_at_least_30_distinct_attacks():
    names = [s.name for a in ASSIGNMENTS for s in HOSTILE[a]]
    assert len(set(names)) == len(names), "an attack name is used twice"
    assert len(set(names)) >= 30, len(set(names))
    assert all(len(HOSTILE[a]) >= 2 for a in ASSIGNMENTS), {a: len(HOSTILE[a]) for a in ASSIGNMENTS}
    assert all(s.kind == "hostile" for a in ASSIGNMENTS for s in HOSTILE[a])


# --- the batches --------------------------------------------------------------------------

@dataclasses.dataclass
class Batch:
    results: dict  # label -> GradeResult
    paths: dict  # label -> submission path
    files_before: dict
    files_after: dict
    escaped: list  # pids of workers that outlived their submission
    seconds: float
    leftovers: list  # files the leftovers attack dropped that are still on the machine


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


def _leftovers() -> list[str]:
    """Files named after LEFTOVER_MARKER in any folder a worker could write to, once the batch is over."""
    found = []
    for folder in {*launcher.writable_directories(), str(Path.cwd())}:
        try:
            found += [os.path.join(folder, n) for n in os.listdir(folder) if n.startswith(LEFTOVER_MARKER)]
        except OSError:
            pass
    return found


def _kill(pids) -> None:
    for pid in pids:  # only processes started by our own escape_process_group and import_side_effects samples
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _build(assignment, entry: Entry, folder: Path) -> Path:
    name = entry.label.split("/", 1)[1].replace(":", "-")
    if entry.form == "module":
        return samples.build_module(assignment, entry.sample, folder / name)
    return samples.build_notebook(assignment, entry.sample, folder / f"{name}.ipynb")


@pytest.fixture(scope="module")
def course():
    return load_course()


@pytest.fixture(scope="module")
def batches(course, tmp_path_factory):
    """batches(assignment_id) -> Batch, graded the first time a test asks (so `-k ID` grades one)."""
    cache: dict[str, Batch] = {}

    def batch(assignment_id: str) -> Batch:
        if assignment_id not in cache:
            cache[assignment_id] = _grade(course, assignment_id, tmp_path_factory.mktemp(f"hostile-{assignment_id}"))
        return cache[assignment_id]

    yield batch
    _kill(_escaped_workers())


def _grade(course, assignment_id: str, folder: Path) -> Batch:
    assignment = _fast(course.assignment(assignment_id))
    entries = [e for e in ENTRIES if e.assignment == assignment_id]
    paths: dict[str, Path] = {}
    reference = samples.correct(assignment_id)
    for index, entry in enumerate(entries):
        paths[entry.label] = _build(assignment, entry, folder)
        # The reference runs in the middle of the batch, right next to the attacks (bpe_bytes: the fork bomb).
        if entry.sample.name == "fork_bomb" or (assignment_id != "bpe_bytes" and index == len(entries) // 2):
            paths["correct"] = samples.build_notebook(assignment, reference, folder / "correct.ipynb")
    if "correct" not in paths:
        paths["correct"] = samples.build_notebook(assignment, reference, folder / "correct.ipynb")
    paths["stub"] = samples.build_notebook(assignment, samples.stub(assignment), folder / "stub.ipynb")

    before = _watched_files(course)
    started = time.monotonic()
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("CI", "true")  # as the staff workflows grade: pytest would not truncate its diffs
        results = grade_batch(assignment, list(paths.values()), jobs=2)
    seconds = time.monotonic() - started
    escaped = _escaped_workers()
    _kill(escaped)
    return Batch(dict(zip(paths, results)), paths, before, _watched_files(course), escaped, seconds,
                 _leftovers())


def _lookup(batches, label: str):
    """The result of `label`: 'ASSIGNMENT/name', 'ASSIGNMENT/correct' or 'ASSIGNMENT/stub'."""
    assignment, name = label.split("/", 1)
    batch = batches(assignment)
    return batch.results[name if name in ("correct", "stub") else label]


def _all_text(result) -> str:
    data = dataclasses.asdict(result)
    return json.dumps(data, ensure_ascii=False) + "\n".join(strings(data))


# --- each batch as a whole -----------------------------------------------------------------

@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_batch_grades_every_submission(batches, assignment_id):
    batch = batches(assignment_id)
    assert list(batch.results) == list(batch.paths)
    for label, result in batch.results.items():
        assert result.submission == str(batch.paths[label])
        assert result.tests, label


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_reference_keeps_full_marks_next_to_the_attacks(batches, assignment_id):
    result = batches(assignment_id).results["correct"]
    failed = [f"{t.test_id}: {t.outcome} {t.instructor_note}" for t in result.tests if not t.passed]
    assert result.score == result.max_score == 100, failed


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_released_stub_scores_zero(batches, assignment_id):
    result = batches(assignment_id).results["stub"]
    assert result.score == 0
    assert not result.error_instructor


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_results_file_is_planted(batches, assignment_id):
    batch = batches(assignment_id)
    assert batch.files_after == batch.files_before


# Only root mode drops to another uid (which clears PDEATHSIG); without unshare, setpgid fails for the
# session leader the worker already is. A concurrent run of this suite on the same machine plants the
# same marker: run one at a time.
@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_file_is_left_in_a_shared_folder(batches, assignment_id):
    names = [s.name for s in HOSTILE[assignment_id]]
    assert any(n.endswith("_leftovers_in_shared_folders") for n in names), "the attack this check is for"
    leftovers = batches(assignment_id).leftovers
    for path in leftovers:
        with contextlib.suppress(OSError):
            os.remove(path)
    assert leftovers == []


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_no_worker_outlives_its_submission(batches, assignment_id):
    batch = batches(assignment_id)
    assert batch.escaped == [], f"workers still running after the batch (killed now): {batch.escaped}"


# --- attack by attack ---------------------------------------------------------------------

@pytest.mark.parametrize("label", _params(ATTACKS, "score"))
def test_attack_scores_exactly_its_honest_part(batches, label):
    result = _lookup(batches, label)
    earned = {t.test_id: round(t.score, 3) for t in result.tests if t.score}
    honest = label.removesuffix(".py")
    expected = _lookup(batches, HONEST_OF[honest]).score if honest in HONEST_OF else 0
    assert result.score == expected, earned


@pytest.mark.parametrize("label", sorted(HONEST_OF))
def test_mixed_attacks_have_an_honest_part_worth_something(batches, label):
    # Otherwise "scores exactly its honest part" would be "scores zero" in disguise.
    assert 0 < _lookup(batches, HONEST_OF[label]).score < 100


@pytest.mark.parametrize("label", _params(ATTACKS, extra=NEIGHBOURS))
def test_attack_does_not_break_the_grader(batches, label):
    result = _lookup(batches, label)
    reference = _lookup(batches, f"{label.split('/')[0]}/correct")
    assert not result.error_instructor.startswith("grader error"), result.error_instructor
    assert result.max_score == reference.max_score
    assert [t.test_id for t in result.tests] == [t.test_id for t in reference.tests]


@pytest.mark.parametrize("label", _params(ENTRIES, extra=NEIGHBOURS))
def test_no_hidden_suite_text_in_results(batches, label):
    text = _all_text(_lookup(batches, label))
    leaked = [line for line in hidden_suite_secrets(label.split("/")[0]) if line in text]
    assert not leaked, leaked[:5]


@pytest.mark.parametrize("label", _params(ENTRIES, "feedback"))
def test_no_hidden_input_in_student_feedback(batches, label):
    assignment_id = label.split("/")[0]
    batch = batches(assignment_id)
    hidden = hidden_inputs(assignment_id, published_text(assignment_id, batch.results["stub"]))
    leaked = leaked_inputs(hidden, student_text(_lookup(batches, label)))
    assert not leaked, leaked[:5]


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_hidden_inputs_are_real_and_absent_from_the_reference_and_stub(batches, assignment_id):
    batch = batches(assignment_id)
    hidden = hidden_inputs(assignment_id, published_text(assignment_id, batch.results["stub"]))
    assert len(hidden) >= 3, hidden  # enough for the check above to mean something
    for name in ("correct", "stub"):
        assert not leaked_inputs(hidden, student_text(batch.results[name]))


@pytest.mark.parametrize("label", _params(ENTRIES))
def test_result_size_is_bounded(batches, label):
    size = len(json.dumps(dataclasses.asdict(_lookup(batches, label))))
    assert size < RESULT_SIZE_CAP, f"{size} bytes"


BPE_BYTES_NOT_BLAMED = {"malformed_replies", "noop_functions", "numpy_empty_array", "read_hidden_files",
                        "lying_eq_object", "sys_exit", "os_exit", "infinite_loop", "fork_bomb", "oversized_replies"}


@pytest.mark.parametrize("label", _params([e for e in ATTACKS if e.assignment != "bpe_bytes"
                                           or e.sample.name in BPE_BYTES_NOT_BLAMED], "blame"))
def test_student_faults_are_not_blamed_on_the_grader(batches, label):
    tests = _lookup(batches, label).tests
    blamed = [f"{t.test_id}: {t.instructor_note}" for t in tests if t.outcome == "grader_error"]
    if label in MAY_BE_FLAKY:  # FLAKY_BLAMED_ON_GRADER is pinned by flaky_exceptions
        blamed = [b for b in blamed if "FlakyFailure" not in b]
    assert not blamed, blamed[:5]


# --- weaknesses of the scoring, pinned --------------------------------------------------------

def test_a_table_of_published_examples_earns_only_what_those_tests_are_worth(batches):
    """Catch-all tests earn in proportion to the specific tests passed, not counting the tests of the
    lesson's published examples (PUBLISHED_EXAMPLES): a table of those examples earns them and nothing more."""
    result = _lookup(batches, "tokenizacion/honest:published_lookup_only")
    published = suite_published_examples(load_course().assignment("tokenizacion").hidden_suite_path)
    earned = {t.test_id for t in result.tests if t.score > 0}
    assert earned == published, earned ^ published
    # A result's score is written to 4 decimals.
    assert result.score == pytest.approx(sum(t.max_score for t in result.tests if t.test_id in published), abs=5e-5)


# --- one reply cannot make the grader allocate gigabytes -------------------------------------

AMPLIFIER_CELL = '''
import json, os, struct, sys
from autograder.sandbox import codec as _codec

_CUERPO = b'["n"],' * ((_codec.MAX_FRAME_BYTES - 200) // 6)
_escribir = _codec.write_frame


def _escribir_enorme(fd, message):
    """Every 'return' reply becomes the largest frame there is, of the smallest values there are."""
    if message.get("op") != "return":
        return _escribir(fd, message)
    estados = json.dumps([None] * len(message.get("args_after") or [])).encode()
    cuerpo = b'{"op":"return","same_as":null,"args_after":' + estados + b',"value":["l",[' + _CUERPO + b'["n"]]]}'
    datos = memoryview(struct.pack(">I", len(cuerpo)) + cuerpo)
    while datos:
        datos = datos[os.write(fd, datos):]


_codec.write_frame = _escribir_enorme


def nada():
    return None
'''


def _peak_growth_of_one_call(connection) -> None:
    import resource

    def resident_kib() -> int:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024

    before = resident_kib()
    session = StudentSession(Program([Cell("<celda 1>", AMPLIFIER_CELL)]),
                             launcher.Limits(call_seconds=20, load_seconds=10, submission_seconds=60))
    try:
        value = session.call("nada")
        outcome = f"returned {type(value).__name__} of {len(value)}"
    except Exception as exc:  # noqa: BLE001 - any refusal is a fine outcome here
        outcome = f"{type(exc).__name__}: {exc}"
    finally:
        session.close()
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    connection.send((growth, outcome))
    connection.close()


def test_one_reply_cannot_make_the_grader_allocate_gigabytes():
    context = multiprocessing.get_context("fork")  # a fresh grading process, as grade_batch makes
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_peak_growth_of_one_call, args=(sender,))
    child.start()
    sender.close()
    assert receiver.poll(120), "the grading process did not finish"
    growth_kib, outcome = receiver.recv()
    child.join(10)
    assert growth_kib < 512 * 1024, f"the grading process grew by {growth_kib // 1024} MiB ({outcome})"


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
    sample = next(s for s in HOSTILE[ASSIGNMENT] if s.name == "read_hidden_files")
    path = samples.build_notebook(assignment, sample, tmp_path / "entrega.ipynb")
    (result,) = grade_batch(assignment, [path], jobs=1)
    assert not result.error_instructor
    text = _all_text(result)
    leaked = [line for line in hidden_suite_secrets(ASSIGNMENT) if line in text]
    assert (result.score, leaked[:3]) == (0, [])


def test_served_reference_helpers_run_under_limits_and_charge_the_student(batches):
    # Once the reference's pretokenize ran in the grading process on the student's arguments: a
    # backtracking pattern hung the grader 300 s, a huge answer cost it gigabytes and a grader error.
    result = _lookup(batches, "tokenizador_gpt/served_helper_overload")
    over = [t for t in result.tests if t.instructor_note.startswith("reference helper pretokenize over its limits")]
    assert {t.outcome for t in over} == {"timeout", "crashed"}, [(t.test_id, t.outcome) for t in result.tests]
    assert all("`pretokenize`" in t.feedback for t in over)
    assert not result.grader_failed() and result.score == 0
