"""A script run written as the pattern of every run, not as a run of one script (SF301).

"Run with: `uv run scripts/script_name.py [arguments]`" shows the shape the skill's listed
scripts are run in: the file name is a generic word for "the script's name" and the
arguments are a bracketed slot. Both must hold: a generic stem (`script_name`,
`script-name`, `your_script`, `my-tool`, `name`) and, right after the path, an argument
placeholder (`[arguments]`, `<args>`, `{options}`, `...`). A real-looking name
(`scripts/name_parser.py [file]`) or a generic name run with real arguments stays a run.
Paths that hold a placeholder themselves (`scripts/<name>.py`) are left out earlier
(`linters.reliability.command_dirs`).
"""

from __future__ import annotations

import posixpath
import re

from linters.text.compiled_regex import rx

_NOUN = r"(?:script|tool|command|cmd|file|program|module|helper)"
_GENERIC_STEM = rx(
    rf"^(?:(?:your|my|some|the)[-_]?{_NOUN}(?:[-_]?name)?|{_NOUN}[-_]?name|name|x+)$",
    re.IGNORECASE)
_ARGUMENT_SLOT = rx(r"^(?:\[[^\]]*\]|<[^>]*>|\{[^}]*\}|\.\.\.|…)$")


def placeholder_run(ws: list[str], path: str) -> bool:
    """The run of `path` among the command's words `ws` is a pattern: a generic file name
    followed by an argument placeholder."""
    stem = posixpath.basename(path.strip("\"'")).split(".", 1)[0]
    if not _GENERIC_STEM.match(stem) or path not in ws:
        return False
    at = ws.index(path)
    return at + 1 < len(ws) and bool(_ARGUMENT_SLOT.match(ws[at + 1]))
