"""SF116: point a broken link or path at the file it meant, when that file exists under
another letter case or in another folder of the skill (safe: the file is the same one).

The fix is offered only when exactly one file of the skill matches: the same path in
another case (`References/API.md` for `references/api.md`), or else the same file name,
in any case, in one other folder (`references/forms.md` for `forms.md`).
"""

from __future__ import annotations

import posixpath
import re

from linters.fixes.registry import fixer
from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix, TextEdit
from skillforge.models.skill import Skill

# Path-like words: runs of path characters holding a `/` or a `.ext`.
_PATHISH = re.compile(r"[A-Za-z0-9_.~/-]*(?:/[A-Za-z0-9_.~-]+|\.[A-Za-z0-9]{1,8})")
_QUOTED = re.compile(r"`([^`]+)`")


@fixer("SF116")
def relink(skill: Skill, finding: Finding) -> list[Fix]:
    holder = skill.file(finding.path or "")
    if holder is None or holder.text is None or not finding.line:
        return []
    lines = holder.text.split("\n")
    if finding.line > len(lines):
        return []
    line = lines[finding.line - 1]
    base = posixpath.dirname(holder.path)
    named = _QUOTED.findall(finding.message)
    column = (finding.column or 1) - 1
    candidates = []
    for m in _PATHISH.finditer(line):
        word = m.group(0)
        target = word.split("#", 1)[0]
        found = _match(skill, base, target)
        if found is None:
            continue
        # Prefer the word the message names, then the one nearest the reported column.
        candidates.append((word not in named, abs(m.start() - column), m, found))
    if not candidates:
        return []
    _named, _dist, m, found = min(candidates, key=lambda c: (c[0], c[1], c[2].start()))
    word = m.group(0)
    new = posixpath.relpath(found, base or ".")
    if word.startswith("./") and not new.startswith("."):
        new = "./" + new
    edit = TextEdit(path=holder.path, start_line=finding.line - 1, start_col=m.start(),
                    end_line=finding.line - 1, end_col=m.end(), new_text=new)
    return [Fix(rule="SF116", title=f"Link to `{new}` instead of `{word}`", safety="safe",
                edits=(edit,))]


def _match(skill: Skill, base: str, target: str) -> str | None:
    """The one existing file `target` (relative to `base`) meant, when it does not exist
    as written; None when it exists, or no single file matches."""
    if not target or "://" in target:
        return None
    joined = posixpath.normpath(posixpath.join(base, target)) if base else posixpath.normpath(target)
    if joined.startswith("..") or skill.exists(joined):
        return None
    files = [f.path for f in skill.files if f.present and not f.is_dir]
    same_case = [p for p in files if p.lower() == joined.lower()]
    if len(same_case) == 1:
        return same_case[0]
    name = posixpath.basename(joined).lower()
    same_name = [p for p in files if posixpath.basename(p).lower() == name]
    return same_name[0] if len(same_name) == 1 else None
