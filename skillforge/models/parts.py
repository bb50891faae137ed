"""Parts of a skill and what removing one does (ablation, CONTRACTS.md sections 6 and 8).

A part is one piece of a skill an author can cut: the description, a `##` section of
SKILL.md (by heading), the examples, a reference file, a script, all scripts, or the
`allowed-tools` grant. Its id is stable and readable, and survives in the run store, on the
command line and (made path-safe) in Harbor task names:

    description   section:quick-start   examples   reference:references/api.md
    script:scripts/run.py   scripts   allowed-tools

The condition `without:<part id>` stages the skill with that part removed. The lift of a
part is `with_skill − without:<part>` per metric (`skillforge.models.ablation`).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

PartKind = Literal["description", "section", "examples", "reference", "script", "scripts",
                   "allowed-tools"]
# When the part's tokens reach the agent's context: the description is in every system
# prompt; SKILL.md's body (sections, examples, the grant) once the skill is activated; a
# reference or script only when the agent reads it.
Loaded = Literal["always", "on activation", "when read"]

WITHOUT = "without:"
# A file path in a part id: POSIX, relative, no `..`, no spaces or colons.
_PATH = r"[A-Za-z0-9_@+][A-Za-z0-9._@+-]*(?:/[A-Za-z0-9_@+][A-Za-z0-9._@+-]*)*"
PART_ID_PATTERN = (r"(?:description|examples|scripts|allowed-tools|section:[a-z0-9][a-z0-9-]*"
                   rf"|reference:{_PATH}|script:{_PATH})")
PART_ID_RE = re.compile(rf"^{PART_ID_PATTERN}$")
ABLATED_CONDITION_PATTERN = rf"^{WITHOUT}{PART_ID_PATTERN}$"
_ABLATED_RE = re.compile(ABLATED_CONDITION_PATTERN)


def is_part_id(text: str) -> bool:
    return bool(PART_ID_RE.match(text)) and ".." not in text.split("/")


def is_ablated(condition: str) -> bool:
    """True for a `without:<part id>` condition."""
    return bool(_ABLATED_RE.match(condition)) and ".." not in condition.split("/")


def ablated_condition(part_id: str) -> str:
    """`without:<part id>`; ValueError for a malformed id."""
    if not is_part_id(part_id):
        raise ValueError(f"{part_id!r} is not a part id (e.g. description, section:workflow, "
                         "examples, reference:references/api.md, script:scripts/run.py, "
                         "scripts, allowed-tools)")
    return WITHOUT + part_id


def part_of(condition: str) -> str | None:
    """The part id of a `without:` condition, None for any other condition."""
    return condition[len(WITHOUT):] if is_ablated(condition) else None


class SkillPart(BaseModel):
    """One part of a skill, where it is, and what it costs in tokens."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: PartKind
    title: str  # the heading, the file path, or the part's name
    tokens: int = 0  # by the tokenizer SF402 uses (linters.text.tokens)
    loaded: Loaded = "on activation"
    # SKILL.md line spans (1-based, inclusive) the part occupies: sections, examples, the
    # frontmatter lines of the description or the grant.
    spans: list[tuple[int, int]] = Field(default_factory=list)
    # Files removed with the part (references, scripts).
    files: list[str] = Field(default_factory=list)
    # Ids of other parts that cover exactly what this one does (`examples` when the only
    # example is one `## Example` section): listed and measured once, under this id.
    same_as: list[str] = Field(default_factory=list)
