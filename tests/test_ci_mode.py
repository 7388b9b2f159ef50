"""CI mode: `autograder grade ... --ci`, on its own under CI, GitHub Actions or GitLab CI.

What a student's workflow run shows: a short Spanish summary in the log, results.json,
a JUnit report CI services read, a Markdown job summary within GitHub's 1 MiB, GitHub
annotations, and an exit code that says graded / broken / grader error. Real gradings
where the wiring matters; synthetic results where the renderers' edge cases do (huge
feedback, control characters, markup in a student's exception message).
"""

from __future__ import annotations

import dataclasses
import html
import io
import json
import shutil
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout
from html.parser import HTMLParser
from pathlib import Path

import mistune
import pytest

from autograder import samples
from autograder.cli import ci_detected, main
from autograder.render.terminal import _workflow_command, ci_summary
from autograder.grading.batch import grade_batch
from autograder.grading import results as model
from autograder.grading.results import GradeResult, LoadSummary
from autograder.classroom.pipeline import stored_results
from autograder.release import release_assignment
from autograder.render.junit import junit_xml
from autograder.render.markdown import GITHUB_SUMMARY_LIMIT, append_job_summary, job_summary

from course_content import catalogue

from conftest import CI_VARIABLES

ARTIFACTS = Path(__file__).parent / "artifacts"
from leaks import hidden_inputs, hidden_suite_secrets, leaked_inputs, published_text
from test_classroom import buggy, hand_in
from test_cli import check_gradescope_schema

TAIL_HINT = "No pierdas el último elemento"
PAYLOAD = "<script>alert(1)</script> | `x` **y** [z](http://e.vil)"


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> Run:
    """`autograder ARGV` with exactly the CI variables in `env`; usable from module-scoped fixtures too."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        for name in CI_VARIABLES:
            patch.delenv(name, raising=False)
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        if cwd is not None:
            patch.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)
    return Run(code, out.getvalue(), err.getvalue())


# --- results to render ----------------------------------------------------------------------

def synthetic(feedback: str = "El resultado no es el esperado.", tests: int = 3, outcome: str = "raised",
              **fields) -> GradeResult:
    """A result with `tests` failed tests over two functions, each with `feedback` (a student's exception can
    make it anything), and one passed test."""
    cases = [model.TestResult(test_id=f"test_{i}", name=f"f{i % 2}: prueba {i}", function=f"f{i % 2}", score=0.0,
                        max_score=1.0, outcome=outcome, feedback=feedback, hint=f"Pista {i}") for i in range(tests)]
    cases.append(model.TestResult(test_id="test_ok", name="f0: bien", function="f0", score=1.0, max_score=1.0,
                            outcome="passed"))
    fields.setdefault("submission", "entrega.ipynb")
    return GradeResult("bpe_bytes", tests=cases, load=LoadSummary(), max_score=float(tests + 1), **fields)


@pytest.fixture(scope="module")
def graded(course, fast_bpe_bytes, tmp_path_factory) -> dict[str, GradeResult]:
    """Real results, graded once: the stub, a few bugs, attacks that fish for hidden values, an unreadable file."""
    folder = tmp_path_factory.mktemp("ci-graded")
    hostile = [s for s in catalogue("bpe_bytes", "hostile")
               if s.name in ("read_hidden_files", "frame_walk_oracle", "fake_results_files")]
    chosen = [samples.stub(fast_bpe_bytes), buggy("merge_drops_tail"), *catalogue("bpe_bytes", "buggy")[::4],
              *hostile]
    paths = [samples.build_notebook(fast_bpe_bytes, s, folder / f"{s.name}.ipynb") for s in chosen]
    (folder / "ilegible.ipynb").write_text("{ not json")
    results = grade_batch(fast_bpe_bytes, [*paths, folder / "ilegible.ipynb"], jobs=2)
    return dict(zip([s.name for s in chosen] + ["unreadable"], results))


@pytest.fixture(scope="module")
def github_run(tmp_path_factory, fast_bpe_bytes):
    """One buggy notebook graded as a GitHub Actions step would: (Run, folder)."""
    folder = tmp_path_factory.mktemp("ci-github")
    notebook = samples.build_notebook(fast_bpe_bytes, buggy("merge_drops_tail"), folder / "entrega.ipynb")
    (folder / "summary.md").write_text("## Paso anterior\n\nSalida de otro paso.\n", encoding="utf-8")
    run = run_cli(["grade", "bpe_bytes", str(notebook), "--results", str(folder / "results.json")],
                  {"GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_STEP_SUMMARY": str(folder / "summary.md")})
    # Kept after the run: what a GitHub job shows for this submission, for a human to look at.
    artifacts = ARTIFACTS / "ci-github"
    artifacts.mkdir(parents=True, exist_ok=True)
    for name in ("summary.md", "junit.xml", "results.json"):
        shutil.copyfile(folder / name, artifacts / name)
    (artifacts / "log.txt").write_text(run.out, encoding="utf-8")
    return run, folder


# --- checks on what was written ---------------------------------------------------------------

def parse_junit(text: str) -> ET.Element:
    """The report as CI readers take it: <testsuites> of <testsuite> of <testcase>, counts that add up."""
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(c.find("failure") is not None for c in cases)
        assert int(suite.get("errors")) == sum(c.find("error") is not None for c in cases)
        assert {p.get("name") for p in suite.find("properties")} >= {"score", "max_score", "final_score"}
        for case in cases:
            assert case.get("classname").count(".") == 1 and case.get("name")
            for problem in [*case.findall("failure"), *case.findall("error")]:
                assert problem.get("message") and problem.get("type") and problem.text
    for key in ("tests", "failures", "errors"):
        assert int(root.get(key)) == sum(int(s.get(key)) for s in root.findall("testsuite"))
    return root


class _Tags(HTMLParser):
    """Open/close balance of the block tags a summary uses, in its rendered HTML."""
    BLOCKS = ("details", "summary", "table", "tr", "ul", "li", "blockquote", "script")

    def __init__(self):
        super().__init__()
        self.depth = dict.fromkeys(self.BLOCKS, 0)
        self.opened = dict.fromkeys(self.BLOCKS, 0)

    def handle_starttag(self, tag, attrs):
        if tag in self.depth:
            self.depth[tag] += 1
            self.opened[tag] += 1

    def handle_endtag(self, tag):
        if tag in self.depth:
            self.depth[tag] -= 1
            assert self.depth[tag] >= 0, tag


def check_markdown(text: str) -> _Tags:
    """The summary renders (GitHub-flavoured, raw HTML allowed as on GitHub) to balanced HTML without a script."""
    rendered = mistune.create_markdown(escape=False, plugins=["table"])(text)
    tags = _Tags()
    tags.feed(rendered)
    assert not any(tags.depth.values()), tags.depth
    assert tags.opened["script"] == 0
    return tags


# --- CI mode: detection -----------------------------------------------------------------------

@pytest.mark.parametrize("env, expected", [
    ({"CI": "true"}, True), ({"CI": "1"}, True), ({"CI": "True"}, True), ({"GITHUB_ACTIONS": "true"}, True),
    ({"GITLAB_CI": "true"}, True), ({}, False), ({"CI": "false"}, False), ({"CI": "0", "GITLAB_CI": "false"}, False),
])
def test_ci_is_detected_from_the_variables_ci_services_set(env, expected):
    assert ci_detected(env) is expected


HANDED_IN = ".ipynb"  # the files these tests name are put in their folder, for the CLI to find


def written(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.suffix != HANDED_IN}


@pytest.fixture
def fake_grading(monkeypatch, graded, tmp_path):
    """grade_batch replaced by the results graded once (the CLI's wiring is what these tests look at).
    The files named exist in tmp_path, since the CLI refuses a path that does not exist."""
    for name in graded:
        (tmp_path / f"{name}{HANDED_IN}").write_text("{}", encoding="utf-8")
    def fake(assignment, submissions, jobs=None, on_result=None, suite="hidden", warm_up=None):
        results = [dataclasses.replace(graded[Path(s).stem], submission=str(s)) for s in submissions]
        for index, result in enumerate(results):
            on_result(index, result)
        return results

    monkeypatch.setattr("autograder.grading.loose.grade_batch", fake)


@pytest.mark.parametrize("variable, value", [("CI", "true"), ("CI", "1"), ("GITHUB_ACTIONS", "true"),
                                             ("GITLAB_CI", "true")])
def test_each_ci_variable_turns_ci_mode_on(tmp_path, fake_grading, variable, value):
    run = run_cli(["grade", "bpe_bytes", "merge_drops_tail.ipynb"], {variable: value}, cwd=tmp_path)
    assert run.code == 0
    assert written(tmp_path) == {"results.json", "junit.xml"}
    assert "Pruebas no superadas:" in run.out and "Prueba general:" not in run.out  # the short summary
    assert ("::notice" in run.out) == (variable == "GITHUB_ACTIONS")


def test_no_ci_keeps_the_full_report_and_writes_no_junit(tmp_path, fake_grading):
    run = run_cli(["grade", "bpe_bytes", "merge_drops_tail.ipynb", "--no-ci"],
                  {"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(tmp_path / "s.md")}, cwd=tmp_path)
    assert run.code == 0
    assert written(tmp_path) == {"results.json"}
    assert "Prueba general:" in run.out and "::" not in run.out


def test_junit_and_summary_can_be_asked_for_outside_ci(tmp_path, fake_grading):
    run = run_cli(["grade", "bpe_bytes", "merge_drops_tail.ipynb", "--junit", "out/j.xml", "--summary", "s.md"],
                  cwd=tmp_path)
    assert run.code == 0 and "Prueba general:" in run.out
    parse_junit((tmp_path / "out" / "j.xml").read_text(encoding="utf-8"))
    assert "merge" in (tmp_path / "s.md").read_text(encoding="utf-8")


# --- a GitHub Actions step, end to end --------------------------------------------------------

def test_the_log_gets_a_short_spanish_summary_and_no_banner(github_run):
    run, folder = github_run
    assert run.code == 0  # wrong answers are a grade, not a failed step
    log = [line for line in run.out.splitlines() if not line.startswith("::")]
    assert log[:2] == [f"bpe_bytes · {folder / 'entrega.ipynb'}", "Puntuación: 95.71 / 100"]
    assert "  ✗ merge               10.71 / 15" in log and "  ✓ get_stats           10.00 / 10" in log
    assert "  ✗ merge: conserva el último elemento cuando no forma par" in log
    assert any(line.strip().startswith(f"Pista: {TAIL_HINT}") for line in log)
    assert len(log) <= 40
    assert "defensas activas" not in run.out and "defensas activas" in run.err  # one submission: Spanish


def test_the_short_summary_stays_short_when_everything_fails(graded):
    lines = ci_summary(synthetic(tests=80)).splitlines()
    assert len(lines) <= 42 and lines[-1].startswith("  … y ") and "junit.xml" in lines[-1]
    stub = ci_summary(graded["stub"]).splitlines()  # a line per function, each saying why once
    assert len(stub) <= 42 and sum("NotImplementedError" in line for line in stub) == len(graded["stub"].by_function())


def test_results_json_and_junit_are_written_next_to_each_other(github_run):
    _, folder = github_run
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    check_gradescope_schema(results)
    root = parse_junit((folder / "junit.xml").read_text(encoding="utf-8"))
    suite, = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [t["name"] for t in results["tests"]]  # one case per graded test
    partial, failed = sorted((c for c in cases if c.find("failure") is not None),
                             key=lambda c: c.find("failure").get("type") != "partial")
    assert failed.get("classname") == partial.get("classname") == "bpe_bytes.merge"
    assert failed.find("failure").get("message").startswith(TAIL_HINT)
    assert failed.find("failure").get("type") == "wrong"
    # The catch-all, credited in proportion to merge's specific tests passed, is a failure too.
    assert partial.find("failure").get("type") == "partial" and "Prueba general:" in partial.findtext("failure")
    assert suite.get("failures") == "2" and suite.get("errors") == "0"
    assert {p.get("name"): p.get("value") for p in suite.find("properties")}["max_score"] == "100"


def test_the_job_summary_is_appended_with_a_score_table_and_feedback(github_run):
    _, folder = github_run
    text = (folder / "summary.md").read_text(encoding="utf-8")
    assert text.startswith("## Paso anterior\n\nSalida de otro paso.\n\n## `bpe_bytes` · ")
    assert "**Puntuación: 95.71 / 100**" in text
    assert "| `merge` | ❌ | 10.71 | 15 |" in text and "| `get_stats` | ✅ | 10.00 | 10 |" in text
    assert "<details><summary>❌ <code>merge</code>: 2 pruebas no superadas (10.71 / 15)</summary>" in text
    assert "**merge: conserva el último elemento cuando no forma par**" in text and TAIL_HINT in text
    tags = check_markdown(text)
    assert tags.opened["table"] == 1 and tags.opened["details"] == 1


def test_github_gets_an_error_annotation_per_failed_function_and_the_score(github_run):
    run, _ = github_run
    commands = [line for line in run.out.splitlines() if line.startswith("::")]
    stop, resume, *annotations = commands  # the summary runs no command: it is between stop-commands and its token
    assert stop.startswith("::stop-commands::") and resume == f"::{stop.removeprefix('::stop-commands::')}::"
    assert annotations[0].startswith("::error title=merge%3A 10.71 / 15::✗ merge: conserva el último elemento")
    assert annotations[-1] == "::notice title=bpe_bytes::Puntuación: 95.71 / 100"
    assert len(annotations) == 2


def test_workflow_commands_are_escaped_as_github_requires():
    assert _workflow_command("error", "f: a, b", "50%\r\nsigue") == "::error title=f%3A a%2C b::50%25%0D%0Asigue"


# --- exit codes -------------------------------------------------------------------------------

def test_a_broken_notebook_exits_1_with_the_reason_everywhere(tmp_path):
    (tmp_path / "entrega.ipynb").write_text("{ not json")
    run = run_cli(["grade", "bpe_bytes", "entrega.ipynb"], {"GITHUB_ACTIONS": "true",
                  "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}, cwd=tmp_path)
    assert run.code == 1
    assert "No se pudo calificar la entrega" in run.out and "::error title=no se pudo calificar la entrega::" in run.out
    root = parse_junit((tmp_path / "junit.xml").read_text(encoding="utf-8"))
    assert root.get("failures") == root.get("tests") != "0" and root.get("errors") == "0"
    assert "JSON está dañado" in (tmp_path / "summary.md").read_text(encoding="utf-8")


def test_a_broken_file_in_a_batch_is_just_a_result(tmp_path, fake_grading):
    assert run_cli(["grade", "bpe_bytes", "stub.ipynb", "unreadable.ipynb", "--ci"], cwd=tmp_path).code == 0


@pytest.mark.parametrize("points, expected", [("96", 1), ("95", 0)])
def test_fail_under_turns_a_low_score_into_exit_1(tmp_path, fake_grading, points, expected):
    run = run_cli(["grade", "bpe_bytes", "merge_drops_tail.ipynb", "--ci", "--fail-under", points], cwd=tmp_path)
    assert run.code == expected
    assert (tmp_path / "junit.xml").is_file()  # the reports are written either way


@pytest.mark.parametrize("argv", [
    ["grade", "bpe_bites", "x.ipynb"],
    ["grade", "bpe_bytes", "x.ipynb", "--lms", "descarga.zip"],
])
def test_bad_usage_exits_2_in_ci(tmp_path, argv):
    assert run_cli(argv, {"CI": "true"}, cwd=tmp_path).code == 2
    assert not (tmp_path / "junit.xml").exists()


def test_a_grader_error_exits_3_and_is_an_error_not_a_failure(tmp_path, monkeypatch, fast_bpe_bytes):
    def broken_grader(*args, **kwargs):
        raise RuntimeError("the hidden suite could not be imported")

    monkeypatch.setattr("autograder.grading.batch.grade_handed_in", broken_grader)  # in the forked grader
    samples.build_notebook(fast_bpe_bytes, samples.correct("bpe_bytes"), tmp_path / "entrega.ipynb")
    run = run_cli(["grade", "bpe_bytes", "entrega.ipynb"], {"CI": "true"}, cwd=tmp_path)
    assert run.code == 3 and "ERROR DEL CORRECTOR (no es culpa tuya" in run.err
    root = parse_junit((tmp_path / "junit.xml").read_text(encoding="utf-8"))
    assert root.get("errors") == root.get("tests") and root.get("failures") == "0"


def test_a_grader_error_on_some_submissions_exits_4_after_grading_and_writing_everything_else(
        tmp_path, monkeypatch, course, fast_bpe_bytes):
    # A class run must never stop for everyone because of one submission: the others are graded,
    # recorded and reported, and the exit code says "some", not "the grader is broken" (3).
    from autograder.grading import batch

    real = batch.grade_handed_in

    def fails_for_carla(kit, label, *args, **kwargs):
        if "carla" in label:
            raise RuntimeError("a grader bug that only carla's submission triggers")
        return real(kit, label, *args, **kwargs)

    monkeypatch.setattr(batch, "grade_handed_in", fails_for_carla)  # inherited by the forked graders
    course_dir = tmp_path / "course"
    release_assignment(course, fast_bpe_bytes, course_dir)
    for student in ("ana", "bruno", "carla"):
        hand_in(course_dir, student, fast_bpe_bytes, samples.correct("bpe_bytes"))
    run = run_cli(["grade", "bpe_bytes", "--course-dir", str(course_dir), "--jobs", "2"], {"CI": "true"}, cwd=tmp_path)
    assert run.code == 4, run.err
    assert "GRADER ERROR for carla" in run.err and "1 of 3 submissions hit a grader error" in run.err
    assert {r.student: r.final_score for r in stored_results(course_dir, fast_bpe_bytes)} == {
        "ana": 100, "bruno": 100, "carla": 0}
    assert (tmp_path / "junit.xml").is_file()
    assert run_cli(["export", "--course-dir", str(course_dir)], cwd=tmp_path).code == 0


# --- the whole class in CI --------------------------------------------------------------------

def test_a_class_graded_in_ci_gets_a_suite_per_student_and_a_class_table(tmp_path, course, fast_bpe_bytes):
    course_dir = tmp_path / "course"
    release_assignment(course, fast_bpe_bytes, course_dir)
    hand_in(course_dir, "ana", fast_bpe_bytes, samples.correct("bpe_bytes"))
    hand_in(course_dir, "carla", fast_bpe_bytes, buggy("merge_drops_tail"))
    hand_in(course_dir, "fede", fast_bpe_bytes, files={"bpe_bytes.ipynb": b"{ not json"})
    run = run_cli(["grade", "bpe_bytes", "--course-dir", str(course_dir), "--jobs", "2"],
                  {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}, cwd=tmp_path)
    assert run.code == 0  # fede's broken notebook is one student's zero, not a failed class
    assert "3 submissions;" in run.out and "grading bpe_bytes [" in run.err
    root = parse_junit((tmp_path / "junit.xml").read_text(encoding="utf-8"))
    assert [s.get("name") for s in root.findall("testsuite")] == ["ana", "carla", "fede"]
    text = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "## `bpe_bytes`: 3 entregas" in text
    for row in ("| ✅ | ana | 100.00 / 100 | 100.00 |", "| ❌ | carla | 95.71 / 100 | 95.71 |",
                "| ⚠️ | fede | 0.00 / 100 | 0.00 |"):
        assert row in text
    assert "\n### carla\n" in text
    assert check_markdown(text).opened["table"] == 4  # the class, then one per student


# --- the renderers on hard cases ----------------------------------------------------------------

def test_junit_survives_control_characters_and_markup():
    result = synthetic(feedback=f"ValueError: \x00\x07\x1b[31mrojo\x1b[0m \ud800 {PAYLOAD}\nsegunda línea",
                       student="ana\x01")
    root = parse_junit(junit_xml([result]))
    failure = root.find("testsuite/testcase/failure")
    assert failure.text.startswith("ValueError: [31mrojo[0m  <script>") and "segunda línea" in failure.text
    assert failure.get("message") == "Pista 0" and failure.get("type") == "raised"
    assert root.find("testsuite").get("name") == "ana"


def test_junit_message_falls_back_to_the_first_feedback_line_and_errors_are_the_graders():
    result = synthetic(feedback="\nPrimera línea\nsegunda", tests=2, outcome="grader_error")
    result = dataclasses.replace(result, tests=(dataclasses.replace(result.tests[0], hint=""), *result.tests[1:]))
    root = parse_junit(junit_xml([result, synthetic()]))
    first = root.find("testsuite/testcase/error")
    assert first.get("message") == "Primera línea"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("7", "3", "2")


def test_the_summary_escapes_what_a_student_can_write():
    feedback = f"{PAYLOAD}\n# no soy un título\n- ni una lista\n1. ni esta\n===\n<details>\n| a | b |"
    result = synthetic(feedback=feedback, submission=f"{PAYLOAD}.ipynb")
    text = job_summary([result])
    tags = check_markdown(text)
    assert tags.opened["table"] == 1 and tags.opened["details"] == 2 and tags.opened["li"] == 3
    rendered = mistune.create_markdown(escape=False, plugins=["table"])(text)
    assert "<h1" not in rendered and "<ol" not in rendered and "<a " not in rendered and "<hr" not in rendered
    assert "&lt;script&gt;" in rendered and "<strong>y</strong>" not in rendered


def test_huge_feedback_fits_githubs_limit_and_stays_valid():
    result = synthetic(feedback="Traceback | <b> `x`\n" + "ñ" * 100_000, tests=50)  # 50 tests of 100 KB
    text = job_summary([result])
    assert len(text.encode("utf-8")) <= GITHUB_SUMMARY_LIMIT
    assert check_markdown(text).opened["details"] == 2 and "texto recortado" in text
    small = job_summary([result], limit_bytes=20_000)
    assert len(small.encode("utf-8")) <= 20_000 and "(recortado: se omitió el detalle de" in small
    assert check_markdown(small).opened["table"] == 1


def test_several_submissions_drop_details_then_sections_as_room_runs_out():
    results = [dataclasses.replace(synthetic(feedback="x" * 1500, tests=10), submission=f"alumno{i}.ipynb")
               for i in range(40)]
    full, medium, tight = (job_summary(results, limit) for limit in (GITHUB_SUMMARY_LIMIT, 60_000, 8_000))
    assert "recortado" not in full and check_markdown(full).opened["details"] == 80
    assert "se omitió el detalle de" in medium and "secci" not in medium
    assert check_markdown(medium).opened["table"] == 41
    assert "(recortado: se omitieron las secciones de" in tight and tight.count("| alumno") == 40
    for text, limit in ((medium, 60_000), (tight, 8_000)):
        assert len(text.encode("utf-8")) <= limit
        check_markdown(text)
    assert job_summary(results, limit_bytes=500) == ""


def test_appending_honours_the_limit_with_a_nearly_full_summary_file(tmp_path):
    path = tmp_path / "summary.md"
    earlier = ("Salida de un paso anterior. " * 40 + "\n") * ((GITHUB_SUMMARY_LIMIT - 30_000) // 1121)
    path.write_text(earlier, encoding="utf-8")
    result = synthetic(feedback="y" * 1500, tests=40)
    written = append_job_summary(path, [result])
    text = path.read_text(encoding="utf-8")
    assert written and path.stat().st_size <= GITHUB_SUMMARY_LIMIT and text.startswith(earlier)
    assert "(recortado:" in text
    check_markdown(text[len(earlier):])
    full = path.read_bytes()
    path.write_bytes(full + b"z" * (GITHUB_SUMMARY_LIMIT - len(full) - 100))
    before = path.read_bytes()
    assert append_job_summary(path, [result]) == 0 and path.read_bytes() == before  # no room: nothing added


# --- nothing hidden reaches a report ------------------------------------------------------------

def test_no_hidden_suite_text_or_hidden_input_in_junit_or_summary(graded):
    secrets = hidden_suite_secrets("bpe_bytes")
    hidden = hidden_inputs("bpe_bytes", published_text("bpe_bytes", graded["stub"]))
    assert len(secrets) >= 10 and len(hidden) >= 3
    results = list(graded.values())
    reports = {"junit": junit_xml(results), "summary": job_summary(results),
               "log": "\n".join(ci_summary(r) for r in results)}
    for name, report in reports.items():
        text = html.unescape(report).replace("\\", "")
        leaked = [line for line in secrets if line in text or line in report]
        leaked += leaked_inputs(hidden, text) + leaked_inputs(hidden, report)
        leaked += [t.test_id for r in results for t in r.tests if t.test_id in report]
        assert not leaked, (name, leaked[:5])
