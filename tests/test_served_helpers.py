"""Served helpers never cost a correct student anything, whatever containers they use.

While `train_bpe` is graded, the student's `get_stats` and `merge` are the reference's,
called across the sandbox. A correct `train_bpe` that keeps its working sequence in a
deque, an array, a bytearray, a memoryview, a tuple or a numpy array, or counts into a
Counter, must score exactly what it scores with its own helpers: full marks.
"""

from __future__ import annotations

import array
import collections
import dataclasses
import os
import signal
import statistics
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder import samples
from autograder.grading.batch import grade_batch
from autograder.grading.student import StudentSession
from autograder.notebook.loader import Cell, Program
from autograder.sandbox.launcher import Limits
from autograder.sandbox import codec
from autograder.sandbox.served import as_plain, restore_into

from course_content import reference_functions

START = '    ids = list(text.encode("utf-8"))\n    merges = {}'
WORKING_SEQUENCES = {
    "deque": "collections.deque(text.encode('utf-8'))",
    "array": "array.array('q', list(text.encode('utf-8')))",
    "bytearray": "bytearray(text.encode('utf-8'))",
    "memoryview": "memoryview(text.encode('utf-8'))",
    "tuple": "tuple(text.encode('utf-8'))",
    "numpy": "numpy.frombuffer(text.encode('utf-8'), dtype=numpy.uint8).astype(numpy.int64)",
    "generator": "(b for b in text.encode('utf-8'))",
}
IMPORTS = "import array, collections, numpy\n"


def train_bpe_with(container: str, counter: bool = False) -> str:
    """The reference `train_bpe` with its working sequence in another container."""
    reference = reference_functions("bpe_bytes")["train_bpe"]
    source = f"{reference.header}\n{reference.body}"
    body = f"    ids = {container}\n    merges = {{}}"
    if container.startswith("("):  # a generator can be walked once: the helper gets it, then a list
        body = f"    ids = list({container})\n    merges = {{}}"
    source = source.replace(START, body)
    if counter:
        source = source.replace("stats = get_stats(ids)", "stats = get_stats(ids, collections.Counter())")
    return source


def own_conventions() -> dict:
    """A correct student whose `merge` hands back a deque (not the contract's list, so `merge`
    itself loses its points) and whose `train_bpe` relies on that: graded as written."""
    return {"get_stats": '''
def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    ids = list(ids)
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts
'''.strip("\n"), "merge": '''
def merge(ids, pair, idx):
    out, ids, i = collections.deque(), list(ids), 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
'''.strip("\n"), "train_bpe": train_bpe_with("collections.deque(text.encode('utf-8'))").replace(
        "ids = merge(ids, pair, idx)", "ids = merge(ids, pair, idx)\n        ids.rotate(0)  # a deque method")}


@pytest.fixture(scope="module")
def graded(fast_bpe_bytes, course, tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    corpus = {f"working_{name}": {"train_bpe": train_bpe_with(container)}
              for name, container in WORKING_SEQUENCES.items()}
    corpus["counter_into_served_get_stats"] = {"train_bpe": train_bpe_with(START.split("= ", 1)[1].split("\n")[0],
                                                                            counter=True)}
    corpus["own_conventions"] = own_conventions()
    built = [samples.Sample(name, "correct", "", replace=replace, first_cells=(IMPORTS,))
             for name, replace in corpus.items()]
    paths = [samples.build_module(fast_bpe_bytes, s, folder / f"{s.name}.py") for s in built]
    return {s.name: r for s, r in zip(built, grade_batch(fast_bpe_bytes, paths, jobs=2))}


@pytest.mark.parametrize("name", [f"working_{n}" for n in WORKING_SEQUENCES] + ["counter_into_served_get_stats"])
def test_any_container_gets_full_marks_through_served_helpers(graded, name):
    result = graded[name]
    assert result.score == 100, [(t.test_id, t.feedback) for t in result.tests if not t.passed]


def test_a_function_built_on_its_own_helpers_conventions_is_graded_as_written(graded):
    by_function = graded["own_conventions"].by_function()
    assert by_function["train_bpe"] == (25, 25) and by_function["encode"] == (20, 20)
    assert by_function["merge"][0] == 0  # a deque is not the list the contract asks merge for


# --- the conversions themselves -----------------------------------------------------------

ids = st.lists(st.integers(0, 255), max_size=30)


@given(ids)
def test_sequences_of_ids_cross_as_the_list_they_stand_for(values):
    for container in (collections.deque(values), array.array("q", values), bytes(values), bytearray(values),
                      memoryview(bytes(values)), iter(values), (v for v in values), range(0) if not values else
                      values, dict.fromkeys(values).keys()):
        plain = as_plain(container)
        codec.encode_value(plain)  # never UnsupportedType
        expected = list(dict.fromkeys(values)) if isinstance(container, type({}.keys())) else values
        assert list(plain) == expected


@given(st.dictionaries(st.tuples(st.integers(0, 9), st.integers(0, 9)), st.integers(1, 50), max_size=12))
def test_counts_cross_as_a_dict_and_come_back_into_the_students_own_type(counts):
    for kind in (collections.Counter, lambda d: collections.defaultdict(int, d), collections.OrderedDict, dict):
        mine = kind(counts)
        original_type = type(mine)
        plain = as_plain(mine)
        assert type(plain) is dict and plain == counts
        changed = {**counts, (42, 42): 7}
        restore_into(mine, codec.decode_value(codec.encode_value(changed)))
        assert type(mine) is original_type and dict(mine) == changed


@pytest.mark.parametrize("make", [list, collections.deque, lambda v: array.array("q", v), bytearray,
                                  lambda v: np.array(v, dtype=np.int64)])
def test_a_sequence_changed_in_place_keeps_its_type(make):
    mine = make([1, 2, 3])
    kind = type(mine)
    restore_into(mine, [3, 2, 1] if kind is not np.ndarray else np.array([3, 2, 1]))
    assert type(mine) is kind and list(mine) == [3, 2, 1]


def test_numpy_scalars_and_arrays_become_plain_data():
    plain = as_plain([np.int64(3), (np.int32(1), np.int32(2)), np.arange(3)])
    assert plain[0] == 3 and type(plain[0]) is int and plain[1] == (1, 2) and type(plain[1][0]) is int
    assert type(plain[2]) is np.ndarray


def test_an_object_that_cannot_cross_is_left_for_the_students_own_helper():
    @dataclasses.dataclass
    class Mine:
        x: int

    with pytest.raises(codec.UnsupportedType):
        codec.encode_value(as_plain([Mine(1)]))


# --- answers and modules a correct student may write ----------------------------------------

def test_a_named_tuple_answer_travels_as_the_tuple_it_is():
    Pair = collections.namedtuple("Pair", "loss grad")
    assert codec.decode_value(codec.encode_value(Pair(1.5, [2.0]))) == (1.5, [2.0])
    assert type(codec.decode_value(codec.encode_value(Pair(1.5, [2.0])))) is tuple


def test_a_module_submission_with_a_dataclass_loads(fast_bpe_bytes, course, tmp_path):
    sample = samples.Sample("dataclass_module", "correct", "", first_cells=(
        "import dataclasses\n\n@dataclasses.dataclass(frozen=True)\nclass Par:\n    a: int\n    b: int\n",))
    path = samples.build_module(fast_bpe_bytes, sample, tmp_path / "bpe_bytes.py")
    (result,) = grade_batch(fast_bpe_bytes, [path], jobs=1)
    assert result.score == 100 and not result.load.failed_cells, result.load


# A student who keeps what the served helper answered, and whose own helper answers from it.
ORACLE = """
KEPT = {}

def helper(x):
    return KEPT.get(x, "mine")

def graded(x):
    KEPT[x] = helper(x)  # while `graded` is graded, `helper` is the reference's
    return KEPT[x]
"""


def test_a_function_is_never_graded_in_a_worker_that_was_served_its_answers():
    """The reference's answers a worker was served for `helper` (while `graded` was graded) must not
    answer `helper`'s own tests: an oracle with no code of its own behind it."""
    session = StudentSession(Program([Cell("entrega.py", ORACLE)], module_name="entrega"), Limits(),
                             reference_source="def helper(x):\n    return f'ref{x}'\n",
                             served_helpers={"graded": ("helper",)})
    try:
        assert session.call("graded", 3) == "ref3"
        assert session.call("helper", 3) == "mine"
        assert session.call("graded", 4) == "ref4" and session.call("graded", 3) == "ref3"
        assert session.call("helper", 4) == session.call("helper", 3) == "mine"
    finally:
        session.close()


def test_a_function_that_drove_a_served_helper_past_its_limit_is_not_called_again():
    """Each of its tests would otherwise wait out the helper's limit anew: a `train_regex_bpe` that gave
    the served `pretokenize` a catastrophic pattern cost 137 s, for 0 points."""
    from autograder.grading.student import HelperOverLimit

    session = StudentSession(Program([Cell("entrega.py", "def graded(x):\n    return helper(x)\n")],
                                      module_name="entrega"),
                             Limits(call_seconds=1.0, load_seconds=10, submission_seconds=60),
                             reference_source="def helper(x):\n    while True:\n        pass\n",
                             served_helpers={"graded": ("helper",)})
    try:
        with pytest.raises(HelperOverLimit) as first:
            session.call("graded", 1)
        assert first.value.timed_out
        session.new_test()
        started = time.monotonic()
        with pytest.raises(HelperOverLimit) as again:
            session.call("graded", 2)
        assert again.value is first.value and time.monotonic() - started < 0.5
    finally:
        session.close()


def test_the_graders_own_work_on_callbacks_is_not_the_students_time(monkeypatch):
    """A call that asks the grader for a helper's known answer many times waits, each time, for the
    grading process: on a loaded machine that process waits for a CPU, and an 80-merge training timed
    out under load only (the audit's 5 s). The wait is the grader's; the call's own running is charged."""
    known = {("helper", codec.encoded_wire([index], {})): {"op": "callback_result", "args_after": [None],
                                                            "same_as": None, "value": codec.encode_value(index)}
             for index in range(40)}
    serve = StudentSession._serve_callback

    def slow_grader(self, request, allowed, clock):
        time.sleep(0.05)  # a grading process kept off the CPU by the rest of the machine
        return serve(self, request, allowed, clock)

    monkeypatch.setattr(StudentSession, "_serve_callback", slow_grader)
    session = StudentSession(Program([Cell("entrega.py", "def graded(n):\n    return sum(helper(i) for i in range(n))\n")],
                                      module_name="entrega"),
                             Limits(call_seconds=1.0, load_seconds=10, submission_seconds=60),
                             reference_source="def helper(x):\n    return x\n",
                             served_helpers={"graded": ("helper",)}, helper_answers=known)
    try:
        started = time.monotonic()
        assert session.call("graded", 40) == sum(range(40))  # 2 s of the grader's waiting, past the 1 s limit
        assert time.monotonic() - started >= 2.0 and session.spent < 1.0
    finally:
        session.close()


def test_the_graders_wait_to_read_each_callback_is_not_the_students_time():
    """From the moment it asks for a helper's answer the worker sleeps, and the grading process must first
    get a CPU to read the question. With four busy loops on the grading process's CPU, the same 1,000
    callbacks must cost the call what they cost on an idle machine, per second of the grader's own CPU
    for them (2.6-3 times as much when that wait was charged: bpe_palabras timed out under the test
    command's load only). Per second of CPU, because a busy sibling core can slow every CPU second here.
    Three rounds each, alternating, compared by their medians: one round on its own moved by half as
    much again while the other test process ran (1.67 idle, 2.69 busy, in one run of the test command)."""
    calls = 1000
    known = {("helper", codec.encoded_wire([index], {})): {"op": "callback_result", "args_after": [None],
                                                            "same_as": None, "value": codec.encode_value(index)}
             for index in range(calls)}
    session = StudentSession(Program([Cell("entrega.py", "def graded(n):\n    return sum(helper(i) for i in range(n))\n")],
                                      module_name="entrega"),
                             Limits(call_seconds=60, load_seconds=10, submission_seconds=600),
                             reference_source="def helper(x):\n    return x\n",
                             served_helpers={"graded": ("helper",)}, helper_answers=known)

    def charged_per_cpu_second() -> float:
        before, cpu = session.spent, time.thread_time()
        assert session.call("graded", calls) == sum(range(calls))
        return (session.spent - before) / (time.thread_time() - cpu)

    def hogs_run(running: bool) -> None:
        for hog in hogs:
            hog.send_signal(signal.SIGCONT if running else signal.SIGSTOP)
        time.sleep(0.3)

    allowed = os.sched_getaffinity(0)
    cpu = min(allowed)
    hogs = []
    try:
        session.call("graded", 1)  # the worker starts, free to run on any CPU
        os.sched_setaffinity(0, {cpu})  # this thread only: the grading process's
        hogs = [subprocess.Popen([sys.executable, "-c", f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"])
                for _ in range(4)]
        idle, busy = [], []
        for _ in range(3):
            hogs_run(False)
            idle.append(charged_per_cpu_second())
            hogs_run(True)
            busy.append(charged_per_cpu_second())
        assert statistics.median(busy) < 1.5 * statistics.median(idle), \
            f"{busy} s charged per CPU second beside busy loops, {idle} without"
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        os.sched_setaffinity(0, allowed)
        session.close()


KNOWN_ARGUMENTS = [0, -7, 2**70, 1.5, -0.0, "añ\u2028b", b"\x00\xff", [1, [2, 3]], (4, 5), {"k": [6]}, {7, 8}, None, True]


def test_a_known_callback_is_answered_from_its_frames_bytes_with_the_answer_a_lookup_gives(monkeypatch):
    """Callbacks whose answers are known are recognised by the bytes of the worker's frame and answered
    with the answer's frame made once per batch (bpe_palabras asks about 4,000 per submission). Nothing
    in such a frame is parsed, so the answer must be the very one parsing and looking it up gives."""
    known = {("helper", codec.wire_of((value,), {})): {"op": "callback_result", "args_after": [None], "same_as": None,
                                                       "value": codec.encode_value(("ref", index))}
             for index, value in enumerate(KNOWN_ARGUMENTS)}
    source = f"VALUES = {KNOWN_ARGUMENTS!r}\ndef graded():\n    return [helper(value) for value in VALUES]\n"
    parsed = []
    loads = codec.loads_message
    monkeypatch.setattr(codec, "loads_message", lambda payload: parsed.append(loads(payload)["op"]) or loads(payload))
    answers = {}
    for recognised in (True, False):
        session = StudentSession(Program([Cell("entrega.py", source)], module_name="entrega"), Limits(),
                                 reference_source="def helper(x):\n    raise AssertionError('not known')\n",
                                 served_helpers={"graded": ("helper",)}, helper_answers=known,
                                 known_callbacks=None if recognised else {})
        try:
            parsed.clear()
            answers[recognised] = session.call("graded")
            assert ("callback" in parsed) is not recognised, parsed
        finally:
            session.close()
    assert answers[True] == answers[False] == [("ref", index) for index in range(len(KNOWN_ARGUMENTS))]
    assert len(codec.known_callbacks(known)) == len(known)  # every kind of argument has its frame


def test_a_known_answer_is_still_only_for_the_function_whose_helper_it_is():
    from autograder.sandbox.launcher import KNOWN_ANSWER

    session = StudentSession(Program([Cell("entrega.py", "")], module_name="entrega"), Limits())
    request = {"op": "callback", "name": "merge", KNOWN_ANSWER: b"the answer's frame"}
    assert session._serve_callback(request, ("merge",), clock=None) == b"the answer's frame"
    refused = session._serve_callback(request, ("get_stats",), clock=None)
    assert refused == {"op": "callback_raise", "builtin": "RuntimeError", "message": "función no disponible"}


@pytest.mark.parametrize("assignment_id", ["bpe_bytes", "bpe_palabras", "tokenizador_gpt"])
def test_every_callback_of_the_reference_is_recognised_by_its_frame(course, assignment_id, monkeypatch):
    """The table is keyed by the frame the worker's served helper writes (served.py): if the two drift
    apart, every callback is parsed again, with the same grades, and only this test notices."""
    from autograder.grading.kit import build_kit
    from autograder.grading.session import grade_submission
    from autograder.sandbox import launcher

    kit = build_kit(course.assignment(assignment_id))
    read_frame, callbacks = launcher.Worker._read_frame, []

    def recorded(self, deadline, known=None):
        message = read_frame(self, deadline, known)
        if message.get("op") == "callback":
            callbacks.append(launcher.KNOWN_ANSWER in message)
        return message

    monkeypatch.setattr(launcher.Worker, "_read_frame", recorded)
    result = grade_submission(kit, kit.assignment.solution_path)
    assert result.score == result.max_score
    assert kit.helper_answers and callbacks and all(callbacks), (len(callbacks), callbacks.count(False))
