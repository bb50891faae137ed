"""The author's labels of LLM judgments, and how well each judge agrees with them (issue 19).

A *judgment* is one judge model's value of one metric (or rubric criterion) on one piece of
judged content: a trial's trajectory for `accuracy`, `goal_accuracy`, `behavior_check` (and
the grader's `pass`), a version of the skill for the nine rubric criteria. A *label* is the
author's own value of the same thing. Both are keyed by the judged content's hash, the metric
or criterion, the judge model and the judge's prompt (rubric) version, so a re-judge of the
same content meets its old label (sessions.label_rows stores them).

Scales: every value is stored on the metric's own scale: trial metrics in [0, 1] (accuracy is
the judge's 0-10 / 10), `pass` 0 or 1, rubric criteria 0-10. `parse_author_score` reads what
an author types (accuracy and criteria as 0-10, like the judge; goal as met/partial/not).

`CalibrationReport` is `lift.json`'s `extra.calibration` (CONTRACTS.md section 8).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

LabelKind = Literal["trial", "rubric"]
LabelSource = Literal["judge_tab", "compare", "cli", "import"]
Status = Literal["calibrated", "not calibrated", "too few labels"]
TRIAL_LABEL_METRICS: tuple[str, ...] = ("accuracy", "goal_accuracy", "behavior_check", "pass")
# The grader's pass is not an LLM's; its "judge" is named for what decided it.
GRADER_JUDGES = ("grader", "overall")
DEFAULT_MIN_KAPPA = 0.4
DEFAULT_MIN_LABELS = 20


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Judgment(_Model):
    """One judge's value of one metric or criterion on one piece of content."""

    kind: LabelKind
    content_hash: str
    metric: str
    judge_model: str
    prompt_version: str = ""
    value: float
    skill: str | None = None
    run_id: str | None = None
    case_id: str | None = None
    condition: str | None = None
    attempt: int | None = None
    judged_at: str | None = None  # when the judge answered (repeats are told apart by it)

    @property
    def item(self) -> tuple[str, str, str]:
        """What is judged, whichever judge judged it: (kind, content, metric)."""
        return (self.kind, self.content_hash, self.metric)


class Label(_Model):
    """The author's value for one judgment key, with the judge's value they saw."""

    kind: LabelKind
    content_hash: str
    metric: str
    judge_model: str
    prompt_version: str = ""
    author_value: float
    judge_value: float | None = None
    reason: str = ""
    skill: str | None = None
    run_id: str | None = None
    case_id: str | None = None
    condition: str | None = None
    attempt: int | None = None
    source: LabelSource = "cli"
    created_at: datetime | None = None

    @property
    def accepted(self) -> bool:
        """The author kept the judge's value."""
        return self.judge_value is not None and abs(self.judge_value - self.author_value) < 1e-9

    @classmethod
    def of(cls, j: Judgment, author_value: float, reason: str = "",
           source: LabelSource = "cli") -> Label:
        return cls(kind=j.kind, content_hash=j.content_hash, metric=j.metric,
                   judge_model=j.judge_model, prompt_version=j.prompt_version,
                   author_value=author_value, judge_value=j.value, reason=reason,
                   skill=j.skill, run_id=j.run_id, case_id=j.case_id, condition=j.condition,
                   attempt=j.attempt, source=source)


def scale_max(metric: str) -> float:
    """The top of a metric's stored scale: 10 for a rubric criterion, else 1."""
    return 1.0 if metric in TRIAL_LABEL_METRICS else 10.0


def entry_hint(metric: str) -> str:
    """What the author types for this metric."""
    return {"accuracy": "0-10 (stored /10)", "goal_accuracy": "met, partial or not (1/0.5/0)",
            "behavior_check": "share of assertions that hold, 0-1",
            "pass": "y or n (1/0)"}.get(metric, "0-10")


def parse_author_score(metric: str, text: str) -> float:
    """The author's typed score on the metric's stored scale; ValueError says what fits."""
    t = text.strip().lower()
    words = {"goal_accuracy": {"met": 1.0, "partial": 0.5, "partially": 0.5, "not": 0.0,
                               "no": 0.0, "yes": 1.0},
             "pass": {"y": 1.0, "yes": 1.0, "pass": 1.0, "n": 0.0, "no": 0.0, "fail": 0.0}}
    if t in words.get(metric, {}):
        return words[metric][t]
    try:
        v = float(t)
    except ValueError:
        raise ValueError(f"{text!r} is not a score for {metric}: type {entry_hint(metric)}") \
            from None
    if metric == "accuracy":
        if not 0 <= v <= 10:
            raise ValueError(f"accuracy is typed 0-10 (as the judge scores it), got {text!r}")
        return v / 10
    if metric == "goal_accuracy" and v not in (0.0, 0.5, 1.0):
        raise ValueError(f"goal_accuracy is 1 (met), 0.5 (partially met) or 0, got {text!r}")
    if metric == "pass" and v not in (0.0, 1.0):
        raise ValueError(f"pass is y/1 or n/0, got {text!r}")
    top = scale_max(metric)
    if not 0 <= v <= top:
        raise ValueError(f"{metric} is scored 0-{top:g}, got {text!r}")
    if top == 10 and not v.is_integer():
        raise ValueError(f"rubric criteria are whole numbers 0-10, got {text!r}")
    return v


def shown_value(metric: str, value: float | None) -> str:
    """A value as the author types it (accuracy 0-10, goal met/partial/not, pass y/n)."""
    if value is None:
        return "-"
    if metric == "accuracy":
        return f"{value * 10:g}"
    if metric == "goal_accuracy":
        return {1.0: "met", 0.5: "partial", 0.0: "not"}.get(value, f"{value:g}")
    if metric == "pass":
        return "y" if value >= 0.5 else "n"
    return f"{value:g}" if metric not in TRIAL_LABEL_METRICS else f"{value:.2f}"


# --- the agreement of judges with the author (lift.json extra.calibration) -----------------


class CalibrationBar(_Model):
    """Under this bar a judge or metric is "not calibrated": kappa < min_kappa with at least
    min_labels labels ([judge] calibration_kappa, calibration_min_labels)."""

    min_kappa: float = DEFAULT_MIN_KAPPA
    min_labels: int = DEFAULT_MIN_LABELS


class SelfConsistency(_Model):
    """The same judge on the same content, judged more than once."""

    n_items: int = 0  # contents judged at least twice
    n_judgments: int = 0
    mean_abs_diff: float | None = None  # mean over items of the mean |a - b| over pairs
    exact_share: float | None = None  # share of pairs giving the same value


class IsotonicMapping(_Model):
    """A monotone map judge -> author fitted on the labels (applied only when it lowered the
    held-out error under cross-validation)."""

    x: list[float] = Field(default_factory=list)  # knots: judge values
    y: list[float] = Field(default_factory=list)  # author values at the knots
    folds: int = 0
    heldout_mae_raw: float | None = None
    heldout_mae_calibrated: float | None = None
    applied: bool = False
    note: str = ""


class JudgeAgreement(_Model):
    """One judge model on one metric or criterion against the author's labels."""

    judge: str
    metric: str
    kind: LabelKind = "trial"
    n: int = 0
    mae: float | None = None
    mae_ci: tuple[float, float] | None = None
    bias: float | None = None  # judge minus author
    bias_ci: tuple[float, float] | None = None
    rho: float | None = None  # Spearman
    rho_ci: tuple[float, float] | None = None
    kappa: float | None = None  # quadratic-weighted Cohen's kappa, binned to 0-10
    kappa_ci: tuple[float, float] | None = None
    self_consistency: SelfConsistency = Field(default_factory=SelfConsistency)
    status: Status = "too few labels"
    mapping: IsotonicMapping | None = None


class CalibratedLift(_Model):
    """A judged metric's lift with the judges' raw values and through their mappings."""

    raw: float | None = None
    raw_ci: tuple[float, float] | None = None
    calibrated: float | None = None
    calibrated_ci: tuple[float, float] | None = None
    n: int = 0
    judges_mapped: list[str] = Field(default_factory=list)


class CalibrationReport(_Model):
    """`extra.calibration`: agreement per judge model and metric or criterion."""

    bar: CalibrationBar = Field(default_factory=CalibrationBar)
    judgments: int = 0  # items (content x metric) judged in this run
    labelled: int = 0  # of which the author labelled
    rows: list[JudgeAgreement] = Field(default_factory=list)
    # Per metric: the worst status over its judges (what the gate and the lift table show).
    status: dict[str, Status] = Field(default_factory=dict)
    lift: dict[str, CalibratedLift] = Field(default_factory=dict)

    def uncalibrated(self) -> list[str]:
        """Metrics that are not shown to be calibrated (not calibrated, or too few labels)."""
        return [m for m, s in self.status.items() if s != "calibrated"]
