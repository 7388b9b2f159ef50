"""The reports a CI service reads: a JUnit XML file and a Markdown job summary (docs/ci.md)."""

from __future__ import annotations

from pathlib import Path

from autograder.files import write_atomically
from autograder.render.junit import junit_xml
from autograder.render.markdown import GITHUB_SUMMARY_LIMIT, append_job_summary


def write_ci_reports(results, junit: Path | None, summary: Path | None, spanish: bool = False) -> list[str]:
    """Write the JUnit report to `junit` and append the job summary to `summary` (each when given);
    returns one line per file for the terminal: the instructor's (English) or a student's (`spanish`)."""
    lines = []
    if junit:
        write_atomically(junit, junit_xml(results))
        lines.append(f"informe JUnit guardado en {junit}" if spanish else f"JUnit report written to {junit}")
    if summary:
        written = append_job_summary(summary, results)
        if spanish:
            lines.append(f"resumen añadido a {summary} ({written} bytes)" if written else
                         f"aviso: no queda sitio en {summary} bajo el límite de {GITHUB_SUMMARY_LIMIT} bytes de "
                         f"GitHub; no se añadió el resumen")
        else:
            lines.append(f"summary appended to {summary} ({written} bytes)" if written else
                         f"warning: no room left in {summary} under GitHub's {GITHUB_SUMMARY_LIMIT}-byte limit; "
                         f"no summary added")
    return lines
