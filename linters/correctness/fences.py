"""Code fences (SF120): a ``` or ~~~ block that never closes swallows the rest of the file."""

from __future__ import annotations

from collections.abc import Iterator

from linters.text.anchor_index import declare
from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding

# A fence opener or closer, possibly inside blockquotes or list items ("2. ```sh").
_FENCE_LINE = rx(
    r"((?:[ \t]{0,3}>)*)([ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*)(`{3,}|~{3,})(.*)"
)
_LIST_MARKER = rx(r"[-*+]|\d[.)]")
_MARKERS = declare(b"```", b"~~~")


def _fence_lines(text: str) -> list[tuple[int, int]]:
    """(line start, line end or -1 at the end of the text) of each line holding ``` or ~~~,
    in order (str.find beats a regex); each line is found once, with its end."""
    find, rfind = text.find, text.rfind
    per_marker: list[list[tuple[int, int]]] = []
    for marker in ("```", "~~~"):
        lines: list[tuple[int, int]] = []
        pos = find(marker)
        while pos >= 0:
            end = find("\n", pos)
            lines.append((rfind("\n", 0, pos) + 1, end))
            if end < 0:
                break
            pos = find(marker, end)
        per_marker.append(lines)
    backticks, tildes = per_marker
    if not (backticks and tildes):
        return backticks or tildes  # one marker only (the usual case): in order already
    return sorted(dict(backticks + tildes).items())


def _fence(line: str) -> tuple[str, str, int, bool] | None:
    """(marker, info string, indent, after a list marker) of a fence line, or None."""
    stripped = line.lstrip(" ")
    if stripped[:3] in ("```", "~~~"):  # the common case, without the regex
        info = stripped.lstrip(stripped[0])
        return stripped[: len(stripped) - len(info)], info, len(line) - len(stripped), False
    m = _FENCE_LINE.match(line)
    if m is None:
        return None
    indent = len(m.group(1)) + len(m.group(2).expandtabs(4))
    return m.group(3), m.group(4), indent, bool(_LIST_MARKER.search(m.group(2)))


def unclosed_fence(text: str, first_line: int = 1) -> int | None:
    """Line of a code fence that is never closed, by CommonMark's rules (None if all close).

    A closer uses the opener's character, is at least as long, has no info string and is
    indented at most three columns more than the opener (list items included).
    """
    opener: tuple[int, str, int] | None = None  # (offset of its line, marker, indent)
    for start, end in _fence_lines(text):
        fence = _fence(text[start:] if end < 0 else text[start:end])
        if fence is None:
            continue
        marker, info, indent, listed = fence
        if opener is None:
            if not (marker[0] == "`" and "`" in info):
                opener = (start, marker, indent)
        elif (
            marker[0] == opener[1][0]
            and len(marker) >= len(opener[1])
            and not info.strip()
            and indent <= opener[2] + 3
            and not listed
        ):
            opener = None
    # Lines are counted only for the answer.
    return first_line + text.count("\n", 0, opener[0]) if opener else None


@check("SF120")
def unclosed_fences(ctx: LintContext) -> Iterator[Finding]:
    """A ``` or ~~~ block in SKILL.md or a Markdown reference that runs to the end of the file."""
    for f in ctx.markdown_files():
        if f.path == "SKILL.md":
            text, first = ctx.skill.body, ctx.skill.body_start_line
        else:
            text, first = f.text or "", 1
        index = ctx.anchors(f)
        if not index.held(_MARKERS):
            continue  # no fence anywhere in the file (a find for each costs a pass)
        start = unclosed_fence(text, first)
        if start is not None:
            yield ctx.finding(
                "SF120",
                f"The code fence opened at line {start} of {f.path} is never closed, so the "
                "rest of the file reads as code; add the closing fence (and open blocks that "
                "contain fences with a longer one, such as ````).",
                path=f.path,
                line=start,
            )
