"""A batch always finishes, and nothing in it changes anyone else's grade.

100 submissions: two thirds honest (correct, stub, buggy), one third hostile or
broken, shuffled together. Every honest submission must get exactly the result it
gets when graded alone, and grading is deterministic: the same submission twice gives
the same results file, byte for byte.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest

from autograder import samples
from autograder.grading.batch import grade_batch
from autograder.grading.kit import build_kit
from autograder.grading.session import grade_submission
from autograder.render.gradescope import to_gradescope

from course_content import catalogue

pytestmark = pytest.mark.slow

BATCH_SIZE = 100


def honest_samples(assignment):
    buggy = catalogue("bpe_bytes", "buggy")
    return [samples.correct("bpe_bytes"), samples.stub(assignment), *buggy[::3]]


def broken_files(folder) -> list:
    folder.mkdir(parents=True, exist_ok=True)
    files = {"json-roto.ipynb": b'{"cells": [', "vacio.ipynb": b"", "binario.ipynb": b"\x00\xff" * 50,
             "texto.txt": b"hola", "modulo-roto.py": b"def merge(:\n"}
    paths = []
    for name, data in files.items():
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    return paths


@pytest.fixture(scope="module")
def batch(course, fast_bpe_bytes, tmp_path_factory):
    folder = tmp_path_factory.mktemp("batch")
    honest = honest_samples(fast_bpe_bytes)
    honest_paths = {s.name: samples.build_notebook(fast_bpe_bytes, s, folder / "alone" / f"{s.name}.ipynb")
                    for s in honest}
    kit = build_kit(fast_bpe_bytes)
    alone = {name: to_gradescope(grade_submission(kit, path)) for name, path in honest_paths.items()}

    hostile = catalogue("bpe_bytes", "hostile")
    bad_paths = [samples.build_notebook(fast_bpe_bytes, s, folder / "hostile" / f"{s.name}.ipynb") for s in hostile]
    bad_paths += broken_files(folder / "broken")
    entries = []  # (path, honest sample name or None)
    for index in range(BATCH_SIZE):
        if index % 3 == 2:
            entries.append((bad_paths[index // 3 % len(bad_paths)], None))
        else:
            sample = honest[index % len(honest)]
            copy = folder / "class" / f"alumno{index:03d}.ipynb"
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(honest_paths[sample.name].read_bytes())
            entries.append((copy, sample.name))
    random.Random(7).shuffle(entries)
    results = grade_batch(fast_bpe_bytes, [path for path, _ in entries], jobs=2)
    return entries, results, alone


def test_every_submission_gets_a_result_and_no_grader_error(batch):
    entries, results, _ = batch
    assert len(results) == len(entries) == BATCH_SIZE
    assert [r.submission for r in results] == [str(path) for path, _ in entries]
    assert not [r.submission for r in results if r.error_instructor.startswith("grader error")]


def test_hostile_and_broken_submissions_score_zero(batch):
    entries, results, _ = batch
    bad = [r for (path, honest), r in zip(entries, results) if honest is None]
    assert len(bad) >= BATCH_SIZE // 3
    assert all(r.score == 0 for r in bad), [(r.submission, r.score) for r in bad if r.score]


def test_honest_submissions_get_exactly_what_they_get_alone(batch):
    entries, results, alone = batch
    checked = 0
    for (path, honest), result in zip(entries, results):
        if honest is not None:
            assert to_gradescope(result) == alone[honest], path
            checked += 1
    assert checked >= 2 * BATCH_SIZE // 3


def test_grading_twice_writes_the_same_results_file(course, fast_bpe_bytes, tmp_path):
    from autograder.cli import main

    buggy = catalogue("bpe_bytes", "buggy")[0]
    path = samples.build_notebook(fast_bpe_bytes, buggy, tmp_path / "entrega.ipynb")
    outputs = []
    for run in range(2):
        target = tmp_path / f"run{run}.json"
        assert main(["grade", "bpe_bytes", str(path), "--results", str(target), "--quiet"]) == 0
        # Byte for byte, apart from the grading time (whole seconds, rounded up: a busy machine moves it).
        outputs.append(re.sub(rb'\n  "execution_time": \d+,', b"", target.read_bytes()))
    assert b'"execution_time"' not in outputs[0] and outputs[0] == outputs[1]
    assert json.loads(outputs[0])["score"] < 100


def test_a_grading_process_that_dies_leaves_no_worker_folder_behind(fast_bpe_bytes, tmp_path, monkeypatch):
    """A grading process killed outright (SIGKILL: a cluster host lost, the kernel's OOM killer) cannot
    close its workers. Their sandboxes die with it; the batch removes the folders they were made in."""
    from autograder.grading import batch as batch_module
    from autograder.sandbox.launcher import Worker

    record = tmp_path / "workdir.txt"

    def dies_while_grading(kit, submission, handed_in, *args):
        worker = Worker(kit.assignment.limits)
        record.write_text(worker.workdir)
        os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(batch_module, "grade_handed_in", dies_while_grading)
    path = samples.build_notebook(fast_bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "bpe_bytes.ipynb")
    [result] = grade_batch(fast_bpe_bytes, [path], jobs=1, warm_up=False)
    assert result.error_instructor.startswith("grader error: grading process died"), result.error_instructor
    workdir = Path(record.read_text())
    assert workdir.name.startswith("autograder-worker-") and not workdir.exists()


def test_the_next_submission_starts_grading_before_the_last_result_is_recorded(fast_bpe_bytes, tmp_path, monkeypatch):
    """With one job, recording a result (gradebook, stored result: 40 ms a submission) must not leave
    the only slot idle: the next grading process is already running when `on_result` is called. Each
    stand-in grading waits until the result before it is recorded, so that it cannot have ended by
    then however the machine's load orders the processes."""
    import multiprocessing

    from autograder.grading import batch as batch_module

    def after_the_previous_record(kit, submission, *args):
        index = int(Path(submission).stem.removeprefix("alumno"))
        waited = 0.0
        while index and not (tmp_path / f"recorded-{index - 1}").exists() and waited < 60:
            time.sleep(0.01)
            waited += 0.01
        return _quick_result(kit, submission)

    def record(index, result):
        running_when_recorded.append(len(multiprocessing.active_children()))
        (tmp_path / f"recorded-{index}").touch()

    monkeypatch.setattr(batch_module, "grade_handed_in", after_the_previous_record)
    paths = [tmp_path / f"alumno{i}.ipynb" for i in range(3)]
    running_when_recorded = []
    grade_batch(fast_bpe_bytes, paths, jobs=1, warm_up=False, on_result=record)
    assert running_when_recorded == [1, 1, 0]


def test_results_already_in_are_recorded_when_the_next_grading_process_cannot_start(fast_bpe_bytes, tmp_path, monkeypatch):
    from autograder.grading import batch as batch_module

    monkeypatch.setattr(batch_module, "grade_handed_in", lambda kit, submission, *args: _quick_result(kit, submission))
    started = []
    real_start = batch_module.multiprocessing.get_context("fork").Process.start

    def start_once(process):
        if started:
            raise OSError("fork: Resource temporarily unavailable")
        started.append(process)
        real_start(process)

    monkeypatch.setattr(batch_module.multiprocessing.get_context("fork").Process, "start", start_once)
    recorded = []
    with pytest.raises(OSError):
        grade_batch(fast_bpe_bytes, [tmp_path / "a.ipynb", tmp_path / "b.ipynb"], jobs=1, warm_up=False,
                    on_result=lambda index, result: recorded.append(index))
    assert recorded == [0]


def _quick_result(kit, submission):
    from autograder.grading.batch import broken_submission

    return broken_submission(kit.assignment, str(submission), "vacía", "test stand-in")
