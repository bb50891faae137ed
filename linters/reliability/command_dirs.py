"""Where a skill's command runs: `cd` and folder variables, followed through one code block.

The lines of a fenced block run in one shell, so `cd ~/work/proj` on one line moves every
later relative path into the user's project, and `SKILL_DIR="$HOME/.claude/skills/x/scripts"`
makes `bash "$SKILL_DIR/run.sh"` mean `scripts/run.sh`. `BlockShell` keeps that state for one
block (or one inline command) and turns each script path a command runs into the
skill-relative path it names, or None when it cannot be the skill's or cannot be known.

A folder variable outlives its block: a skill sets `SKILL_DIR` once, in a block of its own,
and uses it in the blocks after (the reader shares one table of variables across a
document). A placeholder or variable is the skill's root only when its name says nothing
else (`<skill-dir>`, `${CLAUDE_SKILL_DIR}`); `<skill-scripts>/x.sh` and `$SKILLS_DIR/x` name
other folders and are not checked.
"""

from __future__ import annotations

import posixpath
import re

from skillforge.models.skill import Skill

from linters.text.compiled_regex import rx

# `{baseDir}/`, `${SKILL_DIR}/`, `$SKILL_ROOT/`, `${CLAUDE_SKILL_DIR}/`, `<skill-dir>/`,
# `<path-to-skill>/`, `/path/to/skill/`: all mean "this skill's folder".
SKILL_DIR_PREFIX = rx(
    r"^(?:\{baseDir\}|\{skill_?dir\}|\$\{?[A-Za-z_]*(?:SKILL|skill|BASE_?DIR|baseDir)[A-Za-z_]*\}?"
    r"|<[^<>/]*skill[^<>/]*>|(?:/?path/to/)[\w.-]*skill[\w.-]*)/",
    re.IGNORECASE,
)
# The words a name for the skill's own folder is made of: `<path-to-skill>`, `{baseDir}`,
# `${CLAUDE_SKILL_DIR}`, `<your-skill-directory>`. Any other word names another folder
# (`<skill-scripts>`, `$SKILL_SCRIPTS`, `$SKILLS_DIR`: the folder of all skills).
_ROOT_WORDS = frozenset(
    "skill s dir directory root folder path to base basedir home this the your my claude name "
    "location absolute full installed local current skilldir skillroot skillpath".split()
)
_NAME_WORD = rx(r"[A-Z]?[a-z0-9]+|[A-Z0-9]+(?![a-z])")
_PLACEHOLDER = rx(r"[<>{}*?$\[\]]|\.\.\.|/$")
_VAR_REF = rx(r"^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))(?:/|$)")
_ASSIGN = rx(r"^(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?"
                     r"([A-Za-z_]\w*)=(.*)$")
_CD = rx(r"^(?:cd|pushd)(?:\s+(.*))?$")

UNKNOWN = None  # a folder outside the skill, or one a static reading cannot know


def skill_relative(token: str, skill: Skill) -> str | None:
    """The skill-relative path a command word points into, or None if it is not the skill's.

    `scripts/x.py`, `./scripts/x.py`, `{baseDir}/tools/x.sh` and `~/.claude/skills/<name>/x`
    are the skill's; `build.py`, `../x`, `/usr/bin/x` and `src/app.py` (no `src/` in the
    skill) are taken to be the user's project and left alone.
    """
    path, definite = _skill_root_relative(token.strip("\"'"), skill)
    if path is None:
        return None
    if not definite and path.startswith(("/", "~", "../")):
        return None
    while path.startswith("./"):
        path = path[2:]
    if not path or _PLACEHOLDER.search(path) or path.startswith("../"):
        return None
    top = path.split("/", 1)[0]
    if definite or top == "scripts" or ("/" in path and skill.exists(top)):
        return path
    return None


def _skill_root_relative(path: str, skill: Skill) -> tuple[str | None, bool]:
    """(path with a skill-folder prefix removed, whether such a prefix was there). A prefix
    that names another folder of the skill's (`<skill-scripts>/`) gives (None, True)."""
    m = SKILL_DIR_PREFIX.match(path)
    if m:
        if not names_root(m.group(0)):
            return None, True
        rest = path[m.end():]
        # `<SKILL_ROOT>/<this skill's name>/scripts/x.py`: the prefix names the folder of
        # all skills, the next folder is this skill (when it has no folder of that name).
        for name in {skill.name, skill.folder_name} - {None, ""}:
            if rest.startswith(f"{name}/") and not skill.exists(name):
                return rest[len(name) + 1:], True
        return rest, True
    for name in {skill.name, skill.folder_name} - {None, ""}:
        marker = f"skills/{name}/"
        if marker in path:
            return path.split(marker, 1)[1], True
        if path.rstrip("/").endswith(f"skills/{name}"):
            return "", True
    return path, False


def names_root(prefix: str) -> bool:
    """A skill-folder prefix (`<skill-dir>/`, `$SKILL_ROOT/`) names the skill's own folder
    rather than one of its subfolders or the folder of all skills."""
    words = (w.lower() for w in _NAME_WORD.findall(prefix.replace("path/to/", "path to ")))
    return all(w in _ROOT_WORDS for w in words)


class BlockShell:
    """The working folder and folder variables of one shell (a code block). `variables`:
    a table shared with the document's other blocks, since a variable set in one block is
    used in the next."""

    def __init__(self, skill: Skill, variables: dict[str, str | None] | None = None) -> None:
        self.skill = skill
        # Skill-relative working folder: "" is the skill root, which is what a command is
        # assumed to run from until a `cd` says otherwise; UNKNOWN is anywhere else.
        self.cwd: str | None = ""
        self.vars: dict[str, str | None] = {} if variables is None else variables

    def assign_line(self, text: str) -> None:
        """A whole command line that sets a variable from a command's output
        (`SKILL_DIR="$(cd "$(dirname "$0")" && pwd)/scripts"`): its value cannot be known, and
        the segments it is cut into at `$(` no longer read as an assignment."""
        m = _ASSIGN.match(text.strip())
        if m and ("$(" in m.group(2) or "`" in m.group(2)):
            self.vars[m.group(1)] = UNKNOWN

    def step(self, segment: str, words: list[str]) -> bool:
        """Follow `cd` and `VAR=...` in one simple command; True when it was one of those."""
        if not words:
            return False
        m = _ASSIGN.match(segment.strip())
        if m and len(words) == 1 or (m and words[0] in ("export", "local", "readonly")):
            self.vars[m.group(1)] = self.folder(m.group(2).strip().strip("\"'"))
            return True
        cd = _CD.match(segment.strip())
        if cd:
            target = (cd.group(1) or "").strip().strip("\"'")
            self.cwd = self.folder(target) if target and target != "-" else UNKNOWN
            return True
        return False

    def folder(self, value: str) -> str | None:
        """The skill folder (or one inside it) that `value` names, or UNKNOWN."""
        value = value.rstrip("/")
        if not value or "$(" in value or "`" in value:
            return UNKNOWN
        var = _VAR_REF.match(value)
        if var:
            name = var.group(1) or var.group(2)
            if name in self.vars:
                base, rest = self.vars[name], value[var.end():]
                return UNKNOWN if base is None else _join(base, rest)
        path, definite = _skill_root_relative(value + "/", self.skill)
        if definite:
            return UNKNOWN if path is None else _join("", path)
        if value.startswith(("/", "~", "$", "..")) or self.cwd is None:
            return UNKNOWN
        inside = _join(self.cwd, value)
        return inside if inside is not None and self.skill.exists(inside) else UNKNOWN

    def script(self, token: str) -> tuple[str | None, bool]:
        """(skill-relative path of a script a command runs, known). Not known (False): it
        runs from a folder outside the skill, or one a static reading cannot tell."""
        path = token.strip("\"'")
        var = _VAR_REF.match(path)
        if var and (var.group(1) or var.group(2)) in self.vars:
            base = self.vars[var.group(1) or var.group(2)]
            if base is None:
                return None, False
            rel = _join(base, path[var.end():])
            return (rel if rel and not _PLACEHOLDER.search(rel) else None), True
        if _skill_root_relative(path, self.skill)[1] or path.startswith(("/", "~")):
            rel = skill_relative(path, self.skill)
            if (var and rel is not None and "/" not in rel and not self.skill.exists(rel)
                    and self.skill.exists("scripts/" + rel)):
                # `$SKILL_DIR/x.sh` with SKILL_DIR set where this reading cannot see, and x.sh
                # in scripts/: the variable names the scripts folder (issue 36).
                rel = "scripts/" + rel
            return rel, True
        if self.cwd is None:
            return None, False  # relative to a folder outside the skill
        if self.cwd:
            rel = _join(self.cwd, path)
            return (rel if rel and not _PLACEHOLDER.search(rel) else None), True
        return skill_relative(path, self.skill), True


def _join(base: str, rest: str) -> str | None:
    """`base/rest` normalised, or None when it leaves the skill."""
    joined = posixpath.normpath(posixpath.join(base, rest.lstrip("/"))) if rest else base
    if joined == ".":
        return ""
    return None if joined == ".." or joined.startswith("../") else joined
