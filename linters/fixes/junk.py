"""SF405: delete a junk file or folder (unsafe: it deletes)."""

from __future__ import annotations

from linters.fixes.registry import fixer
from skillforge.models.findings import Finding
from skillforge.models.fixes import FileOp, Fix
from skillforge.models.skill import Skill


@fixer("SF405")
def delete_junk(skill: Skill, finding: Finding) -> list[Fix]:
    f = skill.file(finding.path or "")
    if f is None or not f.present:
        return []
    what = f"{f.path}/ and everything in it" if f.is_dir else f.path
    return [Fix(rule="SF405", title=f"Delete {what}", safety="unsafe",
                file_ops=(FileOp(kind="delete", path=f.path),))]
