"""Student-controlled text, made safe for the medium it is written to: one function per medium.

A student controls every byte of their submission, so every string derived from it (exception
messages, cell sources, what a cell printed, function names and signatures the worker reports,
file names, and the ids and display names of an LMS download) can carry bytes that mean
something to whatever displays it. The results model keeps these strings raw, as data; each
renderer neutralises them here, once, at the output boundary, for its medium:

    terminal(text)          a terminal: control characters, ESC sequences, CR, bidi overrides
    ci_log(text)            stdout/stderr that a CI service may parse: terminal() plus GitHub
                            workflow commands (`::cmd::`, legacy `##[cmd]`) and GitLab sections
    workflow_data(text)     the message of a GitHub workflow command (`::error ...::DATA`)
    workflow_property(text) a property of one (`::error title=PROPERTY::...`)
    github_stop_commands    ci_log'd text wrapped so that GitHub runs no command in it at all
    markdown_line(line)     one line of GitHub-flavoured Markdown (the job summary)
    xml(text)               text or an attribute of an XML document (JUnit)
    html_text(text)         text or an attribute of an HTML page (feedback pages, report)
    csv_cell(text)          a text cell of a CSV file a spreadsheet will open (grades.csv)

Harmless text (printable characters, newlines and tabs, no markup) comes back unchanged from
terminal() and ci_log(); tests/test_safe_text.py pins each medium's promise.
"""

from __future__ import annotations

import html
import re
import secrets

# --- terminals ---------------------------------------------------------------------------------

# Trojan Source (CVE-2021-42574): these reorder what follows them on display.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _visible(char: str) -> str:
    """A visible stand-in for a character a terminal would obey: C0 controls as their Unicode
    control pictures (ESC is ␛, so an escape sequence shows as text and does nothing), the rest
    (DEL, C1 controls, bidi controls, line separators, lone surrogates) as a Python escape."""
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7f:
        return "\u2421"
    return f"\\x{code:02x}" if code <= 0xff else f"\\u{code:04x}"


def _needs_escape(char: str) -> bool:
    code = ord(char)
    return ((code < 0x20 and char not in "\n\t") or 0x7f <= code <= 0x9f or char in BIDI_CONTROLS
            or char in "\u2028\u2029" or 0xd800 <= code <= 0xdfff)


_TERMINAL = {code: _visible(chr(code)) for code in
             [*range(0x20), *range(0x7f, 0xa0), *map(ord, BIDI_CONTROLS), 0x2028, 0x2029]
             if _needs_escape(chr(code))}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _controls_visible(text: str, table: dict = _TERMINAL) -> str:
    return _SURROGATE.sub(lambda m: _visible(m.group()), text.translate(table))


def terminal(text) -> str:
    """`text` as a terminal may show it: only newline and tab of the control characters stay.

    ESC (and so every ANSI/VT sequence: clearing the screen, moving the cursor, OSC 8 links,
    window titles), CR (which would let a line overwrite the one before), backspace, the other
    C0 and C1 controls, DEL and the bidi overrides and isolates become visible stand-ins ("␛",
    "␍", "\\u202e"), so a student's text can neither redraw the screen nor reorder what it shows.
    A CRLF pair is a plain newline. Lone surrogates, which would make print() raise, are escaped.
    """
    return _controls_visible(str(text).replace("\r\n", "\n"))


_DATA = {code: char for code, char in _TERMINAL.items() if code != ord("\r")}


# --- CI logs -------------------------------------------------------------------------------------

# A line the GitHub runner would run as a workflow command: `::cmd::` after leading whitespace
# (the runner TrimStart()s), and a GitLab section marker (inert without its CR and ESC, which
# terminal() already shows as text; escaped anyway so the log reads unambiguously).
_COMMAND_LINE = re.compile(r"^[\s\u180e\u200b\ufeff]*(::|section_start:|section_end:)", re.IGNORECASE)


def ci_log(text) -> str:
    """`text` for stdout or stderr, which a CI service may read as commands: terminal(), then

    - a line that would start with `::` (after leading whitespace) gets a leading backslash:
      GitHub Actions runs any such line as a workflow command (`::add-mask::`, `::error::`,
      `::stop-commands::`, ...), whatever step printed it;
    - `##[` anywhere in a line becomes `##\\[`: the runner still accepts the legacy
      `##[command]` form anywhere in a line, `##[stop-commands]` included;
    - a line that would start a GitLab collapsible section (`section_start:`) gets the backslash too.

    Used for every line the CLI prints, in CI mode or not: `--no-ci` inside a GitHub job is still
    parsed by the runner. The grader's own annotations are built with workflow_data() and
    workflow_property() and printed apart, never through here."""
    lines = terminal(text).replace("##[", "##\\[").split("\n")
    return "\n".join("\\" + line if _COMMAND_LINE.match(line) else line for line in lines)


def workflow_data(text) -> str:
    """The message of a GitHub workflow command, escaped as GitHub's toolkit does (`%`, CR, LF
    as %25, %0D, %0A, so it stays on the command's line), after terminal() (CR kept: it is escaped
    too) and with `##[` broken."""
    text = _controls_visible(str(text), _DATA).replace("##[", "##\\[")
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(text) -> str:
    """A property value of a GitHub workflow command (`title=`, `file=`): workflow_data() plus
    `:` and `,` (%3A, %2C), which would otherwise end the property or the command's header."""
    return workflow_data(text).replace(":", "%3A").replace(",", "%2C")


def github_stop_commands(text: str, token: str | None = None) -> str:
    """`text` (already ci_log'd) between `::stop-commands::TOKEN` and `::TOKEN::`, GitHub's own
    guard for printing untrusted text: the runner runs no command until it sees the token again,
    and a fresh random token is one a student cannot have written into their submission."""
    token = token or secrets.token_hex(16)
    return f"::stop-commands::{token}\n{text}\n::{token}::"


# --- Markdown (GitHub job summaries) -------------------------------------------------------------

_INLINE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: "\\" + c for c in "\\`*_[]|~"}})
_BLOCK_START = re.compile(r"^([#+=-]|\d+(?=[.)]))")  # what would open a heading, list or rule at a line's start
# GitHub turns a bare URL into a link (its autolink extension works on text, after escapes are
# resolved): a word joiner (U+2060, invisible) after the scheme or "www" keeps it plain text.
_AUTOLINK = re.compile(r"(?=://)|(?<=\bwww)(?=\.)", re.IGNORECASE)


def markdown_line(line) -> str:
    """One line of student-derived text as literal GitHub Markdown text: no markup, no HTML
    (`<img src=x>` shows as text), no link or autolink, no table cell break, no heading, list or
    rule at its start; control characters as in terminal()."""
    line = _AUTOLINK.sub("\u2060", terminal(line).strip().translate(_INLINE))
    match = _BLOCK_START.match(line)
    if match is None:
        return line
    if match.group(1)[0].isdigit():  # "1." or "1)" would start an ordered list
        return match.group(1) + "\\" + line[match.end():]
    return "\\" + line


# --- XML and HTML --------------------------------------------------------------------------------

# Characters XML 1.0 cannot hold, even escaped; a student's exception message can contain them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml(text) -> str:
    """`text` without the characters XML 1.0 forbids (ElementTree would write them, making the
    file unreadable to every JUnit reader); ElementTree escapes the rest (`<`, `&`, quotes)."""
    return _NOT_XML.sub("", str(text))


def html_text(text) -> str:
    """`text` escaped for HTML text and attribute values (a name like '<script>' prints, it does
    not run), its control and bidi characters made visible as in terminal()."""
    return html.escape(terminal(text), quote=True)


# --- CSV -----------------------------------------------------------------------------------------

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A spreadsheet may split the file on another separator than the comma it was written with
# (Spanish Excel's default is ';'), so a formula can also start right after one of these.
CSV_SEPARATORS = ",;|\t\r\n"
_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;|\t\r\n][ \t]*)(?=[=+\-@])")


def csv_cell(text) -> str:
    """A text cell from an untrusted source (a student's id, an LMS display name) that Excel,
    LibreOffice or Google Sheets will not run as a formula (`=HYPERLINK(...)`, `@SUM(...)`,
    `-2+3+cmd|...`): one that starts with = + - @, a tab or a CR gets a leading single quote,
    as OWASP recommends (CSV injection), and so does each such character that follows a
    separator (`Ana ;=1+1;` becomes `Ana ;'=1+1;`), whichever one the spreadsheet splits on.
    Only text cells: numbers the grader computes are written as numbers, so a negative one
    stays a number."""
    text = _FORMULA_AFTER_SEPARATOR.sub(r"\1'", str(text))
    return "'" + text if text.startswith(FORMULA_START) else text
