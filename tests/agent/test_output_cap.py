"""A tool result cut twice still says how much is missing (issue 15, item 5).

The sandbox keeps the head and tail of each stream with "[... N bytes omitted ...]" between
them; the tool then caps the joined result again. These examples feed the second cut exactly
what the sandbox produces.
"""

from __future__ import annotations

import re

from skillforge.agent.output_cap import cap_output, cap_streams, omission_marker
from skillforge.agent.tools import MAX_RESULT_CHARS
from skillforge.sandbox.base import StreamCapture

MARKER = re.compile(r"\[\.\.\. (\d+) (bytes|characters) omitted \.\.\.\]")


def _captured(data: bytes, limit: int = MAX_RESULT_CHARS) -> str:
    capture = StreamCapture(limit)
    capture.feed(data)
    return capture.text()


def test_the_sandbox_marker_survives_the_tools_cap_with_the_true_total():
    # 300,000 bytes of output: the sandbox keeps 16,000 and says so; adding the exit line
    # pushes the result 40-odd characters over the tool's cap.
    result = _captured(b"q" * 300_000) + "\n[exit code 0]"
    capped = cap_output(result, MAX_RESULT_CHARS)
    markers = MARKER.findall(capped)
    assert markers == [(str(300_000 - capped.count("q")), "bytes")]
    assert len(capped) <= MAX_RESULT_CHARS and capped.endswith("[exit code 0]")


def test_two_streams_share_the_room_and_each_keeps_a_true_marker():
    out, err = cap_streams([_captured(b"q" * 100_000), _captured(b"z" * 50_000)], 15_000)
    assert len(out) + len(err) <= 15_000
    for text, char, total in ((out, "q", 100_000), (err, "z", 50_000)):
        (marker,) = MARKER.findall(text)
        assert int(marker[0]) + text.count(char) == total
    # A short stream is kept whole; the long one gets the rest.
    short, long = cap_streams(["ok", "w" * 20_000], 1_000)
    assert short == "ok" and len(long) <= 998


def test_a_marker_the_cut_does_not_touch_is_left_as_it_is():
    head = _captured(b"k" * 5_000, limit=1_000)  # a small stream with its own marker
    text = head + "\n" + "w" * 3_000
    capped = cap_output(text, 2_000)
    assert "[... 4000 bytes omitted ...]" in capped  # the sandbox's, untouched
    assert MARKER.findall(capped)[-1] == (str(3_000 - capped.count("w")), "bytes")


def test_short_results_are_not_touched_and_the_marker_reads_like_the_sandboxes():
    assert cap_output("hello\n[exit code 0]", 100) == "hello\n[exit code 0]"
    assert omission_marker(12) == "\n[... 12 bytes omitted ...]\n"
    assert _captured(b"z" * 50, limit=10).count("[... 40 bytes omitted ...]") == 1
