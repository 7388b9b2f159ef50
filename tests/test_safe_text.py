"""Student text reaches no terminal, CI log, summary, report or spreadsheet raw (issue 11, items 6 and 8).

autograder/render/safe_text.py has one function per medium; every renderer and every CLI print
of student-derived text goes through it. Properties for any string, then the attack end to end:
the hostile sample `log_forgery` graded with `--ci` as a GitHub step, and an LMS display name
that is a spreadsheet formula exported to grades.csv.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
import xml.etree.ElementTree as ET
import zipfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from autograder import samples
from autograder.cli import main
from autograder.release import release_assignment
from autograder.render import safe_text
from autograder.render.grades_csv import canvas_csv, grades_csv, moodle_worksheet

from conftest import CI_VARIABLES
from course_content import catalogue, catalogue_module

FORGED_LOG = catalogue_module("tokenizacion", "hostile").FORGED_LOG

ANY_TEXT = st.text(alphabet=st.characters(codec=None, categories=None), max_size=200)  # surrogates included
# Text nothing should touch: letters, digits, punctuation, spaces, newlines and tabs, no command prefix.
HARMLESS = st.text(alphabet=st.characters(categories=("L", "N", "P", "Zs", "S"), exclude_characters="\u2028\u2029")
                   | st.sampled_from("\n\t"), max_size=200).filter(
    lambda t: not any(line.lstrip().startswith(("::", "section_")) for line in t.split("\n")) and "##[" not in t
    and not set(t) & safe_text.BIDI_CONTROLS)


def controls(text: str) -> set[str]:
    """What a terminal would obey: control characters but newline and tab, bidi controls, surrogates."""
    return {c for c in text if (unicodedata.category(c) in ("Cc", "Cs") and c not in "\n\t")
            or c in safe_text.BIDI_CONTROLS or c in "\u2028\u2029"}


def is_command(line: str) -> bool:
    """A line GitHub's runner would run (TryParseV2 after TrimStart, legacy ##[ anywhere) or a GitLab section."""
    stripped = line.lstrip().lstrip("\u180e\u200b\ufeff")
    return stripped.startswith(("::", "section_start:", "section_end:")) or "##[" in line


# --- each medium, for any string -------------------------------------------------------------------

@given(ANY_TEXT)
def test_terminal_text_holds_no_control_character_but_newline_and_tab(text):
    assert not controls(safe_text.terminal(text))
    safe_text.terminal(text).encode("utf-8")  # printable: no lone surrogate left to make print() raise


@given(ANY_TEXT)
def test_no_line_of_a_ci_log_is_a_command(text):
    safe = safe_text.ci_log(text)
    assert not controls(safe)
    assert not any(is_command(line) for line in safe.splitlines())


@given(ANY_TEXT, ANY_TEXT)
def test_a_workflow_command_stays_one_line_and_its_title_one_property(title, message):
    line = f"::error title={safe_text.workflow_property(title)}::{safe_text.workflow_data(message)}"
    assert len(line.splitlines()) == 1 and not controls(line)
    assert line.count("::") == 2 and "," not in safe_text.workflow_property(title)
    assert "##[" not in line


@given(ANY_TEXT)
def test_no_csv_cell_starts_a_formula_whatever_the_separator(text):
    """Split on any separator a spreadsheet might use, no field starts a formula; and the cell
    is the text with single quotes added, nothing else."""
    cell = safe_text.csv_cell(text)
    for separator in safe_text.CSV_SEPARATORS:
        for field in cell.split(separator)[1:]:
            assert not field.lstrip(" \t").startswith(("=", "+", "-", "@"))
    assert not cell.startswith(safe_text.FORMULA_START)
    assert cell.replace("'", "") == text.replace("'", "")


def test_a_formula_after_a_semicolon_is_quoted_too():
    """Spanish Excel splits a CSV on ';' by default: 'Ana ;=1+1;' would show a computed 2."""
    assert safe_text.csv_cell("Ana ;=1+1;") == "Ana ;'=1+1;"
    assert safe_text.csv_cell("Ana;  @SUM(1)|-2") == "Ana;  '@SUM(1)|'-2"
    assert safe_text.csv_cell("Ana García-López; Pérez") == "Ana García-López; Pérez"


@given(ANY_TEXT)
def test_xml_text_always_parses(text):
    element = ET.Element("e", a=safe_text.xml(text))
    element.text = safe_text.xml(text)
    ET.fromstring(ET.tostring(element, encoding="unicode"))


@given(ANY_TEXT)
def test_markdown_and_html_hold_no_markup_or_control(text):
    line = safe_text.markdown_line(text)
    assert "<" not in line and not controls(line) and "://" not in line
    assert "<" not in safe_text.html_text(text) and not controls(safe_text.html_text(text))


@given(HARMLESS)
def test_harmless_text_comes_back_unchanged(text):
    assert safe_text.terminal(text) == safe_text.ci_log(text) == text
    if not re.search(r"(^|[,;|\t\r\n][ \t]*)[=+\-@\t\r]", text):
        assert safe_text.csv_cell(text) == text


def test_each_medium_on_the_forged_log():
    log = safe_text.ci_log(FORGED_LOG)
    assert "\x1b" not in log and "\r" not in log and "\u202e" not in log
    assert "␛[2J␛[HPuntuación" in log and "\\::notice::forjado" in log and "##\\[error]" in log
    assert "\\  ::add-mask::" in log and "\\section_start:1:forjado␍␛[0K" in log
    assert safe_text.workflow_data("a\r\n::b%") == "a%0D%0A::b%25"
    assert safe_text.workflow_property("f: a, b") == "f%3A a%2C b"
    assert safe_text.markdown_line("<img src=x> [y](http://e.vil)") == "&lt;img src=x&gt; \\[y\\](http\u2060://e.vil)"
    assert [safe_text.csv_cell(v) for v in ("=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", "Ana", "")] == \
        ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\t'=1", "'\r'=1", "Ana", ""]


def test_stop_commands_get_a_fresh_token_each_time():
    first, second = safe_text.github_stop_commands("x"), safe_text.github_stop_commands("x")
    token = re.fullmatch(r"::stop-commands::(\w{32})\nx\n::(\w{32})::", first)
    assert token and token[1] == token[2] and first != second


# --- the attack, end to end -----------------------------------------------------------------------

def run_cli(argv, env, monkeypatch):
    out, err = io.StringIO(), io.StringIO()
    for name in CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def forgery_notebook(tmp_path_factory, course):
    assignment = course.assignment("tokenizacion")
    sample = next(s for s in catalogue("tokenizacion", "hostile") if s.name == "log_forgery")
    return samples.build_notebook(assignment, sample, tmp_path_factory.mktemp("forgery") / "entrega.ipynb")


def test_a_forged_log_in_an_exception_is_only_text_in_a_github_step(forgery_notebook, tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    code, out, err = run_cli(["grade", "tokenizacion", str(forgery_notebook), "--ci",
                              "--results", str(tmp_path / "results.json")],
                             {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}, monkeypatch)
    assert code == 0
    assert "RuntimeError: no" in out and "forjado" in out  # the message is shown, as text
    assert "\x1b" not in out + err and "\r" not in out + err and "\u202e" not in out
    lines = out.splitlines()
    assert not any(line.lstrip().startswith(("::notice::forjado", "::add-mask::", "::stop-commands::forjado"))
                   for line in lines)
    assert not any("##[" in line for line in lines)
    # The only commands are the grader's: the stop-commands pair around the summary, then its annotations.
    commands = [line for line in lines if line.lstrip().startswith("::")]
    token = re.fullmatch(r"::stop-commands::(\w+)", commands[0])[1]
    assert commands[1] == f"::{token}::" and all(re.match(r"::(error|notice) title=", c) for c in commands[2:])
    assert commands[-1].startswith("::notice title=tokenizacion::Puntuación: 0.00 / ")
    assert not controls(summary.read_text(encoding="utf-8").replace("\n", ""))
    ET.parse(tmp_path / "junit.xml")


def test_the_full_terminal_report_is_only_text_too(forgery_notebook, tmp_path, monkeypatch):
    code, out, err = run_cli(["grade", "tokenizacion", str(forgery_notebook), "--no-ci",
                              "--results", str(tmp_path / "results.json")], {}, monkeypatch)
    assert code == 0 and "Puntuación: 0.00 / " in out
    assert "\x1b" not in out and "\r" not in out and not any(is_command(line) for line in out.splitlines())


def test_a_formula_as_lms_display_name_is_exported_as_text(tmp_path, course, monkeypatch):
    assignment = course.assignment("bpe_bytes")
    course_dir = tmp_path / "course"
    release_assignment(course, assignment, course_dir)
    download = tmp_path / "moodle.zip"
    with zipfile.ZipFile(download, "w") as archive:  # Moodle names no one a "/": a name is one path part
        archive.writestr('=HYPERLINK("x","y") @SUM(1)_1001_assignsubmission_file_memoria.pdf', b"%PDF-1.4")
        archive.writestr("\x1b[2J\n::notice::forjado.pdf", b"%PDF-1.4")  # no student id: skipped, named
    code, out, err = run_cli(["grade", "bpe_bytes", "--course-dir", str(course_dir), "--lms", str(download),
                              "--jobs", "1"], {}, monkeypatch)
    assert code == 0 and "skipped ␛[2J" in err and "\x1b" not in err
    assert not any(is_command(line) for line in err.splitlines())
    output = tmp_path / "grades.csv"
    assert main(["export", "--course-dir", str(course_dir), "--output", str(output)]) == 0
    row = next(csv.DictReader(output.open(encoding="utf-8")))
    assert (row["first_name"], row["last_name"]) == ("'=HYPERLINK(\"x\",\"y\")", "'@SUM(1)")
    assert row["bpe_bytes (100)"] == "0" and row["student_id"] == "1001"


def test_grades_csv_escapes_text_cells_and_keeps_numbers_numeric():
    rows = [{"student_id": "-ana", "last_name": "-1+1", "first_name": '=HYPERLINK("http://x","y")',
             "email": "@evil", "scores": {"a": 2.5}}]
    text = grades_csv(["a"], rows, {"a": 10.0})
    header, row = list(csv.reader(io.StringIO(text)))
    assert row == ["'-ana", "'-1+1", "'=HYPERLINK(\"http://x\",\"y\")", "'@evil", "2.5", "2.5", "25.0"]


def test_the_lms_formats_escape_text_cells_too():
    """An LMS display name reaches Canvas's and Moodle's files as well; Moodle's worksheet is opened in a
    spreadsheet before it is uploaded."""
    row = {"student_id": "1001", "lms_id": "1001", "last_name": "@SUM(1)", "first_name": '=HYPERLINK("x","y")',
           "email": "+evil", "scores": {"a": 2.5}}
    canvas = list(csv.reader(io.StringIO(canvas_csv({"a": "A"}, [row]))))[1]
    assert canvas[:2] == ["'@SUM(1), '=HYPERLINK(\"x\",\"y\")", "1001"] and canvas[5] == "2.5"
    when = dt.datetime(2027, 3, 2, tzinfo=dt.timezone.utc)
    moodle = list(csv.reader(io.StringIO(moodle_worksheet("a", [row], 10.0, when))))[1]
    assert moodle[:5] == ["Participant 1001", "'=HYPERLINK(\"x\",\"y\") @SUM(1)", "'+evil", "2.5", "10"]
