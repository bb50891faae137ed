"""Paired trial runs: a `RunSpec` expanded into trials and run with bounded concurrency.

    runner = TrialRunner(spec, client=client, store=store, on_event=print)
    summary = await runner.run()              # or: async for event in runner.stream(): ...
    runner.cancel()                           # from the TUI: stop, clean up, mark cancelled

The run: remove containers left by crashed runs; create (or, with `resume=RUN_ID`, reopen)
the run in the store; expand cases x conditions x attempts, skipping trials already `ok`
and reusing, instead of running, the stored trials of earlier runs whose inputs were the
same (skillforge.trials.cache; not with `fresh`); run them through `skillforge.trials.runner.run_trial` with at most `spec.concurrency` at a
time (an asyncio semaphore), except that the `skill_mode` trials of an attempt run one after
the other in case order, carrying their skill cache (skillforge.trials.skill_chain); emit events (skillforge.trials.events) as they happen; finish
the run as `finished`, `cancelled`, `failed` or `stopped` (at the cost cap: trials/budget.py).
Cancelling (Ctrl+C in the CLI cancels the task running `run()`; the TUI calls `cancel()`) stops new trials, cancels running ones,
waits until their containers are removed and stores them as `cancelled`.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sessions.store import RunStore, new_run_id
from skillforge.harnesses import HarnessError, check_agent, get_harness
from skillforge.providers.prices import Price
from skillforge.models.evals import EvalCase
from skillforge.models.findings import Finding
from skillforge.models.llm import ModelClient
from skillforge.models.skill import load_skill
from skillforge.models.parts import part_of
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.sandbox import SandboxUnavailable, reap_stale
from skillforge.trials.sandbox_check import check_sandbox
from skillforge.trials.script_smoke import smoke_run
from skillforge.authoring.parts import part_index
from skillforge.trials.ablation import AblationError, tree_parts
from skillforge.trials.cases import RunError, load_cases  # noqa: F401 - re-exported
from skillforge.trials.budget import CostCap, CostCapError, admit, end_status, run_cap, settled
from skillforge.trials.cache import adopt, keyed_plans, reusable
from skillforge.trials.harness_session import harness_session
from skillforge.trials.staging import SkillSet, StagingError, load_skill_set
from skillforge.trials.events import (
    RunFinished,
    RunStarted,
    TrialCancelled,
    TrialEvent,
    TrialFailed,
    TrialFinished,
    TrialKey,
    TrialQueued,
    TrialReused,
    TrialSkipped,
    TrialStarted,
)
from skillforge.trials.runner import TrialContext, TrialPlan, run_trial
from skillforge.trials.rounds import rounds_problem, run_rounds
from skillforge.trials.skill_chain import (
    SkillChainError,
    SkillLink,
    chains,
    initial_cache,
    stored_rows,
)


@dataclass
class RunSummary:
    """How a run ended: its id, status and every trial record of this session."""

    run_id: str
    status: str
    spec: RunSpec
    records: list[TrialRecord] = field(default_factory=list)
    skipped: list[TrialKey] = field(default_factory=list)
    # Not run: earlier runs' trials with the same inputs (skillforge.trials.cache).
    reused: list[TrialRecord] = field(default_factory=list)
    error: str | None = None
    # SF604: scripts that failed a --help smoke run in the sandbox before the trials.
    smoke: list[Finding] = field(default_factory=list)
    stop_reason: str | None = None  # status stopped: why (the cost cap, trials/budget.py)


def plan_parts(spec: RunSpec, skills: SkillSet) -> RunSpec:
    """The spec with `parts` set to the parts its `without:<part>` conditions remove (their
    ids and token costs now, so reports never re-read a skill changed since); each ablated
    tree is built here, so an unknown part stops the run before any trial."""
    wanted = [p for c in spec.conditions if (p := part_of(c)) is not None]
    if not wanted:
        return spec
    if "with_skill" not in spec.conditions:
        raise RunError("an ablation compares each without:<part> condition with with_skill; "
                       "add with_skill to the conditions")
    try:
        for cond in spec.conditions:
            skills.target_for(cond)
        parts = part_index(tree_parts(skills.target))
    except (StagingError, AblationError) as exc:
        raise RunError(str(exc)) from exc
    kept = {p.id: p for p in spec.parts}  # a resumed run keeps the costs it started with
    # A condition naming a part by its same_as id keeps that id (the trials carry it).
    return spec.model_copy(update={"parts": [
        kept.get(w) or (parts[w] if parts[w].id == w else
                        parts[w].model_copy(update={"id": w, "same_as": []}))
        for w in wanted]})


def plan_trials(spec: RunSpec, cases: Sequence[EvalCase]) -> list[TrialPlan]:
    """cases x conditions x attempts, ordered so paired trials of a case run close together."""
    return [TrialPlan(case, cond, attempt)
            for attempt in range(1, spec.attempts + 1)
            for case in cases
            for cond in spec.conditions]


class TrialRunner:
    """Runs one RunSpec (or resumes a stored run); see the module docstring."""

    def __init__(self, spec: RunSpec, *, client: ModelClient, store: RunStore,
                 judges: Sequence[ModelClient] = (), resume: str | None = None,
                 on_event: Callable[[TrialEvent], None] | None = None,
                 warn: Callable[[str], None] | None = None, max_tokens: int | None = None,
                 labels: dict[str, str] | None = None, run_id: str | None = None,
                 fresh: bool = False, prices: Mapping[str, Price] | None = None) -> None:
        self.spec = spec
        self.client = client
        self.store = store
        self.judges = list(judges)
        self.resume = resume
        self.run_id = resume or run_id or new_run_id()
        self.on_event = on_event
        self.warn = warn
        self.max_tokens = max_tokens
        self.labels = dict(labels or {})
        self.fresh = fresh  # run every trial, reusing none (--fresh)
        self.deferred_reuse: dict[TrialKey, TrialRecord] = {}  # rounds: taken per round
        self.cancelled = False
        self.prices = prices  # for the cost cap; None: the built-in price table
        self.cost_cap: CostCap | None = None
        self._tasks: list[asyncio.Task] = []
        self._listeners: list[Callable[[TrialEvent], None]] = []

    # --- events ---------------------------------------------------------------------------
    def emit(self, event: TrialEvent) -> None:
        for listener in [self.on_event, *self._listeners]:
            if listener is not None:
                listener(event)

    async def stream(self) -> AsyncIterator[TrialEvent]:
        """Run, yielding every event; the last one is RunFinished. Errors are raised after."""
        queue: asyncio.Queue[TrialEvent] = asyncio.Queue()
        self._listeners.append(queue.put_nowait)
        task = asyncio.create_task(self.run())
        try:
            while True:
                event = await queue.get()
                yield event
                if isinstance(event, RunFinished):
                    break
            await task
        finally:
            if not task.done():
                self.cancel()
                await asyncio.wait([task])
            self._listeners.remove(queue.put_nowait)

    def cancel(self) -> None:
        """Stop the run: no new trials; running ones are cancelled and cleaned up."""
        self.cancelled = True
        for task in self._tasks:
            task.cancel()

    # --- the run --------------------------------------------------------------------------
    def _open_run(self, skills: SkillSet) -> set[TrialKey]:
        """Create the run record, or reopen a stored one; the keys already done ok."""
        if self.resume:
            run = self.store.run(self.resume)
            if run is None:
                raise RunError(f"no run {self.resume!r} in {self.store.db_path}; `skillforge "
                               "report` lists runs, or drop --resume to start a new one")
            self.store.finish_run(self.run_id, "running")
            return self.store.finished_keys(self.run_id)
        try:
            skill_hash = load_skill(skills.root).content_hash()
        except Exception:  # noqa: BLE001 - the hash labels the run; staging already read it
            skill_hash = None
        self.store.create_run(RunRecord(
            run_id=self.run_id, created_at=datetime.now(UTC), skill_name=skills.target.name,
            skill_path=str(skills.root), skill_hash=skill_hash, spec=self.spec, engine="local"))
        return set()

    async def run(self) -> RunSummary:
        """Run every planned trial; returns how the run ended (raises RunError to refuse)."""
        spec = self.spec
        try:
            check_agent(spec.agent, sandbox=spec.sandbox, network=spec.network,
                        conditions=spec.conditions)
        except HarnessError as exc:
            raise RunError(str(exc)) from exc
        try:
            cases = load_cases(spec)
            skills = load_skill_set(spec)
        except StagingError as exc:
            raise RunError(str(exc)) from exc
        self.spec = spec = plan_parts(spec, skills)
        if (problem := rounds_problem(spec)) is not None:
            raise RunError(problem)
        try:
            start_cache = initial_cache(spec, self.store)
        except SkillChainError as exc:
            raise RunError(str(exc)) from exc
        if ("skill_mode" in spec.conditions and spec.skill_cache_mode == "static"
                and not start_cache.skills and not self.resume and self.warn is not None):
            self.warn("--static-reuse with an empty skill cache: the skill_mode agent can "
                      "neither save nor run skills (add --skill-cache-from RUN_ID)")
        await check_sandbox(spec)
        if spec.sandbox == "docker":
            await reap_stale()
        try:
            self.cost_cap = run_cap(self, skills.target.name, len(cases))
            plans = await keyed_plans(plan_trials(spec, cases), spec, skills, client=self.client,
                                      judges=self.judges, max_tokens=self.max_tokens)
        except (HarnessError, CostCapError) as exc:
            raise RunError(str(exc)) from exc
        done = self._open_run(skills)
        reuse = {} if self.fresh else reusable(
            self.store, [p for p in plans if p.key not in done], self.run_id)
        todo = [p for p in plans if p.key not in done and p.key not in reuse]
        summary = RunSummary(self.run_id, "running", spec,
                             skipped=[p.key for p in plans if p.key in done])
        if todo and not self.resume:
            summary.smoke = await smoke_run(spec, skills, cases, run_id=self.run_id,
                                            labels=self.labels)
            for f in summary.smoke:
                if self.warn is not None:
                    self.warn(f"{f.rule} {f.path or ''}: {f.message}")
        self.emit(RunStarted(self.run_id, spec, tuple(p.key for p in plans),
                             skills.target.name, resumed=bool(self.resume)))
        earlier = {t.key: t for t in self.store.trials(self.run_id)} if done else {}
        for p in plans:
            if p.key in reuse and not (spec.until_decided and p.attempt > 1):
                self.adopt_reused(summary, p.key, reuse[p.key])
            else:
                self.emit(TrialSkipped(p.key, earlier.get(p.key)) if p.key in done
                          else TrialQueued(p.key))
        # In rounds, a later round's reusable trials are taken when that round comes.
        self.deferred_reuse = {k: r for k, r in reuse.items() if spec.until_decided and k[2] > 1}
        async with AsyncExitStack() as stack:
            try:
                session = await stack.enter_async_context(
                    harness_session(spec, get_harness(spec.agent) if todo else None))
            except HarnessError as exc:
                self._finish(summary, "failed")
                raise RunError(str(exc)) from exc
            except SandboxUnavailable:
                self._finish(summary, "failed")
                raise
            ctx = TrialContext(run_id=self.run_id, spec=spec, skills=skills,
                               client=self.client, store=self.store, emit=self.emit,
                               judges=self.judges, max_tokens=self.max_tokens, warn=self.warn,
                               labels=self.labels, harness_session=session)
            return await self._run_all(ctx, plans, todo, done, summary, start_cache)

    async def _run_all(self, ctx: TrialContext, plans: list[TrialPlan], todo: list[TrialPlan],
                       done: set[TrialKey], summary: RunSummary, start_cache) -> RunSummary:
        if ctx.spec.until_decided:  # in rounds, stopping when decided
            await run_rounds(self, ctx, plans, todo, done, summary, start_cache)
        else:
            await self.run_batch(ctx, plans, todo, done, summary, start_cache)
        status, summary.stop_reason = end_status(self.cancelled, self.cost_cap)
        self._finish(summary, status)
        return summary

    async def run_batch(self, ctx: TrialContext, plans: list[TrialPlan], todo: list[TrialPlan],
                        done: set[TrialKey], summary: RunSummary, start_cache) -> None:
        """Run `todo` (of `plans`); a cancellation or a failed trial finishes the run as
        such and is raised."""
        spec = ctx.spec
        sem = asyncio.Semaphore(max(1, spec.concurrency))
        skill_chains = chains(plans, spec.conditions)
        in_chain = {p.key for chain in skill_chains for p in chain}
        self._tasks = [asyncio.create_task(self._one(ctx, plan, sem, summary))
                       for plan in todo if plan.key not in in_chain]
        rows = stored_rows(self.store, self.run_id) if done else {}
        self._tasks += [asyncio.create_task(self._chain(ctx, chain, sem, summary, done, rows,
                                                        start_cache))
                        for chain in skill_chains]
        try:
            results = await asyncio.gather(*self._tasks, return_exceptions=True)
        except asyncio.CancelledError:
            # Ctrl+C (or the caller's cancellation): every trial cleans up before we go on.
            self.cancel()
            if self._tasks:
                await asyncio.wait(self._tasks)
            self._finish(summary, "cancelled")
            raise
        failure = next((r for r in results if isinstance(r, BaseException)), None)
        if failure is not None:
            self.cancel()
            summary.error = str(failure)
            self._finish(summary, "failed")
            raise failure

    def adopt_reused(self, summary: RunSummary, key: TrialKey, stored: TrialRecord) -> None:
        """Take an earlier run's trial with the same inputs into this run, not running it."""
        summary.reused.append(rec := adopt(self.store, self.run_id, stored))
        self.emit(TrialReused(key, rec, rec.reused_from or ""))

    def _finish(self, summary: RunSummary, status: str) -> None:
        summary.status = status
        try:
            self.store.finish_run(self.run_id, status)
        finally:
            counts: dict[str, int] = {}
            for rec in summary.records:
                counts[rec.status] = counts.get(rec.status, 0) + 1
            counts["skipped"] = len(summary.skipped)
            if summary.reused:
                counts["reused"] = len(summary.reused)
            self.emit(RunFinished(self.run_id, status,  # type: ignore[arg-type]
                                  counts, summary.error, summary.stop_reason))

    async def _chain(self, ctx: TrialContext, chain: list[TrialPlan], sem: asyncio.Semaphore,
                     summary: RunSummary, done: set[TrialKey], rows: dict,
                     cache) -> None:
        """One attempt's skill_mode trials in case order, each with the cache left before."""
        spec = ctx.spec
        for seq, plan in enumerate(chain):
            if plan.key in done:
                row = rows.get((plan.key[0], plan.attempt))
                if row is not None:
                    cache = row.cache_after
                continue
            link = SkillLink(seq=seq, cache_before=cache, mode=spec.skill_cache_mode,
                             inherited_from=spec.skill_cache_from)
            await self._one(ctx, plan, sem, summary, link)
            if link.cache_after is not None:
                cache = link.cache_after

    async def _one(self, ctx: TrialContext, plan: TrialPlan, sem: asyncio.Semaphore,
                   summary: RunSummary, link: SkillLink | None = None) -> TrialRecord | None:
        try:
            async with sem:
                if self.cancelled or not admit(self.cost_cap, plan.key):
                    self.emit(TrialCancelled(plan.key))
                    return None
                self.emit(TrialStarted(plan.key))
                record = await settled(self.cost_cap, plan.key, run_trial(ctx, plan, link))
        except asyncio.CancelledError:
            # Cancelled while waiting for a slot: it never started, nothing to store.
            self.emit(TrialCancelled(plan.key))
            return None
        except SandboxUnavailable:
            # Docker went away: the other trials cannot run either.
            self.cancel()
            raise
        summary.records.append(record)
        if record.status == "ok":
            self.emit(TrialFinished(plan.key, record))
        elif record.status == "cancelled":
            self.emit(TrialCancelled(plan.key, record))
        else:
            self.emit(TrialFailed(plan.key, record))
        return record
