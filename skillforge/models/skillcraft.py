"""SkillCraft's metrics of a Skill Mode run (CONTRACTS.md section 8, `extra.skillcraft`).

Computed by `skillforge.lift.skillcraft` from the run's trial records and its
`SkillModeTrial` rows, comparing the `skill_mode` condition ("Skill") with `baseline`
("Base"); stored in `lift.json` under `extra.skillcraft`, only when the run has skill-mode
trials. `skill`/`base` are the two sides; Diff = (Skill - Base) / Base.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

# SkillCraft's success rule: a case's score (grader reward if the case has a grader, else
# `overall`) of at least this counts as solved.
SUCCESS_THRESHOLD = 0.9
SKILL_MODE = "skill_mode"
BASELINE = "baseline"


class _Model(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class SideRates(_Model):
    """One rate per side (None when that side has no trial)."""

    skill: float | None = None
    base: float | None = None


class EfficiencyRow(_Model):
    """One resource over the cases both sides solved: per-case means, then their mean."""

    skill: float | None = None
    base: float | None = None
    diff: float | None = None
    n: int = 0


class SkillcraftEfficiency(_Model):
    """The efficiency table over the cases both sides solved (score >= 0.9 on each side)."""

    n_cases: int = 0
    cases: list[str] = Field(default_factory=list)
    tokens: EfficiencyRow = Field(default_factory=EfficiencyRow)
    cost_usd: EfficiencyRow = Field(default_factory=EfficiencyRow)
    turns: EfficiencyRow = Field(default_factory=EfficiencyRow)
    tool_calls: EfficiencyRow = Field(default_factory=EfficiencyRow)


class SkillOriginRow(_Model):
    """Where a skill came from: the run, case and attempt whose trial saved it."""

    run_id: str | None = None
    case_id: str | None = None
    attempt: int | None = None


class SkillRow(_Model):
    """One skill of one attempt chain (a chain's cache is its own; attempt = the chain)."""

    name: str
    attempt: int
    created_by: SkillOriginRow = Field(default_factory=SkillOriginRow)
    inherited: bool = False
    inherited_from: str | None = None
    # Successful save_skill calls of this name in the chain (a later one replaces the script).
    saves: int = 0
    # Cases (other than the creating trial's) where the chain executed the skill.
    reused_in: list[str] = Field(default_factory=list)
    executions: int = 0
    executions_ok: int = 0
    exec_rate: float | None = None
    failures: dict[str, int] = Field(default_factory=dict)
    description: str = ""


class SkillLiftRow(_Model):
    """One metric's Skill Lift of skill_mode over baseline: the `metrics` row of the lift
    computed with skill_mode as the "with" side (same CI and verdict rules), renamed."""

    skill: float | None = None
    base: float | None = None
    lift: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int = 0
    positive_share: float | None = None
    verdict: str = "inconclusive"


class SkillcraftReport(_Model):
    """`extra.skillcraft` of lift.json."""

    conditions: list[str] = Field(default_factory=lambda: [SKILL_MODE, BASELINE])
    success_threshold: float = SUCCESS_THRESHOLD
    n_cases: int = 0
    # SkillCraft's success rate (score >= 0.9) and skillforge's pass rate, per side; both
    # are means over all cases of the mean over attempts (errored trials count as fails).
    success: SideRates = Field(default_factory=SideRates)
    pass_rate: SideRates = Field(default_factory=SideRates)
    pass_threshold: float = 0.6
    # Cases solved (at least one attempt with score >= 0.9) per side.
    solved: dict[str, list[str]] = Field(default_factory=dict)
    exec_rate: float | None = None
    executions: int = 0
    executions_ok: int = 0
    reuse_rate: float | None = None
    skills_saved: int = 0
    invocations: int = 0
    inherited_reuse_rate: float | None = None
    skills_inherited: int = 0
    inherited_invocations: int = 0
    inherited_from: list[str] = Field(default_factory=list)
    modes: list[str] = Field(default_factory=list)
    efficiency: SkillcraftEfficiency = Field(default_factory=SkillcraftEfficiency)
    skills: list[SkillRow] = Field(default_factory=list)
    # Failed skill-tool calls by kind (the Coding Verifier's rejections and execution
    # failures), and every skill-tool call by tool.
    rejections: dict[str, int] = Field(default_factory=dict)
    tool_calls: dict[str, int] = Field(default_factory=dict)
    # Per-metric Skill Lift of skill_mode over baseline (the same statistics as the lift).
    lift: dict[str, SkillLiftRow] = Field(default_factory=dict)
    trials: int = 0
    skill_mode_rows: int = 0
