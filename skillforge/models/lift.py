"""Skill Lift reports (CONTRACTS.md section 8): the `lift.json` format and its companions.

`LiftReport` serialises to exactly the keys section 8 lists; everything else skillforge
computes around the lift (report label, stakeholder dimensions, triage evidence, sample-size
plans, the per-case table, judge agreement) lives under one separate top-level key, `extra`,
the same convention ATIF uses for keys outside its schema. Python keywords in the format
(`with`, `pass`, `class`) are fields with a trailing underscore and the keyword as alias;
always dump with `by_alias=True` (`dump_lift_report` does).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_serializer

from skillforge.models.fileio import atomic_write_text
from skillforge.models.labels import CalibrationReport
from skillforge.models.ablation import AblationReport
from skillforge.models.skillcraft import SkillcraftReport
from skillforge.models.triggers import TriggerReport
from skillforge.models.rounds import RoundsRecord
from skillforge.models.verdicts import (  # noqa: F401 - Verdict: the lift's vocabulary
    ErrorSummary,
    Headline,
    PassTest,
    UseSummary,
    Verdict,
)

TriageClass = Literal["unstable", "never_discovered", "misused", "overhead", "unexplained"]
# "bounded" is the only interval a report is computed with now; the others are read from
# lift.json files written before issue 33 withdrew them (they under-covered off-normal data).
CiMethod = Literal["bounded", "skew-t", "t", "bootstrap"]
SKILL_LIFT = "Skill Lift"
VERSION_DELTA = "version delta"


class _Model(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class MetricLift(_Model):
    """One row of the lift table: paired-case means, the lift and its 95% CI."""

    with_: float | None = Field(default=None, alias="with")
    base: float | None = None
    lift: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int = 0
    positive_share: float | None = None
    verdict: Verdict = "inconclusive"


class PassSummary(_Model):
    """Pass rates per condition (fixed denominator), normalised gain and pass@k."""

    with_: float | None = Field(default=None, alias="with")
    base: float | None = None
    g: float | None = None
    # {"with": {k: pass@k}, "base": {k: pass@k}}; k is written as a string key in JSON.
    pass_at_k: dict[str, dict[int, float]] = Field(default_factory=dict)


class ResourceDiff(_Model):
    """One SkillCraft efficiency figure: means over the qualifying cases and their Diff."""

    with_: float | None = Field(default=None, alias="with")
    base: float | None = None
    diff: float | None = None
    n: int = 0


class Efficiency(_Model):
    """Section 8's `efficiency: {...}`: resource diffs on cases both conditions passed."""

    n_cases: int = 0
    tokens: ResourceDiff = Field(default_factory=ResourceDiff)
    turns: ResourceDiff = Field(default_factory=ResourceDiff)
    tool_calls: ResourceDiff = Field(default_factory=ResourceDiff)
    wall_s: ResourceDiff = Field(default_factory=ResourceDiff)
    cost_usd: ResourceDiff = Field(default_factory=ResourceDiff)
    script_exec_rate: float | None = None
    script_runs: int = 0


class NegativeCase(_Model):
    case_id: str
    delta: float
    class_: TriageClass = Field(alias="class")


class Inventory(_Model):
    trials: int = 0
    ok: int = 0
    error: int = 0
    timeout: int = 0
    missing_pairs: int = 0


class TriageEvidence(_Model):
    """Why a negative case got its class: the facts each rule looked at."""

    case_id: str
    class_: TriageClass = Field(alias="class")
    reason: str
    failed_attempts: dict[str, int] = Field(default_factory=dict)
    spread: dict[str, float | None] = Field(default_factory=dict)
    activation_rate: float | None = None
    fell: list[str] = Field(default_factory=list)


class SamplePlan(_Model):
    """How many cases (and attempts per case) a CI half-width target needs."""

    metric: str = "overall"
    target_half_width: float = 0.05
    n_cases: int = 0
    sd: float | None = None
    half_width: float | None = None
    cases_needed: int | None = None
    attempts_observed: float | None = None
    between_case_var: float | None = None
    within_case_var: float | None = None
    attempts_needed: int | None = None
    # Trade-off under the variance model: attempts per side -> cases needed.
    cases_by_attempts: dict[int, int | None] = Field(default_factory=dict)
    note: str = ""


class CaseRow(_Model):
    """One case of the per-case table (heatmap, side-by-side): S per side and D per metric."""

    case_id: str
    kind: str | None = None
    with_: dict[str, float | None] = Field(default_factory=dict, alias="with")
    base: dict[str, float | None] = Field(default_factory=dict)
    delta: dict[str, float | None] = Field(default_factory=dict)
    # None: every attempt of that side was left out (errored before or during the agent).
    pass_with: float | None = 0.0
    pass_base: float | None = 0.0
    attempts_with: int = 0
    attempts_base: int = 0


class MetricAgreement(_Model):
    """Agreement of several judge models on one metric over the same trials."""

    n_items: int = 0
    n_judges: int = 0
    mean_abs_diff: float | None = None
    max_abs_diff: float | None = None
    percent_agreement: float | None = None
    alpha: float | None = None


class AgreementReport(_Model):
    judges: list[str] = Field(default_factory=list)
    metrics: dict[str, MetricAgreement] = Field(default_factory=dict)


class VerdictRule(_Model):
    """The rule behind every verdict of a report (section 8), stated in its method notes."""

    # helps: CI low > tie_eps; hurts: CI high < -tie_eps (float noise is not an effect).
    tie_eps: float = 1e-9
    # Fewer paired cases give "inconclusive" whatever the CI.
    min_cases: int = 6
    # A paired pass/fail verdict also needs its exact test below this level.
    alpha: float = 0.05
    # Reports written with the withdrawn `--ci bootstrap`: it was refused below this many.
    bootstrap_min_cases: int | None = Field(default=None, exclude_if=lambda v: v is None)


class WithheldVerdict(_Model):
    """A metric whose verdict is inconclusive by rule, not by its interval, and what would
    settle it: `reason` is "too few cases", "one-sided errors" or "no interval" (reports
    written before issue 33 may say "zero-width interval")."""

    reason: str
    n: int = 0
    min_cases: int = 6
    # The sample-size planner's cases for the target half-width, never below min_cases.
    cases_needed: int | None = None
    note: str = ""


class ReusedTrial(_Model):
    """A trial of the run that was not run: an earlier run's trial with the same inputs
    (skillforge.trials.cache), counted as an ordinary trial of this run."""

    case_id: str
    condition: str
    attempt: int
    reused_from: str


class LiftExtra(_Model):
    """Everything computed beside section 8's keys (see the module docstring)."""

    label: str = SKILL_LIFT
    baseline_version: str | None = None
    # The outcome metrics `overall` averaged in this run (the headline's components).
    overall_of: list[str] = Field(default_factory=list)
    # Whether the run was scored without the LLM judge (`--no-judge`); None: not known.
    no_judge: bool | None = None
    ci_method: CiMethod = "t"
    confidence: float = 0.95
    bootstrap_resamples: int | None = None
    bootstrap_seed: int | None = None
    # "studentized" (bootstrap-t); None in reports from before it replaced the percentile one.
    bootstrap_kind: str | None = None
    verdict_rule: VerdictRule = Field(default_factory=VerdictRule)
    withheld: dict[str, WithheldVerdict] = Field(default_factory=dict)
    pass_threshold: float = 0.6
    cancelled: int = 0
    missing_metrics: list[str] = Field(default_factory=list)
    unpaired: dict[str, int] = Field(default_factory=dict)
    dimensions: dict[str, float | None] = Field(default_factory=dict)
    triage: list[TriageEvidence] = Field(default_factory=list)
    plans: dict[str, SamplePlan] = Field(default_factory=dict)
    cases: list[CaseRow] = Field(default_factory=list)
    judge_agreement: AgreementReport | None = None
    use: UseSummary | None = None
    pass_test: PassTest | None = None
    headline: Headline | None = None
    errors: ErrorSummary = Field(default_factory=ErrorSummary)
    # SkillCraft's metrics of a run with skill_mode trials; absent from lift.json otherwise.
    skillcraft: SkillcraftReport | None = None
    # Agreement of the judges with the author's labels (issue 19); absent without labels.
    calibration: CalibrationReport | None = None
    # The lift of each part of the skill (runs with `without:<part>` trials); else absent.
    ablation: AblationReport | None = None
    # A trigger run's description loop (issue 21), recomputed from the store; else absent.
    triggers: TriggerReport | None = None
    # The trials reused from earlier runs (trial cache); absent when every trial was run.
    reused: list[ReusedTrial] = Field(default_factory=list)
    # A run that stopped when decided (--until-decided): every round; else absent.
    rounds: RoundsRecord | None = None

    @model_serializer(mode="wrap")
    def _omit_absent_sections(self, handler):  # type: ignore[no-untyped-def]
        data = handler(self)
        if self.skillcraft is None and isinstance(data, dict):
            data.pop("skillcraft", None)
        if self.calibration is None and isinstance(data, dict):
            data.pop("calibration", None)
        if self.ablation is None and isinstance(data, dict):
            data.pop("ablation", None)
        if self.triggers is None and isinstance(data, dict):
            data.pop("triggers", None)
        if not self.reused and isinstance(data, dict):
            data.pop("reused", None)
        if self.rounds is None and isinstance(data, dict):
            data.pop("rounds", None)
        return data


class LiftReport(_Model):
    """`lift.json` (section 8)."""

    run_id: str
    skill: str | None = None
    agent: str | None = None
    model: str | None = None
    conditions: list[str] = Field(default_factory=lambda: ["with_skill", "baseline"])
    n_cases: int = 0
    metrics: dict[str, MetricLift] = Field(default_factory=dict)
    pass_: PassSummary = Field(default_factory=PassSummary, alias="pass")
    efficiency: Efficiency = Field(default_factory=Efficiency)
    negative_cases: list[NegativeCase] = Field(default_factory=list)
    inventory: Inventory = Field(default_factory=Inventory)
    extra: LiftExtra = Field(default_factory=LiftExtra)


class MetricComparison(_Model):
    """One metric of two runs side by side; `change` = lift_b - lift_a."""

    lift_a: float | None = None
    lift_b: float | None = None
    change: float | None = None
    verdict_a: Verdict = "inconclusive"
    verdict_b: Verdict = "inconclusive"
    # Only when computed from trial sets: a paired CI of the change over common cases.
    ci_low: float | None = None
    ci_high: float | None = None
    n_common: int | None = None
    verdict: Verdict | None = None


class RunComparison(_Model):
    run_a: str
    run_b: str
    label_a: str = SKILL_LIFT
    label_b: str = SKILL_LIFT
    metrics: dict[str, MetricComparison] = Field(default_factory=dict)
    pass_with: tuple[float | None, float | None] = (None, None)
    pass_base: tuple[float | None, float | None] = (None, None)
    g: tuple[float | None, float | None] = (None, None)
    only_in_a: list[str] = Field(default_factory=list)
    only_in_b: list[str] = Field(default_factory=list)


class LiftFileError(ValueError):
    """A lift.json that cannot be read; the message names the file and what to do."""


def dump_lift_report(report: LiftReport) -> str:
    """The report as `lift.json` text (aliases, so `with`/`pass`/`class` are spelled right)."""
    return json.dumps(report.model_dump(mode="json", by_alias=True), indent=2) + "\n"


def parse_lift_report(text: str, source: str = "lift.json") -> LiftReport:
    """Parse `lift.json` text; raises LiftFileError naming the source, line or field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LiftFileError(
            f"{source}:{exc.lineno}: not valid JSON ({exc.msg}); regenerate it with "
            "`skillforge report`"
        ) from exc
    try:
        return LiftReport.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise LiftFileError(
            f"{source}: field {where!r}: {first['msg']}; regenerate it with `skillforge report`"
        ) from exc


def load_lift_report(path: Path) -> LiftReport:
    """Read and validate a `lift.json` file; raises LiftFileError with what to do."""
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LiftFileError(f"cannot read {path}: {exc}") from exc
    return parse_lift_report(text, str(path))


def save_lift_report(report: LiftReport, path: Path) -> None:
    """Write `lift.json` atomically (temp file, fsync, rename)."""
    atomic_write_text(Path(path), dump_lift_report(report))
