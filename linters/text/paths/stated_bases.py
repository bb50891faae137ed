"""Folders a skill's text says its scripts and paths are relative to (SF301; issue 36).

A skill that runs another skill's tool often writes the short path and says once where it
is taken from: "# Scripts are relative to ../shared-tools/" above `uv run scripts/cli.py`,
"All commands below are relative to the `shared-tools` skill's directory", "run these
from `../shared-tools`", "`cd` to `../shared-tools/` first". A `cd` inside the command's
own block is followed by `command_dirs`; these are the statements made in words, in prose
or in a comment, anywhere in the document.

`stated_bases` gives each such folder as written and as a path from the document's folder.
Only a folder a path can be resolved from counts: a relative path (`../x/`, `tools/`) or a
sibling skill named as one ("the `x` skill's directory"). A placeholder (`<dir>`), a
variable or an absolute path names nothing this reading can check, and "relative to this
file" or "to the skill folder" names the skill's own folder, where the path is looked for
anyway.
"""

from __future__ import annotations

import functools
import posixpath
import re
from typing import NamedTuple

from linters.text.compiled_regex import rx

# A folder written as a path: `../shared-tools/`, `./tools`, `skills/x/`: it climbs, starts
# with `./`, or has a `/`. Not a file (`SKILL.md`, `../x/run.py`): its last part has no
# suffix.
_PATH = r"[`'\"]?(?P<path>(?:\.\.?/)*[\w.-]*[\w-](?:/[\w.-]*[\w-])*/?)[`'\"]?"
# ...or a sibling skill named as the folder: "the `shared-tools` skill's directory".
_SKILL = r"the\s+[`'\"]?(?P<skill>[\w.-]+)[`'\"]?\s+skill['’]s\s+(?:own\s+)?(?:directory|folder|dir)\b"
_TARGET = rf"(?:the\s+(?:folder|directory)\s+)?(?:{_SKILL}|{_PATH})"
_STATED = rx(
    r"(?:\brelative\s+to"  # "Scripts are relative to ../x/", "paths below are relative to tools/"
    # "run these from `../x`", "Execute all commands from ../x/"
    r"|\b(?:run|execute|invoke)\b(?:\s+[\w`'-]+){0,4}?\s+from(?:\s+inside|\s+within)?"
    r"|\bcd`?\s+(?:in)?to)"  # "`cd` to `../x/` first", "cd into ../x"
    rf"\s+{_TARGET}",
    re.IGNORECASE,
)
_FILE_SUFFIX = rx(r"\.[A-Za-z]\w{0,5}$")


class StatedBase(NamedTuple):
    written: str  # as the text gives it
    folder: str  # from the document's folder (`../shared-tools`)


def stated_bases(text: str) -> tuple[StatedBase, ...]:
    """The folders `text` says its scripts or paths are relative to (module docstring)."""
    if "relative" not in text and "from" not in text and "cd" not in text:
        return ()
    return _stated_bases(text)


@functools.lru_cache(maxsize=32)
def _stated_bases(text: str) -> tuple[StatedBase, ...]:
    out: dict[str, StatedBase] = {}
    for m in _STATED.finditer(text):
        skill, path = m.group("skill"), m.group("path")
        if skill is not None:
            folder = posixpath.join("..", skill)
        elif path is not None and ("/" in path or path.startswith(".")):
            last = path.rstrip("/").rsplit("/", 1)[-1]
            if last in ("", ".") or _FILE_SUFFIX.search(last) and not last.startswith("."):
                continue
            folder = posixpath.normpath(path)
        else:
            continue
        if folder != ".":
            out.setdefault(folder, StatedBase(m.group(0), folder))
    return tuple(out.values())


def resolved_from(bases: tuple[StatedBase, ...], doc_dir: str, rel: str) -> list[str]:
    """`rel` (a path as the command gives it) read from each stated base, as paths from the
    skill's root (`../shared-tools/scripts/cli.py`)."""
    return [posixpath.normpath(posixpath.join(doc_dir, b.folder, rel)) for b in bases]
