"""Capping a tool result for the model without losing what was already cut.

A tool result is cut twice: the sandbox keeps the head and tail of each stream and puts
`[... N bytes omitted ...]` between them (skillforge.sandbox.base.StreamCapture); then the
tool joins stdout, stderr and the exit line and caps the whole to `MAX_RESULT_CHARS`. A naive
second cut lands right where the first marker sits (both keep three quarters for the head),
so the model saw "[... 49 characters omitted ...]" after a 300 kB output. Here a later cut
never splits a marker: a cut that touches one swallows it whole and states the sum, in bytes
like the sandbox, so the one marker left tells the true amount that is missing.

A command that prints a marker-shaped line only misleads its own agent about the count.
"""

from __future__ import annotations

import re

_MARKER = re.compile(r"\n\[\.\.\. (\d+) (?:bytes|characters) omitted \.\.\.\]\n")
# The head keeps this share of the room, as the sandbox does: errors are usually printed last,
# but the start says what ran.
HEAD_SHARE = 0.75


def omission_marker(omitted_bytes: int) -> str:
    """The line that stands for a cut, in the sandbox's words."""
    return f"\n[... {omitted_bytes} bytes omitted ...]\n"


def _window(text: str, limit: int) -> tuple[int, int]:
    """[start, end) of the middle to cut so the rest plus a new marker fits in `limit`."""
    room = max(0, limit - len(omission_marker(10 * len(text.encode("utf-8")))))
    head = int(room * HEAD_SHARE)
    return head, len(text) - (room - head)


def cap_output(text: str, limit: int) -> str:
    """`text` within about `limit` characters: the middle replaced by one omission marker.

    Markers already in the text (from the sandbox) are kept whole: one the cut touches is
    absorbed and its count added to the new marker's, so the count stays the true total.
    """
    if len(text) <= limit:
        return text
    markers = [(m.start(), m.end(), int(m.group(1))) for m in _MARKER.finditer(text)]
    start, end = _window(text, limit)
    grown = True
    while grown:  # absorbing a marker can widen the cut onto the next one
        grown = False
        for m_start, m_end, _ in markers:
            if m_start < end and m_end > start and (m_start < start or m_end > end):
                start, end = min(start, m_start), max(end, m_end)
                grown = True
    inside = [(s, e, n) for s, e, n in markers if start <= s and e <= end]
    omitted = sum(n for _, _, n in inside)
    pos = start
    for s, e, _ in inside:
        omitted += len(text[pos:s].encode("utf-8"))
        pos = e
    omitted += len(text[pos:end].encode("utf-8"))
    return text[:start] + omission_marker(omitted) + text[end:]


def stream_rooms(lengths: list[int], room: int) -> list[int]:
    """Characters each stream may keep of `room`: short streams whole, the rest share equally."""
    rooms = [0] * len(lengths)
    left = max(0, room)
    pending = sorted(range(len(lengths)), key=lambda i: lengths[i])
    while pending:
        share = left // len(pending)
        i = pending.pop(0)
        rooms[i] = min(lengths[i], share)
        left -= rooms[i]
    return rooms


def cap_streams(streams: list[str], room: int) -> list[str]:
    """Each stream capped on its own so together they fit `room` (labels between them stay)."""
    rooms = stream_rooms([len(s) for s in streams], room)
    return [cap_output(s, r) for s, r in zip(streams, rooms)]
