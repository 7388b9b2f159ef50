"""The reports a CI service reads: a JUnit XML file and a Markdown job summary (docs/ci.md)."""

from __future__ import annotations

from pathlib import Path

from autograder.files import write_atomically
from autograder.render.junit import junit_xml
from autograder.render.markdown import GITHUB_SUMMARY_LIMIT, append_job_summary


def write_ci_reports(results, junit: Path | None, summary: Path | None) -> list[str]:
    """Write the JUnit report to `junit` and append the job summary to `summary` (each when given);
    returns one line per file for the instructor's terminal."""
    lines = []
    if junit:
        write_atomically(junit, junit_xml(results))
        lines.append(f"JUnit report written to {junit}")
    if summary:
        written = append_job_summary(summary, results)
        lines.append(f"summary appended to {summary} ({written} bytes)" if written else
                     f"warning: no room left in {summary} under GitHub's {GITHUB_SUMMARY_LIMIT}-byte limit; "
                     f"no summary added")
    return lines
