"""One `claude plugin eval` run as a skillforge trial: status, grade, trace, cost, metrics.

Mirrors what the local runner records (skillforge.trials.runner) so the lift, triage and
the side-by-side view treat it like any trial:

- condition: arm `with` -> `with_skill`, `without` -> `baseline`; attempt = the run's
  place in its arm, from 1.
- grade: the run's `score` (the weighted share of its scored graders that passed) is the
  trial's grader reward, so a trial passes exactly when claude plugin eval's run `passed`;
  every grader's own pass/fail, with-only ones included, is `grader_detail`
  ({name: 1.0 | 0.0}) and its explanation the grader's evidence.
- status: no error -> `ok`; "timed out after Ns" -> `timeout` (still graded, as locally);
  a run that ended on an API error is not graded by claude plugin eval -> `error` with
  cause `infrastructure` (left out of the lift, as claude plugin eval leaves it out of Δ);
  any other error -> `error`, cause `run` (a failed trial).
- resources: cost = the run's costUsd, the LLM graders' judgeCostUsd apart (as the judge's
  cost is locally); tokens from the trace's totals; turns = the trace's agent steps (the
  run's own `turns` when there is no trace); wall_s = durationSeconds.
- metrics: `grader`, and security / skill_execution / skill_efficiency over the trace.
- agreement: the graders claude plugin eval decides without a judge (tool_used,
  tool_order, file_exists, regex) are decided again by skillforge on the converted trace
  (skillforge.metrics.checks), and both verdicts kept side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from sessions.atif import AtifError, Trajectory
from sessions.importers.base import TraceImportError
from sessions.importers.claude_code import import_claude_code
from sessions.store import MetricEvidence
from skillforge.harbor import trial_record
from skillforge.metrics.checks import decide
from skillforge.models.evals import EvalCase
from skillforge.models.trial import Condition, TrialRecord
from skillforge.plugineval.results import ArmRun, CaseResult, GraderSpec
from skillforge.trajectory import facts

ENGINE = "claude-plugin-eval"
TIMED_OUT = "timed out"
API_ERROR = "API Error"
# The grader types skillforge decides itself on a trajectory (llm and baseline need a judge).
DECIDABLE = frozenset({"tool_used", "tool_order", "file_exists", "regex"})
TRACE_GONE = ("trace not found: claude plugin eval removes each run's temporary folder "
              "unless run with --keep-temp")


@dataclass
class BuiltTrial(trial_record.BuiltTrial):
    """A Harbor-style built trial (record, trajectory, evidence, notes; `save`) plus
    skillforge's verdicts beside claude plugin eval's."""

    # skillforge's own verdict on each deterministic grader, beside claude plugin eval's.
    agreement: list[dict[str, Any]] = field(default_factory=list)


def case_of(case: CaseResult, target_skill: str) -> EvalCase:
    """The skillforge case a plugin-eval case stands for: its prompt, and the skill it
    expects from a `tool_used: Skill` grader (`max: 0`: none, a negative case)."""
    kind, expected = None, None
    for grader in case.graders:
        conf = grader.config
        if grader.type != "tool_used" or str(conf.get("tool", "")).split("(")[0] != "Skill":
            continue
        if conf.get("max") == 0:
            kind = "negative"
        else:
            match = conf.get("input_match")
            expected = match if isinstance(match, str) and match.strip() else target_skill
    return EvalCase(id=case.name, prompt=case.prompt or case.name, kind=kind,
                    expected_skill=expected, notes=f"claude plugin eval case {case.dir or case.name}")


def load_trace(run: ArmRun, base: Path | None = None) -> tuple[Trajectory | None, list[str]]:
    """The run's stream-json trace as ATIF, or None and why. A relative tracePath is read
    from `base` (the results folder), so kept traces can travel with the results."""
    if not run.trace_path:
        return None, ["no tracePath recorded"]
    path = Path(run.trace_path)
    if not path.is_absolute() and base is not None:
        path = base / path
    if not path.is_file():
        return None, [TRACE_GONE]
    try:
        imported = import_claude_code(path)
    except (TraceImportError, AtifError, OSError, ValueError) as exc:
        return None, [f"trace unreadable: {exc}"]
    return imported.trajectory, trial_record.import_notes(imported, "trace", "line")


def _status(run: ArmRun) -> tuple[str, str | None, str | None]:
    """(status, error_stage, error_cause) of a run."""
    if not run.error:
        return "ok", None, None
    if run.error.startswith(TIMED_OUT):
        return "timeout", None, None
    stage = "agent" if run.turns else "setup"
    if not run.graded and API_ERROR in run.error:
        return "error", stage, "infrastructure"
    return "error", stage, "run"


def grader_evidence(run: ArmRun) -> dict[str, Any]:
    return {"source": "claude plugin eval", "score": run.score, "passed": run.passed,
            "skipped_paid_graders": run.skipped_paid_graders,
            "graders": [g.model_dump(by_alias=True, exclude_none=True) for g in run.graders]}


def agreement(run: ArmRun, specs: list[GraderSpec], traj: Trajectory) -> list[dict[str, Any]]:
    """skillforge's verdict (skillforge.metrics.checks on the trajectory) on each grader
    claude plugin eval decided without a judge, beside its verdict; `skillforge` is None when
    the trajectory cannot say (a file written by a shell command, say)."""
    by_name = {g.name: g for g in specs}
    rows = []
    for got in run.graders:
        spec = by_name.get(got.name)
        if spec is None or spec.type not in DECIDABLE:
            continue
        mine, why = decide({"type": spec.type, "name": spec.name, **spec.config}, traj)
        rows.append({"grader": got.name, "type": spec.type, "plugin_eval": got.passed,
                     "skillforge": mine, "why": why})
    return rows


def build_trial(run: ArmRun, *, run_id: str, case: EvalCase, condition: Condition,
                attempt: int, target_skill: str, skills_dirs: tuple[str, ...],
                specs: list[GraderSpec] | None = None,
                trace_base: Path | None = None) -> BuiltTrial:
    """The skillforge trial of one plugin-eval run (nothing stored yet)."""
    status, stage, cause = _status(run)
    finished = (run.started_at + timedelta(seconds=run.duration_seconds)
                if run.started_at and run.duration_seconds is not None else None)
    record = TrialRecord(run_id=run_id, case_id=str(case.id), condition=condition,
                         attempt=attempt, status=status, error=run.error, error_stage=stage,
                         error_cause=cause, case_kind=case.effective_kind,
                         started_at=run.started_at, finished_at=finished,
                         cost_usd=run.cost_usd, judge_cost_usd=run.judge_cost_usd or None,
                         wall_s=round(run.duration_seconds or 0.0, 3), turns=run.turns or 0)
    traj, notes = load_trace(run, trace_base)
    built = BuiltTrial(record=record, trajectory=traj, notes=notes)
    if run.graded:
        record.grader = run.score if run.score is not None else 0.0
        record.grader_detail = {g.name: 1.0 if g.passed else 0.0 for g in run.graders}
        record.metrics["grader"] = record.grader
        built.evidence["grader"] = MetricEvidence(evidence=grader_evidence(run))
        if run.skipped_paid_graders:
            notes.append("paid graders (llm, baseline) skipped: the cost ceiling was hit")
    if traj is None:
        return built
    totals = traj.totals()
    record.tokens_in = int(totals.total_prompt_tokens or 0)
    record.tokens_out = int(totals.total_completion_tokens or 0)
    record.tokens_cached = int(totals.total_cached_tokens or 0)
    if record.cost_usd is None and totals.total_cost_usd is not None:
        record.cost_usd = round(float(totals.total_cost_usd), 6)
    trial_record.count_turns(record, traj)
    metrics, evidence, record.activated, runs, runs_ok = trial_record.deterministic_scores(
        traj, case, target_skill=target_skill, condition=condition, skills_dirs=skills_dirs,
        checks=False)
    record.metrics.update(metrics)
    built.evidence.update(evidence)
    built.agreement = agreement(run, specs or [], traj)
    if built.agreement and "grader" in built.evidence:
        built.evidence["grader"].evidence["skillforge_checks"] = built.agreement
    record.script_runs, record.script_runs_ok = runs, runs_ok
    built.trajectory = trial_record.stamped(
        traj, record, ENGINE,
        plugin_eval={"trace_path": run.trace_path, **grader_evidence(run)})
    return built


def plugin_skills_dirs(plugin_path: str | None) -> tuple[str, ...]:
    """Where the agent finds skills in a plugin-eval run: the harness folders and the
    plugin's own skills/ folder (the Skill tool loads them from there)."""
    extra = (f"{plugin_path.rstrip('/')}/skills",) if plugin_path else ()
    return (*facts.SKILLS_DIRS, *extra)
