"""Text a block writes into a data file (issue 36).

A shell block that writes a file with a heredoc (`cat > payload.txt << 'EOF'`, `tee notes.md
<<EOF`) hands the body to that file: the lines are the file's content, not commands the
block runs. Where the file is data (a `.txt`, `.inf`, `.md`, `.json`, ...), not a script, and
the block never runs it afterwards (`bash payload.txt`, `source notes.md`), a pattern in the
body is text the skill writes (a keystroke script for a USB device, a note), so it is text
about the pattern. A heredoc into a script (`cat > setup.sh`), into a shell (`bash <<EOF`)
or into a data file the block then runs keeps its role.
"""

from __future__ import annotations

import re

from linters.security.block_frame import fence_of
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# `cat > F << 'EOF'`, `cat <<EOF > F`, `tee F <<-EOF`, `tee -a F << EOF`.
_WRITES = rx(
    r"^\s*(?:cat\s+>>?\s*(?P<a>[\w./~-]+)\s*<<-?\s*['\"]?(?P<ta>\w+)"
    r"|cat\s+<<-?\s*['\"]?(?P<tb>\w+)['\"]?\s*>>?\s*(?P<b>[\w./~-]+)"
    r"|tee\s+(?:-a\s+)?(?P<c>[\w./~-]+)\s*<<-?\s*['\"]?(?P<tc>\w+))")
_DATA = (".txt", ".inf", ".md", ".markdown", ".json", ".yaml", ".yml", ".csv", ".ini",
         ".cfg", ".conf", ".xml", ".html", ".log")
_LOOK_BACK = 60


def heredoc_data(st: SecurityText, line: Line) -> str | None:
    """Why `line` is the content of a data file its block writes with a heredoc, or None."""
    fence = fence_of(st, line)
    if fence is None or fence.lang.lower() not in ("bash", "sh", "shell", "zsh", ""):
        return None
    idx = line.no - fence.start - 1
    if not 0 <= idx < len(fence.body):
        return None
    for j in range(idx - 1, max(-1, idx - _LOOK_BACK), -1):
        m = _WRITES.match(fence.body[j])
        if m is None:
            continue
        name = m.group("a") or m.group("b") or m.group("c")
        term = m.group("ta") or m.group("tb") or m.group("tc")
        if any(t.strip() == term for t in fence.body[j + 1 : idx + 1]):
            return None  # the heredoc closed before `line`
        if not name.lower().endswith(_DATA):
            return None
        base = re.escape(name.rsplit("/", 1)[-1])
        runs = re.compile(rf"\b(?:ba|z|k)?sh\s+(?:-\w+\s+)*\S*{base}\b|"
                          rf"(?:\bsource|^\s*\.)\s+\S*{base}\b|\bchmod\b.*{base}|\$\(cat\s+\S*{base}")
        if any(runs.search(t) for t in fence.body):
            return None
        return f"it is the content of `{name}`, a data file the block writes, not a command it runs"
    return None

