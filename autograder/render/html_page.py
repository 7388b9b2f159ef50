"""The one HTML page scaffold shared by the student feedback pages and the instructor report.

Pages are single self-contained files: one inline stylesheet, no link, no web font, no
remote script or image. They are mailed, uploaded to an LMS and opened offline, so a page
that fetched anything would break (or tell a third party who read it).
"""

from __future__ import annotations

from pathlib import Path

from autograder.render.safe_text import html_text

CSS = """
:root { --ink: #1d2433; --muted: #5b6475; --line: #d9dee7; --soft: #f4f6fa; --accent: #2f5fb3;
        --ok: #1f7a4d; --bad: #b3261e; --warn: #8a5a00; --warn-soft: #fff4d6; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.5;
       font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
header.page { border-bottom: 3px solid var(--accent); margin-bottom: 1.5rem; padding-bottom: .75rem; }
.eyebrow { color: var(--muted); font-size: .9rem; margin: 0; text-transform: uppercase; letter-spacing: .04em; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .2rem 0 .4rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 0 0 .4rem; overflow-wrap: anywhere; }
p { margin: .4rem 0; }
.sub { color: var(--muted); font-size: .85rem; }
.meta { color: var(--muted); margin: 0; overflow-wrap: anywhere; }
.note { color: var(--muted); font-size: .9rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: .6rem; margin: 1rem 0; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: .6rem .8rem; background: var(--soft); }
.card .label { display: block; color: var(--muted); font-size: .85rem; }
.card .value { display: block; font-size: 1.5rem; font-weight: 650; font-variant-numeric: tabular-nums;
               white-space: nowrap; }
.card.final { background: var(--accent); border-color: var(--accent); color: #fff; }
.card.final .label { color: #dbe5f7; }
.card.penalty { background: var(--warn-soft); border-color: #f0d48a; }
.table-wrap { overflow-x: auto; margin: .5rem 0; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.code, span.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem;
                     overflow-wrap: break-word; }
td.bar { width: 30%; min-width: 6rem; }
svg.meter { display: block; width: 100%; height: .8rem; background: var(--soft); border-radius: 3px; }
svg.meter rect { fill: var(--accent); }
svg.meter.fail rect { fill: var(--bad); }
.mark-ok { color: var(--ok); font-weight: 700; }
.mark-bad { color: var(--bad); font-weight: 700; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0;
        font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .88rem; }
.box { border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 6px;
       padding: .6rem .8rem; margin: .6rem 0; background: #fff; break-inside: avoid; }
.box.bad { border-left-color: var(--bad); }
.box.hint { border-left-color: var(--warn); background: #fffdf6; }
.box .pista { margin: .4rem 0 0; overflow-wrap: anywhere; }
.box.load, .box.late { border-left-color: var(--warn); background: var(--warn-soft); }
ul.compact { columns: 2 18rem; column-gap: 2rem; list-style: none; padding-left: 0; margin: .4rem 0;
             font-size: .92rem; }
ul.compact li { break-inside: avoid; padding-left: 1.2em; text-indent: -1.2em; }
ul.compact.sentences { columns: 1; font-size: 1rem; }  /* a reason per line: read, not scanned */
ul.compact.sentences li { margin: .25rem 0; }
ul.lines { margin: .3rem 0; padding-left: 1.2rem; }
figure.chart { margin: .5rem 0 1rem; }
figure.chart svg { display: block; width: 100%; max-width: 720px; height: auto; }
figure.chart figcaption { color: var(--muted); font-size: .9rem; }
svg .bar { fill: var(--accent); }
svg .axis { stroke: var(--muted); stroke-width: 1; }
svg text { fill: var(--ink); font: 12px system-ui, sans-serif; }
svg text.small { fill: var(--muted); font-size: 11px; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \\2195"; color: var(--muted); font-size: .8em; }
table.sortable th[aria-sort="ascending"]::after { content: " \\2191"; color: var(--ink); }
table.sortable th[aria-sort="descending"]::after { content: " \\2193"; color: var(--ink); }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .85rem; }
details.pair { border: 1px solid var(--line); border-left: 4px solid var(--warn); border-radius: 6px;
               padding: .5rem .8rem; margin: .6rem 0; }
details.pair summary { cursor: pointer; }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
.side-by-side figure { margin: 0; min-width: 0; }
.side-by-side figcaption { font-weight: 600; margin-bottom: .2rem; }
pre.code-block { margin: 0; padding: .5rem; background: var(--soft); border-radius: 4px; overflow-x: auto;
                 font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .82rem; }
pre.code-block mark { background: #fde9b8; color: inherit; }
@media (max-width: 600px) {
  .side-by-side { grid-template-columns: 1fr; }
  body { font-size: 15px; }
  main { padding: 1rem .75rem 2rem; }
  h1 { font-size: 1.35rem; }
  .cards { grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); }
  .card .value { font-size: 1.2rem; }
  th, td { padding: .35rem .4rem; }
  td.bar { display: none; }
  th.bar { display: none; }
}
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  .card.final { color: var(--ink); background: #fff; }
  .card.final .label { color: var(--muted); }
  h2 { break-after: avoid; }
  tr, .box, figure.chart { break-inside: avoid; }
  svg, .card { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  table.sortable th::after { content: ""; }
}
"""


def esc(value) -> str:
    """Every piece of text from a result goes through here: feedback quotes the student's own
    exception messages, and a name like '<script>' must print, not run (safe_text.html_text)."""
    return html_text(value)


def page(title: str, body: str, lang: str, script: str = "") -> str:
    """A complete HTML5 document around `body` (already escaped HTML), with the shared CSS.

    `script` is trusted page code written by this package (never result text), inlined so the
    page keeps working offline."""
    tail = f"<script>\n{script}\n</script>\n" if script else ""
    return (f'<!DOCTYPE html>\n<html lang="{esc(lang)}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n"
            f"<body>\n<main>\n{body}\n</main>\n{tail}</body>\n</html>\n")


def meter(fraction: float, kind: str = "") -> str:
    """A horizontal bar for a table cell, drawn in SVG so it prints and needs no script."""
    width = round(100 * min(1.0, max(0.0, fraction)), 1)
    css = f"meter {kind}".strip()
    return (f'<svg class="{esc(css)}" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">'
            f'<rect width="{width}" height="10"/></svg>')


def points(value: float) -> str:
    """Points with two decimals, as the terminal report shows them; whole numbers without '.00'."""
    return f"{value:.2f}".removesuffix(".00")


def submission_label(result) -> str:
    """How a page names a submission: the nbgrader student id, else the submitted file's name."""
    return result.student or Path(result.submission).name


def card(label: str, value: str, kind: str = "") -> str:
    """One headline number (a score, a count) with its label."""
    css = f"card {kind}".strip()
    return (f'<div class="{css}"><span class="label">{esc(label)}</span>'
            f'<span class="value">{esc(value)}</span></div>')


def table(table_id: str, headers: list[tuple[str, str]], rows: list[str], sortable: bool = False) -> str:
    """A table (rows already HTML) in a box that scrolls sideways on a phone instead of the page.

    `headers` are (text, css class); the class also goes to the column's cells by hand."""
    head = "".join(f'<th class="{css}">{esc(text)}</th>' if css else f"<th>{esc(text)}</th>" for text, css in headers)
    sort = ' class="sortable"' if sortable else ""
    return (f'<div class="table-wrap"><table id="{esc(table_id)}"{sort}><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')
