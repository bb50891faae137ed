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
    return [skill for skill, _real in _find_skills(Path(path))]


def _find_skills(path: Path) -> list[tuple[Path, Path]]:
    """find_skills with each folder's resolved path. os.walk never descends into a
    symlinked folder, so every folder it yields is `path`'s real location joined with plain
    names: one resolve for the whole walk instead of one per skill (each walks the whole
    path with lstat)."""
    if path.is_file():
        return [(path.parent, path.parent.resolve())] if path.name == SKILL_MD else []
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if d not in PRUNE)
        if SKILL_MD in filenames:
            found.append(Path(dirpath))
    if not found:
        return [(path, path.resolve())]
    real = path.resolve()
    top = len(path.parts)
    return [(skill, real.joinpath(*skill.parts[top:])) for skill in sorted(found)]


def find_all(paths: list[Path]) -> list[Path]:
    """find_skills over several paths, without duplicates, in argument order."""
    return [skill for skill, _real in find_all_resolved(paths)]


def find_all_resolved(paths: list[Path]) -> list[tuple[Path, Path]]:
    """find_all's folders, each with its resolved path."""
    out: list[tuple[Path, Path]] = []
    seen: set[Path] = set()
    for p in paths:
        for skill, real in _find_skills(Path(p)):
            if real not in seen:
                seen.add(real)
                out.append((skill, real))
    return out
