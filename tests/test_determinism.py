"""The same submission gets the same score every time, on an idle or a loaded machine.

A set of submissions (the reference, a plain bug, a call that spins for ever, one that sleeps for
ever, one whose first call runs for 60% of its limit) is graded with two processes on an idle
machine, then again while CPU hogs keep every core busy twice over, as a machine shared with
other grading jobs is. The results.json files must be byte-identical apart from the grading time.
On wall-clock limits the slow-but-finishing call timed out under that load (1.8 s of work became
4-5 s), and a grading process over its wall-clock budget was a grader failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from autograder import samples
from autograder.grading.batch import grade_batch
from autograder.render.gradescope import results_document

# Its first call runs 1.8 s of CPU (call limit 3 s), then it is the reference's.
SLOW_FIRST_CALL = '''
def get_stats(ids, counts=None):
    import time
    if not getattr(get_stats, "warm", False):
        get_stats.warm = True
        start = time.process_time()
        while time.process_time() - start < 1.8:
            pass
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts
'''


def _submissions(assignment, folder):
    catalogue = samples.catalogue(assignment, "buggy")
    built = [
        samples.correct(assignment),
        catalogue[0],
        samples.Sample("spins", "hostile", "encode spins for ever",
                       replace={"encode": "def encode(text, merges):\n    while True:\n        pass\n"}),
        samples.Sample("sleeps", "hostile", "decode sleeps for ever",
                       replace={"decode": "def decode(ids, vocab):\n    import time\n    time.sleep(1000)\n"}),
        samples.Sample("slow_first_call", "correct", "get_stats' first call runs 60% of the call limit",
                       replace={"get_stats": SLOW_FIRST_CALL.strip("\n")}),
    ]
    return [samples.build_module(assignment, sample, folder / f"{sample.name}.py") for sample in built]


def _documents(assignment, paths) -> list[str]:
    out = []
    for result in grade_batch(assignment, paths, jobs=2, warm_up=False):
        document = results_document(result)
        document.pop("execution_time")
        out.append(json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True))
    return out


@pytest.mark.slow
def test_the_same_class_gets_byte_identical_results_idle_and_under_load(fast_bpe_bytes, tmp_path, request):
    paths = _submissions(fast_bpe_bytes, tmp_path)
    idle = _documents(fast_bpe_bytes, paths)
    scores = [json.loads(document)["score"] for document in idle]
    assert scores[0] == 100 and 0 < scores[1] < 100 and scores[4] == 100, scores
    assert scores[2] < 100 and scores[3] < 100  # each hang costs its own function only
    request.getfixturevalue("cpu_hogs")
    loaded = _documents(fast_bpe_bytes, paths)
    for path, before, after in zip(paths, idle, loaded):
        assert after == before, f"{path.name} graded differently under load"


# Hash seeds under which hypothesis shrank this submission's failing example to different
# counterexamples, before plugin.py named strategies by text rather than by hash().
HASH_SEEDS = ("11", "12345", "4242")


def test_the_same_submission_gets_the_same_feedback_whatever_the_graders_hash_seed(course, tmp_path):
    """Python draws a new hash seed for every process, and hypothesis used hash() to name strategies:
    a failing property test's shrunk counterexample, shown to the student, changed from run to run."""
    embeddings = course.assignment("embeddings")
    bug = next(s for s in samples.catalogue(embeddings, "buggy") if s.name == "most_similar_by_euclidean")
    path = samples.build_module(embeddings, bug, tmp_path / "embeddings.py")
    documents = []
    for seed in HASH_SEEDS:
        target = tmp_path / f"results-{seed}.json"
        done = subprocess.run([sys.executable, "-m", "autograder", "grade", "embeddings", str(path), "--results",
                               str(target), "--quiet"], env={**os.environ, "PYTHONHASHSEED": seed},
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        document = json.loads(target.read_text(encoding="utf-8"))
        document.pop("execution_time")
        documents.append(document)
    assert "Contraejemplo (generado)" in json.dumps(documents[0], ensure_ascii=False)
    assert documents[1] == documents[0] and documents[2] == documents[0]
