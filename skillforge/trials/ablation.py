"""The target skill with one part removed: what a `without:<part>` trial stages.

    tree = ablated_tree(skills.target, "section:workflow")

Everything but the part is byte-identical to what `with_skill` stages:

- a section or the examples: those SKILL.md lines are cut, every other line kept as is;
- a reference or script (or all scripts): the file is absent; every mention of it stays, so
  a dangling mention is part of what is measured;
- the description: replaced by a neutral text of the same length, so the skill can still
  be found by name but not by what it says (the system prompt lists the neutral text);
- the `allowed-tools` grant: its frontmatter lines are cut.

The parts are read from the staged SKILL.md itself (skillforge.authoring.parts), so the
lines cut are those of the bytes being staged.
"""

from __future__ import annotations

import json
from dataclasses import replace

from skillforge.authoring.parts import PartsError, part_index, parts_of
from skillforge.models.parts import SkillPart
from skillforge.models.skill import SKILL_MD, classify
from skillforge.sandbox.skill_tree import SkillTree, TreeEntry

# Neutral words for a replaced description: true of any skill, naming no task or domain.
NEUTRAL = "Instructions and resources for an agent. "


class AblationError(ValueError):
    """A part cannot be removed; the message names the part and what exists."""


def neutral_text(length: int) -> str:
    """Neutral sentences of exactly `length` characters: whole words, padded with dots."""
    if length <= 0:
        return ""
    run = NEUTRAL * (length // len(NEUTRAL) + 2)
    text = run[:length]
    if run[length].isalpha():  # the cut falls inside a word: drop the word's start
        text = text.rstrip("abcdefghijklmnopqrstuvwxyzAI")
    text = text.rstrip()
    return text + "." * (length - len(text))


def tree_parts(tree: SkillTree) -> list[SkillPart]:
    """The parts of a staged tree (its SKILL.md and its reference and script files)."""
    texts: dict[str, str | None] = {}
    for rel, entry in tree.files.items():
        if entry.link is None and classify(rel) in ("script", "reference"):
            try:
                texts[rel] = entry.data.decode("utf-8")
            except UnicodeDecodeError:
                texts[rel] = None
    try:
        return parts_of(tree.skill_md_text(), texts)
    except PartsError as exc:
        raise AblationError(f"{tree.source}: {exc}") from exc


def _cut(lines: list[str], spans: list[tuple[int, int]]) -> list[str]:
    drop = {i for a, b in spans for i in range(a - 1, b)}
    return [line for i, line in enumerate(lines) if i not in drop]


def _neutral_description(lines: list[str], part: SkillPart, description: str) -> list[str]:
    (a, b), = part.spans
    first = lines[a - 1]
    indent = first[: len(first) - len(first.lstrip())]
    end = "\r\n" if lines[b - 1].endswith("\r\n") else "\n"
    # JSON string syntax is YAML's double-quoted scalar; the text has no quote or backslash.
    new = f"{indent}description: {json.dumps(neutral_text(len(description)))}{end}"
    return lines[: a - 1] + [new] + lines[b:]


def ablated_tree(tree: SkillTree, part_id: str) -> SkillTree:
    """`tree` without the part `part_id`; AblationError when it has no such part."""
    listed = tree_parts(tree)
    part = part_index(listed).get(part_id)  # a same_as id removes what its twin does
    if part is None:
        raise AblationError(f"the skill {tree.name} ({tree.source}) has no part {part_id!r}; "
                            f"its parts: {', '.join(p.id for p in listed) or 'none'} "
                            "(`skillforge parts PATH` lists them)")
    files = dict(tree.files)
    description = tree.description
    if part.files:
        for rel in part.files:
            files.pop(rel, None)
    else:
        md = files[SKILL_MD]
        lines = md.data.decode("utf-8").splitlines(keepends=True)
        if part.kind == "description":
            lines = _neutral_description(lines, part, tree.description)
            description = neutral_text(len(tree.description))
        else:
            lines = _cut(lines, part.spans)
        files[SKILL_MD] = TreeEntry(data="".join(lines).encode("utf-8"),
                                    executable=md.executable)
    return replace(tree, files=files, description=description,
                   source=f"{tree.source} without {part_id}")
