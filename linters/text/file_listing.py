"""Is a code block a listing of files, a layout drawn as a tree, rather than commands?
(SF301, SF307; issue 36, holdout 31.)

A skill often shows the layout of a repository or of itself in a fence:

    roles/node-access/
      tasks/
        main.yml          ← keys and sudoers
    scripts/bootstrap-host   ← first-run wrapper
    playbooks/node-access.yml

Each line is one path, indented or drawn with a tree's characters (`├──`, `│`, `└──`,
`|--`, `` `-- ``), and may be followed by a note after an arrow (`←`, `<-`, `→`, `->`) or a
`#`. A lone path in a bare fence was already read as a mention; the note after the arrow
made `scripts/bootstrap-host ← first-run wrapper` a run with arguments. A block is read as
a listing when every line has that shape and at least one line is a folder (a path ending
in `/`): a block of commands has a line with a program and its arguments, and one that runs
two scripts (`scripts/a.sh` then `scripts/b.sh`) has no folder line, so it stays commands.
"""

from __future__ import annotations

from collections.abc import Iterable

from linters.text.compiled_regex import rx

# A tree's drawing before the entry: box-drawing characters, ASCII `|--`, `+--`, `` `-- ``.
_DRAWING = rx(r"^[\s│┃├┣└┗─━┬┼|`+]*(?:--+\s*)?")
# A note after the entry: an arrow or a comment, after at least one space.
_NOTE = rx(r"\s+(?:←|⟵|<-{1,2}|→|⟶|-{1,2}>|#).*$")
# One path (a file or a folder, relative, `...` or a `<placeholder>` allowed), nothing else.
_ENTRY = rx(r"^(?:\.{3}|[\w.@<>{}*+~-]+(?:/[\w.@<>{}*+~-]+)*/?)$")
_MIN_LINES = 2


def entry(line: str) -> str | None:
    """The path a line of a listing names, its drawing and note taken off; None when the
    line is not one path (a command, prose)."""
    text = _NOTE.sub("", _DRAWING.sub("", line.rstrip()))
    return text if _ENTRY.match(text) else None


def is_file_listing(lines: Iterable[str]) -> bool:
    """The block's lines (blank ones skipped) are each one path, at least two, one of them
    a folder: a listing of files, which runs nothing."""
    n, folder = 0, False
    for line in lines:
        if not line.strip():
            continue
        path = entry(line)
        if path is None:
            return False
        n += 1
        folder = folder or path.endswith("/")
    return n >= _MIN_LINES and folder
