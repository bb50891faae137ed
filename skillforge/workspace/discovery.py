"""Which skills a path names: a skill folder, a SKILL.md, or any folder of skills."""

from __future__ import annotations

import os
from pathlib import Path

from skillforge.models.skill import SKILL_MD

# Never descended into while looking for skills.
PRUNE = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".skillforge",
         ".tox", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


def find_skills(path: Path) -> list[Path]:
    """Every skill folder at or below `path`, sorted; nested skills are their own skills.

    A SKILL.md path names its folder. A folder with no SKILL.md anywhere below it is
    returned as itself, so linting it reports "no SKILL.md" rather than nothing.
    """
    path = Path(path)
    if path.is_file():
        return [path.parent] if path.name == SKILL_MD else []
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if d not in PRUNE)
        if SKILL_MD in filenames:
            found.append(Path(dirpath))
    return sorted(found) or [path]


def find_all(paths: list[Path]) -> list[Path]:
    """find_skills over several paths, without duplicates, in argument order."""
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        for skill in find_skills(p):
            key = skill.resolve()
            if key not in seen:
                seen.add(key)
                out.append(skill)
    return out
