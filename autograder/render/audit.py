"""AuditReport -> Markdown (stdout, CI logs) and a self-contained HTML page for instructors (English).

Both are rendered from the same AssignmentAudit objects (autograder/audit/run.py)."""

from __future__ import annotations

from autograder.render.html_page import card, esc, page, table
from autograder.render.report_html import SORT_SCRIPT

SECTIONS = {
    "corpus": "Correct implementations (must get full marks)",
    "catalogue": "Catalogue of wrong implementations (each caught by its tests, its hint shown first)",
    "mutant": "Mutants of the reference made by mutmut (each must lose points, unless equivalent)",
    "lookup": "A lookup table of the lesson's published examples (earns no more than those tests)",
    "clause": "The lesson's rules (each pinned by tests, and broken alone by a wrong implementation that they catch)",
    "domain": "Calls of the hidden suite outside the inputs the lesson defines (none allowed)",
}


def _percent(value) -> str:
    return "—" if value is None else f"{value:.1%}"


def summary_row(audit) -> dict[str, str]:
    corpus, catalogue = audit.section("corpus"), audit.section("catalogue")
    mutants = audit.section("mutant")
    equivalent = sum(bool(c.equivalent) for c in mutants)
    survivors = sum(not c.ok and not c.equivalent for c in mutants)
    lookup = audit.section("lookup")
    rows = [c for c in audit.section("clause") if c.name != "(matrix)"]
    domain = audit.section("domain")

    def passed(checks) -> str:
        return f"{sum(c.ok for c in checks)}/{len(checks)}" if checks else "not run"

    return {
        "assignment": audit.assignment,
        "corpus": passed(corpus),
        "catalogue": passed(catalogue),
        "mutation score": _percent(audit.mutation_score),
        "mutants": (f"{audit.mutants_graded} of {audit.mutants_generated}; {equivalent} equivalent; "
                    f"{survivors} survived" if audit.mutants_generated else "not run"),
        "lookup table": (f"{lookup[0].score:.2f} (published tests {audit.lookup_published_points:.2f})"
                         if lookup else "—"),
        "clauses pinned": f"{sum(c.ok for c in rows)}/{len(rows)}" if audit.section("clause") else "not run",
        "calls outside the domain": f"{sum(int(c.score) for c in domain)}" if domain else "not run",
        "verdict": "OK" if audit.ok else "NEEDS WORK",
        "time": f"{audit.seconds:.0f} s",
    }


def _problems(audit) -> list:
    return [c for c in audit.checks if not c.ok and not c.equivalent]


def markdown(audits) -> str:
    rows = [summary_row(a) for a in audits]
    headers = list(rows[0]) if rows else []
    lines = ["# Suite-accuracy audit", "", "| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row[h] for h in headers) + " |" for row in rows]
    for audit in audits:
        problems = _problems(audit)
        equivalent = [c for c in audit.section("mutant") if c.equivalent]
        if not problems and not equivalent:
            continue
        lines += ["", f"## {audit.assignment}"]
        for check in problems:
            lines.append(f"- ❌ {check.section} `{check.name}` ({check.form}, {check.suite}): "
                         f"{_measure(check)} — {check.detail}")
        for check in equivalent:
            lines.append(f"- ≡ equivalent `{check.name}`: {check.detail.split('; ')[0]} — {check.equivalent}")
    for audit in audits:
        matrix = [c for c in audit.section("clause") if c.name != "(matrix)"]
        if matrix:
            lines += ["", f"## {audit.assignment}: clause matrix", "", "| | clause | the lesson's rule | pinned and broken |",
                      "|---|---|---|---|"]
            lines += [f"| {'✓' if c.ok else '❌'} | `{c.name}` | {c.hint_shown} | {c.detail} |" for c in matrix]
    return "\n".join(lines) + "\n"


def html(audits) -> str:
    rows = [summary_row(a) for a in audits]
    cards = "".join(card(row["assignment"], row["verdict"], "" if a.ok else "penalty") for row, a in zip(rows, audits))
    headers = [(h, "") for h in (rows[0] if rows else [])]
    body = [f"<h1>Suite-accuracy audit</h1><div class=\"cards\">{cards}</div>",
            "<p class=\"note\">Every correct implementation must get full marks; every wrong one must lose points "
            "with its misconception's hint; a table of the lesson's examples must earn no more than those "
            "tests are worth.</p>",
            table("audit-summary", headers, ["<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row.values()) + "</tr>"
                                             for row in rows])]
    for audit in audits:
        body.append(f"<h2 id=\"{esc(audit.assignment)}\">{esc(audit.assignment)}: {esc(audit.title)}</h2>")
        for section, title in SECTIONS.items():
            # Problems first: an instructor reads the page to find what to fix.
            checks = sorted(audit.section(section), key=lambda c: bool(c.ok or c.equivalent))
            if not checks:
                continue
            body.append(f"<h3>{esc(title)}</h3>")
            trs = [f"<tr><td>{_mark(c)}</td><td class=\"code\">{esc(c.name)}</td>"
                   f"<td>{esc(c.form)} · {esc(c.suite)}</td><td class=\"num\">{esc(_measure(c))}</td>"
                   f"<td>{esc(c.equivalent or c.detail)}</td><td>{esc(c.hint_shown)}</td></tr>" for c in checks]
            body.append(table(f"{audit.assignment}-{section}", [("", ""), ("Name", ""), ("Form", ""),
                                                               ("Score", "num"), ("Detail", ""),
                                                               ("First hint shown", "")], trs, sortable=True))
    return page("Suite-accuracy audit", "\n".join(body), "en", script=SORT_SCRIPT)


def _measure(check) -> str:
    """A check's figure: a score for what was graded; a count for the clause matrix and the domain."""
    if check.section == "clause":
        return f"{check.score:g} tests"
    if check.section == "domain":
        return f"{check.score:g} calls"
    return f"{check.score:.2f} / {check.max_score:g}"


def _mark(check) -> str:
    if check.equivalent:
        return '<span aria-label="equivalent">≡</span>'
    if check.ok:
        return '<span class="mark-ok" aria-label="as expected">✓</span>'
    return '<span class="mark-bad" aria-label="problem">✗</span>'
