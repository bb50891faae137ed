"""One Harbor trial folder as a skillforge trial: status, grader reward, trajectory, metrics.

Mirrors what the local runner records (skillforge.trials.runner), so a report cannot tell the
engines apart:

- status: no exception -> `ok`; Harbor's AgentTimeoutError -> `timeout` (its grader still
  ran, and its reward is kept, as locally); CancelledError -> `cancelled`; anything else ->
  `error` (`error_stage` `agent` when the agent took a turn, else `setup`; `error_cause` as
  locally: skillforge.models.trial.error_cause_of). A failure of the
  verifier after the agent ran (or no usable reward) is a failed grade, as locally: the
  agent's status stays, the grade is 0, `error_stage` is `grader` (fail-closed).
- grader: the reward file the task's test.sh copied into `verifier/` (or, when the folder
  was not downloaded, `verifier_result.rewards`), parsed by the same rules as a local
  reward. Cases without a grader ignore Harbor's marker reward.
- tokens and cost: Harbor's agent_result (input includes cached tokens, as skillforge
  counts them), else the trajectory's totals; turns = agent steps; wall_s = the agent's
  execution time (Harbor's environment build and agent install are not the agent's work).
- metrics: the deterministic ones, over the harness skills folders Harbor agents use.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sessions.atif import AtifError, Trajectory
from sessions.importers.atif import import_atif
from sessions.importers.base import ImportResult, TraceImportError
from sessions.store import MetricEvidence, RunStore
from skillforge.trajectory import facts as facts
from skillforge.harbor.results import TEST_STDOUT, TRAJECTORY, VERIFIER_DIR, TrialResult
from skillforge.metrics.checks import score_checks
from skillforge.metrics.deterministic import deterministic_metrics
from skillforge.models.evals import EvalCase
from skillforge.models.trial import (
    DETERMINISTIC_METRICS,
    Condition,
    TrialRecord,
    TrialStatus,
    error_cause_of,
    stages_target,
)
from skillforge.sandbox.grading import GraderError, parse_reward

# Where Harbor agents find their skills: /skills (the task's skills_dir, read by terminus-2)
# and each harness's own folder (claude-code, codex, gemini-cli, opencode ...).
HARBOR_SKILLS_DIRS: tuple[str, ...] = facts.SKILLS_DIRS
TIMEOUT_TYPES = frozenset({"AgentTimeoutError"})
CANCELLED_TYPES = frozenset({"CancelledError"})
VERIFIER_TYPES = frozenset({
    "VerifierTimeoutError", "RewardFileNotFoundError", "RewardFileEmptyError",
    "VerifierOutputParseError", "AddTestsDirError", "DownloadVerifierDirError",
})
MAX_ERROR = 600


@dataclass
class BuiltTrial:
    """A trial record ready to store, its trajectory and metric evidence, and notes."""

    record: TrialRecord
    trajectory: Trajectory | None
    evidence: dict[str, MetricEvidence] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def save(self, store: RunStore, notes: Counter[str]) -> TrialRecord:
        """Store the trial and its trajectory (one the store refuses becomes a note) and
        count the trial's notes, once each, into `notes`."""
        rec = self.record
        if self.trajectory is not None:
            try:
                rec.trajectory_path = str(store.save_trajectory(
                    self.trajectory, run_id=rec.run_id, case_id=rec.case_id,
                    condition=rec.condition, attempt=rec.attempt))
            except AtifError as exc:
                self.notes.append(f"trajectory not stored: {exc}")
        for note in dict.fromkeys(self.notes):
            notes[note] += 1
        store.upsert_trial(rec, self.evidence)
        return rec


def import_notes(imported: ImportResult, label: str, unit: str) -> list[str]:
    """An imported trace's warnings and skipped `unit`s as trial notes headed `label`."""
    notes = [f"{label}: {w}" for w in imported.warnings]
    if imported.skipped.count:
        notes.append(f"{label}: {imported.skipped.count} {unit}(s) skipped "
                     f"({', '.join(imported.skipped.reasons)})")
    return notes


def count_turns(record: TrialRecord, traj: Trajectory) -> None:
    """Turns as the metrics count them (agent steps, copied context left out), tool calls."""
    record.turns = sum(1 for s in traj.steps if s.source == "agent" and not s.is_copied_context)
    record.tool_calls = len(traj.tool_calls())


def stamped(traj: Trajectory, record: TrialRecord, engine: str, **more: Any) -> Trajectory:
    """The trajectory with the trial it belongs to written into its `extra`."""
    extra: dict[str, Any] = {
        **(traj.extra or {}), "run_id": record.run_id, "case_id": record.case_id,
        "condition": record.condition, "attempt": record.attempt, "status": record.status,
        "engine": engine, **more,
    }
    if record.grader is not None:
        extra["grader"] = record.grader
    return traj.model_copy(update={"extra": extra})


def trial_status(result: TrialResult) -> tuple[TrialStatus, str | None, bool]:
    """(status, error, the verifier failed) from a trial's exception_info."""
    exc = result.exception_info
    if exc is None:
        return "ok", None, False
    text = f"{exc.exception_type}: {exc.exception_message}".strip().rstrip(":")[:MAX_ERROR]
    if exc.exception_type in TIMEOUT_TYPES:
        return "timeout", text, False
    if exc.exception_type in CANCELLED_TYPES:
        return "cancelled", text, False
    if exc.exception_type in VERIFIER_TYPES:
        return "ok", text, True
    return "error", text, False


def _grade_failed(record: TrialRecord, why: str) -> None:
    """A grader that failed after the agent ran: a grade of 0 (fail-closed)."""
    record.grader, record.error_stage = 0.0, "grader"
    record.metrics["grader"] = 0.0
    record.error = f"grader: {why}; graded 0 (fail-closed)"


def read_reward(trial_dir: Path, result: TrialResult,
                grader: str) -> tuple[float | None, dict[str, float] | None, dict[str, Any]]:
    """(reward, detail, evidence) of a graded trial; reward None when there is none usable."""
    files: dict[str, bytes] = {}
    for name in ("reward.json", "reward.txt"):
        path = trial_dir / VERIFIER_DIR / name
        if path.is_file():
            files[name] = path.read_bytes()
    source = "verifier folder"
    rewards = result.verifier_result.rewards if result.verifier_result else None
    if not files and rewards:
        files["reward.json"] = json.dumps(rewards).encode()
        source = "result.json verifier_result"
    stdout = trial_dir / TEST_STDOUT
    output = stdout.read_text("utf-8", errors="replace")[-2000:] if stdout.is_file() else None
    evidence: dict[str, Any] = {"harbor_rewards": rewards, "from": source, "output": output}
    if not files:
        evidence["problem"] = "Harbor recorded no reward for this trial"
        return None, None, evidence
    try:
        reward, detail, kind = parse_reward(files, grader)
    except GraderError as exc:
        evidence["problem"] = str(exc)
        return None, None, evidence
    evidence.update({"source": kind, "detail": detail})
    return reward, detail, evidence


def deterministic_scores(traj: Trajectory, case: EvalCase, *, target_skill: str,
                         condition: Condition,
                         skills_dirs: tuple[str, ...] = HARBOR_SKILLS_DIRS,
                         checks: bool = True) -> tuple[dict[str, float | None],
                                                       dict[str, MetricEvidence],
                                                       bool, int, int]:
    """(metrics, evidence, activated, script runs, runs ok) of one trajectory; with `checks`,
    a case's checks (and no reward-file grader) score `grader` as a local trial's do."""
    result = deterministic_metrics(traj, case, target_skill=target_skill, condition=condition,
                                   skills_dirs=skills_dirs)
    details = result.details or {}
    metrics = {m: getattr(result, m) for m in DETERMINISTIC_METRICS}
    evidence = {m: MetricEvidence(evidence=details.get(m, details)) for m in metrics}
    if checks and case.checks and not case.grader:  # as a local trial scores them (metrics.checks)
        metrics["grader"], checks = score_checks(case.checks, traj,
                                                 target_staged=stages_target(condition))
        evidence["grader"] = MetricEvidence(evidence=checks)
    return metrics, evidence, result.activated, result.script_runs, result.script_runs_ok


def load_harbor_trajectory(trial_dir: Path) -> tuple[Trajectory | None, list[str]]:
    """The trial's agent/trajectory.json as ATIF skillforge keeps (repaired where needed)."""
    path = trial_dir / TRAJECTORY
    if not path.is_file():
        return None, [f"no {TRAJECTORY} (the agent wrote no ATIF trajectory)"]
    try:
        imported = import_atif(path)
    except (TraceImportError, AtifError, OSError) as exc:
        return None, [f"{TRAJECTORY} unreadable: {exc}"]
    except Exception as exc:  # noqa: BLE001 - a damaged file must cost one trajectory only
        return None, [f"{TRAJECTORY} unreadable ({type(exc).__name__}: {exc})"]
    return imported.trajectory, import_notes(imported, TRAJECTORY, "record")


def build_trial(trial_dir: Path, result: TrialResult, *, run_id: str, case: EvalCase,
                condition: Condition, attempt: int, target_skill: str,
                graded: bool) -> BuiltTrial:
    """The skillforge trial for one Harbor trial folder (nothing stored yet)."""
    status, error, verifier_failed = trial_status(result)
    record = TrialRecord(run_id=run_id, case_id=str(case.id), condition=condition,
                         attempt=attempt, status=status, error=error,
                         case_kind=case.effective_kind, started_at=result.started_at,
                         finished_at=result.finished_at)
    traj, notes = load_harbor_trajectory(trial_dir)
    built = BuiltTrial(record=record, trajectory=traj, notes=notes)
    if graded and case.grader:
        reward, detail, evidence = read_reward(trial_dir, result, case.grader)
        record.grader, record.grader_detail = reward, detail
        built.evidence["grader"] = MetricEvidence(evidence=evidence)
        if reward is not None:
            record.metrics["grader"] = reward
        elif status in ("ok", "timeout"):
            _grade_failed(record, error if verifier_failed and error else evidence["problem"])
    elif verifier_failed:
        record.error = f"grader: {error}"
    _resources(record, result, traj)
    if record.status == "error":
        record.error_stage = "agent" if record.turns else "setup"
        record.error_cause = error_cause_of(record.error_stage, record.error, record.turns)
    if traj is not None:
        metrics, evidence, activated, runs, runs_ok = deterministic_scores(
            traj, case, target_skill=target_skill, condition=condition)
        record.metrics.update(metrics)
        built.evidence.update(evidence)
        record.activated, record.script_runs, record.script_runs_ok = activated, runs, runs_ok
        built.trajectory = stamped(traj, record, "harbor", harbor_trial=result.trial_name,
                                   harbor_trial_id=result.id)
    return built


def _resources(record: TrialRecord, result: TrialResult, traj: Trajectory | None) -> None:
    ctx = result.agent_result
    totals = traj.totals() if traj is not None else None

    def pick(harbor: float | None, atif: float | None) -> int | float | None:
        return harbor if harbor is not None else atif

    tin = pick(ctx.n_input_tokens if ctx else None, totals.total_prompt_tokens if totals else None)
    tout = pick(ctx.n_output_tokens if ctx else None,
                totals.total_completion_tokens if totals else None)
    tcached = pick(ctx.n_cache_tokens if ctx else None,
                   totals.total_cached_tokens if totals else None)
    cost = pick(ctx.cost_usd if ctx else None, totals.total_cost_usd if totals else None)
    record.tokens_in, record.tokens_out = int(tin or 0), int(tout or 0)
    record.tokens_cached = int(tcached or 0)
    record.cost_usd = round(float(cost), 6) if cost is not None else None
    if traj is not None:
        count_turns(record, traj)
    agent_s = result.agent_execution.seconds() if result.agent_execution else None
    if agent_s is None and result.started_at and result.finished_at:
        agent_s = max(0.0, (result.finished_at - result.started_at).total_seconds())
    record.wall_s = round(agent_s or 0.0, 3)
