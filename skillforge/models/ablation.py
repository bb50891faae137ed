"""What removing one part of a skill did (`extra.ablation` of lift.json, CONTRACTS.md section
8): per part its effect on each metric (`with_skill − without:<part>`), its routing effect and
the author's verdict. Apart from `skillforge.models.parts`, which every start imports (run
specs name ablated conditions), so only reports and the Lift tab build these models.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from skillforge.models.parts import Loaded, PartKind

PartVerdict = Literal["earns its keep", "dead weight", "harmful", "inconclusive"]


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
    min_cases: int = 6
    ci_method: str = "bounded"
    parts: list[PartEffect] = Field(default_factory=list)
    # Parts the run asked for with no trial on either side (nothing to compare).
    missing: list[str] = Field(default_factory=list)
