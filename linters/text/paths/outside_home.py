"""Folders SKILL.md places outside the skill's own folder (SF116, SF301; issue 36).

A plugin's skill often keeps its tool in the plugin's `scripts/`, two levels up, and says so
once: "The tool lives at `$SKILL_DIR/../../scripts/tool.py`; resolve it from where you
loaded this skill." Its later `python3 scripts/tool.py build` and "implemented in
`scripts/tool_lib/gates.py`" are shorthand for that folder, not files missing from the
skill. A reader follows the statement:

- a path from the skill's own folder variable that climbs out of it (`$SKILL_DIR/../../
  scripts/x.py`, `{baseDir}/../scripts/`) places that whole folder (`scripts/`) outside;
- a path SKILL.md gives with a climb (`python3 ../scripts/janus.py`, run from a folder the
  skill does not have) places that one file outside: a mention of `scripts/janus.py` is it.

Such a file cannot be checked from the skill (the copy under review may hold the skill
alone): where it is on disk nothing is reported, elsewhere a warning says where the text
puts it. A path the text does not place this way is checked as before.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from linters.text.compiled_regex import rx
from skillforge.models.skill import SKILL_MD, Skill

# The skill's own folder as a variable or placeholder, then a climb out of it.
_ROOT_CLIMB = rx(
    r"(?:\$\{?[A-Za-z_]*(?:SKILL|skill)_?(?:DIR|ROOT|dir|root|Dir|Root|PATH|path)\}?"
    r"|\{baseDir\}|<[^<>/\s]*skill[^<>/\s]*>)/((?:\.\./)+)([\w.-]+)(/[\w./-]*[\w-])?",
    re.IGNORECASE,
)
# A path that climbs, written on its own (`../scripts/janus.py`), not after a variable.
_BARE_CLIMB = rx(r"(?<![\w.}/>$-])((?:\.\./)+)([\w.-]+/[\w./-]*[\w-])")


class Home(NamedTuple):
    written: str  # as the text gives it
    target: str  # from the skill's root (`../../scripts/x.py`)


class OutsideHomes(NamedTuple):
    folders: dict[str, Home]  # top folder (`scripts`) -> where the text puts it
    files: dict[str, Home]  # path as a mention gives it (`scripts/janus.py`) -> where


def outside_homes(skill: Skill) -> OutsideHomes:
    """What SKILL.md places outside the skill's folder (see the module docstring)."""
    f = skill.file(SKILL_MD)
    text = (f.text if f is not None else None) or ""
    folders: dict[str, Home] = {}
    files: dict[str, Home] = {}
    if "../" not in text:
        return OutsideHomes(folders, files)
    for m in _ROOT_CLIMB.finditer(text):
        climb, top, rest = m.group(1), m.group(2), m.group(3) or ""
        folders.setdefault(top, Home(m.group(0), f"{climb}{top}"))
        if rest:
            files.setdefault(top + rest, Home(m.group(0), f"{climb}{top}{rest}"))
    for m in _BARE_CLIMB.finditer(text):
        files.setdefault(m.group(2), Home(m.group(0), m.group(0)))
    return OutsideHomes(folders, files)


def homes_of(ctx: Any) -> OutsideHomes:
    """`outside_homes` of a lint context's skill, worked out once per lint (`ctx` is a
    LintContext; linters/text does not import the engine)."""
    return ctx.memo(("outside_homes",), lambda: outside_homes(ctx.skill))


def outside_home(homes: OutsideHomes, path: str) -> tuple[Home, str] | None:
    """(where the text puts it, the path from the skill's root) for a skill-relative `path`
    that SKILL.md places outside the skill, or None."""
    rel = posixpath.normpath(path.removeprefix("./"))
    if rel.startswith("..") or not (homes.folders or homes.files):
        return None
    home = homes.files.get(rel)
    if home is not None:
        return home, home.target
    top, _, rest = rel.partition("/")
    home = homes.folders.get(top)
    if home is not None and rest:
        return home, posixpath.join(home.target, rest)
    return None


def below_own_folder(path: str, own: str, has: Callable[[str], bool]) -> str | None:
    """The skill-relative rest of `path` written from above the skill folder: what follows a
    folder named `own`, the skill folder's name (`skills/<own>/evals/x.md` gives
    `evals/x.md`), nearest the end first, when `has(rest)`; else None. SF116 and SF316 read a
    path written from the repository's root with it."""
    parts = path.split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == own and has(rest := "/".join(parts[i + 1:])):
            return rest
    return None
