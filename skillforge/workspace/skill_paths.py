"""Where skills live: a path inside a skills dir names a skill and a file of it.

A skills dir is any of `skills_dirs` (default SKILLS_DIRS: the folders harnesses load skills
from) or, failing that, any folder literally named `skills`. Home-relative dirs (`~/...`)
also match `$HOME/...` and the same tail under any home (/root, /home/<user>, /Users/<user>).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

SKILLS_DIRS: tuple[str, ...] = (
    "/skills", "~/.claude/skills", ".claude/skills", "~/.agents/skills", ".agents/skills",
    "~/.codex/skills", "~/.gemini/skills", "~/.config/opencode/skills", "/runtime/skills",
)


def _prefixes(d: str) -> list[tuple[bool, str]]:
    """(anchored at the start?, text) forms in which a skills dir can appear in a path."""
    d = d.rstrip("/")
    if d.startswith("~/"):
        tail = d[2:]
        return [(True, f"~/{tail}/"), (True, f"$HOME/{tail}/"), (True, f"${{HOME}}/{tail}/"),
                (False, f"/{tail}/")]  # /root/..., /home/<user>/..., /Users/<user>/...
    if d.startswith("/"):
        return [(True, d + "/")]
    return [(True, d + "/"), (False, f"/{d}/")]


def skill_path(path: str, skills_dirs: Sequence[str] = SKILLS_DIRS) -> tuple[str, str] | None:
    """(skill name, path inside the skill) when `path` lies in a skills dir, else None."""
    p = posixpath.normpath(path.strip().strip("'\""))
    if any(ch in p for ch in "*?[") or p.startswith(".."):
        return None
    for d in skills_dirs:
        for anchored, prefix in _prefixes(d):
            pos = 0 if anchored and p.startswith(prefix) else (-1 if anchored else p.find(prefix))
            if pos < 0:
                continue
            name, _, rest = p[pos + len(prefix):].partition("/")
            if name and rest:
                return name, rest
    parts = p.split("/")
    for i in range(len(parts) - 2, 0, -1):  # else the nearest folder literally named "skills"
        if parts[i - 1] == "skills" and parts[i] not in ("", ".", ".."):
            return parts[i], "/".join(parts[i + 1:])
    return None
