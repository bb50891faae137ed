"""Parts of a skill and what removing one does (ablation, CONTRACTS.md sections 6 and 8).

A part is one piece of a skill an author can cut: the description, a `##` section of
SKILL.md (by heading), the examples, a reference file, a script, all scripts, or the
`allowed-tools` grant. Its id is stable and readable, and survives in the run store, on the
command line and (made path-safe) in Harbor task names:

    description   section:quick-start   examples   reference:references/api.md
    script:scripts/run.py   scripts   allowed-tools

The condition `without:<part id>` stages the skill with that part removed. The lift of a
part is `with_skill − without:<part>` per metric (`AblationReport`, under
`lift.json`'s `extra.ablation`).
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
PartVerdict = Literal["earns its keep", "dead weight", "harmful", "inconclusive"]

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
    tokens: int = 0  # by the tokenizer SF402 uses (linters.tokens)
    loaded: Loaded = "on activation"
    # SKILL.md line spans (1-based, inclusive) the part occupies: sections, examples, the
    # frontmatter lines of the description or the grant.
    spans: list[tuple[int, int]] = Field(default_factory=list)
    # Files removed with the part (references, scripts).
    files: list[str] = Field(default_factory=list)


class EffectRow(BaseModel):
    """One metric's effect of a part: `with_skill − without:<part>` (a MetricLift's figures)."""

    model_config = ConfigDict(populate_by_name=True)

    with_: float | None = Field(default=None, alias="with")
    without: float | None = None
    effect: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int = 0
    verdict: Literal["helps", "hurts", "inconclusive"] = "inconclusive"
    # The planner's CI half-width now and cases needed for the target (inconclusive rows).
    half_width: float | None = None
    cases_needed: int | None = None


class RoutingEffect(BaseModel):
    """Whether the part changes if the skill is chosen at all (apart from task effects)."""

    # Share of trials that activated the skill, with the part and without it.
    activation_with: float | None = None
    activation_without: float | None = None
    # Routing precision (skill_efficiency's part a) per side, when the run has decoys.
    precision_with: float | None = None
    precision_without: float | None = None
    skill_execution: EffectRow = Field(default_factory=EffectRow)
    note: str = ""


class PartEffect(BaseModel):
    """What removing one part did: its task effect per metric, routing effect and verdict."""

    part: str
    kind: PartKind
    title: str
    tokens: int | None = None
    loaded: Loaded | None = None
    condition: str
    n_cases: int = 0
    trials: int = 0
    metrics: dict[str, EffectRow] = Field(default_factory=dict)
    routing: RoutingEffect = Field(default_factory=RoutingEffect)
    verdict: PartVerdict = "inconclusive"
    # The metrics whose rows decided the verdict, and the cases an inconclusive one needs.
    deciding: list[str] = Field(default_factory=list)
    cases_needed: int | None = None
    reason: str = ""
    # The metric a part's row shows (the first deciding one, else the first task metric
    # measured, else overall) and its paired delta per case (for the case-level view).
    headline: str = "overall"
    case_deltas: dict[str, float | None] = Field(default_factory=dict)
    # Measured agent tokens per trial, with the part minus without it, over the cases both
    # passed (positive = the part costs tokens in practice).
    tokens_measured: float | None = None
    tokens_measured_n: int = 0


class AblationReport(BaseModel):
    """`extra.ablation` of lift.json: every part ablated in the run, one `PartEffect` each."""

    reference: str = "with_skill"
    task_metrics: list[str] = Field(default_factory=list)
    routing_metrics: list[str] = Field(default_factory=list)
    target_half_width: float = 0.05
    min_cases: int = 5
    ci_method: str = "skew-t"
    parts: list[PartEffect] = Field(default_factory=list)
    # Parts the run asked for with no trial on either side (nothing to compare).
    missing: list[str] = Field(default_factory=list)
