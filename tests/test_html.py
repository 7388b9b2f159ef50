"""The HTML renderings: a feedback page per student (Spanish) and a report per batch (English).

Both are checked on real results (a small graded batch per assignment: the reference, the
released stub, buggy and hostile samples and an unreadable file), for what they must show,
for what they must never show (the hidden suite's code and hidden inputs, tests/leaks.py), for
escaping, and for being self-contained. Then a headless Chromium opens them: no console error
or exception, a real layout, a report table that sorts on click; screenshots go to
tests/artifacts/. Without chromium the browser tests skip and the rest still run.
"""

from __future__ import annotations

import collections
import dataclasses
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from autograder import samples
from autograder.grading import results as model
from autograder.grading.batch import grade_batch
from autograder.grading.results import GradeResult, LoadSummary
from autograder.late import LatePolicy
from autograder.render.feedback_html import feedback_page
from autograder.render.html_page import esc, points
from autograder.render.instructor_words import NOT_IMPLEMENTED, OUTCOME_WORDS
from autograder.render.report_html import incident_lines, report_page
from autograder.render.student_text import unrun_functions
from autograder.render.terminal import batch_table

from course_content import catalogue

from leaks import hidden_inputs, hidden_suite_secrets, leaked_inputs, published_text

ASSIGNMENTS = ("bpe_bytes", "embeddings")
HOSTILE = {"bpe_bytes": ("os_exit", "expected_exceptions_only"),  # a crash (incidents), nothing implemented
           "embeddings": ("mutate_arguments_in_place", "ndarray_subclass_liars")}
BUGGY_PER_ASSIGNMENT = 10
ARTIFACTS = Path(__file__).parent / "artifacts"
PAYLOAD = "<script>alert(1)</script>"
# As gradebook.settle leaves a result: times on the course's clock, the rule that priced them.
LATE = dict(due="2027-03-01T23:59:00+01:00", submitted_at="2027-03-02T09:59:00+01:00", late_seconds=10 * 3600,
            late_policy=LatePolicy(grace_minutes=15, penalty_per_day=10, max_days_late=7))


# --- the graded batch ---------------------------------------------------------------------

@dataclasses.dataclass
class Graded:
    assignment: object
    results: dict[str, GradeResult]  # sample name ("correct", "stub", a bug, an attack, "unreadable", "late")
    pages: dict[str, str]  # sample name -> feedback page
    report: str


def _chosen_samples(assignment) -> list[samples.Sample]:
    buggy = catalogue(assignment.id, "buggy")
    spread = buggy[::max(1, len(buggy) // BUGGY_PER_ASSIGNMENT)][:BUGGY_PER_ASSIGNMENT]  # bugs of every function
    hostile = [s for s in catalogue(assignment.id, "hostile") if s.name in HOSTILE[assignment.id]]
    return [samples.correct(assignment.id), samples.stub(assignment), *spread, *hostile]


def _late_copy(result: GradeResult) -> GradeResult:
    """A result as the course's late policy leaves it, 10 hours past the due date (one day charged)."""
    return dataclasses.replace(result, submission=result.submission.replace(".ipynb", "-late.ipynb"),
                               late_penalty=round(result.score * 0.1, 4), **LATE)


def _grade(course, assignment_id: str, folder: Path) -> Graded:
    assignment = course.assignment(assignment_id)
    chosen = _chosen_samples(assignment)
    paths = [samples.build_notebook(assignment, s, folder / f"{s.kind}-{s.name}.ipynb") for s in chosen]
    unreadable = folder / "ilegible.ipynb"
    unreadable.write_bytes(b'{"cells": [')
    results = grade_batch(assignment, [*paths, unreadable], jobs=2)
    by_name = dict(zip([s.name for s in chosen] + ["unreadable"], results))
    by_name["late"] = _late_copy(next(r for r in by_name.values() if 0 < r.score < r.max_score))
    pages = {name: feedback_page(r, assignment, course.title) for name, r in by_name.items()}
    return Graded(assignment, by_name, pages, report_page(list(by_name.values()), assignment, course.title))


@pytest.fixture(scope="session")
def graded(course, tmp_path_factory) -> dict[str, Graded]:
    return {a: _grade(course, a, tmp_path_factory.mktemp(f"html-{a}")) for a in ASSIGNMENTS}


def _every_page(graded):
    """(label, html) of every page rendered from the batch."""
    for assignment_id, batch in graded.items():
        for name, text in batch.pages.items():
            yield f"{assignment_id}/{name}", text
        yield f"{assignment_id}/report", batch.report


# --- reading the HTML back ----------------------------------------------------------------

class Tables(HTMLParser):
    """The text of each body cell of each table with an id: {id: [[cell, ...], ...]}."""

    def __init__(self, text: str):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table = self._row = self._cell = None
        self._in_body = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id"):
            self._table = self.tables.setdefault(attrs["id"], [])
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._table is not None and self._in_body:
            self._row = []
            self._table.append(self._row)
        elif tag == "td" and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tbody":
            self._in_body, self._row = False, None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _label(result: GradeResult) -> str:
    return result.student or Path(result.submission).name


# --- feedback pages -----------------------------------------------------------------------

def test_feedback_page_shows_the_score_and_every_failed_test(graded):
    for assignment_id, batch in graded.items():
        for name, result in batch.results.items():
            page = batch.pages[name]
            assert f"{points(result.score)} / {points(result.max_score)}" in page, name
            assert esc(batch.assignment.title) in page
            unrun = unrun_functions(result)  # a function not there or not written: one line says why
            for function, why in unrun.items():
                assert f"<strong>{esc(function)}</strong>: {esc(why)}" in page, (name, function)
            for test in result.tests:
                if test.outcome == "broken_submission":  # one reason for all, checked below
                    continue
                if test.function in unrun:
                    assert f"<h3>{esc(test.name)}</h3>" not in page, (name, test.test_id)
                    continue
                assert esc(test.name) in page, (name, test.test_id)
                if test.outcome != "passed" and test.hint:
                    assert f"<strong>Pista:</strong> {esc(test.hint)}" in page, (name, test.test_id)
            assert html.escape(Path(result.submission).name) in page


def test_feedback_page_of_a_submission_that_could_not_be_loaded_says_why(graded):
    for batch in graded.values():
        result = batch.results["unreadable"]
        assert result.error_student
        assert esc(f"No se pudo calificar la entrega: {result.error_student}") in batch.pages["unreadable"]


def test_feedback_page_shows_the_late_penalty_and_the_final_score(graded):
    for batch in graded.values():
        result, page = batch.results["late"], batch.pages["late"]
        assert result.late_penalty > 0
        assert "Penalización por retraso" in page and f"−{points(result.late_penalty)}" in page
        assert f"Nota final</span><span class=\"value\">{points(result.final_score)} / " in page
        assert "Entregada: 2027-03-02 09:59 (UTC+01:00)" in page and "cuenta 1 día" in page
        assert "Penalización" not in batch.pages["correct"]


def test_feedback_page_leaves_out_instructor_only_fields(graded):
    for batch in graded.values():
        for name, result in batch.results.items():
            page = batch.pages[name]
            shown = [t.test_id for t in result.tests if t.test_id in page]
            shown += [t.instructor_note for t in result.tests if t.instructor_note and esc(t.instructor_note) in page]
            assert not shown, (name, shown[:3])


def test_no_hidden_suite_text_or_hidden_input_in_any_feedback_page(graded):
    for assignment_id, batch in graded.items():
        secrets = hidden_suite_secrets(assignment_id)
        hidden = hidden_inputs(assignment_id, published_text(assignment_id, batch.results["stub"]))
        assert len(secrets) >= 10 and len(hidden) >= 3, (secrets, hidden)  # so the checks below mean something
        for name, page in batch.pages.items():
            text = html.unescape(page)
            leaked = [line for line in secrets if line in text or esc(line) in page]
            leaked += leaked_inputs(hidden, text)
            assert not leaked, (assignment_id, name, leaked[:5])


def _hostile_result() -> GradeResult:
    """A result whose every text field is markup, as a student's exception message can be."""
    test = model.TestResult(test_id=f"test_{PAYLOAD}", name=f"encode: {PAYLOAD}", function=f"encode{PAYLOAD}",
                      score=0.0, max_score=10.0, outcome="raised", feedback=f"Tu función lanzó ValueError: {PAYLOAD}",
                      hint=f"Pista {PAYLOAD} & \"comillas\"", instructor_note=PAYLOAD)
    partial = dataclasses.replace(test, test_id="test_partial", outcome="partial", score=5.0)
    load = LoadSummary(notes=[PAYLOAD], failed_cells=[f"<celda 3>, línea 2: ValueError: {PAYLOAD}"],
                       skipped_cells=[f"<celda 4>: {PAYLOAD}"], missing_functions=[PAYLOAD])
    return GradeResult("bpe_bytes", f"/tmp/{PAYLOAD}.ipynb", [test, partial], load, 20.0, student=PAYLOAD,
                       error_instructor=PAYLOAD, submitted_at=PAYLOAD, due=PAYLOAD, late_penalty=1.0, late_seconds=99999.0)


def test_text_from_results_is_escaped(course, bpe_bytes):
    result = _hostile_result()
    for text in (feedback_page(result, bpe_bytes, PAYLOAD), report_page([result], bpe_bytes, PAYLOAD)):
        assert PAYLOAD not in text
        assert esc(PAYLOAD) in text
        assert "<script>alert" not in text and '"comillas"' not in text
    assert "<script" not in feedback_page(result, bpe_bytes, course.title)  # the student page runs no code at all


class Resources(HTMLParser):
    """What in a page's markup, style or script could make a browser fetch something.

    Text is not looked at: a student's exception message may quote a URL, and shown as text
    it fetches nothing (the browser test checks what is actually requested)."""

    FETCHING_TAGS = {"link", "img", "iframe", "object", "embed", "video", "audio", "source", "base", "frame"}
    URL_ATTRIBUTES = {"src", "href", "srcset", "data", "poster", "action", "xlink:href", "background"}

    def __init__(self, text: str):
        super().__init__()
        self.found: list[str] = []
        self.styles = 0
        self._in = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag in self.FETCHING_TAGS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name in self.URL_ATTRIBUTES and not (value or "").startswith(("data:", "#")):
                self.found.append(f"{tag} {name}={value}")
            if name == "style" and "url(" in (value or ""):
                self.found.append(f"{tag} style={value}")
        self.styles += tag == "style"
        self._in = tag if tag in ("style", "script") else None

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "style":
            self.found += [f"css {word}" for word in ("url(", "@import", "@font-face") if word in data]
        elif self._in == "script":
            self.found += [f"script {word}" for word in ("http:", "https:", "fetch(", "XMLHttpRequest", "import(")
                           if word in data]


def test_pages_are_self_contained(graded, bpe_bytes):
    pages = [*_every_page(graded), ("empty report", report_page([], bpe_bytes, "x"))]
    for label, page in pages:
        assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page, label
        resources = Resources(page)
        assert resources.found == [], (label, resources.found[:5])
        assert resources.styles == 1, label


# --- the report ---------------------------------------------------------------------------

def test_report_lists_every_submission_with_its_scores(graded):
    for batch in graded.values():
        rows = Tables(batch.report).tables["submissions"]
        results = list(batch.results.values())
        assert len(rows) == len(results)
        for row, result in zip(rows, results):
            assert row[0].startswith(_label(result))
            assert row[1:4] == [points(result.score), points(result.late_penalty), points(result.final_score)]


def test_report_summary_counts(graded):
    for batch in graded.values():
        results = list(batch.results.values())
        cards = dict(re.findall(r'<span class="label">([^<]+)</span><span class="value">([^<]+)</span>', batch.report))
        assert cards["Submissions"] == str(len(results))
        assert cards["Could not be loaded"] == "1"  # the unreadable file
        assert cards["Late"] == "1"
        assert cards["Full marks"] == str(sum(r.final_score == r.max_score for r in results))
        assert cards["Zero"] == str(sum(r.final_score == 0 for r in results))


def test_report_misconception_counts_match_the_results(graded):
    for batch in graded.values():
        expected = collections.Counter()
        for result in batch.results.values():
            partly_right = {name for name, (score, _) in result.by_function().items() if score > 0}
            expected.update({t.hint for t in result.tests if t.hint and not t.passed and t.outcome != "partial"
                                and t.function in partly_right})
        rows = Tables(batch.report).tables["misconceptions"]
        shown = {hint: int(count) for count, _, hint in rows}
        assert shown == dict(expected)
        assert [int(row[0]) for row in rows] == sorted((int(row[0]) for row in rows), reverse=True)
        assert max(expected.values()) >= 1 and len(expected) >= 5  # the buggy samples' misconceptions are there


def test_report_has_the_histogram_and_the_failure_bars(graded):
    for batch in graded.values():
        results = list(batch.results.values())
        histogram = re.search(r'<svg id="histogram".*?</svg>', batch.report, re.S).group(0)
        assert histogram.count('<rect class="bar"') == 10
        counts = [int(n) for n in re.findall(r"<title>\d+–\d+ %: (\d+) submissions?</title>", histogram)]
        assert sum(counts) == len(results)
        graded_ids = {t.test_id + t.name for r in results if not r.error_student for t in r.tests}
        rows = Tables(batch.report).tables["failure-rates"]
        assert sorted(row[0] for row in rows) == sorted(graded_ids)  # one bar per test: its id, then its title
        rates = [int(row[2].rstrip("%")) for row in rows]
        assert rates == sorted(rates, reverse=True) and rates[0] > 0
        section = batch.report.split('id="failure-rates"', 1)[1].split("</table>", 1)[0]
        assert section.count('<svg class="meter fail"') == len(graded_ids)


def test_report_lists_incidents_and_the_slowest_submissions(graded):
    batch = graded["bpe_bytes"]
    crashed = batch.results["os_exit"]
    assert incident_lines(crashed)
    assert all(esc(line) in batch.report for line in incident_lines(crashed))
    slowest = Tables(batch.report).tables["slowest"]
    assert len(slowest) == 10
    ranked = sorted(batch.results.values(), key=lambda r: -r.duration_seconds)
    assert slowest[0][0].startswith(_label(ranked[0]))


def test_report_of_no_submission_and_of_one(bpe_bytes, graded):
    empty = report_page([], bpe_bytes, "Tokens y embeddings")
    assert "No submissions" in empty and "0 submissions" in empty
    one = graded["bpe_bytes"].results["correct"]
    single = report_page([one], bpe_bytes, "Tokens y embeddings")
    assert "1 submission ·" in single and len(Tables(single).tables["submissions"]) == 1


# --- the report of a small class: stubs, a function not defined, a bug, a crash ----------------

MERGE_RENAMED = samples.Sample("merge_renamed", "buggy", "merge renamed, so not defined",
                               replace={"merge": "def fusionar(ids, pair, idx):\n    return list(ids)"})
INTERNAL_WORDS = re.compile(r"\b(gated|bad_return|broken_submission|grader_error)\b")  # no English word says these
SPANISH_WORDS = re.compile(r"\b(el|la|los|las|de|del|que|porque|se|omitió|proceso|murió|respuesta)\b")


@pytest.fixture(scope="module")
def small_class(fast_bpe_bytes, tmp_path_factory) -> dict[str, GradeResult]:
    """bpe_bytes graded for a class of six: the reference, two untouched stubs, one bug in merge,
    merge renamed (so not defined), and os_exit (crashes in get_stats and compression_ratio, stubs elsewhere)."""
    folder = tmp_path_factory.mktemp("small-class")
    buggy = next(s for s in catalogue("bpe_bytes", "buggy") if s.name == "merge_drops_tail")
    crash = next(s for s in catalogue("bpe_bytes", "hostile") if s.name == "os_exit")
    chosen = {"correct": samples.correct("bpe_bytes"), "stub": samples.stub(fast_bpe_bytes),
              "stub_again": samples.stub(fast_bpe_bytes), "merge_drops_tail": buggy,
              "merge_renamed": MERGE_RENAMED, "os_exit": crash}
    paths = [samples.build_notebook(fast_bpe_bytes, sample, folder / f"{name}.ipynb") for name, sample in chosen.items()]
    return dict(zip(chosen, grade_batch(fast_bpe_bytes, paths, jobs=2)))


def _words_of_the_instructor(text: str) -> str:
    """A report's English prose: the text of the page without the test titles shown to students."""
    text = re.sub(r'<span class="sub">.*?</span>', "", text)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def test_a_function_is_unimplemented_when_every_test_found_the_stub_or_nothing(small_class, fast_bpe_bytes):
    functions = set(fast_bpe_bytes.points)
    assert small_class["stub"].unimplemented_functions() == functions
    assert small_class["correct"].unimplemented_functions() == set()
    assert small_class["merge_drops_tail"].unimplemented_functions() == set()
    assert small_class["merge_renamed"].unimplemented_functions() == {"merge"}  # callers of merge fail, but are written
    assert small_class["os_exit"].unimplemented_functions() == functions - {"get_stats", "compression_ratio"}


def test_failure_rates_leave_out_the_functions_a_submission_did_not_implement(small_class, fast_bpe_bytes):
    results = list(small_class.values())
    report = report_page(results, fast_bpe_bytes, "Tokens y embeddings")
    tables = Tables(report).tables
    unimplemented = {row[0]: row[1:] for row in tables["unimplemented"]}
    assert list(unimplemented) == list(fast_bpe_bytes.points)
    assert unimplemented["merge"] == ["2 / 6", "3", "1"]  # the reference and the bug; two stubs and os_exit; renamed
    assert unimplemented["get_stats"] == ["4 / 6", "2", "0"]
    cells = {row[0]: row[1:3] for row in tables["failure-rates"]}  # a test's id, then its title
    rates = {t.test_id: cells[t.test_id + t.name] for t in small_class["correct"].tests}
    assert len(rates) == len(cells)
    assert rates["test_merge_keeps_the_tail"] == ["1 / 2", "50%"]  # was 5 / 6: the stubs swamped the one bug
    assert rates["test_merge_replaces_pair"] == ["0 / 2", "0%"]
    for test_id, (failed, _) in rates.items():
        function = next(t.function for t in small_class["correct"].tests if t.test_id == test_id)
        writers = [r for r in results if function not in r.unimplemented_functions()]
        expected = sum(not t.passed for r in writers for t in r.tests if t.test_id == test_id)
        assert failed == f"{expected} / {len(writers)}", test_id
    how = [row[3] for row in tables["failure-rates"]]
    assert not any(NOT_IMPLEMENTED in cell or OUTCOME_WORDS["missing"] in cell for cell in how)


def test_the_instructor_reads_plain_words_not_outcome_values(small_class, fast_bpe_bytes):
    results = list(small_class.values())
    words = set(OUTCOME_WORDS.values()) | {NOT_IMPLEMENTED}
    assert set(OUTCOME_WORDS) == set(model.Outcome) and len(words) == len(model.Outcome) + 1
    table = batch_table(results).splitlines()
    problems = [re.search(r"\d\.\ds  (.*)$", line).group(1) for line in table[2:-2]]  # after the seconds
    said = {part for cell in problems if cell for part in cell.split("; ")}
    assert said <= words and not said & {outcome.value for outcome in model.Outcome}, said
    assert "not implemented" in table[3] and "crashed its sandbox process" in table[-3]
    assert not INTERNAL_WORDS.search("\n".join(table))
    report = report_page(results, fast_bpe_bytes, "Tokens y embeddings")
    how = [row[3] for row in Tables(report).tables["failure-rates"] if row[3]]
    assert how and all(re.fullmatch(r"\d+ (.+)", part).group(1) in words for cell in how for part in cell.split("; "))
    assert not INTERNAL_WORDS.search(_words_of_the_instructor(report))


def test_an_incident_hitting_many_tests_is_one_line(small_class):
    crashed = small_class["os_exit"]
    lines = incident_lines(crashed)
    crash_tests = [t.test_id for t in crashed.tests if t.outcome == "crashed"]
    assert len(crash_tests) >= 5
    crash_lines = [line for line in lines if crash_tests[0] in line]
    assert len(crash_lines) == 1 and f"({len(crash_tests)} tests: " in crash_lines[0]
    assert len(lines) == 2  # the cell skipped while loading, then the crash once


def _repeated_words(line: str) -> set[str]:
    """Words of four letters or more said twice, outside the list of tests in parentheses."""
    said = re.findall(r"[a-z]{4,}", re.sub(r"\(\d+ tests?: .*\)$", "", line.lower()))
    return {word for word in said if said.count(word) > 1}


def test_incident_lines_do_not_say_the_outcome_twice():
    def hit(test_id, outcome, note):
        return model.TestResult(test_id=test_id, name="encode: x", function="encode", score=0.0, max_score=1.0,
                                outcome=outcome, instructor_note=note)
    result = GradeResult("bpe_bytes", "s.ipynb", [
        hit("test_a", "timeout", "call timed out"), hit("test_b", "timeout", "call timed out"),
        hit("test_c", "bad_return", "returned unsupported type numpy.matrix"),
        hit("test_d", "grader_error", "grader error: KeyError: 'x'"), hit("test_e", "timeout", "")], LoadSummary(), 5.0)
    lines = incident_lines(result)
    assert lines == ["call timed out (2 tests: test_a, test_b)",
                     "returned unsupported type numpy.matrix (1 test: test_c)",
                     "grader error: KeyError: 'x' (1 test: test_d)", "timed out (1 test: test_e)"]
    assert not any(_repeated_words(line) for line in lines)


def test_incident_lines_of_a_crash_are_english_and_say_it_once(small_class):
    lines = incident_lines(small_class["os_exit"])
    prose = [re.sub(r"<[^>]*>", "", line) for line in lines]  # a cell's name (<celda de merge>) is the student's
    assert not [line for line in prose if _repeated_words(line) or SPANISH_WORDS.search(line)], lines


# --- in a real browser --------------------------------------------------------------------

def _open(tab, name: str, text: str) -> Path:
    """Write a page to tests/artifacts/ (kept for a look after the run) and load it."""
    path = ARTIFACTS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    tab.navigate(path)
    return path


def _assert_clean(tab, path: Path) -> None:
    """No error of any kind, nothing fetched but the page itself, a real layout."""
    assert tab.errors() == []
    assert tab.dialogs() == []
    assert tab.requested_urls() == [path.resolve().as_uri()]
    assert tab.evaluate("document.body.getBoundingClientRect().height") > 200


def test_feedback_page_in_a_browser(graded, tab):
    batch = graded["bpe_bytes"]
    path = _open(tab, "feedback-bpe_bytes.html", batch.pages["late"])
    _assert_clean(tab, path)
    assert tab.evaluate("document.querySelectorAll('article.box.bad').length") >= 1
    tab.screenshot(ARTIFACTS / "feedback-bpe_bytes.png")
    tab.set_viewport(390, 844, mobile=True)  # a phone: nothing wider than the screen
    tab.navigate(path)
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    tab.screenshot(ARTIFACTS / "feedback-bpe_bytes-phone.png")


def test_markup_in_results_does_not_run_in_a_browser(bpe_bytes, tab):
    result = _hostile_result()
    path = _open(tab, "feedback-escaped.html", feedback_page(result, bpe_bytes, PAYLOAD))
    _assert_clean(tab, path)
    assert tab.evaluate("document.scripts.length") == 0
    assert PAYLOAD in tab.evaluate("document.body.innerText")  # shown as text, not run


def test_report_in_a_browser_sorts_on_click(graded, tab):
    batch = graded["embeddings"]
    path = _open(tab, "report-embeddings.html", batch.report)
    _assert_clean(tab, path)
    tab.screenshot(ARTIFACTS / "report-embeddings.png")
    column = """Array.from(document.querySelectorAll('#submissions tbody tr'))
                .map(row => Number(row.cells[3].dataset.sort))"""
    header = "document.querySelectorAll('#submissions thead th')[3]"
    finals = sorted(r.final_score for r in batch.results.values())
    tab.evaluate(f"{header}.click()")
    assert tab.evaluate(column) == finals
    assert tab.evaluate(f"{header}.getAttribute('aria-sort')") == "ascending"
    tab.evaluate(f"{header}.click()")
    assert tab.evaluate(column) == finals[::-1]
    tab.evaluate("document.querySelectorAll('#submissions thead th')[0].click()")
    names = "Array.from(document.querySelectorAll('#submissions tbody tr')).map(r => r.cells[0].dataset.sort)"
    assert tab.evaluate(f"(names => names.every((n, i) => i == 0 || names[i - 1].localeCompare(n) <= 0))({names})")
    assert len(tab.evaluate(names)) == len(batch.results)
    assert tab.errors() == []
    tab.set_viewport(390, 844, mobile=True)  # wide tables scroll inside their box, not the whole page
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_report_with_similar_submissions_in_a_browser(course, bpe_bytes, tab, tmp_path):
    """A flagged pair's functions side by side, the shared code marked, student ids and code as text;
    on a phone the two columns stack and long lines scroll inside their box."""
    from autograder.notebook.lesson import load_source_notebook
    from autograder.samples.disguise import disguised_copies
    from autograder.similarity import SimilarityRun
    from autograder.similarity.code import read_student_code, template_sources
    from autograder.similarity.compare import compare_class
    from autograder.similarity.report import similarity_document

    original = sorted((Path(bpe_bytes.solution_path).parent / "corpus").glob("*.py"))[0]
    copy = tmp_path / "copia.py"
    copy.write_text(disguised_copies(original.read_text(encoding="utf-8"), set(bpe_bytes.points))["all"] + f"\n# {PAYLOAD}\n")
    release, template = load_source_notebook(bpe_bytes), template_sources(bpe_bytes)
    codes = [read_student_code("ana", original, bpe_bytes, release, template),
             read_student_code(PAYLOAD, copy, bpe_bytes, release, template)]
    pairs = compare_class(codes, template, course.similarity_threshold)
    document = similarity_document(SimilarityRun(bpe_bytes.id, course.similarity_threshold, codes, [], pairs, 0.1))
    path = _open(tab, "report-similarity.html", report_page([], bpe_bytes, course.title, document))
    _assert_clean(tab, path)
    assert tab.evaluate("document.querySelectorAll('details.pair').length") == 1
    assert tab.evaluate("document.querySelectorAll('details.pair[open] .side-by-side').length") >= 4
    assert tab.evaluate("document.querySelectorAll('pre.code-block mark').length") >= 8
    assert PAYLOAD in tab.evaluate("document.querySelector('details.pair summary').innerText")
    assert tab.evaluate("document.scripts.length") == 1  # the report's own sorting script, nothing else
    tab.screenshot(ARTIFACTS / "report-similarity.png")
    tab.set_viewport(390, 844, mobile=True)
    tab.navigate(path)
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    tab.screenshot(ARTIFACTS / "report-similarity-phone.png")
