"""SKILL.md's frontmatter as text and as ruamel round-trip data, for the frontmatter fixes.

An edit goes through ruamel's round-trip mode (comments, key order and quoting kept), is
dumped with the indentation the author used and no line wrapping, and becomes the smallest
text edit of SKILL.md (`minimal_edit`), so the rest of the file is untouched.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from linters.fixes.edits import minimal_edit
from skillforge.models.fixes import TextEdit
from skillforge.models.skill import SKILL_MD, Skill

# No re-wrapping: ruamel folds long plain scalars at `width`, which would rewrite lines the
# fix never meant to touch.
_NO_WRAP = 1 << 16
# A spec-conforming `name` (CONTRACTS.md section 1).
NAME_RX = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass
class FrontmatterText:
    """Where the frontmatter sits in SKILL.md's text."""

    text: str  # SKILL.md's whole text
    start: int  # index of the frontmatter's first character (after the opening `---` line)
    end: int  # index just past its last line (the closing `---` line starts here)
    newline: str

    @property
    def raw(self) -> str:
        return self.text[self.start:self.end]

    def lines(self) -> list[str]:
        """SKILL.md's lines (split at `\\n`)."""
        return self.text.split("\n")

    def with_raw(self, new_raw: str) -> str:
        return self.text[:self.start] + new_raw + self.text[self.end:]

    def edit(self, new_raw: str) -> TextEdit | None:
        """The smallest edit of SKILL.md that puts `new_raw` in place of the frontmatter."""
        return minimal_edit(SKILL_MD, self.text, self.with_raw(new_raw))


def locate(skill: Skill) -> FrontmatterText | None:
    """The frontmatter of a SKILL.md that opens with `---` and closes it; None otherwise."""
    md = skill.skill_md
    fm = skill.frontmatter
    if md is None or md.text is None or fm is None or fm.end_line is None:
        return None
    text = md.text
    first = text.find("\n")
    if first < 0 or text[:first].rstrip() != "---":
        return None
    start = first + 1
    end = start + len(fm.raw)
    if text[start:end] != fm.raw:
        return None
    return FrontmatterText(text, start, end, "\r\n" if "\r\n" in fm.raw else "\n")


# (mapping indent, sequence indent, dash offset) layouts tried, most common first.
_LAYOUTS = ((2, 2, 0), (2, 4, 2), (4, 4, 0), (4, 6, 2), (4, 4, 2), (4, 2, 0), (3, 3, 0), (2, 3, 1))


def rt_load(raw: str) -> tuple[YAML, Any] | None:
    """A round-trip YAML set up like the author's file, and the data; None if it does not
    parse. The indentation is the layout whose dump of the unchanged data reproduces the
    most lines of `raw` (all of them, for an ordinary frontmatter)."""
    raw = raw.replace("\r\n", "\n")
    best: tuple[int, YAML, Any] | None = None
    for mapping, sequence, offset in _LAYOUTS:
        yaml = YAML(typ="rt")
        yaml.preserve_quotes = True
        yaml.width = _NO_WRAP
        yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
        try:
            data = yaml.load(raw)
        except YAMLError:
            return None
        dumped = rt_dump(yaml, data).split("\n")
        differ = len(set(raw.split("\n")) ^ set(dumped))
        if best is None or differ < best[0]:
            best = (differ, yaml, data)
        if differ == 0:
            break
    assert best is not None
    _differ, yaml, _data = best
    # The data is loaded again: a dump may have changed ruamel's bookkeeping.
    return yaml, yaml.load(raw)


def rt_dump(yaml: YAML, data: Any, newline: str = "\n") -> str:
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue().replace("\n", newline)


def same_style(old: Any, new: str) -> str:
    """`new` in the scalar style of `old` (quoted, folded, literal or plain)."""
    cls = type(old)
    if isinstance(old, str) and cls is not str:
        try:
            return cls(new)
        except TypeError:
            return new
    return new
