"""The floor of grading, and the grader's cost as a multiple of it, phase by phase.

    .venv/bin/python bench/bench_floor.py [--assignment bpe_bytes] [--repeat 3] [--out bench/floor_results.json]

The floor is the work grading cannot avoid: the same calls of the same suite, on the same
submissions, made in this process with no sandbox and no pytest. Each submission's cells run
here (`exec`); every collected test is called directly with its fixtures and parameters; a
property test runs on the same bank of examples, and a failing one shrinks as in grading. The
function graded is served the reference's helpers (DEPENDS_ON) and gets copies of the arguments
it may not change (MUTATES), as in grading. Collection, banks and the kit are made once, before
timing, for both sides.

The grader's side is `grade_batch(jobs=1)` as shipped on the same notebooks, measured from inside
its grading processes, each phase without the phases nested in it:

- fork: from the parent starting the grading process to that process running;
- read: reading and parsing the notebook (`read_submission`);
- worker: starting the sandboxed worker (the part the grading process waits for);
- load: running the submission's cells in the worker;
- fixed tests / property tests: the tests' own run (pytest's runner, the calls' round trips);
- helpers: serving the reference's helpers to the student's code;
- scoring: `score_tests`;
- reply: the result back to the parent;
- writing: its results.json (the Gradescope format), in the parent.

The class: the reference, every independent correct implementation of the corpus, every entry of
the buggy catalogue and the untouched stub, as notebooks. No hostile sample: the floor runs the
code in this process. Baselines measured in the same run, in alternation (floor, grader, floor...),
so that the machine's load weighs on both; the figures are medians over `--repeat` rounds.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402

from autograder import samples  # noqa: E402
from autograder.course import load_course  # noqa: E402
from autograder.grading import batch, session as grading_session, student as grading_student  # noqa: E402
from autograder.grading.banks import run_bank  # noqa: E402
from autograder.grading.kit import build_kit  # noqa: E402
from autograder.grading.session import read_submission  # noqa: E402
from autograder.render.gradescope import write_results  # noqa: E402
from autograder.sandbox.served import served_helper  # noqa: E402
from autograder.sandbox.worker import reply_with  # noqa: E402
from autograder.sandbox import codec, launcher  # noqa: E402

PHASES = ("fork", "read", "worker", "load", "fixed tests", "property tests", "helpers", "scoring", "reply", "writing")
FLOOR_PHASES = ("load", "fixed tests", "property tests")


# --- the floor ----------------------------------------------------------------------------

class InProcessStudent:
    """The submission's functions called directly, with grading's rules: the reference's helpers while
    a function that depends on them runs, the function working on copies of the arguments, and its
    answer read back as grading reads a worker's reply (a snapshot, of the types the wire carries; only
    the arguments in MUTATES changed in place). That reading is timed apart (`codec`): it is the
    sandbox's boundary, not the floor's work, but without it some answers would not be the same."""

    def __init__(self, module, reference, served: dict, mutates: dict, timing: dict):
        self._module, self._reference, self._served = module, reference, served
        self._session = ReplyReader(mutates)  # expect.arguments_after reads the arguments from it
        self._timing = timing

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        function = getattr(self._module, name)
        module, helpers = self._module, self._served.get(name, ())

        def attempt(args, kwargs, served: list, substitute=helpers):
            copies, kwarg_copies = copy.deepcopy(args), copy.deepcopy(kwargs)
            own = {h: module.__dict__.get(h) for h in substitute}
            module.__dict__.update({h: self._served_helper(h, served) for h in substitute})
            try:
                return function(*copies, **kwarg_copies), copies
            finally:
                module.__dict__.update(own)

        def call(*args, **kwargs):
            served: list = []
            try:
                answer, copies = attempt(args, kwargs, served)
            except Exception:
                if not served:
                    raise
                # As the worker does: a function that failed after being served the reference's helpers
                # is graded again with its own (it may rely on their conventions).
                answer, copies = attempt(args, kwargs, [], substitute=())
            start = time.perf_counter()
            try:
                return self._session._interpret(name, reply_with(answer, list(copies)), args, kwargs)
            finally:
                self._timing["codec"] += time.perf_counter() - start

        return call

    def _served_helper(self, name: str, served_calls: list):
        """The reference's helper as the worker serves it (sandbox/served.py), with this process as the
        grader's end: on decoded copies, its answer sent back as data. Only the reference's own run
        counts in the floor; the rest is the boundary (`codec`)."""
        helper, replies, spent = getattr(self._reference, name), [], {"helper": 0.0}

        def send(request):
            args = [codec.decode_value(a) for a in request["args"]]
            kwargs = {k: codec.decode_value(v) for k, v in request["kwargs"].items()}
            start = time.perf_counter()
            answer = helper(*args, **kwargs)
            spent["helper"] += time.perf_counter() - start
            reply = reply_with(answer, args)
            replies.append({"op": "callback_result", **{k: reply.get(k) for k in ("args_after", "same_as", "value")}}
                           if reply["op"] == "return" else {"op": "callback_raise", "builtin": "TypeError"})

        stand_in = served_helper(name, self._module.__dict__.get(name), (send, replies.pop), served_calls)

        def served(*args, **kwargs):
            start, spent["helper"] = time.perf_counter(), 0.0
            try:
                return stand_in(*args, **kwargs)
            finally:
                self._timing["codec"] += time.perf_counter() - start - spent["helper"]

        return served


class ReplyReader:
    """The part of a StudentSession that reads a worker's reply to a call."""

    _interpret = grading_student.StudentSession._interpret
    _mirrored = grading_student.StudentSession._mirrored

    def __init__(self, mutates: dict):
        self.mutates, self.sources, self.arguments_after_call = mutates, {}, None

    def _drop_worker(self) -> None:
        pass


class NoWorker:
    """What run_bank asks of a grading session, in-process: nothing is sent ahead."""

    def send_ahead(self, calls) -> bool:
        return False

    def discard_ahead(self) -> None:
        pass


def load_in_process(program) -> types.ModuleType:
    from IPython.core.inputtransformer2 import TransformerManager

    module = types.ModuleType(program.module_name)
    transform = TransformerManager().transform_cell if program.ipython_syntax else (lambda source: source)
    for cell in program.cells:
        try:
            exec(compile(transform(cell.source), cell.filename, "exec"), module.__dict__)
        except Exception:
            pass  # as in the worker: a failing cell is reported, the others still run
    return module


def floor_once(kit, program) -> tuple[dict[str, float], set[str]]:
    """One submission's floor: seconds per phase, and the tests that failed."""
    seconds = dict.fromkeys(FLOOR_PHASES, 0.0)
    codec = {"codec": 0.0}
    start = time.perf_counter()
    module = load_in_process(program)
    seconds["load"] = time.perf_counter() - start
    base = InProcessStudent(module, kit.reference, kit.served_helpers, kit.mutated_arguments, codec)
    suite = kit.hidden_suite
    shared: dict = {}  # session- and module-scoped fixtures, once per submission
    failed = set()
    for item in suite.session.items:
        kind = "property tests" if hasattr(item.obj, "hypothesis") else "fixed tests"
        start = time.perf_counter()
        fixtures = _fixtures(item, base, kit.reference, shared)
        arguments = {name: fixtures[name] for name in item._fixtureinfo.argnames if name in fixtures}
        try:
            bank = kit.banks.get(item.name)
            if bank and kind == "property tests":
                run_bank(item.obj, item.name, bank, arguments, NoWorker())
            else:
                item.obj(**arguments)
        except (Exception, pytest.fail.Exception):
            failed.add(item.name)
        seconds[kind] += time.perf_counter() - start - codec["codec"]
        seconds["codec"] = seconds.get("codec", 0.0) + codec["codec"]
        codec["codec"] = 0.0
    return seconds, failed


def _fixtures(item, student, reference, shared: dict) -> dict:
    """The values of an item's fixtures, resolved as pytest would (an override asks for the one it
    overrides), without pytest: the grader's `student` and `reference`, then the suite's own."""
    definitions = item._fixtureinfo.name2fixturedefs
    local: dict = dict(getattr(item, "callspec", None).params) if hasattr(item, "callspec") else {}

    def value(name: str, depth: int):
        if name in local and depth == -1:
            return local[name]
        defs = definitions.get(name, ())
        if len(defs) < -depth:  # the grader's own two fixtures, under any override
            return {"student": student, "reference": reference}[name]
        definition = defs[depth]
        if definition.baseid == "" and name not in ("student", "reference"):
            return None  # the grading plugin's own autouse fixture: bookkeeping, not the suite's
        if name in ("student", "reference") and definition.baseid == "":
            return {"student": student, "reference": reference}[name]
        key = (name, depth)
        cache = local if definition.scope == "function" else shared
        if key not in cache:
            arguments = {a: value(a, depth - 1 if a == name else -1) for a in definition.argnames}
            made = definition.func(**arguments)
            cache[key] = next(made) if isinstance(made, types.GeneratorType) else made
        return cache[key]

    return {name: value(name, -1) for name in item.fixturenames if name != "request"}


# --- the grader, phase by phase -----------------------------------------------------------

class Phases:
    """Exclusive time per phase in this process: a phase entered inside another pauses it."""

    def __init__(self):
        self.seconds = dict.fromkeys(PHASES, 0.0)
        self._stack: list[list] = []

    @contextlib.contextmanager
    def __call__(self, name: str):
        now = time.perf_counter()
        if self._stack:
            outer = self._stack[-1]
            self.seconds[outer[0]] += now - outer[1]
        self._stack.append([name, now])
        try:
            yield
        finally:
            now = time.perf_counter()
            self.seconds[name] += now - self._stack.pop()[1]
            if self._stack:
                self._stack[-1][1] = now


PHASE = Phases()
# What crossed the sandbox's boundary in a grading process: the times the grader had to wait for a
# worker (each one a switch to the worker and back), the times its answer was there already, the frames
# read and, among them, the callbacks served.
CROSSINGS = {"waits": 0, "ready": 0, "frames": 0, "callbacks": 0}


class _CountedSelect:
    """launcher's `select` module, counting each time the grader waits on a worker's pipe."""

    def __init__(self, module):
        self._module = module

    def select(self, readers, writers, errors, timeout=None):
        if self._module.select(readers, writers, errors, 0)[0]:
            CROSSINGS["ready"] += 1  # the worker had answered already: no switch to wait for
            return readers, [], []
        CROSSINGS["waits"] += 1
        return self._module.select(readers, writers, errors, timeout)

    def __getattr__(self, name):
        return getattr(self._module, name)


def _timed(owner, attribute: str, phase):
    original = getattr(owner, attribute)

    def wrapper(*args, **kwargs):
        name = phase(*args, **kwargs) if callable(phase) else phase
        if name is None:
            return original(*args, **kwargs)
        with PHASE(name):
            return original(*args, **kwargs)

    setattr(owner, attribute, wrapper)


def instrument(kit) -> None:
    """Wrap the grading path's stages with PHASE, before the batch forks (the grading processes inherit it)."""
    class Plugin:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            with PHASE("property tests" if hasattr(item.obj, "hypothesis") else "fixed tests"):
                yield

    kit.hidden_suite.session.config.pluginmanager.register(Plugin(), "bench-phases")
    _timed(batch, "read_submission", "read")
    _timed(launcher.Worker, "ready", "worker")
    _timed(launcher.Worker, "__init__", "worker")
    _timed(launcher.Worker, "request", lambda self, message, *a, **k: "load" if message.get("op") == "load" else None)
    _timed(grading_student.StudentSession, "_serve_callback", "helpers")
    _timed(grading_session, "score_tests", "scoring")
    launcher.select = _CountedSelect(launcher.select)
    read_frame = launcher.Worker._read_frame

    def counted_read_frame(self, deadline, known=None):
        message = read_frame(self, deadline, known)
        CROSSINGS["frames"] += 1
        CROSSINGS["callbacks"] += message.get("op") == "callback"
        return message

    launcher.Worker._read_frame = counted_read_frame

    child = batch._child

    def timed_child(connection, kit, index, submission, suite, in_grading_process):
        entered = time.time()
        # Only this process's own: round_trip's session in the parent is counted there too.
        PHASE.seconds.update(dict.fromkeys(PHASE.seconds, 0.0))
        CROSSINGS.update(dict.fromkeys(CROSSINGS, 0))

        def report(index, result, handed_in):
            PHASE.seconds["fork"] = entered - float(os.environ["BENCH_FORKED_AT"])
            Path(os.environ["BENCH_PHASES"], f"{index}.json").write_text(
                json.dumps({**PHASE.seconds, **CROSSINGS, "ended": time.time()}))

        child(connection, kit, index, submission, suite, report)

    batch._child = timed_child


def grader_once(kit, paths: list[Path], scratch: Path) -> tuple[list[dict[str, float]], list]:
    """grade_batch(jobs=1) on the class: each submission's seconds per phase, and the results."""
    folder = Path(tempfile.mkdtemp(dir=scratch))
    os.environ["BENCH_PHASES"] = str(folder)
    received: dict[int, float] = {}
    context = batch.multiprocessing.get_context("fork")
    start_process = context.Process.start

    def start(process):
        os.environ["BENCH_FORKED_AT"] = repr(time.time())
        start_process(process)

    context.Process.start = start
    try:
        results = batch.grade_batch(kit.assignment, paths, jobs=1, warm_up=False, kit=kit,
                                    on_result=lambda index, result: received.__setitem__(index, time.time()))
    finally:
        context.Process.start = start_process
    phases = []
    for index, result in enumerate(results):
        measured = json.loads((folder / f"{index}.json").read_text())
        measured["reply"] = received[index] - measured.pop("ended")
        start = time.perf_counter()
        write_results(result, scratch / "results.json")
        measured["writing"] = time.perf_counter() - start
        phases.append(measured)
    return phases, results


def round_trip(limits, calls: int = 2000) -> dict:
    """What one wait for a worker costs at least: a function that returns its argument, called
    `calls` times through a real sandboxed worker, in wall-clock seconds per wait. The codec's own
    work on such small messages is measured apart, in this process, so that the bound below does
    not count it twice (the answers' decoding is in it already)."""
    from autograder.grading.student import StudentSession
    from autograder.notebook.loader import Cell, Program

    session = StudentSession(Program([Cell("entrega.py", "def noop(x):\n    return x\n")], module_name="entrega"), limits)
    try:
        session.call("noop", [1, 2, 3])  # the worker started and loaded: not part of a call
        waits = CROSSINGS["waits"]
        started = time.perf_counter()
        for _ in range(calls):
            session.call("noop", [1, 2, 3])
        seconds = time.perf_counter() - started
        waits = CROSSINGS["waits"] - waits
    finally:
        session.close()
    request = {"op": "call", "name": "noop", "substitute": [], "omit_unchanged": True,
               "args": [codec.encode_value([1, 2, 3])], "kwargs": {}}
    reply = {"op": "return", "value": None, "same_as": 0, "args_after": [None]}
    started = time.perf_counter()
    for _ in range(calls):
        for message in (request, reply):
            codec.loads_message(codec.dumps_message(message)[4:])
    codec_seconds = (time.perf_counter() - started) / calls
    return {"seconds_per_wait": seconds / max(waits, 1), "waits_per_call": waits / calls,
            "codec_seconds_per_call": codec_seconds}


# --- the run ------------------------------------------------------------------------------

def the_class(assignment, folder: Path) -> list[tuple[str, Path]]:
    class_samples = [samples.correct(assignment)]
    class_samples += [samples.from_module(assignment, path) for path in sorted(assignment.corpus_folder.glob("*.py"))]
    class_samples += samples.catalogue(assignment, "buggy") + [samples.stub(assignment)]
    return [(f"{sample.kind}/{sample.name}", samples.build_notebook(assignment, sample, folder / f"{number:03}.ipynb"))
            for number, sample in enumerate(class_samples)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignment", default="bpe_bytes")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    course = load_course(ROOT / "course.yml")
    assignment = course.assignment(args.assignment)
    scratch = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    members = the_class(assignment, scratch)
    paths = [path for _, path in members]
    kit = build_kit(assignment)
    programs = [read_submission(kit, path) for path in paths]
    batch.self_check(kit)  # warm, as grade_batch's own self-check leaves a batch
    instrument(kit)
    floors, graders, trips, disagreements = [], [], [], set()
    for _ in range(args.repeat):
        floor_run = [floor_once(kit, program) for program in programs]
        floors.append([seconds for seconds, _ in floor_run])
        grader_run, results = grader_once(kit, paths, scratch)
        graders.append(grader_run)
        trips.append(round_trip(assignment.limits))
        # The floor makes the same calls: it must fail the same tests as grading does.
        for (label, _), (_, floor_failed), result in zip(members, floor_run, results):
            grader_failed = {t.test_id for t in result.tests if t.outcome.name not in ("PASSED", "GATED")}
            if floor_failed != grader_failed:
                disagreements.add(f"{label}: floor {sorted(floor_failed ^ grader_failed)}")
    report = summarise(assignment.id, members, floors, graders)
    report["boundary"] = boundary(report, graders, trips)
    report["floor_and_grader_fail_other_tests"] = sorted(disagreements)
    print(table(report))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")


def summarise(assignment_id, members, floors, graders) -> dict:
    def median_per_submission(runs, phases):
        return {phase: statistics.median(sum(sub[phase] for sub in run) / len(run) for run in runs) for phase in phases}

    floor = median_per_submission(floors, FLOOR_PHASES)
    grader = median_per_submission(graders, PHASES)
    floor_total = statistics.median(sum(sum(sub[p] for p in FLOOR_PHASES) for sub in run) / len(run) for run in floors)
    codec = statistics.median(sum(sub.get("codec", 0.0) for sub in run) / len(run) for run in floors)
    grader_total = statistics.median(sum(sum(sub[p] for p in PHASES) for sub in run) / len(run) for run in graders)
    kinds = sorted({label.split("/")[0] for label, _ in members})
    by_kind = {}
    for kind in kinds:
        chosen = [i for i, (label, _) in enumerate(members) if label.startswith(kind + "/")]
        f = statistics.median(sum(sum(run[i][p] for p in FLOOR_PHASES) for i in chosen) / len(chosen) for run in floors)
        g = statistics.median(sum(sum(run[i][p] for p in PHASES) for i in chosen) / len(chosen) for run in graders)
        by_kind[kind] = {"submissions": len(chosen), "floor_s": f, "grader_s": g, "multiple": g / f if f else None}
    return {"assignment": assignment_id, "submissions": len(members), "rounds": len(floors),
            "floor_s_per_submission": floor, "grader_s_per_submission": grader,
            "floor_total_s": floor_total, "grader_total_s": grader_total, "floor_codec_s": codec,
            "multiple": grader_total / floor_total if floor_total else None, "by_kind": by_kind,
            "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def boundary(report: dict, graders, trips) -> dict:
    """The least any grader pays that makes these calls across a process boundary with this codec: the
    floor, the decoding of the answers (the floor's `codec`) and, for each time the grader waited for
    a worker, one no-op round trip without its codec work. Nothing else is counted: no worker start,
    no pytest, no encoding of arguments, no checks, so the real cost can only be higher."""
    per_sub = {key: statistics.median(sum(sub[key] for sub in run) / len(run) for run in graders)
               for key in ("waits", "ready", "frames", "callbacks")}
    trip = {key: statistics.median(t[key] for t in trips) for key in trips[0]}
    switch = max(trip["seconds_per_wait"] - trip["codec_seconds_per_call"] / max(trip["waits_per_call"], 1e-9), 0.0)
    bound = report["floor_total_s"] + report["floor_codec_s"] + per_sub["waits"] * switch
    switches = report["floor_total_s"] + per_sub["waits"] * switch  # as if the codec cost nothing
    return {"per_submission": per_sub, "round_trip": trip, "seconds_per_wait_without_codec": switch,
            "lower_bound_s": bound, "lower_bound_multiple": bound / report["floor_total_s"],
            "lower_bound_free_codec_s": switches, "lower_bound_free_codec_multiple": switches / report["floor_total_s"]}


def table(report: dict) -> str:
    floor, grader = report["floor_s_per_submission"], report["grader_s_per_submission"]
    lines = [f"{report['assignment']}: {report['submissions']} submissions, median of {report['rounds']} rounds",
             "", "| phase | grader ms/sub | floor ms/sub | multiple |", "|---|---:|---:|---:|"]
    for phase in PHASES:
        f = floor.get(phase)
        multiple = f"{grader[phase] / f:.1f}×" if f else "(no floor)"
        lines.append(f"| {phase} | {grader[phase] * 1000:.1f} | {'' if f is None else f'{f * 1000:.1f}'} | {multiple} |")
    lines.append(f"| **total** | **{report['grader_total_s'] * 1000:.1f}** | **{report['floor_total_s'] * 1000:.1f}** "
                 f"| **{report['multiple']:.1f}×** |")
    lines.append(f"| (reading the floor's answers as grading does: not in its total) | | {report['floor_codec_s'] * 1000:.1f} | |")
    lines += ["", "| kind | submissions | grader ms/sub | floor ms/sub | multiple |", "|---|---:|---:|---:|---:|"]
    for kind, row in report["by_kind"].items():
        lines.append(f"| {kind} | {row['submissions']} | {row['grader_s'] * 1000:.1f} | {row['floor_s'] * 1000:.1f} "
                     f"| {row['multiple']:.1f}× |")
    crossing = report.get("boundary")
    if crossing:
        per, trip = crossing["per_submission"], crossing["round_trip"]
        lines += ["", "The boundary, per submission (medians):", "",
                  f"- the grader waited for a worker {per['waits']:.0f} times; {per['ready']:.0f} more times its "
                  f"answer was there already; {per['frames']:.0f} frames read, {per['callbacks']:.0f} of them callbacks;",
                  f"- a no-op call's round trip: {trip['seconds_per_wait'] * 1e6:.0f} µs per wait "
                  f"({trip['waits_per_call']:.2f} waits per call), {crossing['seconds_per_wait_without_codec'] * 1e6:.0f} µs "
                  f"without its codec work;",
                  f"- **lower bound** of any grader making these calls across this boundary (floor + decoding the "
                  f"answers + one no-op round trip per wait): **{crossing['lower_bound_s'] * 1000:.1f} ms, "
                  f"{crossing['lower_bound_multiple']:.1f}× the floor**; with a codec that cost nothing, "
                  f"{crossing['lower_bound_free_codec_s'] * 1000:.1f} ms, "
                  f"{crossing['lower_bound_free_codec_multiple']:.1f}×."]
    if report["floor_and_grader_fail_other_tests"]:
        lines += ["", "Tests failed on one side only (the floor is not making the same calls):",
                  *report["floor_and_grader_fail_other_tests"]]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
