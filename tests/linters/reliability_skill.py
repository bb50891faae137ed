"""Small skills for the reliability rule tests, and a runner of one rule's checks alone."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from linters.context import LintContext
from linters.rules import checks
from skillforge.models.skill import SkillFile, load_skill

DESCRIPTION = "Summarises CSV exports into monthly totals. Use when the user attaches a .csv file."


def make_skill(root: Path, body: str, files: dict[str, str] | None = None,
               name: str = "csv-insights", modes: dict[str, int] | None = None) -> Path:
    """Write a skill folder: SKILL.md with `body`, plus `files` (path -> text)."""
    skill = root / name
    skill.mkdir(parents=True, exist_ok=True)
    md = f"---\nname: {name}\ndescription: {DESCRIPTION}\n---\n\n{textwrap.dedent(body).strip()}\n"
    (skill / "SKILL.md").write_text(md, encoding="utf-8")
    for rel, text in (files or {}).items():
        p = skill / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    for rel, mode in (modes or {}).items():
        os.chmod(skill / rel, mode)
    return skill


def fired(skill_dir: Path, rule_id: str, missing: tuple[str, ...] = ()) -> list:
    """Findings of one rule; `missing` lists files known to exist but not on disk."""
    extra = [SkillFile(path=p, size=0, present=False) for p in missing]
    ctx = LintContext(load_skill(skill_dir, extra_files=extra))
    return [f for ids, fn in checks() if rule_id in ids for f in fn(ctx) if f.rule == rule_id]
