"""A run that stops when decided (`skillforge trial --until-decided`, issue 38): its rounds.

A round is one attempt of every case in every condition. After each, the headline metric's
anytime-valid interval (skillforge.lift.sequential) and the sequential pass/fail test are
recorded; the run stops when the headline verdict is decided either way, when the interval
is narrower than the margin, or when the attempts run out. The record is kept beside the
run (`runs/<run_id>/rounds.json`, skillforge.trials.rounds) and in `lift.json` under
`extra.rounds`; the final verdict of such a run is the one of its last round.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from skillforge.models.verdicts import Verdict

StopReason = Literal["decided helps", "decided hurts", "interval narrower than the margin",
                     "max attempts reached", "cancelled", "failed", "the cost cap"]
DEFAULT_MARGIN = 0.05


class _Model(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class MetricSequence(_Model):
    """One metric after a round: its mean lift so far and its anytime-valid interval."""

    lift: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int = 0  # paired (case, attempt) values so far
    verdict: Verdict = "inconclusive"


class PassSequence(_Model):
    """The paired pass/fail outcomes so far, as the sequential test sees them."""

    with_only: int = 0  # discordant pairs passing only with the skill
    base_only: int = 0
    e_value: float = 1.0  # the mixture test's evidence; 1 / alpha (20) decides
    ci_low: float | None = None  # the pass-rate difference's anytime-valid interval
    ci_high: float | None = None
    verdict: Verdict = "inconclusive"


class RoundResult(_Model):
    """The state after one round."""

    round: int
    trials: int = 0  # trials run so far, every condition
    metric: str = "overall"  # the headline metric the width is measured on
    metrics: dict[str, MetricSequence] = Field(default_factory=dict)
    pass_: PassSequence | None = Field(default=None, alias="pass")
    verdict: Verdict = "inconclusive"  # the headline's
    by: list[str] = Field(default_factory=list)
    width: float | None = None  # of the headline metric's interval

    @property
    def headline(self) -> MetricSequence | None:
        return self.metrics.get(self.metric)


class RoundsRecord(_Model):
    """Every round of an --until-decided run, and why it stopped (None while it runs)."""

    margin: float = DEFAULT_MARGIN
    max_attempts: int = 0
    confidence: float = 0.95
    interval: str = "anytime-valid"
    method: str = ""
    rounds: list[RoundResult] = Field(default_factory=list)
    stopped_at: int | None = None
    reason: StopReason | None = None

    def sentence(self) -> str:
        """"interval: anytime-valid, stopped at round 3 because decided helps" (the report's
        and the CLI's line)."""
        if self.reason is None:
            return f"interval: {self.interval}, still running (round {len(self.rounds)})"
        return (f"interval: {self.interval}, stopped at round {self.stopped_at} because "
                f"{self.reason}")
