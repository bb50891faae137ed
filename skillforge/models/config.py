"""Configuration values (CONTRACTS.md section 3) as plain models.

Finding and merging them (skillforge.toml files, SKILLFORGE_* environment variables, flags)
lives in `skillforge.config`; these models are what every other part receives. Unknown keys
are errors so a typo in skillforge.toml is reported, not silently ignored.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from skillforge.models.conditions import Condition
from skillforge.models.lint_config import LintConfig


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProviderConfig(_Section):
    name: Literal["anthropic", "openai"] | None = None
    model: str | None = None
    base_url: str | None = None
    # None leaves sampling to the provider: current Claude models refuse a non-default
    # temperature, so sending 0.0 would cost a rejected request first.
    temperature: float | None = Field(None, ge=0, le=2)
    max_tokens: int = Field(8192, ge=1)
    # The model's context window in tokens. Unset: asked of a local server, or read from its
    # first "maximum context length" error; prompts are sized to it (prompt_fit).
    context_tokens: int | None = Field(None, ge=512)
    timeout_sec: float = Field(120.0, gt=0)
    max_retries: int = Field(4, ge=0, le=10)
    # Per-model prices in USD per million tokens: {"model": {"input": 3.0, "output": 15.0,
    # "cached_input": 0.3}}; merged over the built-in table.
    prices: dict[str, dict[str, float]] = Field(default_factory=dict)


class JudgeConfig(_Section):
    models: list[str] = Field(default_factory=list)
    auto: bool = False
    fail_under: float = Field(70.0, ge=0, le=100)
    # A judge or metric is "not calibrated" when its weighted kappa with the author's labels
    # is under calibration_kappa with at least calibration_min_labels labels (issue 19).
    calibration_kappa: float = Field(0.4, ge=-1, le=1)
    calibration_min_labels: int = Field(20, ge=1)


class TrialConfig(_Section):
    agent: str = "builtin"
    model: str | None = None
    attempts: int = Field(3, ge=1)
    concurrency: int = Field(2, ge=1)
    sandbox: Literal["docker", "local"] = "docker"
    image: str = "python:3.12-slim"
    network: bool = False
    # The CLI of --agent claude-code / codex: "auto" (the pinned Claude Code of the installed
    # claude-agent-sdk, layered onto `image`; else the image's own), "image", or a binary's
    # path (docs/harnesses.md).
    harness_cli: str = "auto"
    cpus: float = Field(1.0, gt=0)
    memory_mb: int = Field(2048, ge=64)
    pids: int = Field(256, ge=16)
    timeout_sec: int = Field(600, ge=1)
    max_turns: int = Field(30, ge=1)
    # Everything a trial may write, all its writable paths together (a tmpfs budget).
    disk_mb: int = Field(1024, ge=64)
    workspace: Literal["isolated", "group"] = "isolated"
    support_skills: list[str] = Field(default_factory=list)
    decoy_skills: list[str] = Field(default_factory=list)
    conditions: list[Condition] = Field(
        default_factory=lambda: ["with_skill", "baseline"]
    )
    pass_threshold: float = Field(0.6, ge=0, le=1)
    # A hard cap on a run's spend in USD (agent and judge calls at the price table's
    # prices): no trial starts once the spend plus the next trial's estimate would pass it.
    max_cost_usd: float | None = Field(None, gt=0)
    # Run in rounds and stop when the headline is decided (`--until-decided`); `attempts`
    # is then the most rounds, and the run also stops once the headline metric's
    # anytime-valid interval is narrower than `margin`.
    until_decided: bool = False
    margin: float = Field(0.05, gt=0, lt=2)


class UiConfig(_Section):
    theme: str = "textual-dark"
    # Key remapping: binding id -> keys, e.g. {"lint_now": "ctrl+l"}.
    keys: dict[str, str] = Field(default_factory=dict)
    # Debounce for the file watcher, in milliseconds.
    watch_debounce_ms: int = Field(30, ge=1, le=5000)


class Settings(_Section):
    """Every section of skillforge.toml."""

    lint: LintConfig = Field(default_factory=LintConfig)
    provider: ProviderConfig = Field(default_factory=ProviderConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    trial: TrialConfig = Field(default_factory=TrialConfig)
    ui: UiConfig = Field(default_factory=UiConfig)
    state_dir: str = ".skillforge"
