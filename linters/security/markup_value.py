"""A `>` that closes a markup tag, not a shell redirect (SF505's raw disk write).

Sample output of a storage tool is often XML: `<root>/dev/sda3</root>`, `<disk
id="1">/dev/nvme0n1</disk>`. Read as shell, the `>` of the opening tag followed by the device
looks like `>/dev/sda`, a write to the disk. It is the text of an element: the tag's `>` comes
straight after `<name` and its attributes, and the element closes with `</name>` after the
value on the same line.

The closing tag is what makes the reading safe. Shell also writes `<` and `>` back to back:
`cat <disk.img>/dev/sda` reads `disk.img` and writes it to the disk, and the text before its
`>` looks like a tag. Only markup closes the element again (`</disk.img>` means nothing to
a shell), so without `</name>` the `>` stays a redirect.
"""

from __future__ import annotations

from linters.text.compiled_regex import rx

# `<name` and its attributes, ending right before the `>` under test (no `<` or `>` between).
_OPEN_TAG = rx(r"<(?P<name>[A-Za-z][\w:.-]{0,40})(?:\s[^<>\n]*)?$")
# The element's text (no further tag) up to its closing tag.
_TEXT_THEN_CLOSE = rx(r"[^<>\n]*</(?P<name>[A-Za-z][\w:.-]{0,40})\s*>")


def closes_markup_tag(text: str, gt: int) -> bool:
    """Whether the `>` at `gt` ends an opening tag whose element closes later on the line."""
    line_start = text.rfind("\n", 0, gt) + 1
    opened = _OPEN_TAG.search(text, line_start, gt)
    if opened is None:
        return False
    closed = _TEXT_THEN_CLOSE.match(text, gt + 1)
    return closed is not None and closed.group("name") == opened.group("name")
