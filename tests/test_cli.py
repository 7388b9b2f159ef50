"""The `autograder` command: results files in Gradescope's schema, exit codes, names."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import samples
from autograder.cli import _parser, main
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
    assert "3 submissions;" in table and "BROKEN" in table


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


def test_a_submission_path_that_does_not_exist_is_a_usage_error_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results.json").write_text("{}", encoding="utf-8")  # an earlier run's: kept as it was
    assert main(["grade", "bpe_bytes", "no_existe.ipynb"]) == 2
    err = capsys.readouterr().err
    assert "no_existe.ipynb: no existe ese archivo ni esa carpeta" in err  # one submission: a student's, Spanish
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]
    assert (tmp_path / "results.json").read_text(encoding="utf-8") == "{}"


# --- command-line conventions ----------------------------------------------------------------

def subcommands() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_version_is_the_installed_one(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"autograder {importlib.metadata.version('tokens-y-embeddings-autograder')}"


def test_the_top_level_help_is_written_for_users():
    text = _parser().format_help()
    assert "English" not in text and "autograder demo" in text


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_every_argument_has_help_and_every_command_examples_and_exit_codes(name):
    parser = subcommands()[name]
    undocumented = [a.dest for a in parser._actions if not a.help or a.help == argparse.SUPPRESS]
    assert not undocumented, f"{name}: no help for {undocumented}"
    assert f" {name}" in (parser.epilog or ""), f"{name}: no example"
    assert "exit code" in parser.epilog


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_global_options_are_accepted_after_the_command_too(name):
    command = [name, "bpe_bytes"] if name in {"gradescope", "feedback", "report", "similarity"} else [name]
    options = ["--course", "otro.yml"]
    if name in {"grade", "demo", "audit"}:  # after the command, only where student code runs
        options.append("--insecure-run-student-code-as-me")
    else:
        assert _parser().parse_args(["--insecure-run-student-code-as-me"] + command).insecure_run_student_code_as_me
    before, after, neither = (_parser().parse_args(argv) for argv in (options + command, command + options, command))
    assert before.course == after.course == Path("otro.yml")
    assert before.insecure_run_student_code_as_me == after.insecure_run_student_code_as_me == (len(options) == 3)
    assert neither.course.name == "course.yml" and not neither.insecure_run_student_code_as_me


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_only_commands_that_run_student_code_offer_to_run_it_unsandboxed(name, capsys):
    shown = "--insecure-run-student-code-as-me" in subcommands()[name].format_help()
    assert shown == (name in {"grade", "demo", "audit"}), name
    if not shown:  # and it is refused there, not silently taken
        command = [name, "bpe_bytes"] if name in {"gradescope", "feedback", "report", "similarity"} else [name]
        with pytest.raises(SystemExit):
            _parser().parse_args(command + ["--insecure-run-student-code-as-me"])
        assert "unrecognized arguments: --insecure-run-student-code-as-me" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", ["-3", "0", "dos"])
@pytest.mark.parametrize("command", [["grade", "bpe_bytes"], ["demo"], ["audit", "bpe_bytes"]])
def test_jobs_must_be_a_positive_number(command, jobs, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--jobs", jobs])
    assert exit_.value.code == 2 and "--jobs" in capsys.readouterr().err


def test_grade_without_arguments_names_the_missing_assignment_only(capsys):
    assert main(["grade"]) == 2
    err = capsys.readouterr().err
    assert "name the assignment to grade" in err and "bpe_bytes" in err
    assert "submissions" not in err and "required" not in err


# --- what a student reads: one cause, one line --------------------------------------------------

def graded_output(argv, capsys) -> str:
    main(argv)
    return capsys.readouterr().out


def test_an_untouched_stub_gets_one_line_per_function_not_per_test(tmp_path, fast_bpe_bytes, capsys):
    path = samples.build_notebook(fast_bpe_bytes, samples.stub(fast_bpe_bytes), tmp_path / "bpe_bytes.ipynb")
    out = graded_output(["grade", "bpe_bytes", str(path), "--results", str(tmp_path / "r.json")], capsys)
    assert out.count("NotImplementedError") == len(fast_bpe_bytes.points)
    for function in fast_bpe_bytes.points:
        assert out.count(f"  ✗ {function}: todavía no está implementada") == 1
    assert "Pruebas no superadas" not in out and "Pista:" not in out
    # The results file still has every test, each with its own feedback, for Gradescope's per-test view.
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert len(data["tests"]) > 30 and all(t["status"] == "failed" for t in data["tests"])


def test_a_module_that_does_not_import_says_so_once_and_talks_of_no_cells(tmp_path, fast_bpe_bytes, capsys):
    path = samples.build_module(fast_bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "bpe_bytes.py")
    path.write_text(path.read_text(encoding="utf-8").replace("def merge(", "def merge(:", 1), encoding="utf-8")
    out = graded_output(["grade", "bpe_bytes", str(path), "--results", str(tmp_path / "r.json")], capsys)
    assert "Tu módulo lanzó un error al importarse" in out and "SyntaxError" in out
    assert "celda" not in out.lower()
    for function in fast_bpe_bytes.points:
        assert out.count(f"  ✗ {function}: no llegó a definirse (tu módulo lanzó un error antes") == 1
    assert "Pruebas no superadas" not in out


def test_a_missing_function_is_one_line_and_the_tests_that_ran_keep_theirs(tmp_path, fast_bpe_bytes, capsys):
    renamed = samples.Sample("merge_renamed", "buggy", "merge renamed",
                             replace={"merge": "def fusionar(ids, pair, idx):\n    return list(ids)"})
    path = samples.build_notebook(fast_bpe_bytes, renamed, tmp_path / "bpe_bytes.ipynb")
    out = graded_output(["grade", "bpe_bytes", str(path), "--results", str(tmp_path / "r.json")], capsys)
    assert out.count("  ✗ merge: no se encontró en tu entrega") == 1
    assert out.count("✗ merge: ") == 1  # and no line per test of merge


def test_visible_checks_are_not_presented_as_the_grade(tmp_path, fast_bpe_bytes, capsys):
    buggy = next(s for s in catalogue("bpe_bytes", "buggy") if s.name == "merge_drops_tail")
    path = samples.build_notebook(fast_bpe_bytes, buggy, tmp_path / "bpe_bytes.ipynb")
    out = graded_output(["grade", "bpe_bytes", str(path), "--visible", "--results", str(tmp_path / "r.json")], capsys)
    heading = out.splitlines()[1]
    assert heading.startswith("Comprobaciones visibles: ") and "no es tu nota" in heading
    assert "Puntuación" not in out
    ci = graded_output(["grade", "bpe_bytes", str(path), "--visible", "--ci", "--results", str(tmp_path / "r.json")],
                       capsys)
    assert "no es tu nota" in ci and "Puntuación" not in ci


def test_a_course_directory_that_does_not_exist_is_named_before_anything_runs(tmp_path, capsys):
    assert main(["grade", "bpe_bytes", "--course-dir", str(tmp_path / "no_existe")]) == 2
    err = capsys.readouterr().err
    assert f"the course directory {tmp_path / 'no_existe'} does not exist" in err
    assert "sandbox" not in err.lower() and not (tmp_path / "no_existe").exists()


# --- one order of functions everywhere: course.yml's, the notebook's ------------------------------

def test_every_rendering_lists_functions_in_course_order(tmp_path, fast_bpe_bytes):
    from autograder.grading.loose import grade_files
    from autograder.render.feedback_html import feedback_page
    from autograder.render.gradescope import to_gradescope
    from autograder.render.markdown import job_summary
    from autograder.render.terminal import ci_summary, submission_report

    bugs = [next(s for s in catalogue("bpe_bytes", "buggy") if s.name == name)
            for name in ("get_stats_counts_each_pair_once", "build_vocab_in_dict_order", "encode_by_frequency")]
    two = samples.Sample("three_bugs", "buggy", "three functions wrong",
                         replace={k: v for bug in bugs for k, v in bug.replace.items()})
    path = samples.build_notebook(fast_bpe_bytes, two, tmp_path / "bpe_bytes.ipynb")
    (result,), _ = grade_files(fast_bpe_bytes, [path], tmp_path / "r.json", jobs=1)
    course_order = list(fast_bpe_bytes.points)

    def order(text: str, names=course_order) -> list[str]:
        """The functions in the order `text` first names them (as whole words)."""
        import re

        found = {name: re.search(rf"\b{name}\b", text) for name in names}
        return sorted((name for name in names if found[name]), key=lambda name: found[name].start())

    assert list(result.by_function()) == course_order
    assert [t.function for t in result.tests] == sorted((t.function for t in result.tests), key=course_order.index)
    failing = ["get_stats", "build_vocab", "encode"]
    assert [t.function for t in result.failed_tests()] == sorted((t.function for t in result.failed_tests()),
                                                                 key=course_order.index)
    report = submission_report(result)
    assert order(report) == course_order
    assert order(report[report.index("Pruebas no superadas"):], failing) == failing
    assert order(ci_summary(result)) == course_order
    summary = job_summary([result])
    assert order(summary) == course_order and order(summary[summary.index("<details>"):], failing) == failing
    page = feedback_page(result, fast_bpe_bytes, "Curso")
    assert order(page) == course_order
    tags = [t["tags"][0] for t in to_gradescope(result)["tests"]]
    assert tags == sorted(tags, key=course_order.index)


# --- the language around the feedback: a student's (one submission) or the instructor's ---------

ENGLISH_TO_A_STUDENT = ("results written", "defences", "written to", "appended to", "below --fail-under",
                        "no such file", "GRADER ERROR")


def test_one_submission_speaks_spanish_around_its_feedback_and_a_batch_english(tmp_path, fast_bpe_bytes, capsys):
    path = samples.build_notebook(fast_bpe_bytes, buggy_sample("merge_drops_tail"), tmp_path / "entrega.ipynb")
    reports = ["--junit", str(tmp_path / "j.xml"), "--summary", str(tmp_path / "s.md"), "--fail-under", "99"]
    for mode in ([], ["--ci"], ["--visible"]):
        main(["grade", "bpe_bytes", str(path), "--results", str(tmp_path / "r.json"), *reports, *mode])
        out, err = capsys.readouterr()
        assert "defensas activas" in err and "resultados guardados en" in err, err
        assert "informe JUnit guardado en" in err and "resumen añadido a" in err, err
        assert not [words for words in ENGLISH_TO_A_STUDENT if words in out + err], (mode, err)
    main(["grade", "bpe_bytes", str(path), str(path), "--results", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert "defences active" in err and "results written to" in err and "defensas" not in err
    main(["grade", "bpe_bytes", str(path), "--lang", "en", "--results", str(tmp_path / "r.json"), "--quiet"])
    assert "results written to" in capsys.readouterr().err  # Gradescope's run_autograder: the instructor's log
    from autograder.sandbox.launcher import describe_defences
    from autograder.sandbox.probe import SPANISH_DEFENCES

    assert set(SPANISH_DEFENCES) == set(describe_defences())  # a new defence is named in Spanish too


def buggy_sample(name: str):
    return next(s for s in catalogue("bpe_bytes", "buggy") if s.name == name)


def test_ctrl_c_stops_a_command_started_with_it_ignored(tmp_path):
    """A shell's background job starts with SIGINT ignored, and Python then keeps it ignored: `kill -INT`
    stopped a local batch (its own handler) but not a cluster run. Every command takes it now."""
    script = ("import signal\nfrom autograder.cli import main\nmain(['check-course'])\n"
              "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, check=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert shown.stdout.strip().splitlines()[-1] == "True", shown.stderr
