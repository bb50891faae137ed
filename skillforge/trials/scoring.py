"""Scoring one finished trial: the seam between the trial runner and the metric modules.

`skillforge.metrics.deterministic.deterministic_metrics` gives security, skill_execution and
skill_efficiency (plus the activation and script-run facts), skillforge.metrics.checks a
case's deterministic checks (as `grader` when the case has none of its own); `skillforge.metrics.judged`
gives accuracy, goal_accuracy and behavior_check when judge clients are given. This module
only calls them and turns their results into a trial's metric values and the evidence
stored beside each value; it computes no metric itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sessions.atif import Trajectory
from sessions.store import MetricEvidence, RunStore
from skillforge.metrics.judged import judged_metrics, metric_evidence
from skillforge.metrics.judged_prompts import judge_facts
from skillforge.metrics.checks import score_checks
from skillforge.metrics.deterministic import deterministic_metrics
from skillforge.models.evals import EvalCase
from skillforge.models.llm import ModelClient
from skillforge.models.trial import DETERMINISTIC_METRICS, stages_target
from skillforge.workspace.skill_paths import SKILLS_DIRS

# The built-in agent sees its skills here (CONTRACTS.md section 6).
# SKILLS_DIRS: /skills for the built-in agent, and every harness's own skills folder
# (claude-code, codex...) for external agents.


@dataclass
class Scores:
    """Metric values of one trial, their evidence, and the facts the statistics need."""

    metrics: dict[str, float | None] = field(default_factory=dict)
    evidence: dict[str, MetricEvidence] = field(default_factory=dict)
    activated: bool | None = None
    script_runs: int = 0
    script_runs_ok: int = 0
    judge_tokens_in: int = 0
    judge_tokens_out: int = 0
    judge_cost_usd: float | None = None
    problems: list[str] = field(default_factory=list)


def deterministic(traj: Trajectory, case: EvalCase, *, target_skill: str,
                  condition: str, version_delta: bool = False,
                  workspace_files: Sequence[str] | None = None) -> Scores:
    """security, skill_execution, skill_efficiency and the activation/script facts; and the
    case's `checks` as its `grader` metric when it has no grader of its own.

    In a version-delta run the baseline stages the earlier version of the skill under the
    same name, so it can be activated there too (`target_staged`)."""
    staged = stages_target(condition) or (version_delta and condition == "baseline")
    result = deterministic_metrics(traj, case, target_skill=target_skill, condition=condition,
                                   skills_dirs=SKILLS_DIRS, target_staged=staged)
    scores = Scores(activated=result.activated, script_runs=result.script_runs,
                    script_runs_ok=result.script_runs_ok)
    for name in DETERMINISTIC_METRICS:
        scores.metrics[name] = getattr(result, name)
        scores.evidence[name] = MetricEvidence(evidence=result.details.get(name))
    if case.checks and not case.grader:
        value, evidence = score_checks(case.checks, traj, target_staged=staged,
                                       workspace_files=workspace_files)
        scores.metrics["grader"] = value
        scores.evidence["grader"] = MetricEvidence(evidence=evidence)
    return scores


async def judged(traj: Trajectory, case: EvalCase, clients: Sequence[ModelClient], *,
                 store: RunStore | None = None,
                 workspace_files: Sequence[str] | None = None,
                 max_tokens: int | None = None) -> Scores:
    """accuracy, goal_accuracy and behavior_check from the LLM judge(s).

    `workspace_files` (what /workspace held when the agent stopped) is stated to the judge
    beside the facts read off the trajectory; `max_tokens` is the judges' answer budget
    ([provider] max_tokens). A judge that fails is named in `problems`; its metrics stay
    null.
    """
    facts = judge_facts(traj, SKILLS_DIRS, workspace_files=workspace_files)
    result = await judged_metrics(traj, case, list(clients), facts=facts, store=store,
                                  skills_dirs=SKILLS_DIRS, max_tokens=max_tokens)
    scores = Scores(metrics=result.metrics(), evidence=metric_evidence(result),
                    judge_tokens_in=result.tokens_in, judge_tokens_out=result.tokens_out,
                    judge_cost_usd=result.cost_usd)
    scores.problems += [f"judge {label} failed: {why}" for label, why in result.errors.items()]
    return scores
