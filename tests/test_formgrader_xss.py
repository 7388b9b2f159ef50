"""No student content runs in the instructor's browser when formgrader shows an autograded notebook.

formgrader renders ``autograded/STUDENT/ASSIGNMENT/NOTEBOOK.ipynb`` with nbconvert's
HTMLExporter (template ``formgrade``) and serves it from the instructor's Jupyter origin.
One class is graded here: a student whose saved notebook carries every payload of
autograder/samples/xss.py (the hostile sample ``formgrader_xss``), and one whose folder
holds two notebooks, one of them named as an HTML payload (the grader's note quotes it).
Their autograded notebooks are checked as JSON, then rendered exactly as formgrader does
and opened in headless Chromium: no payload may run, and none may be left in the page.
"""

from __future__ import annotations

import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

from autograder import samples
from autograder.classroom.inert import MARKDOWN_TAGS, inert_markdown
from autograder.classroom.pipeline import grade_class
from autograder.release import release_assignment
from autograder.samples import xss

from course_content import catalogue

ON_TIME = "2027-03-01 20:00:00.000000 UTC"
NAMED_FILE = f'<img id="xss-file_name" src=x onerror="{xss.js("file_name")}">.ipynb'
INERT_OUTPUT_MIME = {"text/plain", "image/png", "image/jpeg"}


@pytest.fixture(scope="module")
def autograded(tmp_path_factory, course, fast_bpe_bytes) -> dict[str, Path]:
    """{student: autograded notebook} of a class of two hostile students."""
    course_dir = tmp_path_factory.mktemp("xss") / "course"
    assignment = fast_bpe_bytes
    release_assignment(course, assignment, course_dir)
    sample = next(s for s in catalogue("bpe_bytes", "hostile") if s.name == "formgrader_xss")
    folders = {student: course_dir / "submitted" / student / assignment.id for student in ("xavi", "yago")}
    samples.build_notebook(assignment, sample, folders["xavi"] / "bpe_bytes.ipynb")
    samples.build_notebook(assignment, sample, folders["yago"] / "entrega.ipynb")
    (folders["yago"] / NAMED_FILE).write_bytes((folders["yago"] / "entrega.ipynb").read_bytes())
    for folder in folders.values():
        (folder / "timestamp.txt").write_text(ON_TIME + "\n")
    run = grade_class(course, assignment, course_dir, jobs=1)
    assert {r.student: r.final_score for r in run.results} == {"xavi": 0, "yago": 0}
    return {student: course_dir / "autograded" / student / "bpe_bytes" / "bpe_bytes.ipynb" for student in folders}


def formgrader_html(path: Path) -> str:
    """The page formgrader serves for one submission (formgrader.py: build_extra_config, handlers.py:
    SubmissionHandler): HTMLExporter with nbgrader's ``formgrade`` template, the same resources."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config

    config = Config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    resources = {"assignment_id": "bpe_bytes", "notebook_id": "bpe_bytes", "submission_id": "0" * 32,
                 "index": 0, "total": 2, "base_url": "", "student": path.parent.parent.name,
                 "last_name": None, "first_name": None, "notebook_path": "autograded/bpe_bytes.ipynb"}
    html, _ = HTMLExporter(config=config).from_filename(str(path), resources=resources)
    return html


# --- the notebook as JSON -----------------------------------------------------------------

# In what markdown turns into HTML: a tag that can carry an attribute or run, a scheme that runs.
# (Stream, error and text/plain outputs are always escaped by nbconvert: they may quote anything.)
ACTIVE = ("<script", "<img", "<iframe", "<svg", "<object", "<embed", "<form", "<style", "<details", "<input",
          "<a ", "javascript:", "vbscript:", "&#")


def test_the_autograded_notebook_keeps_no_active_content(autograded, course_release):
    locked = {c.metadata["nbgrader"]["grade_id"]: c.source for c in course_release.cells
              if c.metadata.get("nbgrader", {}).get("locked")}
    for student, path in autograded.items():
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        assert "widgets" not in notebook.metadata and "title" not in notebook.metadata
        for cell in notebook.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in locked and cell.source == locked[grade_id]:
                continue  # the instructor's own cell, as released (a check cell shows our feedback)
            text = (cell.source + json.dumps(cell.get("attachments", {}))).lower()
            assert not [a for a in ACTIVE if a in text], (student, cell)
            assert set(cell.metadata) <= {"nbgrader"}, (student, cell.metadata)
            assert cell.get("execution_count") is None or isinstance(cell.execution_count, int)
            for output in cell.get("outputs", []):
                assert output.output_type in ("stream", "error", "display_data", "execute_result"), output
                assert set(output.get("data", {})) <= INERT_OUTPUT_MIME, output
                assert not output.get("metadata"), output
                assert all(isinstance(v, str) for v in output.get("data", {}).values()), output
            for attachment in cell.get("attachments", {}).values():
                assert set(attachment) <= {"image/png", "image/jpeg"}
    xavi = nbformat.read(autograded["xavi"], as_version=4)
    shown = json.dumps(xavi.cells)
    assert "salida text/html retirada por seguridad" in shown  # the instructor is told what was dropped
    assert xss.HONEST_PNG in shown  # an honest plot survives


@pytest.fixture(scope="module")
def course_release(autograded) -> nbformat.NotebookNode:
    course_dir = next(iter(autograded.values())).parents[3]
    return nbformat.read(course_dir / "release" / "bpe_bytes" / "bpe_bytes.ipynb", as_version=4)


def test_no_student_cell_passes_for_a_locked_release_cell(autograded, course_release):
    released = {c.metadata["nbgrader"]["grade_id"]: c for c in course_release.cells if "nbgrader" in c.metadata}
    notebook = nbformat.read(autograded["xavi"], as_version=4)
    grade_ids = [c.metadata["nbgrader"]["grade_id"] for c in notebook.cells if "nbgrader" in c.metadata]
    assert len(grade_ids) == len(set(grade_ids))  # a borrowed grade id is kept once
    assert set(grade_ids) <= set(released)  # a grade id of the student's own is dropped
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id and released[grade_id].metadata["nbgrader"].get("locked"):
            assert cell.source == released[grade_id].source


# --- student markdown, as nbconvert renders it ------------------------------------------

MARKDOWN_ATTACKS = [  # rendered by mistune as nbconvert configures it; most are live without inert_markdown
    '<a href="javascript:x">a</a>', "<b onclick=x>a</b>", "<b\nonclick=x>", "<b/onclick=x>", "<!-- x --><script>x</script>",
    "<![CDATA[<script>x</script>]]>", "[a](javascript:x)", "[a](javascript\\:x)", "[a]( JavaScript:x)",
    "[a](<javascript:x>)", "[a](java\tscript:x)", "[a](\x01javascript:x)", "[a](j\x00avascript:x)",
    "[a](&#106;avascript:x)", "[a](&amp;#106;avascript:x)", "[a](&#38;#106;x)", "[a](\\&#106;avascript:x)",
    "[a](&#x6A;avascript:x)", "[a](&#106avascript:x)", "[a](&jopf;avascript:x)", "[a](java&Tab;script:x)",
    "[a](javascript&colon;x)", "[a][r]\n\n[r]: &amp;#106;avascript:x", "![a](&amp;#106;avascript:x)",
    "[a](vbscript:x)", "[a](data:text/html,<script>x</script>)", '![i](x" onerror="y)', "$\\href{javascript:x}{a}$",
]


class _Rendered(HTMLParser):
    """What in rendered markdown could run: a tag off the list, a handler or style, a script scheme."""

    def __init__(self, text: str):
        super().__init__()
        self.live: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag not in MARKDOWN_TAGS | {"a", "img"}:
            self.live.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on") or name in ("style", "srcdoc", "formaction", "action"):
                self.live.append(f"{tag} {name}")
            if name in ("href", "src") and value:
                url = re.sub(r"[\t\n\r]", "", value).lstrip("".join(map(chr, range(33))))
                scheme = re.match(r"([a-zA-Z][a-zA-Z0-9+.-]*):", url)
                if scheme and scheme.group(1).lower() not in ("http", "https", "mailto"):
                    self.live.append(f"{name}={value}")


@pytest.mark.parametrize("source", MARKDOWN_ATTACKS)
def test_student_markdown_renders_without_active_content(source):
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    assert _Rendered(markdown2html_mistune(inert_markdown(source))).live == []


def test_ordinary_markdown_is_kept():
    source = "# Respuesta\n\n**BPE** une el par más frecuente: *a* + *b* → `ab`, x<sub>2</sub><br>\n\n" \
             "- uno\n- dos\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n$O(n^2)$ y [la guía](https://example.org/a?b=1&c=2)"
    assert inert_markdown(source) == source


# --- the page formgrader serves, in a browser ---------------------------------------------

PROBE = """(() => {
  const found = [];
  for (const element of document.querySelectorAll('*')) {
    const id = element.id || '';
    if (id.startsWith('xss-') && !['SPAN', 'P', 'DIV', 'PRE', 'CODE', 'TEXT'].includes(element.tagName.toUpperCase()))
      found.push('element ' + element.tagName + '#' + id);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase(), value = attribute.value;
      if (name.startsWith('on') && value.includes('__xss')) found.push('handler ' + name + ' on ' + element.tagName);
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data'].includes(name)) {
        const url = new URL(value, document.baseURI);  // the scheme as the browser reads it
        if (['javascript:', 'vbscript:'].includes(url.protocol)
            || (url.protocol === 'data:' && !/^data:image\\/(png|jpeg);/.test(url.href)))
          found.push(name + '=' + value.slice(0, 60));
      }
      if (name === 'srcdoc') found.push('srcdoc on ' + element.tagName);
    }
  }
  for (const tag of ['iframe', 'object', 'embed', 'form', 'svg', 'details'])
    for (const element of document.querySelectorAll(tag)) found.push('tag ' + tag + '#' + element.id);
  for (const script of document.scripts)
    if (script.text.includes('__xss')) found.push('script ' + script.text.slice(0, 60));
  if (getComputedStyle(document.body).getPropertyValue('--xss-md-style')) found.push('student style applied');
  return {ran: window.__xss || [], left: found, title: document.title};
})()"""


@pytest.mark.parametrize("student", ["xavi", "yago"])
def test_formgrader_page_runs_no_payload(autograded, tab, tmp_path, student):
    page = tmp_path / f"{student}.html"
    page.write_text(formgrader_html(autograded[student]), encoding="utf-8")
    tab.send("Network.setBlockedURLs", urls=["http://*", "https://*"])  # the template's CDN scripts: offline
    tab.navigate(page)
    time.sleep(0.5)  # image errors and toggles fire after load
    seen = tab.evaluate(PROBE)
    assert seen["ran"] == [], f"payloads that ran: {seen['ran']}"
    assert seen["left"] == [], f"active content left in the page: {seen['left']}"
    assert "xss" not in seen["title"]
    assert tab.dialogs() == []
