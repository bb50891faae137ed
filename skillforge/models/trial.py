"""Runs and trials (CONTRACTS.md sections 6-8): what a paired trial run is and what it leaves.

Every engine (the local Docker runner, an imported Harbor job) produces these records, so
the run store, the metrics, Skill Lift and the reports never care which engine ran a trial.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from skillforge.models.conditions import (  # noqa: F401 - re-exported: trial records' vocabulary
    BASE_CONDITIONS,
    AblatedCondition,
    BaseCondition,
    Condition,
    is_condition,
    stages_target,
)
from skillforge.models.parts import SkillPart
from skillforge.models.skill_mode import CacheMode

TrialStatus = Literal["ok", "error", "timeout", "cancelled"]
# Where a trial failed: `setup` before the agent took a turn (staging, the sandbox, the
# harness, a provider that never answered) and `agent` during its run (status `error`;
# ErrorCause says whether it is left out or counted as a failure); `grader` when the grader crashed, could not
# start or wrote no reward after the agent ran (the status stays the agent's, the grade is
# 0: fail-closed).
ErrorStage = Literal["setup", "agent", "grader"]
# Why a trial errored (status `error`, skillforge.lift.errors): `infrastructure` when
# nothing the skill or the agent did can have caused it (before the agent's first turn; the
# model provider failing or unreachable; Docker itself going away): left out of the lift and
# shown. `run` when the agent's run broke off for any other reason (the harness CLI
# crashed, the container stopped under the agent's own commands, the provider refused the
# conversation the run built): a failed trial, counted (pass false, outcome metrics 0), since
# a skill that crashes its runs must not have exactly its failures left out.
ErrorCause = Literal["infrastructure", "run"]
# How the built-in loop words a provider failure (skillforge.agent.loop); records stored
# before `error_cause` existed are classified by it.
PROVIDER_FAILED = "model request failed"


def error_cause_of(stage: ErrorStage | None, error: str | None, turns: int) -> ErrorCause:
    """The cause of an error when its source did not say: infrastructure before the agent's
    first turn or when the provider failed, else the run's own."""
    before = stage == "setup" or (stage is None and not turns)
    return "infrastructure" if before or (error or "").startswith(PROVIDER_FAILED) else "run"
# Stored before error_stage existed: a grader failure was `status: error, error: "grader: ..."`.
_LEGACY_GRADER_ERROR = "grader: "

WorkspacePolicy = Literal["isolated", "group"]

# The six default metrics (section 7), in report order; `grader` is reported apart.
DEFAULT_METRICS: tuple[str, ...] = (
    "accuracy",
    "goal_accuracy",
    "behavior_check",
    "security",
    "skill_execution",
    "skill_efficiency",
)
DETERMINISTIC_METRICS: tuple[str, ...] = ("security", "skill_execution", "skill_efficiency")
JUDGED_METRICS: tuple[str, ...] = ("accuracy", "goal_accuracy", "behavior_check")
ALL_METRICS: tuple[str, ...] = (*DEFAULT_METRICS, "grader", "overall")
# What the task came to (section 7): `overall` is their mean and the headline is about it.
OUTCOME_METRICS: tuple[str, ...] = ("grader", "accuracy", "goal_accuracy", "behavior_check",
                                    "security")
# How the skill was used: their baseline value is fixed by construction (the target cannot
# be activated there), so their paired difference is reported as use, never as lift.
PROCESS_METRICS: tuple[str, ...] = ("skill_execution", "skill_efficiency")

# Stakeholder dimensions: views over the metrics, no extra weighting (section 7).
DIMENSIONS: dict[str, tuple[str, ...]] = {
    "Security": ("security",),
    "Correctness": ("accuracy", "goal_accuracy"),
    "Discoverability": ("skill_execution", "skill_efficiency"),
    "Effectiveness": ("skill_execution", "goal_accuracy", "behavior_check"),
    "Efficiency": ("skill_efficiency",),
}


class Limits(BaseModel):
    cpus: float = 1.0
    memory_mb: int = 2048
    pids: int = 256
    timeout_sec: int = 600
    max_turns: int = 30
    disk_mb: int = 1024


class RunSpec(BaseModel):
    """What to run: cases x conditions x attempts, with which agent, model and sandbox."""

    skill_path: str
    case_ids: list[str] = Field(default_factory=list)  # empty = every case
    conditions: list[Condition] = Field(default_factory=lambda: ["with_skill", "baseline"])
    attempts: int = 3
    agent: str = "builtin"
    model: str | None = None
    provider: str | None = None
    sandbox: Literal["docker", "local"] = "docker"
    image: str = "python:3.12-slim"
    network: bool = False
    # An external harness's CLI: "auto", "image" or a binary's path (skillforge.harnesses.image).
    harness_cli: str = "auto"
    limits: Limits = Field(default_factory=Limits)
    workspace: WorkspacePolicy = "isolated"
    support_skills: list[str] = Field(default_factory=list)
    decoy_skills: list[str] = Field(default_factory=list)
    concurrency: int = 2
    pass_threshold: float = 0.6
    # The hard cost cap in USD (skillforge.trials.budget); a resume may change it.
    max_cost_usd: float | None = None
    # "version delta": the baseline runs an earlier version of the skill instead of none.
    baseline_version: str | None = None
    # Whether the LLM judge scores the trials, and with which models (as asked for: the
    # --judge-model flags, else [judge] models, else the agent's model). A resume keeps them,
    # so one run never mixes judged and unjudged trials. None: a run stored before this
    # field existed; its resume takes the flags.
    judge: bool | None = None
    judge_models: list[str] = Field(default_factory=list)
    # Skill Mode (the `skill_mode` condition): start every attempt's chain from the final
    # skill cache of another run (cross-task transfer), and whether new skills may be saved
    # (grow) or only the cached ones executed (static reuse).
    skill_cache_from: str | None = None
    skill_cache_mode: CacheMode = "grow"
    # Ablation: the parts of the target its `without:<part>` conditions remove, as they were
    # when the run started (ids and token costs), so a report never re-reads a changed skill.
    parts: list[SkillPart] = Field(default_factory=list)
    # Stop when decided (`--until-decided`, skillforge.trials.rounds): run in rounds of one
    # attempt per case and condition, `attempts` at most, and stop once the headline is
    # decided or its anytime-valid interval is narrower than `margin`.
    until_decided: bool = False
    margin: float = 0.05


class TrialRecord(BaseModel):
    """One attempt of one case in one condition (section 6)."""

    run_id: str
    case_id: str
    condition: Condition
    attempt: int
    status: TrialStatus = "ok"
    error: str | None = None
    error_stage: ErrorStage | None = None
    # Set with status `error` (not for a failed grade): see ErrorCause.
    error_cause: ErrorCause | None = None
    trajectory_path: str | None = None
    metrics: dict[str, float | None] = Field(default_factory=dict)
    grader: float | None = None
    grader_detail: dict[str, float] | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    cost_usd: float | None = None
    # The LLM judge's calls for this trial (accuracy, goal_accuracy, behavior_check): spent
    # by skillforge, not the agent, so apart from tokens_in/out; a cached verdict costs 0.
    judge_tokens_in: int = 0
    judge_tokens_out: int = 0
    judge_cost_usd: float | None = None
    turns: int = 0
    tool_calls: int = 0
    wall_s: float = 0.0
    started_at: datetime | None = None
    finished_at: datetime | None = None
    # Facts the statistics need beyond the metrics (triage, SkillCraft's exec rate).
    case_kind: str | None = None
    activated: bool | None = None
    script_runs: int = 0
    script_runs_ok: int = 0
    # A baseline whose model requests carried the target skill (the harness proxy's check,
    # skillforge.harnesses.contamination): the hits, and the trial is left out of the lift.
    contamination: list[dict[str, Any]] | None = None
    # The hash of everything the trial saw (skillforge.trials.cache): a later run with the
    # same key reuses this trial. None: never reused (skill_mode, imported, older records).
    cache_key: str | None = None
    # Set on a trial copied from an earlier run instead of run: the run that executed it.
    reused_from: str | None = None

    @model_validator(mode="after")
    def _legacy_grader_error(self) -> TrialRecord:
        if (self.error_stage is None and self.status == "error" and self.error
                and self.error.startswith(_LEGACY_GRADER_ERROR)):
            self.error_stage = "grader"
        if self.error_cause is None and self.status == "error" and self.error_stage != "grader":
            self.error_cause = error_cause_of(self.error_stage, self.error, self.turns)
        return self

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.case_id, self.condition, self.attempt)

    @property
    def excluded(self) -> bool:
        """Left out of the lift: an infrastructure error (ErrorCause), a cancellation, or
        requests that carried the skill the trial must not see (a contaminated baseline).
        A run that broke off otherwise is a failed trial (`failed_run`), and a grader
        failure a failed grade: both are counted."""
        return self.status == "cancelled" or bool(self.contamination) or (
            self.status == "error" and self.error_cause == "infrastructure")

    @property
    def failed_run(self) -> bool:
        """The agent's run broke off for a cause that is not infrastructure: counted as a
        failed trial (pass false, outcome metrics 0; skillforge.lift.cases.fail_closed)."""
        return self.status == "error" and self.error_cause == "run" and not self.excluded

    @property
    def grader_failed(self) -> bool:
        return self.error_stage == "grader"


class RunRecord(BaseModel):
    """A stored run: its spec, where it came from, and when."""

    run_id: str
    created_at: datetime
    skill_name: str | None = None
    skill_path: str | None = None
    skill_hash: str | None = None
    spec: RunSpec | None = None
    engine: Literal["local", "harbor", "import"] = "local"
    # stopped: ended at a limit (the cost cap) with the trials that finished
    status: Literal["running", "finished", "cancelled", "failed", "stopped"] = "running"
    label: str | None = None
