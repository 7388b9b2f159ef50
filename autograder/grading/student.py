"""The student's functions, as the hidden suites see them.

``student.merge(ids, pair, 256)`` looks like a local call, but runs in a sandboxed
worker. What comes back is plain data built by the grader; the arguments the
student changed in place are changed here too, so tests read like ordinary tests.

Every way a call can go wrong becomes one exception type that the results model
turns into Spanish feedback:

- StudentError: the student's code raised (a subclass of the same builtin, so
  ``pytest.raises(ValueError)`` works);
- FunctionMissing, BadReturn: nothing to call, or an answer that is not data;
- StudentTimeout, StudentCrashed: the worker hung or died (a fresh one is started
  for the next test, and the cells that hung while loading are skipped).
"""

from __future__ import annotations

import builtins
import collections
import contextlib
import dataclasses
import functools
import json
import time

from autograder.notebook.loader import Cell, Program
from autograder.sandbox import codec
from autograder.sandbox.launcher import (KNOWN_ANSWER, Limits, RepliesOverBudget, ReplyBudget, SandboxError, Worker,
                                         WorkerFailure, WorkerTimeout)


class StudentProblem(Exception):
    """Base of everything that makes a call of student code fail."""


class StudentError(StudentProblem):
    """The student's code raised an exception (described as data)."""

    type_name = "Exception"
    builtin = "Exception"

    def __init__(self, description: dict, sources: dict[str, str] | None = None):
        self.type_name = str(description.get("type", "Exception"))[:80]
        self.builtin = _first_builtin_exception(description.get("builtin"))
        self.message = str(description.get("message", ""))[:300]
        self.frames = trusted_frames(description.get("frames"), sources or {})
        super().__init__(f"{self.type_name}: {self.message}")


def _first_builtin_exception(names) -> str:
    for name in names if isinstance(names, list) else [names]:
        candidate = getattr(builtins, str(name), None)
        if isinstance(candidate, type) and issubclass(candidate, BaseException):
            return candidate.__name__
    return "Exception"


def trusted_frames(frames, sources: dict[str, str]) -> list[tuple[str, int, str]]:
    """Frames the worker reported, kept only where they point at a real line of the
    submission; the code shown is the grader's own copy of that line."""
    kept = []
    for frame in frames if isinstance(frames, list) else []:
        if not (isinstance(frame, list) and len(frame) == 3 and frame[0] in sources and type(frame[1]) is int):
            continue
        lines = sources[frame[0]].splitlines()
        if 1 <= frame[1] <= len(lines):
            kept.append((frame[0], frame[1], lines[frame[1] - 1].strip()[:200]))
    return kept


@functools.lru_cache(maxsize=None)
def student_error_class(builtin_name: str) -> type[StudentError]:
    """StudentError mixed with the builtin exception the student raised (e.g. ValueError),
    or with its nearest ancestor that can be mixed in (UnicodeDecodeError -> ValueError)."""
    builtin = getattr(builtins, builtin_name, None)
    if not (isinstance(builtin, type) and issubclass(builtin, Exception)):
        return StudentError
    for base in builtin.__mro__:
        if base is Exception or issubclass(base, (StopIteration, StopAsyncIteration)):
            break
        mixed = type(f"Student{base.__name__}", (StudentError, base), {})
        try:
            mixed({})  # some builtins (UnicodeError's family, OSError's) insist on their own arguments
        except TypeError:
            continue
        return mixed
    return StudentError


class FunctionMissing(StudentProblem):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class BadReturn(StudentProblem):
    def __init__(self, type_name: str):
        super().__init__(type_name)
        self.type_name = type_name


class StudentTimeout(StudentProblem):
    def __init__(self, seconds: float, whole_submission: bool = False, earlier: bool = False, probed: bool = False):
        super().__init__(seconds)
        self.seconds = seconds
        self.whole_submission = whole_submission
        self.earlier = earlier  # the function timed out in an earlier test and was not called again
        self.probed = probed  # ... or on a simple input, tried when another function hung (StudentSession.probe)


class StudentCrashed(StudentProblem):
    pass


class UnreadableReply(StudentCrashed):
    """The worker's reply arrived whole but holds a value the grader refuses to rebuild (a set of keys
    that all share one hash, data outside the protocol): the student's answer, not a crash."""


class RepliesTooLarge(StudentProblem):
    """The submission's replies have carried more values than REPLY_VALUES_PER_SUBMISSION: no later
    reply is read, and every later call fails at once."""

    def __init__(self, values: int):
        super().__init__(values)
        self.values = values


# Every value a submission's workers send is parsed, rebuilt and type-checked by the grader: some
# 6 microseconds each, outside any call's limit. The references send at most 88,128 in a whole
# grading (bpe_palabras); answers of 100,000 values in every call made one submission cost 65 s.
REPLY_VALUES_PER_SUBMISSION = 1_000_000


class HelperOverLimit(StudentCrashed):
    """The student's code called a served reference helper with arguments that made it
    exceed its limits (time, memory, size of its answer): the student's failure."""

    def __init__(self, helper: str, timed_out: bool, detail: str):
        super().__init__(f"reference helper {helper} over its limits: {detail}")
        self.helper, self.timed_out = helper, timed_out


NOT_RETURNED = object()
MIN_LOAD_SECONDS = 2.0  # a reload after a cell timed out gets at least this, for the cells that load fine


@dataclasses.dataclass
class CallRecord:
    """One call a test made to the student's functions, kept so that a failed property test can show
    it (feedback.describe_calls): the arguments as they were sent, and what came back.

    The arguments are kept as the worker received them, encoded before the call (which may change
    the grader's objects in place, mirroring the student's changes). Encoding them is needed for the
    call anyway; copying them was 60 ms of every submission, for the few examples that fail."""

    name: str
    sent: "tuple[list, dict] | None"  # encoded (codec.encode_value); None: they could not be encoded
    returned: object = NOT_RETURNED
    problem: "StudentProblem | None" = None

    @classmethod
    def of(cls, name: str, args: tuple, kwargs: dict, **outcome) -> "CallRecord":
        return cls(name, _encoded(args, kwargs), **outcome)

    def arguments(self) -> "tuple[tuple, dict] | None":
        """The arguments as they were sent, rebuilt; None if they could not be kept."""
        if self.sent is None:
            return None
        args, kwargs = self.sent
        return tuple(codec.decode_value(a) for a in args), {k: codec.decode_value(v) for k, v in kwargs.items()}


def _encode_arguments(args: tuple, kwargs: dict) -> "tuple[list, dict]":
    return [codec.encode_value(a) for a in args], {k: codec.encode_value(v) for k, v in kwargs.items()}


def _encoded(args: tuple, kwargs: dict) -> "tuple[list, dict] | None":
    try:
        return _encode_arguments(args, kwargs)
    except (codec.CodecError, RecursionError, ValueError):
        return None


class StudentSession:
    """One submission's program, its worker, and the budget it may spend."""

    def __init__(self, program: Program, limits: Limits, *, reference_source: str | None = None,
                 served_helpers: dict[str, tuple[str, ...]] | None = None,
                 mutated_arguments: dict[str, tuple[int, ...]] | None = None,
                 helper_answers: dict[tuple[str, str], dict] | None = None,
                 known_callbacks: dict | None = None,
                 probe_calls: dict | None = None):
        self.program = program
        self.sources = {cell.filename: cell.source for cell in program.cells}
        self.limits = limits
        # The submission's own time so far: its workers' requests, each measured as on an idle machine
        # (launcher.Clock), so that the same submission has the same budget on a loaded machine.
        self.spent = 0.0
        # Loading's share of it: `load_seconds` is one budget for all the cells that time out, whatever
        # their number (4 cells of slow magics cost 124 s when each had it whole). The cells that load
        # fine before them get their measured time again on each reload.
        self.load_lost = 0.0  # time spent in cells that timed out
        self.load_prefix = 0.0  # the longest time the cells before a timed-out one took
        self.load_total = 0.0  # every load, capped at twice `load_seconds` (the worker reports the cells)
        self.worker: Worker | None = None
        self.skipped: dict[int, str] = {}  # cell index -> why it is left out of later loads
        self.load_report: dict | None = None
        self.failure: StudentProblem | None = None  # set after a hang or crash, until the next test
        self.reply_budget = ReplyBudget(REPLY_VALUES_PER_SUBMISSION)  # shared by all its workers
        self.replies_too_large: RepliesTooLarge | None = None  # once set, no function is called again
        self.reference_source = reference_source  # the reference solution, served by its own worker
        self._reference_worker: Worker | None = None
        self.substitutes = dict(served_helpers or {})  # function -> helpers served by the reference
        self.mutates = dict(mutated_arguments or {})  # function -> positions of arguments it may change
        # The last call's positional arguments as the student's code left them (expect.arguments_after).
        self.arguments_after_call: list | None = None
        self.helper_answers = helper_answers or {}  # the reference's answers, written down in advance (banks.py)
        # The same, by the bytes of the callback frame that asks each one (a kit makes them once per batch).
        self.known_callbacks = codec.known_callbacks(self.helper_answers) if known_callbacks is None else known_callbacks
        self.probe_calls = dict(probe_calls or {})  # function -> a simple public call (banks.Call), for probe()
        self.hung_in_probe: set[str] = set()  # functions judged hung by probe(): their tests were not run
        self.timed_out: set[str] = set()  # functions that ran out of time once: not called again
        # Functions that drove a served helper past its time limit once: not called again either, or each
        # of their tests would wait out the helper's limit anew (137 s for a catastrophic pattern).
        self.helper_timed_out: dict[str, "HelperOverLimit"] = {}
        # Helpers whose reference answers the current worker has been given: the student's code may
        # have kept them, so that worker never runs those functions' own tests (_worker_for).
        self.served_to_worker: set[str] = set()
        self._spare: Worker | None = None  # started ahead by start_soon(), not yet ready or loaded
        self._ahead: collections.deque[tuple[str, str]] = collections.deque()  # (name, wire) sent, answer unread
        self._calls: list[CallRecord] | None = None  # the current example's calls, while recording

    # -- lifecycle -------------------------------------------------------------------

    def _time_left(self) -> float:
        return self.limits.submission_seconds - self.spent

    @contextlib.contextmanager
    def _spending(self, clock):
        """Add what `clock` measured to the submission's time, however the request ends."""
        try:
            yield clock
        finally:
            self.spent += clock.used()

    def _worker_for(self, *names: str) -> Worker:
        """The worker to call these functions in: a fresh one if the current one was served the
        reference's answers for any of them while another function was graded. Student code can keep
        what it was served (in a global, a closure, a file) and answer those functions' own tests
        with it: an oracle, which a worker that never held them cannot consult."""
        if self.served_to_worker.intersection(names):
            self._drop_worker()
        return self._ensure_worker()

    def _ensure_worker(self) -> Worker:
        while self.worker is None:
            if self._time_left() <= 0:
                raise StudentTimeout(self.limits.submission_seconds, whole_submission=True)
            self._start_and_load()
        return self.worker

    def start_soon(self, started: Worker | None = None) -> None:
        """Start the first worker now without waiting for it, so that its interpreter starts while the
        grader prepares the tests (`started`: one started earlier still, by start_worker_soon). The
        first call waits for it, and meets any failure to start as it would have met it starting the
        worker itself."""
        if self.worker is None and self._spare is None:
            self._spare = started or start_worker_soon(self.limits)
        elif started is not None:
            started.close()

    def _start_and_load(self) -> None:
        kept = [(i, c) for i, c in enumerate(self.program.cells) if i not in self.skipped]
        current = {"cell": None, "started": 0.0}
        spare, self._spare = self._spare, None
        worker = spare.ready() if spare is not None else Worker(self.limits)  # fails as Worker() would
        budget = max(1.5 * self.load_prefix + max(self.limits.load_seconds - self.load_lost, 0.0), MIN_LOAD_SECONDS)
        budget = min(budget, self.limits.load_seconds, 2 * self.limits.load_seconds - self.load_total, self._time_left())
        try:
            with self._spending(worker.clock(max(budget, 0.1))) as clock:
                reply = worker.request(
                    {"op": "load", "module_name": self.program.module_name, "ipython": self.program.ipython_syntax,
                     "cells": [{"filename": c.filename, "source": c.source} for _, c in kept]},
                    clock, on_progress=lambda m: current.update(cell=m.get("cell"), started=clock.used()),
                )
        except WorkerFailure as exc:
            worker.close()
            self.load_total += clock.used()
            if isinstance(exc, WorkerTimeout):
                self.load_lost += clock.used() - current["started"]
                self.load_prefix = max(self.load_prefix, current["started"])
            index = current["cell"]
            if not isinstance(index, int) or not 0 <= index < len(kept):
                raise StudentCrashed("the worker died before the code was loaded") from exc
            why = "timeout" if isinstance(exc, WorkerTimeout) else "died"  # session.SKIPPED_BECAUSE words it
            self.skipped[kept[index][0]] = why
            return
        if reply.get("op") != "loaded" or not isinstance(reply.get("cells"), list):
            worker.close()
            raise StudentCrashed("the worker sent an unexpected reply while loading the code")
        worker.reply_budget = self.reply_budget
        self.worker = worker
        if self.load_report is None:
            self.load_report = self._describe_load(kept, reply)

    def _describe_load(self, kept: list[tuple[int, Cell]], reply: dict) -> dict:
        failed = []
        for (index, cell), result in zip(kept, reply["cells"]):
            if isinstance(result, dict) and not result.get("ok", False):
                error = result.get("error") if isinstance(result.get("error"), dict) else {}
                failed.append({"cell": cell.filename, "error": StudentError(error, self.sources)})
        skipped = [{"cell": self.program.cells[i].filename, "why": why} for i, why in sorted(self.skipped.items())]
        functions = reply.get("functions") if isinstance(reply.get("functions"), list) else []
        output = reply.get("output") if isinstance(reply.get("output"), str) else ""
        return {"failed_cells": failed, "skipped_cells": skipped,
                "functions": {str(name) for name in functions}, "output": output[:8000]}

    def new_test(self) -> None:
        self.discard_ahead()
        self.failure = None

    def close(self) -> None:
        """Stop every worker of this submission (the student's and the reference's)."""
        self._drop_worker()
        self._drop_reference()
        if self._spare is not None:
            self._spare.close()
            self._spare = None

    def _drop_worker(self) -> None:
        self._ahead.clear()  # answers only that worker could give
        self.served_to_worker = set()
        if self.worker is not None:
            self.worker.close()
            self.worker = None

    def _drop_reference(self) -> None:
        if self._reference_worker is not None:
            self._reference_worker.close()
            self._reference_worker = None

    # -- calls -----------------------------------------------------------------------

    def record_calls(self) -> None:
        """Keep the calls made from now on (and drop those kept so far): a property test starts each
        example with this, so that its failure can show the calls of the example that failed."""
        self._calls = []

    def recorded_calls(self) -> list[CallRecord]:
        """The calls kept since record_calls(), which stops keeping them."""
        calls, self._calls = self._calls or [], None
        return calls

    def call(self, name: str, *args, **kwargs):
        sent = _encoded(args, kwargs)  # before the call: it may change its arguments in place
        if self._calls is None:
            return self._call(name, args, kwargs, sent)
        record = CallRecord(name, sent)
        self._calls.append(record)
        try:
            record.returned = self._call(name, args, kwargs, sent)
        except StudentProblem as problem:
            record.problem = problem
            raise
        return record.returned

    def _call(self, name: str, args: tuple, kwargs: dict, sent: "tuple[list, dict] | None"):
        self._refuse_if_failed(name)
        if self._ahead:
            if sent is not None and self._ahead[0] == (name, codec.encoded_wire(*sent)):
                self._ahead.popleft()
                return self._interpret(name, self._answer(name, self.worker), args, kwargs)
            self.discard_ahead()  # the test asked something else: answer it afresh
        try:
            worker = self._worker_for(name)
        except StudentProblem as problem:
            self.failure = problem
            raise
        if sent is None:  # not data: encoding again raises the codec's own error
            sent = _encode_arguments(args, kwargs)
        request = {"op": "call", **self._call_fields(name), "args": sent[0], "kwargs": sent[1]}
        return self._interpret(name, self._answer(name, worker, request), args, kwargs)

    def _refuse_if_failed(self, name: str) -> None:
        if self.failure is not None:
            raise self.failure  # after a hang, the rest of the same test fails at once
        if self.replies_too_large is not None:
            self.failure = self.replies_too_large
            raise self.failure
        if name in self.helper_timed_out:
            self.failure = self.helper_timed_out[name]
            raise self.failure
        if name in self.timed_out:
            # A function that hung once would most likely hang again: waiting out its limit in each
            # of its tests would cost a hanging submission minutes, and tell the student nothing new.
            self.failure = StudentTimeout(self.limits.call_seconds, earlier=True, probed=name in self.hung_in_probe)
            raise self.failure

    def _answer(self, name: str, worker: Worker, request: dict | None = None, charged: bool = True) -> dict:
        """The worker's answer to a call (sent now, or earlier with `send_ahead`), serving the
        reference's helpers it asks for meanwhile, within the call's time limit. A call not `charged`
        (sent ahead, never made) that hangs or crashes costs the worker, and nothing else."""
        try:
            with self._spending(worker.clock(max(min(self.limits.call_seconds, self._time_left()), 0.01))) as clock:
                if request is not None:
                    worker.send(request)
                reply = worker.receive(clock, known=self.known_callbacks)
                while reply.get("op") == "callback":
                    # While the grader answers a callback the worker sleeps, and its clock would count the
                    # grading process's own wait for a CPU: on a loaded machine thousands of callbacks
                    # (an 80-merge training) cost seconds, and a call timed out under load only. So the
                    # call is charged the grader's CPU time for the answer, and what a served helper runs,
                    # both as on an idle machine (Worker.receive leaves out the wait to read the question).
                    with clock.paused():
                        working = time.thread_time()
                        worker.send(self._serve_callback(reply, self.substitutes.get(name, ()), clock))
                        clock.charge(time.thread_time() - working)
                    reply = worker.receive(clock, known=self.known_callbacks)
        except RepliesOverBudget:
            self._drop_worker()  # it may be waiting for an answer to a callback it will never get
            self.replies_too_large = self.failure = RepliesTooLarge(REPLY_VALUES_PER_SUBMISSION)
            raise self.failure from None
        except HelperOverLimit as problem:
            self._drop_worker()
            if charged:
                self.failure = problem
                if problem.timed_out:
                    self.helper_timed_out[name] = problem
            raise
        except WorkerFailure as exc:
            self._drop_worker()
            if not charged:
                raise StudentCrashed("a call sent ahead failed") from None
            whole = self._time_left() <= 0
            problem = StudentTimeout(self.limits.submission_seconds if whole else self.limits.call_seconds, whole) \
                if isinstance(exc, WorkerTimeout) else StudentCrashed(str(exc))
            if isinstance(exc, WorkerTimeout) and not whole:
                self.timed_out.add(name)
                self.probe()
            self.failure = problem
            raise problem from None
        return reply

    def probe(self) -> None:
        """Once a function has hung, find out at once which others hang too: each is called on a simple
        public input (its bank's simplest example, or its visible checks), all at the same time, in
        copies of the worker. Those still running after one call's limit are judged hung and their
        tests fail at once, so that a submission where everything hangs costs two limits, not one per
        function. Runs once per submission; a function that finishes is graded as usual."""
        pending = {name: call for name, call in self.probe_calls.items() if name not in self.timed_out}
        self.probe_calls = {}
        if not pending or self._time_left() <= self.limits.call_seconds:
            return
        names = list(pending)
        requests = [self._recorded_request(pending[name]) for name in names]
        finished: set[str] = set()
        try:
            worker = self._worker_for(*names)
            with self._spending(worker.clock(self.limits.call_seconds)) as clock:
                worker.send({"op": "probe", "calls": requests})
                while (reply := worker.receive(clock)).get("op") == "probed":
                    index = reply.get("index")
                    if type(index) is int and 0 <= index < len(names):
                        finished.add(names[index])
        except (WorkerFailure, StudentProblem):
            pass
        hung = set(names) - finished
        if hung:
            self._drop_worker()  # its copies may still be running
        self.timed_out |= hung
        self.hung_in_probe |= hung

    def send_ahead(self, calls) -> bool:
        """Send these calls (banks.Call) to the worker in one frame, to be answered as the test makes
        the same calls in the same order. Nothing is sent (False) when any of them could not be made
        now: a call that cannot be encoded, a function that timed out, a test that already failed."""
        if self._ahead or self.failure is not None or not calls:
            return False
        if any(call.wire is None or call.name in self.timed_out or call.name in self.helper_timed_out for call in calls):
            return False
        try:
            worker = self._worker_for(*(call.name for call in calls))
        except StudentProblem:
            return False  # the test's own call meets the same problem and reports it
        try:
            worker.send(codec.batch_frame([(self._call_fields(call.name), call.wire) for call in calls]))
        except WorkerFailure:
            self._drop_worker()
            return False
        self._ahead.extend((call.name, call.wire) for call in calls)
        return True

    def _call_fields(self, name: str) -> dict:
        """What the worker is told of a call besides its arguments: the helpers the reference serves
        meanwhile, and that arguments it leaves as they came need not come back (worker.reply_with)."""
        return {"name": name, "substitute": list(self.substitutes.get(name, ())), "omit_unchanged": True}

    def _recorded_request(self, call) -> dict:
        """A call written down in a recording (banks.Call), as the worker is asked to make it."""
        args, kwargs = json.loads(call.wire)
        return {**self._call_fields(call.name), "args": args, "kwargs": kwargs}

    def discard_ahead(self) -> None:
        """Read and drop the answers to calls sent ahead that the test did not make. They were only
        sent ahead: a hang or crash among them costs the worker (a new one starts), not a grade."""
        while self._ahead and self.worker is not None:
            name, _ = self._ahead.popleft()
            with contextlib.suppress(StudentProblem):
                self._answer(name, self.worker, charged=False)
        self._ahead.clear()

    def _mirrored(self, name: str, count: int) -> set[int]:
        positions = self.mutates.get(name, ())
        return {p for p in positions if p < count}

    def _serve_callback(self, request: dict, allowed, clock) -> "dict | bytes":
        """Run a reference helper for the student's code, but only one that the function being
        graded right now may use (DEPENDS_ON in the hidden suite): never an answer on request.

        The arguments are the student's choice, so the reference runs in a sandboxed worker of
        its own, within what is left of the call's time and the worker's memory and reply size;
        the grader only passes the encoded data through."""
        name, args, kwargs = request.get("name"), request.get("args"), request.get("kwargs", {})
        answer_frame = request.get(KNOWN_ANSWER)  # the frame was one of known_callbacks': not even parsed
        if answer_frame is not None and name in allowed:
            return answer_frame
        if not (isinstance(name, str) and name in allowed and isinstance(args, list) and isinstance(kwargs, dict)):
            return {"op": "callback_raise", "builtin": "RuntimeError", "message": "función no disponible"}
        known = self.helper_answers.get((name, codec.encoded_wire(args, kwargs)))
        if known is not None:
            return known  # the same arguments as the reference gave its own helper: its answer is known
        # An answer to arguments the student chose (the known ones follow from a bank's public input):
        # from now on this worker may hold answers to the helper's hidden cases.
        self.served_to_worker.add(name)
        worker = self._reference()
        # The student's call waits meanwhile (its clock is paused: _answer): it is charged the reference's
        # own time, measured alike.
        served = worker.clock(max(clock.remaining(), 0.01))
        try:
            reply = worker.request({"op": "call", "name": name, "args": args, "kwargs": kwargs, "substitute": []},
                                   served)
        except WorkerFailure as exc:
            clock.charge(served.used())
            self._drop_reference()
            raise HelperOverLimit(name, isinstance(exc, WorkerTimeout), str(exc)) from None
        clock.charge(served.used())
        op = reply.get("op")
        if op == "return":
            return {"op": "callback_result", "args_after": reply.get("args_after"), "same_as": reply.get("same_as"),
                    "value": reply.get("value")}
        if op == "raise" and isinstance(reply.get("error"), dict):
            # The reference rejecting the student's arguments is the student's problem.
            return {"op": "callback_raise", "builtin": _first_builtin_exception(reply["error"].get("builtin")),
                    "message": str(reply["error"].get("message", ""))[:300]}
        self._drop_reference()
        raise HelperOverLimit(name, False, f"the reference worker answered {str(op)[:40]}")

    def _reference(self) -> Worker:
        """The reference's worker, started on first use. It runs no student code, so a failure to
        start it is the grader's (SandboxError), never charged to the student."""
        if self._reference_worker is None:
            worker = None
            try:
                worker = Worker(self.limits, role="reference")
                reply = worker.request({"op": "load", "module_name": "referencia",
                                        "cells": [{"filename": "referencia.py", "source": self.reference_source}]},
                                       self.limits.load_seconds, on_progress=lambda message: None)
            except WorkerFailure as exc:
                if worker is not None:
                    worker.close()
                raise SandboxError(f"the reference's worker did not start: {exc}") from None
            if reply.get("op") != "loaded" or not all(c.get("ok") for c in reply.get("cells", [{}])):
                worker.close()
                raise SandboxError(f"the reference solution does not load in a worker: {reply}"[:500])
            self._reference_worker = worker
        return self._reference_worker

    def _interpret(self, name: str, reply: dict, args: tuple, kwargs: dict):
        op = reply.get("op")
        self.arguments_after_call = None
        try:
            if op == "return":
                states = reply.get("args_after")
                if not isinstance(states, list) or len(states) != len(args):
                    raise codec.CodecError("malformed argument state")
                # Only arguments the spec lets the function change are changed here too (MUTATES in
                # the suite); any other in-place change is invisible, as if the student got a copy,
                # so it cannot rewrite the data a test computes its expectation from.
                mirrored = self._mirrored(name, len(args))
                codec.sync_in_place(args, [state if i in mirrored else None for i, state in enumerate(states)])
                self.arguments_after_call = [arg if state is None or i in mirrored else codec.decode_value(state)
                                             for i, (arg, state) in enumerate(zip(args, states))]
                same_as = reply.get("same_as")
                if type(same_as) is int and 0 <= same_as < len(args):
                    if same_as in mirrored or states[same_as] is None:
                        return args[same_as]
                    return codec.decode_value(states[same_as])
                return codec.decode_value(reply.get("value"))
            if op == "raise" and isinstance(reply.get("error"), dict):
                error = reply["error"]
                problem = StudentError(error, self.sources)
                raise student_error_class(problem.builtin)(error, self.sources)
            if op == "missing":
                raise FunctionMissing(name)  # the name we asked for: the reply's could carry anything
            if op == "bad_return":
                raise BadReturn(str(reply.get("type"))[:80])
        except codec.CodecError as exc:
            # The frame was read whole, so the worker is still in step and can be called again.
            raise UnreadableReply(f"the worker's reply holds a value the grader refuses: {exc}") from None
        self._drop_worker()
        raise StudentCrashed("the worker sent a reply outside the protocol")


def start_worker_soon(limits: Limits) -> Worker | None:
    """A worker starting in the background (StudentSession.start_soon), or None if it cannot start."""
    try:
        return Worker(limits, wait=False)
    except Exception:
        return None


class StudentProxy:
    """Attribute access becomes a sandboxed call: ``student.merge(...)``."""

    def __init__(self, session: StudentSession):
        self._session = session

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return functools.partial(self._session.call, name)
