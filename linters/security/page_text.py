"""The text a web page shows (issue 36): a command written in an HTML or SVG page's visible
text runs nowhere.

A browser shows what sits between a page's tags; only `<script>` (and an event attribute,
which sits inside a tag) runs. A skill's page asset (a sketch, a report template, a diagram)
that writes `--permission-mode bypassPermissions` into a `<div>` draws the words. Inside a
tag, `<script>` or `<style>`, the text is code; inside `<pre>`, `<code>`, `<kbd>`,
`<samp>` or `<textarea>` it is a command shown to be copied, read like a Markdown code
block: neither is answered here. Nor is page text that tells its reader to run the command
("Run `claude --yolo` in the sandbox"), the reading `linters.security.imperative` gives a
Markdown sentence.
"""

from __future__ import annotations

import re

from linters.security.imperative import tells_to_run
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

PAGE_EXT = (".html", ".htm", ".xhtml", ".svg")
# Elements whose content is code, or a command shown to be copied.
_CODE_ELEMENTS = ("script", "style", "pre", "code", "kbd", "samp", "textarea")
_OPEN = {name: rx(rf"<{name}\b", re.IGNORECASE) for name in _CODE_ELEMENTS}
_CLOSE = {name: rx(rf"</{name}\s*>", re.IGNORECASE) for name in _CODE_ELEMENTS}
_LAST_TAG_END = rx(r".*>", re.DOTALL)


def shown_text(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the spot at (line, 0-based `col`) of a page is text the page shows, or None."""
    if st.is_markdown or not st.path.lower().endswith(PAGE_EXT):
        return None
    before = "\n".join(st.text.split("\n")[: line.no - 1] + [line.text[:col]])
    if before.rfind("<") > before.rfind(">"):
        return None  # inside a tag: an attribute, perhaps an event handler
    for name in _CODE_ELEMENTS:
        opened = [m.start() for m in _OPEN[name].finditer(before)]
        closed = [m.start() for m in _CLOSE[name].finditer(before)]
        if opened and (not closed or opened[-1] > closed[-1]):
            return None
    tag_end = _LAST_TAG_END.match(before)
    said = before[tag_end.end() if tag_end else 0:].strip()
    if tells_to_run(said):
        return None
    return "it is text the page shows between its tags, which a browser draws and never runs"
