"""Harbor's job folder, read through skillforge's own models (the fields the import uses).

    JOB/config.json            the job's config (datasets, tasks, agents, n_attempts)
    JOB/result.json            the job's summary (id, started_at, finished_at, stats)
    JOB/<task>__<id>/          one folder per trial (task name cut to 32 characters)
        result.json            ids, task_name, agent_info, agent_result (tokens, cost),
                               verifier_result.rewards, exception_info, timings
        agent/trajectory.json  the agent's ATIF trajectory
        verifier/reward.txt    or reward.json: what tests/test.sh wrote
        verifier/test-stdout.txt

Field names and meanings follow Harbor's own pydantic models (harbor.models.trial.result,
harbor.models.job.result, harbor.models.job.config); keys skillforge does not use are
ignored, so newer Harbor versions that add fields still read.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

CONFIG_JSON = "config.json"
RESULT_JSON = "result.json"
TRAJECTORY = "agent/trajectory.json"
VERIFIER_DIR = "verifier"
TEST_STDOUT = "verifier/test-stdout.txt"


class HarborFileError(ValueError):
    """A Harbor file that cannot be read; the message names the file and what is wrong."""


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ModelInfo(_Loose):
    name: str
    provider: str | None = None


class AgentInfo(_Loose):
    name: str
    version: str | None = None
    model_info: ModelInfo | None = None


class AgentContext(_Loose):
    """agent_result: n_input_tokens includes cached tokens (Harbor's definition)."""

    n_input_tokens: int | None = None
    n_cache_tokens: int | None = None
    n_output_tokens: int | None = None
    cost_usd: float | None = None


class VerifierResult(_Loose):
    rewards: dict[str, float] | None = None


class ExceptionInfo(_Loose):
    exception_type: str
    exception_message: str = ""
    occurred_at: datetime | None = None


class TimingInfo(_Loose):
    started_at: datetime | None = None
    finished_at: datetime | None = None

    def seconds(self) -> float | None:
        if self.started_at is None or self.finished_at is None:
            return None
        return max(0.0, (self.finished_at - self.started_at).total_seconds())


class TaskRef(_Loose):
    """A task as a job or trial config names it (a local path, or a git/package task)."""

    path: str | None = None
    git_url: str | None = None
    name: str | None = None


class TrialConfig(_Loose):
    task: TaskRef | None = None
    trial_name: str | None = None
    job_id: str | None = None


class TrialResult(_Loose):
    id: str
    task_name: str
    trial_name: str
    source: str | None = None
    config: TrialConfig | None = None
    agent_info: AgentInfo
    agent_result: AgentContext | None = None
    verifier_result: VerifierResult | None = None
    exception_info: ExceptionInfo | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    agent_execution: TimingInfo | None = None
    verifier: TimingInfo | None = None
    step_results: list[dict[str, Any]] | None = None


class DatasetRef(_Loose):
    path: str | None = None
    name: str | None = None


class JobAgent(_Loose):
    name: str | None = None
    model_name: str | None = None


class JobConfig(_Loose):
    job_name: str | None = None
    n_attempts: int | None = None
    agents: list[JobAgent] = Field(default_factory=list)
    datasets: list[DatasetRef] = Field(default_factory=list)
    tasks: list[TaskRef] = Field(default_factory=list)


class JobResult(_Loose):
    id: str
    started_at: datetime | None = None
    finished_at: datetime | None = None
    n_total_trials: int | None = None


_M = TypeVar("_M", bound=BaseModel)


def validated(model: type[_M], data: Any, fail: Callable[[str, str], Exception],
              sep: str = "/") -> _M:
    """`data` as `model`, or `fail(where, message)` of its first problem raised (`where`: the
    field's path joined with `sep`)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise fail(sep.join(str(p) for p in first["loc"]), first["msg"]) from exc


def _load(path: Path, model: type[_M], what: str) -> _M:
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except FileNotFoundError as exc:
        raise HarborFileError(f"{path}: no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise HarborFileError(f"{path}: cannot be read ({exc})") from exc
    except json.JSONDecodeError as exc:
        raise HarborFileError(f"{path}: not valid JSON at line {exc.lineno}, column "
                              f"{exc.colno} ({exc.msg})") from exc
    return validated(model, data, lambda where, msg: HarborFileError(
        f"{path}: not a Harbor {what}: /{where}: {msg}"))


def load_trial_result(path: Path) -> TrialResult:
    """A trial's result.json."""
    return _load(path, TrialResult, "trial result")


def load_job_config(path: Path) -> JobConfig:
    """A job's config.json."""
    return _load(path, JobConfig, "job config")


def load_job_result(path: Path) -> JobResult:
    """A job's result.json."""
    return _load(path, JobResult, "job result")
