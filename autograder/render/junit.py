"""GradeResult -> JUnit XML, the test report format CI services read (GitLab, Jenkins, GitHub reporters).

The shape is the common denominator those readers agree on:

    <testsuites tests= failures= errors=>
      <testsuite name=STUDENT-OR-SUBMISSION tests= failures= errors= skipped= time=>
        <properties><property name="score" value=/>...</properties>
        <testcase classname="ASSIGNMENT.FUNCTION" name="SPANISH TEST NAME">
          <failure message="HINT" type="OUTCOME">Spanish text</failure>   (or <error>, or nothing)
        </testcase>

A failure is the student's (a wrong answer, an exception, a broken notebook); an error
is the grader's, never the student's fault. Only the safe, student-facing fields are
rendered (names, feedback, hints: the same text as results.json), never a test id or
an instructor note.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from autograder.grading.results import GradeResult, Outcome, TestResult
from autograder.render.student_text import overall_output, test_output
from autograder.render.safe_text import xml as xml_text  # forbidden XML characters dropped

MESSAGE_CHARS = 500  # a failure message is a one-line headline; the full text is the element's body


def _verdict(result: GradeResult, test: TestResult) -> str:
    """"passed", "failure" or "error" for one test case."""
    if test.passed:
        return "passed"
    if test.outcome is Outcome.GRADER_ERROR or result.lost_to_grader():
        return "error"
    return "failure"


def _message(test: TestResult) -> str:
    """The headline readers show next to a failed test: the hint, else the first line of the feedback."""
    first = test.hint or next((line for line in test.feedback.splitlines() if line.strip()), test.outcome)
    return first if len(first) <= MESSAGE_CHARS else first[:MESSAGE_CHARS - 1] + "…"


def _element(parent: ET.Element, tag: str, text: str = "", **attributes: str) -> ET.Element:
    """A child element whose text and attributes are stripped of forbidden characters (ElementTree escapes the rest)."""
    element = ET.SubElement(parent, tag, {key: xml_text(str(value)) for key, value in attributes.items()})
    if text:
        element.text = xml_text(text)
    return element


def _testcase(suite: ET.Element, result: GradeResult, test: TestResult) -> str:
    """Add one <testcase>; returns its verdict, for the suite's counts."""
    case = _element(suite, "testcase", classname=f"{result.assignment}.{test.function}", name=test.name)
    verdict = _verdict(result, test)
    if verdict != "passed":
        _element(case, verdict, test_output(test), message=_message(test), type=test.outcome)
    return verdict


def _testsuite(root: ET.Element, result: GradeResult) -> dict[str, int]:
    """Add one <testsuite> per submission; returns its counts for the <testsuites> totals."""
    suite = _element(root, "testsuite", name=result.student or result.submission)
    properties = _element(suite, "properties")
    for name, value in (("score", result.score), ("max_score", result.max_score),
                        ("late_penalty", result.late_penalty), ("final_score", result.final_score)):
        _element(properties, "property", name=name, value=f"{value:g}")
    verdicts = [_testcase(suite, result, test) for test in result.tests]
    counts = {"tests": len(verdicts), "failures": verdicts.count("failure"), "errors": verdicts.count("error")}
    suite.attrib.update({key: str(value) for key, value in counts.items()},
                        skipped="0", time=f"{result.duration_seconds:.3f}")
    if overall_output(result):
        _element(suite, "system-out", overall_output(result))  # load notes: failed cells, missing functions
    return counts


def junit_xml(results: list[GradeResult]) -> str:
    """One <testsuite> per submission, one <testcase> per graded test, as a complete XML document."""
    root = ET.Element("testsuites", name=results[0].assignment if results else "autograder")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for result in results:
        for key, value in _testsuite(root, result).items():
            totals[key] += value
    root.attrib.update({key: str(value) for key, value in totals.items()},
                       time=f"{sum(r.duration_seconds for r in results):.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
