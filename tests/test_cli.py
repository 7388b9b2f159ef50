"""The `autograder` command: results files in Gradescope's schema, exit codes, names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder import samples
from autograder.cli import main
from autograder.grading.loose import results_paths

from course_content import catalogue

TEST_KEYS = {"name", "number", "score", "max_score", "status", "output", "visibility", "tags"}


def check_gradescope_schema(data: dict) -> None:
    """results.json as Gradescope's autograder specification has it (and as run_autograder's fallback writes it)."""
    visibilities = ("visible", "hidden", "after_due_date", "after_published")
    formats = ("text", "html", "simple_format", "md", "ansi")
    assert {"score", "max_score", "output", "visibility", "stdout_visibility", "tests"} <= set(data)
    assert set(data) <= {"score", "max_score", "execution_time", "output", "output_format", "test_output_format",
                         "visibility", "stdout_visibility", "extra_data", "tests"}
    assert isinstance(data["score"], float) and isinstance(data["max_score"], float)
    assert data["visibility"] in visibilities and data["stdout_visibility"] == "hidden"
    assert isinstance(data["output"], str)
    assert data.get("output_format", "text") in formats and data.get("test_output_format", "text") in formats
    if "execution_time" in data:
        assert isinstance(data["execution_time"], int) and data["execution_time"] >= 0
    assert isinstance(data.get("extra_data", {}), dict)
    for test in data["tests"]:
        assert set(test) == TEST_KEYS
        assert test["status"] in ("passed", "failed")
        assert 0 <= test["score"] <= test["max_score"]
        assert test["visibility"] in visibilities
        assert test["tags"] and all(isinstance(tag, str) for tag in test["tags"])
    assert abs(sum(t["score"] for t in data["tests"]) - data["score"]) < 0.05


def test_grading_several_submissions_writes_one_results_file_each(tmp_path, fast_bpe_bytes, capsys):
    one = samples.build_notebook(fast_bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "ana" / "bpe_bytes.ipynb")
    two = samples.build_module(fast_bpe_bytes, samples.stub(fast_bpe_bytes), tmp_path / "luis" / "bpe_bytes.py")
    broken = tmp_path / "eva.ipynb"
    broken.write_text("{ not json")
    assert main(["grade", "bpe_bytes", str(one), str(two), str(broken), "--results", str(tmp_path / "out")]) == 0
    files = sorted((tmp_path / "out").iterdir())
    assert [f.name for f in files] == ["ana-bpe_bytes.json", "eva.json", "luis-bpe_bytes.json"]
    scores = {}
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        check_gradescope_schema(data)
        scores[path.stem] = data["score"]
    assert scores == {"ana-bpe_bytes": 100.0, "luis-bpe_bytes": 0.0, "eva": 0.0}
    assert "JSON está dañado" in json.loads((tmp_path / "out" / "eva.json").read_text())["output"]
    table = capsys.readouterr().out
    assert "3 graded" in table and "BROKEN" in table


def test_one_submission_prints_spanish_feedback(tmp_path, fast_bpe_bytes, capsys):
    buggy = next(s for s in catalogue("bpe_bytes", "buggy") if s.name == "merge_drops_tail")
    path = samples.build_notebook(fast_bpe_bytes, buggy, tmp_path / "entrega.ipynb")
    assert main(["grade", "bpe_bytes", str(path), "--results", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "Pruebas no superadas:" in out and "Pista: No pierdas el último elemento" in out
    check_gradescope_schema(json.loads((tmp_path / "r.json").read_text(encoding="utf-8")))


def test_unknown_assignment_is_a_usage_error(tmp_path, capsys):
    assert main(["grade", "bpe_bites", str(tmp_path / "x.ipynb")]) == 2
    assert "unknown assignment 'bpe_bites'" in capsys.readouterr().err


@pytest.mark.parametrize("paths, expected", [
    (["a/x.ipynb"], ["results.json"]),
    (["a/x.ipynb", "b/y.py"], ["results/x.json", "results/y.json"]),
    (["a/x.ipynb", "b/x.ipynb"], ["results/a-x.json", "results/b-x.json"]),
    (["a/entrega", "b/otra"], ["results/entrega.json", "results/otra.json"]),
])
def test_results_file_names(paths, expected):
    assert [str(p) for p in results_paths([Path(p) for p in paths], None)] == expected


def test_several_submissions_need_a_results_folder_not_a_file(tmp_path, capsys):
    taken = tmp_path / "results.json"
    taken.write_text("{}", encoding="utf-8")
    code = main(["grade", "bpe_bytes", str(tmp_path / "a.py"), str(tmp_path / "b.py"), "--results", str(taken)])
    assert code == 2 and "is a file" in capsys.readouterr().err
    assert taken.read_text(encoding="utf-8") == "{}"


def test_grading_writes_only_what_was_asked_and_skips_the_uri_grammar(tmp_path):
    """`grade` in a student's repository leaves only its results there (no `.hypothesis/`: hypothesis keeps
    its tables in the user's cache), and never compiles jsonschema's RFC 3987 grammar (a second per command)."""
    import subprocess
    import sys

    from autograder.course import PROJECT_ROOT

    repository = tmp_path / "repositorio"
    repository.mkdir()
    submission = repository / "entrega.py"
    submission.write_text((PROJECT_ROOT / "solutions" / "bpe_bytes" / "solution.py").read_text(encoding="utf-8"))
    script = ("import sys\nfrom autograder.cli import main\n"
              f"code = main(['--course', {str(PROJECT_ROOT / 'course.yml')!r}, 'grade', 'bpe_bytes', 'entrega.py', "
              "'--quiet'])\n"
              "print(code, sys.modules.get('rfc3987_syntax', 'absent'))")
    environment = {"HOME": str(tmp_path / "casa"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", script], cwd=repository, env=environment, capture_output=True,
                          text=True, timeout=300)
    assert done.stdout.split()[-2:] == ["0", "None"], done.stdout + done.stderr
    assert sorted(p.name for p in repository.iterdir()) == ["entrega.py", "results.json"]
    assert json.loads((repository / "results.json").read_text())["score"] == 100
    assert list((tmp_path / "casa" / ".cache" / "tokens-y-embeddings" / "hypothesis").rglob("charmap.json.gz"))
