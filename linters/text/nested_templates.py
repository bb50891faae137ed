"""A ```` ```markdown ```` template with blocks of its own inside, which a Markdown reader
ends at the first inner close: the lines it holds in its author's eyes (SF116 reads their
links as the template's, relative to where its copy will be written)."""

from __future__ import annotations

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc

__all__ = ["nested_template_lines"]

# A fence line that opens a block with a language (```` ```bash ````) and a bare one.
_INFO_FENCE = rx(r"^ {0,3}(`{3,}|~{3,})\s*[\w+-]+[^`]*$")
_BARE_FENCE = rx(r"^ {0,3}(`{3,}|~{3,})\s*$")
_NESTED_REACH = 400  # lines after a Markdown block's first close searched for its real end


def nested_template_lines(doc: MarkdownDoc) -> frozenset[int]:
    """Lines a ```` ```markdown ```` block holds in its author's eyes though a Markdown
    reader ends it early: a README template with ```` ```bash ```` blocks inside, whose
    first bare fence closes the inner block for the author and the outer one for the
    reader. Counted as the author nests (a fence with a language opens, a bare one
    closes) up to the fence that closes the template; nothing if none does."""
    memo = doc.memo.setdefault(__name__ + ".nested", {})
    if "lines" in memo:
        return memo["lines"]
    out: set[int] = set()
    fences = doc.fences
    for n, f in enumerate(fences):
        if f.lang not in ("markdown", "md") or f.end is None or f.end in out:
            continue
        depth = 0  # blocks the author left open inside it (`~~~` ones may close there)
        for b in f.body:
            depth += 1 if _INFO_FENCE.match(b) else -(depth > 0 and bool(_BARE_FENCE.match(b)))
        if depth == 0 and _bare_opened_inside(fences, n):
            depth = 2  # the template and its inner sample block (commit messages) open
        first = f.end + 1 - doc.first_line
        for i in range(first, min(len(doc.lines), first + _NESTED_REACH)):
            if depth == 0:
                break
            line = doc.lines[i]
            if _INFO_FENCE.match(line):
                depth += 1
            elif _BARE_FENCE.match(line):
                depth -= 1
                if depth == 0:
                    out.update(range(f.end + 1, i + doc.first_line + 1))
                    _resync(doc, i + 1, out)
    memo["lines"] = frozenset(out)
    return memo["lines"]


def _resync(doc: MarkdownDoc, start: int, out: set[int]) -> None:
    """After a template's close (line index `start - 1`) that the reader took for an
    opening, the reader stays one fence off: read on as the author nests, adding the lines
    of each further ```` ```markdown ```` block (an example README of another project
    whose `./docs/demo.gif` the reader shows as prose), until both agree again."""
    stack: list[str] = []
    for i in range(start, min(len(doc.lines), start + _NESTED_REACH)):
        line, no = doc.lines[i], i + doc.first_line
        if not stack and not doc.is_code(no) and not _BARE_FENCE.match(line) \
                and not _INFO_FENCE.match(line):
            return  # outside any block for both: in step again
        m = _INFO_FENCE.match(line)
        if m:
            stack.append(line.strip().lstrip("`~").strip().split()[0].lower())
        elif _BARE_FENCE.match(line):
            if stack:
                if stack[0] in ("markdown", "md"):
                    out.add(no)
                stack.pop()
                continue
            stack.append("")
        if stack and stack[0] in ("markdown", "md"):
            out.add(no)


def _bare_opened_inside(fences: list, n: int) -> bool:
    """The reader's next block after Markdown block `fences[n]` opens bare and holds a
    ```` ```bash ```` line: off by one fence, so the fence that ended the template opened
    a block inside it for its author."""
    nxt = fences[n + 1] if n + 1 < len(fences) else None
    return (nxt is not None and not nxt.lang
            and any(_INFO_FENCE.match(b) for b in nxt.body))
