"""Replace the `description` of a SKILL.md, and nothing else in it.

    text = with_description(old_text, "Summarises CSV files ... Use when ...")
    write_description(skill_dir, new, expect=current)   # atomic; refuses a changed file

The frontmatter is read with ruamel.yaml in round-trip mode (as the loader reads it) to find
where the `description` entry starts and where the next key starts; only those lines are
replaced, by `description: <value>` rendered by ruamel (quoted when the text needs it, on
one line). Comments and blank lines after the entry, every other key and the body stay
byte-identical. The result is parsed again: the new description must read back exactly
and every other key must be unchanged, else DescriptionEditError and nothing is written.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.error import YAMLError

from skillforge.models.fileio import atomic_write_text
from skillforge.models.skill import SKILL_MD, plain

MAX_DESCRIPTION = 1024


class DescriptionEditError(ValueError):
    """The description cannot be replaced safely; the message names the file and the fix."""


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 1_000_000  # one line: SF206 wants no newlines in a description
    return y


def split_frontmatter(text: str) -> tuple[str, str, str]:
    """(opening, frontmatter, rest): `---\\n`, the YAML between the fences, `---...` on."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    nl = "\r\n" if body.startswith("---\r\n") else "\n"
    if not body.startswith("---" + nl):
        raise DescriptionEditError("SKILL.md does not start with a `---` frontmatter block; "
                                   "fix it first (`skillforge lint` says how)")
    start = len(bom) + 3 + len(nl)
    end = text.find(nl + "---", start - len(nl))
    if end < 0:
        raise DescriptionEditError("SKILL.md's frontmatter is not closed by `---`; fix it "
                                   "first (`skillforge lint` says how)")
    return text[:start], text[start:end + len(nl)], text[end + len(nl):]


def _load(fm: str) -> CommentedMap:
    try:
        data = _yaml().load(fm)
    except YAMLError as exc:
        raise DescriptionEditError(f"SKILL.md's frontmatter is not valid YAML ({exc}); fix "
                                   "it first") from None
    if not isinstance(data, CommentedMap):
        raise DescriptionEditError("SKILL.md's frontmatter is not a mapping; fix it first")
    return data


def _render(value: str) -> str:
    out = io.StringIO()
    _yaml().dump({"description": value}, out)
    return out.getvalue()


def with_description(text: str, description: str) -> str:
    """`text` (a SKILL.md) with its description replaced (see the module docstring)."""
    if not description.strip():
        raise DescriptionEditError("the new description is empty")
    if len(description) > MAX_DESCRIPTION:
        raise DescriptionEditError(f"the new description has {len(description)} characters; "
                                   f"the spec allows {MAX_DESCRIPTION}")
    opening, fm, rest = split_frontmatter(text)
    data = _load(fm)
    if "description" not in data:
        raise DescriptionEditError("SKILL.md's frontmatter has no `description` to replace; "
                                   "add one first")
    lines = fm.splitlines(keepends=True)
    keys = list(data.keys())
    at = keys.index("description")
    first = data.lc.key("description")[0]
    stop = data.lc.key(keys[at + 1])[0] if at + 1 < len(keys) else len(lines)
    # Comments and blank lines between the entry and the next key stay where they are.
    while stop > first + 1 and (not lines[stop - 1].strip()
                                or lines[stop - 1].lstrip().startswith("#")):
        stop -= 1
    nl = "\r\n" if lines[first].endswith("\r\n") else "\n"
    entry = _render(description).replace("\n", nl)
    new_fm = "".join(lines[:first]) + entry + "".join(lines[stop:])
    check = _load(new_fm)
    if plain(check.get("description")) != description:
        raise DescriptionEditError("the new description does not read back unchanged from "
                                   "YAML; nothing was written")
    before = {k: plain(v) for k, v in data.items() if k != "description"}
    after = {k: plain(v) for k, v in check.items() if k != "description"}
    if before != after:
        raise DescriptionEditError("replacing the description would change other "
                                   "frontmatter keys; nothing was written")
    return opening + new_fm + rest


def read_description(skill_dir: Path) -> str | None:
    """The description in `skill_dir`/SKILL.md as YAML reads it (None when absent)."""
    _, fm, _ = split_frontmatter((skill_dir / SKILL_MD).read_text("utf-8"))
    value: Any = _load(fm).get("description")
    return plain(value) if value is not None else None


def write_description(skill_dir: Path, description: str, *, expect: str | None = None) -> Path:
    """Write the new description into `skill_dir`/SKILL.md atomically; with `expect`, refuse
    when the file's description is no longer `expect` (the author changed it meanwhile)."""
    path = skill_dir / SKILL_MD
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DescriptionEditError(f"cannot read {path}: {exc}") from None
    if expect is not None:
        _, fm, _ = split_frontmatter(text)
        now = plain(_load(fm).get("description"))
        if now != expect:
            raise DescriptionEditError(f"{path}: the description changed since the loop "
                                       "started; run the loop again on the new one")
    try:
        new = with_description(text, description)
    except DescriptionEditError as exc:
        raise DescriptionEditError(f"{path}: {exc}") from None
    atomic_write_text(path, new)
    return path
