"""Does a referenced path exist? (SF116 and the command rules.)

Inside the skill the loaded `Skill` answers (its files, plus those a corpus manifest lists);
outside it, a sibling skill of the same plugin or the skill that encloses a nested one, only
the disk can tell.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from skillforge.models.skill import SKILL_MD, Skill

if TYPE_CHECKING:
    from linters.text.path_refs import PathRef


def on_disk(base: Path, rel: str) -> bool:
    try:
        return (base / rel).exists()
    except OSError:
        return False


def enclosing_roots(root: Path) -> list[Path]:
    """Folders above `root` (up to four levels) that hold a SKILL.md: a skill nested in
    another (spark-video/references/spark-video-cast/) may use the enclosing skill's files."""
    out: list[Path] = []
    try:
        p = root.resolve().parent
        for _ in range(4):
            if (p / SKILL_MD).is_file():
                out.append(p)
            if p.parent == p:
                break
            p = p.parent
    except OSError:
        pass
    return out


class Resolver:
    """Existence checks for one skill, with the slow fallbacks computed only when needed."""

    def __init__(self, skill: Skill) -> None:
        self.skill = skill
        self._enclosing: list[Path] | None = None
        self._by_name: dict[str, list[str]] | None = None

    def exists(self, ref: PathRef) -> bool:
        return self.in_skill(ref) or self._outside(ref)

    @staticmethod
    def _target(ref: PathRef) -> tuple[str, str]:
        """(the folder `ref` is read from, the path it names from the skill root)."""
        base = "" if ref.from_root else posixpath.dirname(ref.file)
        return base, posixpath.normpath(posixpath.join(base, ref.path))

    def in_skill(self, ref: PathRef) -> bool:
        """`ref` is a file or folder of the loaded skill (the disk is not asked)."""
        base, target = self._target(ref)
        if target == ".." or target.startswith("../"):
            return False
        if self.skill.exists(target):
            return True
        if not ref.link and base:
            # Agents resolve a mentioned path from the skill root, wherever it is written.
            root_rel = posixpath.normpath(ref.path)
            if not root_rel.startswith("..") and self.skill.exists(root_rel):
                return True
        return False

    def _outside(self, ref: PathRef) -> bool:
        _base, target = self._target(ref)
        if target == ".." or target.startswith("../"):
            # Outside the skill folder (a sibling skill of the same plugin): only the disk
            # can tell. Accept it when it is there.
            return self._on_disk(self.skill.root, target)
        # A skill nested inside another skill may point at the enclosing skill's files.
        return any(self._on_disk(outer, ref.path) for outer in self.enclosing_roots())

    def _on_disk(self, base: Path, rel: str) -> bool:
        return on_disk(base, rel)

    def enclosing_roots(self) -> list[Path]:
        if self._enclosing is None:
            self._enclosing = enclosing_roots(self.skill.root)
        return self._enclosing

    def suggestion(self, path: str) -> str | None:
        """An existing file the author probably meant: same name, another folder or case."""
        if self._by_name is None:
            self._by_name = {}
            for f in self.skill.files:
                self._by_name.setdefault(posixpath.basename(f.path).lower(), []).append(f.path)
        name = posixpath.basename(path).lower()
        # Every skill has a SKILL.md: pointing at our own would be no help.
        hits = [] if name == "skill.md" else self._by_name.get(name, [])
        return min(hits, key=len) if hits else None
