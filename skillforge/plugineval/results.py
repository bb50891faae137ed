"""The `aggregate-result.json` that `claude plugin eval` writes, as pydantic models.

Written from what Claude Code 2.1.327 (the pinned binary) writes into
`<plugin>/evals/results/<timestamp>/` (or `--output-dir`), beside `report.html`; `--json`
prints the same document. schemaVersion 1:

    {"schemaVersion": 1, "claudeVersion": "2.1.327", "startedAt": ISO, "durationSeconds",
     "costUsd", "partial": bool,
     "suite": {"root", "ablation": "with-without"|"none", "threshold", "concurrency",
               "plugins": [{"name", "version", "path", "problem"?}]},
     "cases": [{"name", "dir", "source": "prose"|"yaml", "promptMarkdown", "runsPerCase",
                "timeoutSeconds", "maxTurns", "graders": [{"name", "type", "weight",
                                                           "config": {...}}],
                "arms": {"with": [RUN...], "without": [RUN...]},
                "advisories"?: [str], "aggregates": {"score", "passRate", "scoreWithout"?,
                                                   "passRateWithout"?, "delta"?}}],
     "aggregates": {"casesTotal", "casesPassed", "overallScore", "overallPassRate",
                    "meanDelta"}}
    RUN = {"score", "passed", "turns", "costUsd", "judgeCostUsd", "durationSeconds",
           "startedAt", "error": str|null, "tracePath", "skippedPaidGraders",
           "graders": [{"name", "passed", "weight", "explanation", "withOnly", "scored"}]}

A run's score is the weighted share of its scored graders that passed; graders marked
withOnly (`tool_used: Skill` under with-without ablation) are a plugin-fired indicator and
not scored. A run that ended on an API error has no graders (it was not graded). Its
tracePath is the `claude -p --output-format stream-json` output inside a temporary folder
that `claude plugin eval` removes after the run unless it was given `--keep-temp`.
Unknown fields are kept (extra="allow") so a newer schema still imports.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from skillforge.harbor.results import validated

RESULT_NAME = "aggregate-result.json"
REPORT_NAME = "report.html"
SCHEMA_VERSIONS = frozenset({1})
# The two arms of a with-without run, as skillforge's conditions.
ARMS: dict[str, str] = {"with": "with_skill", "without": "baseline"}


class PluginEvalFileError(ValueError):
    """The results cannot be read; the message names the file and what to do."""


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class GraderResult(_Open):
    name: str
    passed: bool
    weight: float = 1.0
    explanation: str | None = None
    with_only: bool = Field(False, alias="withOnly")
    scored: bool = True


class ArmRun(_Open):
    score: float | None = None
    passed: bool = False
    turns: int | None = None
    cost_usd: float | None = Field(None, alias="costUsd")
    judge_cost_usd: float | None = Field(None, alias="judgeCostUsd")
    duration_seconds: float | None = Field(None, alias="durationSeconds")
    started_at: datetime | None = Field(None, alias="startedAt")
    error: str | None = None
    trace_path: str | None = Field(None, alias="tracePath")
    skipped_paid_graders: bool = Field(False, alias="skippedPaidGraders")
    graders: list[GraderResult] = Field(default_factory=list)

    @property
    def graded(self) -> bool:
        """Whether claude plugin eval graded the run (one that ended on an API error is not)."""
        return bool(self.graders)


class GraderSpec(_Open):
    name: str
    type: str
    weight: float = 1.0
    config: dict[str, Any] = Field(default_factory=dict)


class CaseResult(_Open):
    name: str
    dir: str | None = None
    source: str | None = None
    prompt: str = Field("", alias="promptMarkdown")
    runs_per_case: int | None = Field(None, alias="runsPerCase")
    timeout_seconds: float | None = Field(None, alias="timeoutSeconds")
    max_turns: int | None = Field(None, alias="maxTurns")
    graders: list[GraderSpec] = Field(default_factory=list)
    arms: dict[str, list[ArmRun]] = Field(default_factory=dict)
    advisories: list[str] = Field(default_factory=list)
    aggregates: dict[str, float | None] = Field(default_factory=dict)


class PluginRef(_Open):
    name: str
    version: str | None = None
    path: str | None = None
    problem: Any = None


class Suite(_Open):
    root: str | None = None
    ablation: str | None = None
    threshold: float = 1.0
    concurrency: int | None = None
    plugins: list[PluginRef] = Field(default_factory=list)


class AggregateResult(_Open):
    schema_version: int = Field(alias="schemaVersion")
    claude_version: str | None = Field(None, alias="claudeVersion")
    started_at: datetime | None = Field(None, alias="startedAt")
    duration_seconds: float | None = Field(None, alias="durationSeconds")
    cost_usd: float | None = Field(None, alias="costUsd")
    partial: bool = False
    suite: Suite = Field(default_factory=Suite)
    cases: list[CaseResult] = Field(default_factory=list)
    aggregates: dict[str, float | None] = Field(default_factory=dict)

    @property
    def plugin(self) -> PluginRef | None:
        return self.suite.plugins[0] if self.suite.plugins else None


def result_file(path: Path) -> Path:
    """The aggregate-result.json at `path`: the file, a results folder, or the newest of
    `<plugin>/evals/results/*/` when given the plugin or its evals/ folder."""
    path = Path(path)
    if path.is_file():
        return path
    if not path.is_dir():
        raise PluginEvalFileError(f"{path}: no such file or folder; give the folder "
                                  f"`claude plugin eval` wrote (it holds {RESULT_NAME})")
    if (path / RESULT_NAME).is_file():
        return path / RESULT_NAME
    for results in (path / "results", path / "evals" / "results"):
        found = sorted(results.glob(f"*/{RESULT_NAME}")) if results.is_dir() else []
        if found:
            return found[-1]  # the folders are named by their start time
    raise PluginEvalFileError(f"{path} holds no {RESULT_NAME} (looked in it, in results/*/ "
                              "and in evals/results/*/); run `claude plugin eval` first or "
                              "give its --output-dir")


def load_results(path: Path) -> AggregateResult:
    """Read and check one aggregate-result.json."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PluginEvalFileError(f"{path}: cannot be read as JSON ({exc})") from exc
    if not isinstance(data, dict) or "schemaVersion" not in data or "cases" not in data:
        raise PluginEvalFileError(f"{path}: not a `claude plugin eval` {RESULT_NAME} (no "
                                  "schemaVersion and cases)")
    if data["schemaVersion"] not in SCHEMA_VERSIONS:
        raise PluginEvalFileError(f"{path}: schemaVersion {data['schemaVersion']!r} is not "
                                  f"one skillforge reads ({', '.join(map(str, SCHEMA_VERSIONS))})")
    return validated(AggregateResult, data,
                     lambda where, msg: PluginEvalFileError(f"{path}: {where}: {msg}"), sep=".")
