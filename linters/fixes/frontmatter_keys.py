"""SF112: move an unknown frontmatter key under `metadata` as a string (safe).

Only for keys the spec does not know at all (the error form of SF112) whose value is a
scalar: `category: seo` becomes `metadata: {category: seo}` with the value's text kept as
written (`version: 1.0` becomes the string "1.0"). Keys Claude Code reads (`model`,
`disable-model-invocation`, ...) stay where they are: moving them would switch off what they
do there. A nested value has no string form to move, so it gets no fix.
"""

from __future__ import annotations

import re

from ruamel.yaml.comments import CommentedMap

from linters.fixes.frontmatter_text import locate, rt_dump, rt_load
from linters.fixes.registry import fixer
from skillforge.models.findings import Finding, Severity
from skillforge.models.fixes import Fix
from skillforge.models.skill import Skill

_COMMENT = re.compile(r"\s+#.*$")


@fixer("SF112")
def move_under_metadata(skill: Skill, finding: Finding) -> list[Fix]:
    if finding.severity != Severity.error or skill.frontmatter_status != "ok":
        return []
    fm = skill.frontmatter
    where = locate(skill)
    if fm is None or where is None:
        return []
    key = next((k for k, line in fm.key_lines.items() if line == finding.line), None)
    loaded = rt_load(where.raw) if key is not None else None
    if loaded is None:
        return []
    yaml, data = loaded
    if key not in data or isinstance(data[key], (dict, list)) or data[key] is None:
        return []
    text = _source_text(where.lines()[finding.line - 1], key, data[key])
    meta = data.get("metadata")
    if meta is None and "metadata" in data or meta is not None and (
            not isinstance(meta, dict) or key in meta):
        return []
    position = list(data).index(key)
    del data[key]
    if meta is None:
        meta = CommentedMap()
        data.insert(min(position, len(data)), "metadata", meta)
    meta[key] = text
    edit = where.edit(rt_dump(yaml, data, where.newline))
    if edit is None:
        return []
    return [Fix(rule="SF112", title=f"Move `{key}` under `metadata:`", safety="safe",
                edits=(edit,))]


def _source_text(line: str, key: str, value: object) -> str:
    """The value as the author wrote it: a string as read, anything else (a number, a
    date, a boolean) as its text on the line."""
    if isinstance(value, str):
        return str(value)
    after = line.split(":", 1)[1] if ":" in line else str(value)
    return _COMMENT.sub("", after).strip() or str(value)
