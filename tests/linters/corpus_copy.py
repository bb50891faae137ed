"""A scratch copy of the shared corpus in which the files it did not copy exist again.

tests/corpus.py passes a skill's not-copied files to the loader as present=False entries, which
is enough for the skill's own links and commands. A skill nested in another
(spark-video/references/spark-video-cast/) may also use the *enclosing* skill's files, which
the linter looks for on disk. So the copy recreates every not-copied file as an empty
placeholder (as the label authors did, see ../shared/corpus/labels/README.md), and `load`
still marks a skill's own placeholders present=False, so nothing judges their empty content.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from skillforge.models.skill import Skill, load_skill
from tests.corpus import SKILLS_ROOT, missing_files


def materialise(dest: Path, src: Path = SKILLS_ROOT) -> Path:
    """Copy the corpus (or another laid out like it) to `dest` with an empty placeholder
    for every not-copied file."""
    shutil.copytree(src, dest, symlinks=True)
    for manifest in sorted(dest.rglob("MANIFESTS.json")):
        for rel, entry in json.loads(manifest.read_text("utf-8")).items():
            for f in entry.get("files", []):
                if f.get("copied", True):
                    continue
                p = manifest.parent / rel / f["path"]
                if not p.exists():
                    p.parent.mkdir(parents=True, exist_ok=True)
                    p.touch()
    return dest


def skill_dirs(root: Path) -> list[Path]:
    return sorted(p.parent for p in root.rglob("SKILL.md"))


def load(root: Path, skill_dir: Path) -> Skill:
    """Load a skill of the copy; its own placeholders are known files without content."""
    original = SKILLS_ROOT / skill_dir.relative_to(root)
    placeholders = {f.path for f in missing_files(original)}
    skill = load_skill(skill_dir)
    skill.files = [
        replace(f, present=False, text=None, raw=None, sha256=None)
        if f.path in placeholders else f
        for f in skill.files
    ]
    return skill
