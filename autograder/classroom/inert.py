"""Student cells made inert before the instructor's browser shows them.

nbgrader's formgrader renders the autograded notebook with nbconvert's HTMLExporter and
serves it from the instructor's Jupyter origin; nbgrader's generate_feedback renders the
same file. HTMLExporter trusts the notebook: a ``text/html``, ``text/markdown``,
``image/svg+xml`` or ``application/javascript`` output, raw HTML in a markdown cell, a
raw cell marked ``text/html``, a ``javascript:`` link, widget state or an output's image
metadata all reach the page as live HTML. A student controls every byte of the .ipynb, so
every cell of theirs is rebuilt here from the few fields that are inert:

- **Outputs: an allow-list, not a sanitiser.** Kept: ``stream`` and ``error`` text, and of
  rich outputs only ``text/plain``, ``image/png`` and ``image/jpeg`` (checked to be base64
  of a real PNG or JPEG), with no output metadata. Anything else is dropped and the cell
  shows ``[salida text/html retirada por seguridad]`` in its place. We chose this over
  nbconvert's ``SanitizeHTML`` preprocessor (bleach) because grading needs none of it
  (the check cells carry our own feedback, and the student's code is shown as code); an
  allow-list fails closed on mime types nobody reviewed (SVG, LaTeX through MathJax,
  widget views, vendor types), and SanitizeHTML leaves the prompt, image metadata and
  widget state alone, which HTMLExporter also copies into the page.
- **Markdown: no raw HTML, no dangerous URL schemes, no entities.** Every ``<`` that is
  not an attribute-less tag from a short list (``<b>``, ``<br>``, ``<sub>``, ...) becomes
  ``&lt;``, so no tag can carry an attribute (event handlers, ``style``, ``src``) and no
  script, iframe, object, form, style or SVG survives; no character reference is left
  (a zero-width space follows each ``&``: mistune decodes a link's ``&amp;#106;`` twice,
  so escaping them as ``&amp;`` is not enough) so none can spell a scheme; ``javascript:``, ``vbscript:``
  and ``data:`` (even with control characters inside) lose their colon. Ordinary markdown
  (headings, lists, emphasis, code, tables, math, links to http(s)) renders as before; the
  price is that ``<`` or ``&lt;`` inside a code span shows as ``&lt;``.
- **Attachments:** PNG and JPEG only, checked like image outputs; a reference to any other
  attachment is renamed so that nbconvert does not fail on it.
- **Raw cells** (HTMLExporter copies them into the page through its ``clean_html``) are
  escaped like markdown, so they show as text.
- **Everything else:** the cell's metadata is dropped (tags and other fields are copied into
  attributes), an execution count is an int or nothing, an id is a plain nbformat id.

Which cells are the instructor's is decided by the release alone (see autograded.py), as
the loader does: a cell's own ``nbgrader`` metadata proves nothing.
"""

from __future__ import annotations

import base64
import binascii
import html.entities
import re

import nbformat
from nbformat.corpus.words import generate_corpus_id

INERT_IMAGES = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff"}
MARKDOWN_TAGS = frozenset({
    "b", "i", "u", "s", "em", "strong", "del", "ins", "mark", "small", "sub", "sup", "kbd", "code", "pre",
    "br", "hr", "p", "blockquote", "ul", "ol", "li", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td", "center"})
_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_MIME = re.compile(r"[\w.+-]{1,64}/[\w.+-]{1,128}")
_LT = re.compile(r"<(?:(/?)([A-Za-z][A-Za-z0-9]{0,9})\s*/?>)?")
# "&" that starts a character reference: numeric, or any HTML5 name (also "&lt" without ";")
_ENTITY = re.compile("&(?=#|" + "|".join(sorted(map(re.escape, html.entities.html5), key=len, reverse=True)) + ")")
_CONTROL = r"[\x00-\x20\x7f\\]*"  # and backslashes: markdown reads "\:" as ":"
_SCHEME = re.compile(  # the scheme's letters with anything a browser strips from a URL between them
    "(" + "|".join(_CONTROL.join(word) for word in ("javascript", "vbscript", "data")) + ")" + _CONTROL + ":",
    re.IGNORECASE)
_ATTACHMENT = re.compile(r"attachment:([^\s()<>\[\]\"']*)")


def removed_note(what: str) -> str:
    return f"[salida {what} retirada por seguridad]\n"


def inert_cell(cell, cell_id: str | None = None) -> nbformat.NotebookNode:
    """A new cell holding only the inert part of a student's cell (any dict; never fails)."""
    kind = cell.get("cell_type") if isinstance(cell, dict) else None
    source = _text(cell.get("source")) if isinstance(cell, dict) else ""
    if kind == "code":
        new = nbformat.v4.new_code_cell(source, outputs=inert_outputs(cell.get("outputs")),
                                        execution_count=_count(cell.get("execution_count")))
    elif kind == "markdown":
        attachments = inert_attachments(cell.get("attachments"))
        new = nbformat.v4.new_markdown_cell(inert_markdown(source, attachments))
        if attachments:
            new.attachments = attachments
    else:  # a raw cell, or a type nbformat does not know: HTMLExporter puts its source in the page,
        new = nbformat.v4.new_raw_cell(inert_markdown(source))  # through bleach; here it is text already
    new["id"] = cell_id if cell_id and _ID.fullmatch(cell_id) else generate_corpus_id()
    return new


MAX_OUTPUTS = 100  # per cell: formgrader needs to show what the student saw, not 200 000 of it
MAX_OUTPUT_CHARS = 100_000  # per cell, over all its text outputs


def inert_outputs(outputs) -> list:
    kept, chars, seen = [], 0, 0
    outputs = outputs if isinstance(outputs, list) else []
    for output in outputs[:MAX_OUTPUTS]:
        if chars > MAX_OUTPUT_CHARS:
            break
        seen += 1
        kind = output.get("output_type") if isinstance(output, dict) else None
        if kind == "stream":
            text = _text(output.get("text"))[:MAX_OUTPUT_CHARS]
            chars += len(text)
            kept.append(_output("stream", name="stderr" if output.get("name") == "stderr" else "stdout", text=text))
        elif kind == "error":
            traceback = output.get("traceback")
            lines = [_text(line)[:2000] for line in traceback[:100]] if isinstance(traceback, list) else []
            chars += sum(map(len, lines))
            kept.append(_output("error", ename=_text(output.get("ename"))[:200], evalue=_text(output.get("evalue"))[:2000],
                                traceback=lines))
        elif kind in ("display_data", "execute_result"):
            data = output.get("data") if isinstance(output.get("data"), dict) else {}
            inert = {}
            if "text/plain" in data:
                inert["text/plain"] = _text(data["text/plain"])[:MAX_OUTPUT_CHARS]
                chars += len(inert["text/plain"])
            for mime in INERT_IMAGES:
                image = _image(data.get(mime), mime)
                if image is not None:
                    inert[mime] = image
            if inert:
                extra = {"execution_count": _count(output.get("execution_count"))} if kind == "execute_result" else {}
                kept.append(_output(kind, data=inert, metadata={}, **extra))
            dropped = [mime for mime in data if mime not in inert]
            if dropped:
                named = [m if isinstance(m, str) and _MIME.fullmatch(m) else "de otro tipo" for m in dropped[:10]]
                kept.append(_output("stream", name="stdout", text=removed_note(", ".join(named))))
        else:
            kept.append(_output("stream", name="stdout", text=removed_note("de tipo desconocido")))
    if seen < len(outputs) or chars > MAX_OUTPUT_CHARS:
        kept.append(_output("stream", name="stdout", text="[… el resto de la salida se omitió]\n"))
    return kept


def _output(kind: str, **fields) -> nbformat.NotebookNode:
    # Built directly, not with nbformat.v4.new_output: that validates each output against the
    # schema, which for a notebook of 200 000 outputs took over two minutes.
    return nbformat.from_dict({"output_type": kind, **fields})


def inert_markdown(source: str, attachments: dict | None = None) -> str:
    """Markdown with no raw HTML but attribute-less MARKDOWN_TAGS, no entity, no script-bearing scheme."""
    text = _ENTITY.sub("&\u200b", source)  # mistune decodes a link's "&amp;#106;" twice: no "&" may start one
    text = _LT.sub(lambda m: m.group(0) if (m.group(2) or "").lower() in MARKDOWN_TAGS else "&lt;" + m.group(0)[1:],
                   text)
    text = _SCHEME.sub(lambda m: m.group(1) + "\uff1a", text)  # a full-width colon: no scheme, still readable
    return _ATTACHMENT.sub(lambda m: m.group(0) if m.group(1) in (attachments or {})
                           else "adjunto-retirado-" + m.group(1), text)


def inert_attachments(attachments) -> dict:
    kept = {}
    for name, bundle in (attachments.items() if isinstance(attachments, dict) else ()):
        if not isinstance(name, str) or not _ID.fullmatch(name.replace(".", "_")) or not isinstance(bundle, dict):
            continue
        images = {mime: image for mime in INERT_IMAGES if (image := _image(bundle.get(mime), mime)) is not None}
        if images:
            kept[name] = images
    return kept


def _image(data, mime: str) -> str | None:
    """`data` if it is base64 of an image of type `mime` (whitespace removed), else None."""
    text = _text(data)
    if not text:
        return None
    compact = "".join(text.split())
    try:
        raw = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        return None
    return compact if raw.startswith(INERT_IMAGES[mime]) else None


def _text(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    return ""


def _count(value) -> int | None:
    return value if type(value) is int and value >= 0 else None
