"""One trial, start to finish: stage, sandbox, agent loop, grader, metrics, store.

    record = await run_trial(ctx, plan)

Order (DESIGN.md, paired trials): stage the workspace for the condition; open a fresh
sandbox holding it; run the agent (the built-in loop, or an external harness CLI inside the
container: skillforge.harnesses, chosen by `spec.agent`, with the skills staged into the
harness's own skills folder); run the case's grader in the same sandbox; the
sandbox is removed (always: error, timeout, cancellation); score the trajectory; save the
trajectory and upsert the trial with its metric rows in one transaction. The record's
status is `ok` (the agent answered or used all its turns), `timeout`, `error` (with the
reason, `error_stage`: `setup` when the agent never took a turn, `agent` when its run
broke off, and `error_cause`: `infrastructure`, left out of the lift, or `run`, a failed
trial; skillforge.models.trial.ErrorCause) or `cancelled`. A cancelled trial is still stored, with what it recorded so far.
A grader that crashes, cannot start or writes no reward after the agent ran is a failed
grade: the trial keeps the agent's status, its grade is 0 and `error_stage` is `grader`
(fail-closed: a skill must not turn its failures into errors the lift leaves out).
`SandboxUnavailable` (Docker went away) is stored as an error and then raised: the run
cannot go on. A `skill_mode` trial also gets a SkillSession (skillforge.agent.skill_mode)
holding the cache its chain passed it; the sandbox's skill_cache.json is read back before
the grader, and its `SkillModeTrial` row is stored just before the trial row.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sessions.atif import AtifError, Trajectory
from sessions.store import MetricEvidence, RunStore
from skillforge.agent.loop import AgentResult, AgentRun, StepReport
from skillforge.agent.skill_mode import SkillSession, stage_info
from skillforge.harnesses import Harness, HarnessError, get_harness
from skillforge.harnesses.proxy import Lease
from skillforge.harnesses.run import HarnessRun
from skillforge.models.evals import EvalCase
from skillforge.models.llm import ModelClient
from skillforge.models.skill_mode import SkillCache, SkillOrigin
from skillforge.models.trial import (
    Condition,
    ErrorCause,
    ErrorStage,
    RunSpec,
    TrialRecord,
    error_cause_of,
)
from skillforge.sandbox import SKILLS_DIR, SandboxError, SandboxUnavailable, open_sandbox
from skillforge.sandbox.grading import GraderError, GraderResult, run_grader
from skillforge.trials.harness_session import HarnessSession, trial_usage
from skillforge.trials.staging import SkillSet, StagingError, sandbox_spec, stage_trial
from skillforge.trials.events import (
    TrialEvent,
    TrialKey,
    TrialPhase,
    TrialStep,
)
from skillforge.trials.scoring import Scores, deterministic, judged
from skillforge.trials.trial_files import annotate, list_workspace, save_session_logs
from skillforge.trials.skill_chain import SkillLink

SUMMARY_CHARS = 90


@dataclass(frozen=True)
class TrialPlan:
    """One trial to run: a case in a condition, attempt n (1-based)."""

    case: EvalCase
    condition: Condition
    attempt: int
    # The hash of the trial's inputs (skillforge.trials.cache), stored with its record.
    cache_key: str | None = None

    @property
    def key(self) -> TrialKey:
        return (str(self.case.id), self.condition, self.attempt)


@dataclass
class TrialContext:
    """What every trial of a run shares."""

    run_id: str
    spec: RunSpec
    skills: SkillSet
    client: ModelClient
    store: RunStore
    emit: Callable[[TrialEvent], None]
    judges: Sequence[ModelClient] = ()
    max_tokens: int | None = None
    warn: Callable[[str], None] | None = None
    # Sandbox labels beyond the owner labels (e.g. for tests and benchmarks).
    labels: dict[str, str] = field(default_factory=dict)
    # The external harness for `spec.agent` (None: derived from it; "builtin" has none).
    harness: Harness | None = None
    # Its image, network and model proxy for this run (skillforge.trials.harness_session).
    harness_session: HarnessSession | None = None

    def agent_harness(self) -> Harness | None:
        if self.harness is None and self.spec.agent != "builtin":
            self.harness = get_harness(self.spec.agent)
        return self.harness


def _now() -> datetime:
    return datetime.now(UTC)


def step_summary(report: StepReport) -> str:
    """One line about an agent step: its first tool call, or its answer."""
    step = report.step
    calls = step.tool_calls or []
    if not calls:
        text = " ".join(step.text.split())
        return ("answer: " + text)[:SUMMARY_CHARS] if text else "answer (empty)"
    call = calls[0]
    args = call.arguments
    detail = args.get("command") or args.get("path") or ""
    line = f"{call.function_name}: {' '.join(str(detail).split())}"
    if len(calls) > 1:
        line += f" (+{len(calls) - 1} more)"
    return line[:SUMMARY_CHARS]


STATUS_BY_STOP = {"final_answer": "ok", "max_turns": "ok", "timeout": "timeout",
                  "error": "error", "cancelled": "cancelled"}


class _Trial:
    """The state of one running trial, so a cancellation can still store what happened."""

    def __init__(self, ctx: TrialContext, plan: TrialPlan,
                 link: SkillLink | None = None) -> None:
        self.ctx = ctx
        self.plan = plan
        # Skill Mode: the trial's place in its chain and its skill tools' session.
        self.link = link
        self.skills: SkillSession | None = None
        if plan.condition == "skill_mode":
            self.link = link or SkillLink(seq=0, cache_before=SkillCache())
            self.skills = SkillSession(self.link.cache_before, self.link.mode,
                                       origin=SkillOrigin(run_id=ctx.run_id,
                                                          case_id=str(plan.case.id),
                                                          attempt=plan.attempt))
        self.key = plan.key
        self.t0 = time.monotonic()
        self.record = TrialRecord(run_id=ctx.run_id, case_id=plan.key[0],
                                  condition=plan.condition, attempt=plan.attempt,
                                  case_kind=plan.case.effective_kind, started_at=_now(),
                                  cache_key=plan.cache_key)
        self.agent: AgentRun | HarnessRun | None = None
        self.result: AgentResult | None = None
        self.grade: GraderResult | None = None
        self.grader_error: str | None = None
        self.workspace_files: list[str] | None = None
        self.lease: Lease | None = None  # a harness trial's use of the model proxy

    def phase(self, name: str) -> None:
        self.ctx.emit(TrialPhase(self.key, name))

    def on_step(self, report: StepReport) -> None:
        self.ctx.emit(TrialStep(self.key, report.turn, step_summary(report),
                                tokens_in=report.usage.input_tokens,
                                tokens_out=report.usage.output_tokens,
                                cost_usd=report.cost_usd, tool_calls=report.tool_calls))

    async def execute(self) -> None:
        ctx, spec, case = self.ctx, self.ctx.spec, self.plan.case
        harness = ctx.agent_harness()
        stage = stage_trial(case, self.plan.condition, spec, ctx.skills,
                            skills_dir=harness.skills_dir if harness else SKILLS_DIR)
        if self.skills is not None:
            if harness is not None:
                raise HarnessError("the skill_mode condition runs only with the built-in agent")
            assert self.link is not None
            stage.skill_mode = stage_info(self.link.cache_before, self.link.mode,
                                          self.link.inherited_from)
        archive = harness.initial_archive(stage.archive) if harness else stage.archive
        labels = {"skillforge.case_id": self.key[0][:60], "skillforge.condition": self.key[1],
                  "skillforge.attempt": str(self.key[2]), **ctx.labels}
        self.phase("sandbox")
        session = ctx.harness_session
        if harness is not None and session is None:
            raise HarnessError(f"--agent {harness.name}: the run has no model proxy")
        box = sandbox_spec(spec, ctx.run_id, labels)
        if session is not None:
            box = box.model_copy(update=session.sandbox_update())
        sb = open_sandbox(spec.sandbox, box, archive, warn=ctx.warn)
        async with sb:
            meta = {"run_id": ctx.run_id, "case_id": self.key[0], "condition": self.key[1],
                    "attempt": self.key[2]}
            if session is not None:
                self.agent, self.lease = session.start(
                    sb, stage, case.prompt, self.plan.condition,
                    ctx.skills.target_for(self.plan.condition), spec, meta=meta,
                    on_step=self.on_step)
            else:
                self.agent = AgentRun(
                    ctx.client, sb, stage, case.prompt, meta=meta,
                    max_turns=spec.limits.max_turns, timeout_s=spec.limits.timeout_sec,
                    max_tokens=ctx.max_tokens, on_step=self.on_step, skills=self.skills)
            self.phase("agent")
            try:
                self.result = await self.agent.run()
            finally:
                if self.lease is not None and session is not None:
                    session.proxy.release(self.lease)  # its token stops working
            if self.skills is not None and self.result.stop != "error":
                # Before the grader: the cache as the agent left it in the sandbox.
                note = await self.skills.read_back(sb)
                if note and ctx.warn is not None:
                    ctx.warn(f"{'/'.join(map(str, self.key))}: {note}")
            if ctx.judges and self.result.stop in ("final_answer", "max_turns"):
                self.workspace_files = await list_workspace(sb)
            if case.grader and self.result.stop in ("final_answer", "max_turns", "timeout"):
                self.phase("grader")
                try:
                    self.grade = await run_grader(sb, ctx.skills.root, case.grader)
                except GraderError as exc:
                    self.grader_error = str(exc)
                except SandboxError as exc:
                    self.grader_error = f"the grader could not run: {exc}"
            self.phase("cleanup")

    async def score(self, traj: Trajectory) -> tuple[Scores, list[str]]:
        """Deterministic metrics always, judged ones for ok trials when judges are given."""
        notes: list[str] = []
        ctx = self.ctx
        scores = deterministic(traj, self.plan.case, target_skill=ctx.skills.target.name,
                               condition=self.plan.condition,
                               version_delta=bool(ctx.spec.baseline_version),
                               workspace_files=self.workspace_files)
        notes += scores.problems
        if ctx.judges and self.record.status == "ok":
            self.phase("judge")
            try:
                extra = await judged(traj, self.plan.case, ctx.judges, store=ctx.store,
                                     workspace_files=self.workspace_files,
                                     max_tokens=ctx.max_tokens)
            except Exception as exc:  # noqa: BLE001 - a judge failure must not lose the trial
                notes.append(f"judged metrics failed: {exc}")
                self.record.cache_key = None  # incomplete scores: never reused (trials.cache)
            else:
                if extra.problems:  # a judge failed, its metrics are null: never reused
                    self.record.cache_key = None
                scores.metrics.update(extra.metrics)
                scores.evidence.update(extra.evidence)
                scores.judge_tokens_in, scores.judge_tokens_out, scores.judge_cost_usd = (
                    extra.judge_tokens_in, extra.judge_tokens_out, extra.judge_cost_usd)
                notes += extra.problems
        return scores, notes

    def failed_stage(self) -> ErrorStage:
        """Where an error ended the trial: before the agent's first turn, or during its run."""
        if self.result is not None:
            turns = self.result.turns
        else:  # raised mid-run: the built-in loop counts its turns as it goes
            recorder = getattr(self.agent, "rec", None)
            turns = recorder.turns if recorder is not None else 0
        return "agent" if turns > 0 else "setup"

    def finish_record(self, status: str, error: str | None,
                      cause: ErrorCause | None = None) -> None:
        rec = self.record
        rec.status = status  # type: ignore[assignment]
        rec.error = error
        if status == "error":
            rec.error_stage = self.failed_stage()
            if cause is None and self.result is not None:
                cause = self.result.cause
            rec.error_cause = cause or error_cause_of(rec.error_stage, error, 0)
        elif self.grader_error is not None:
            rec.error_stage = "grader"
        rec.finished_at = _now()
        rec.wall_s = round(time.monotonic() - self.t0, 3)
        result = self.result or (self.agent.partial("cancelled") if self.agent else None)
        if result is not None:
            usage, cost = result.usage, result.cost_usd
            if self.lease is not None:  # exactly what the proxy forwarded
                usage, cost = trial_usage(self.lease, usage, cost)
                rec.contamination = self.lease.contamination or None
            rec.tokens_in = usage.input_tokens
            rec.tokens_out = usage.output_tokens
            rec.tokens_cached = usage.cached_tokens
            rec.cost_usd = round(cost, 6) if cost is not None else None
            rec.turns = result.turns
            rec.tool_calls = result.tool_calls
        if self.grade is not None:
            rec.grader = self.grade.reward
            rec.grader_detail = self.grade.detail
        elif self.grader_error is not None:
            rec.grader = 0.0  # fail-closed

    async def store(self, traj: Trajectory | None, scores: Scores | None) -> TrialRecord:
        """Save the trajectory, then the trial and its metric rows (one transaction)."""
        ctx, rec = self.ctx, self.record
        evidence: dict[str, MetricEvidence] = {}
        if scores is not None:
            rec.metrics.update(scores.metrics)
            evidence.update(scores.evidence)
            rec.activated = scores.activated
            rec.script_runs = scores.script_runs
            rec.script_runs_ok = scores.script_runs_ok
            rec.judge_tokens_in = scores.judge_tokens_in
            rec.judge_tokens_out = scores.judge_tokens_out
            rec.judge_cost_usd = scores.judge_cost_usd
        if self.grade is not None:
            rec.metrics["grader"] = self.grade.reward
            evidence["grader"] = MetricEvidence(evidence={
                "source": self.grade.source, "detail": self.grade.detail,
                "exit_code": self.grade.exec.exit_code,
                "output": (self.grade.exec.stdout + self.grade.exec.stderr)[-2000:],
                "workspace": self.grade.workspace})
        elif self.grader_error is not None:
            rec.metrics["grader"] = 0.0
            evidence["grader"] = MetricEvidence(evidence={
                "source": "grader failed", "error": self.grader_error[-2000:],
                "rule": "a grader that fails after the agent ran grades 0 (fail-closed)"})
        if self.skills is not None and self.link is not None:
            # Stored before the trial row, so a trial counted done always has its cache.
            self.link.cache_after = self.skills.cache.model_copy(deep=True)
            ctx.store.save_skill_mode_trial(self.link.row(
                ctx.run_id, rec.case_id, rec.attempt, self.link.cache_after,
                list(self.skills.events)))
        if traj is not None:
            traj = annotate(traj, rec, self.grader_error, self.lease)
            try:
                path = ctx.store.save_trajectory(traj, run_id=ctx.run_id, case_id=rec.case_id,
                                                 condition=rec.condition, attempt=rec.attempt)
                rec.trajectory_path = str(path)
                if isinstance(self.agent, HarnessRun):  # the CLI's own logs, beside it
                    save_session_logs(path, self.agent.session_files)
            except AtifError as exc:  # a bug in the recorder: keep the trial, say so
                rec.error = (rec.error + "; " if rec.error else "") + str(exc)
        ctx.store.upsert_trial(rec, evidence)
        return rec


async def run_trial(ctx: TrialContext, plan: TrialPlan,
                    link: SkillLink | None = None) -> TrialRecord:
    """Run one trial and store it; returns its record (status cancelled when cancelled).

    `link`: a skill_mode trial's place in its chain (the cache it starts with); after the
    call `link.cache_after` holds the cache it left.
    """
    trial = _Trial(ctx, plan, link)
    try:
        await trial.execute()
    except asyncio.CancelledError:
        trial.finish_record("cancelled", "cancelled before the trial finished")
        traj = trial.agent.partial("cancelled").trajectory if trial.agent else None
        return await asyncio.shield(_store_quietly(trial, traj))
    except SandboxUnavailable as exc:  # Docker itself went away
        trial.finish_record("error", str(exc), "infrastructure")
        await _store_quietly(trial, trial.agent.partial("error").trajectory
                             if trial.agent else None)
        raise
    except (StagingError, SandboxError, HarnessError) as exc:
        trial.finish_record("error", str(exc))
        traj = trial.agent.partial("error", str(exc)).trajectory if trial.agent else None
        return await trial.store(traj, None)
    result = trial.result
    assert result is not None
    status = STATUS_BY_STOP[result.stop]
    error = result.error
    if trial.grader_error:
        failed = f"grader: {trial.grader_error}; graded 0 (fail-closed)"
        error = f"{error}; {failed}" if error else failed
    trial.finish_record(status, error)
    scores: Scores | None = None
    if result.turns > 0:
        try:
            scores, notes = await trial.score(result.trajectory)
        except asyncio.CancelledError:
            trial.record.status = "cancelled"
            return await asyncio.shield(_store_quietly(trial, result.trajectory))
        except Exception as exc:  # noqa: BLE001 - a metric bug must not lose the trial
            why = f"{type(exc).__name__}: {exc}"
            notes = [f"scoring failed ({why}); the trial is stored without metrics"]
            trial.record.cache_key = None  # never reused: a fixed bug must score it again
        if notes and ctx.warn is not None:
            for note in dict.fromkeys(notes):
                ctx.warn(f"{'/'.join(map(str, plan.key))}: {note}")
    return await trial.store(result.trajectory, scores)


async def _store_quietly(trial: _Trial, traj: Trajectory | None) -> TrialRecord:
    """Store a trial that ended abnormally; a store failure here must not hide the cause."""
    try:
        return await trial.store(traj, None)
    except Exception as exc:  # noqa: BLE001
        if trial.ctx.warn is not None:
            trial.ctx.warn(f"could not store trial {trial.key}: {exc}")
        return trial.record
