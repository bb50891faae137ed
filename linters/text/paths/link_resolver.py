"""Does a referenced path exist? (SF116 and the command rules.)

Inside the skill the loaded `Skill` answers (its files, plus those a corpus manifest lists);
outside it, a sibling skill of the same plugin or the skill that encloses a nested one, only
the disk can tell.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from linters.text.paths.chezmoi import chezmoi_source
from skillforge.models.skill import SKILL_MD, Skill

if TYPE_CHECKING:
    from linters.text.paths.path_refs import PathRef


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


def file_index(skill: Skill) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The skill's present files by lower-cased path and by lower-cased file name."""
    by_path: dict[str, list[str]] = {}
    by_name: dict[str, list[str]] = {}
    for f in skill.files:
        if f.present and not f.is_dir:
            by_path.setdefault(f.path.lower(), []).append(f.path)
            by_name.setdefault(posixpath.basename(f.path).lower(), []).append(f.path)
    return by_path, by_name


def meant_file(skill: Skill, base: str, target: str, by_path: dict[str, list[str]],
               by_name: dict[str, list[str]]) -> str | None:
    """The one existing file `target` (read from folder `base`) meant when it does not exist
    as written, or None: when it exists, climbs out of the skill, or not exactly one file
    fits. In order: the same path in another letter case; the path read from the skill's
    root (a docs page in `guides/` linking `./guides/setup.md` as its site does); the one
    file of the skill with that name (never a SKILL.md: another folder's is another skill)."""
    if not target or "://" in target:
        return None
    joined = posixpath.normpath(posixpath.join(base, target)) if base else posixpath.normpath(target)
    if joined.startswith("..") or skill.exists(joined):
        return None
    folder = posixpath.dirname(joined)
    if ".." in target.split("/") and folder and not skill.exists(folder):
        return None  # climbs out to a folder the skill does not have: outside on purpose
    same_case = by_path.get(joined.lower(), [])
    if len(same_case) == 1:
        return same_case[0]
    if base and ".." not in target.split("/"):
        from_root = posixpath.normpath(target)
        if skill.exists(from_root) and (from_root in by_path.get(from_root.lower(), [])
                                        or _is_folder(skill, from_root)):
            return from_root  # a file, or a folder (`[scripts](./scripts)`) of the skill
    name = posixpath.basename(joined).lower()
    if name == SKILL_MD.lower():
        return None
    same_name = by_name.get(name, [])
    return same_name[0] if len(same_name) == 1 else None


def _is_folder(skill: Skill, path: str) -> bool:
    """`path`, which the skill has, is one of its folders rather than one of its files."""
    f = skill.file(path)
    return f is None or f.is_dir


class Resolver:
    """Existence checks for one skill, with the slow fallbacks computed only when needed."""

    def __init__(self, skill: Skill) -> None:
        self.skill = skill
        self._enclosing: list[Path] | None = None
        self._index: tuple[dict[str, list[str]], dict[str, list[str]]] | None = None

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
        if self._has(target):
            return True
        if not ref.link and base:
            # Agents resolve a mentioned path from the skill root, wherever it is written.
            root_rel = posixpath.normpath(ref.path)
            if not root_rel.startswith("..") and self._has(root_rel):
                return True
        return False

    def _has(self, path: str) -> bool:
        """The skill has `path`, as written or as a chezmoi source tree installs it."""
        return self.skill.exists(path) or chezmoi_source(self.skill, path) is not None

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

    def suggestion(self, ref: PathRef) -> str | None:
        """The one existing file a broken `ref` meant (see `meant_file`), or None."""
        if self._index is None:
            self._index = file_index(self.skill)
        base, joined = self._target(ref)
        return meant_file(self.skill, base, ref.path, *self._index)
