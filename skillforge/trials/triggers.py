"""Trigger trials: does the agent pick the skill for a query, among decoy skills?

    trials = TriggerTrials(base_spec, client=agent, store=store, loop_dir=dir,
                           decoys=paths, runs=3, max_turns=3)
    score = await trials.score(description, queries, loop_id=..., iteration=0, split="test")

Each description is staged as a candidate copy of the skill under the loop's folder
(`<loop dir>/iter<k>/<name>/`: the skill's files without evals/, SKILL.md with only the
description replaced, and an evals/evals.json holding just the trigger queries, each a case
whose prompt is the query, without files or grader). The trials are ordinary trials of an
ordinary run (condition `with_skill`, workspace `group` with the decoys, no judge), created
with the label `trigger:<loop id>:iter<k>:<split>` and then run by the normal runner, so
they sit in the run store with their trajectories like any other trial.

A trigger trial does not need the task done: it stops after `max_turns` model turns (3 by
default), by which the agent has picked a skill or not; activation after that is not
counted (a run that would have read SKILL.md on turn 4 counts as not triggered). That bound
is what keeps a trial at a few thousand tokens.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from sessions.store import RunStore, new_run_id
from skillforge.authoring.description_edit import with_description
from skillforge.lift.triggers import score_trials
from skillforge.models.llm import ModelClient
from skillforge.models.skill import SKILL_MD
from skillforge.models.trial import RunRecord, RunSpec
from skillforge.models.triggers import Split, TriggerQuery, TriggerScore, run_label
from skillforge.sandbox.skill_tree import EXCLUDED_DIRS
from skillforge.providers.prices import Price
from skillforge.trials.events import TrialEvent
from skillforge.trials.run import TrialRunner

DEFAULT_MAX_TURNS = 3


def trigger_evals(skill_name: str, queries: Sequence[TriggerQuery]) -> dict:
    """The evals.json of a candidate copy: one case per query, nothing else."""
    return {"skill_name": skill_name, "evals": [
        {"id": q.id, "kind": "implicit" if q.should_trigger else "negative",
         "prompt": q.query, "should_trigger": q.should_trigger} for q in queries]}


def stage_candidate(skill_dir: Path, description: str, dest: Path, skill_name: str,
                    queries: Sequence[TriggerQuery]) -> Path:
    """`dest`/<skill_name>/: the skill with `description`, and the trigger queries as cases."""
    folder = dest / skill_name
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(skill_dir, folder, symlinks=True,
                    ignore=shutil.ignore_patterns(*EXCLUDED_DIRS))
    md = folder / SKILL_MD
    md.write_text(with_description(md.read_text("utf-8"), description), "utf-8")
    (folder / "evals").mkdir()
    (folder / "evals" / "evals.json").write_text(
        json.dumps(trigger_evals(skill_name, queries), indent=2) + "\n", "utf-8")
    return folder


class TriggerTrials:
    """Runs one description on one set of queries as a labelled run (see module doc)."""

    def __init__(self, base: RunSpec, *, client: ModelClient, store: RunStore, loop_dir: Path,
                 skill_dir: Path, skill_name: str, decoys: Sequence[str], runs: int = 3,
                 max_turns: int = DEFAULT_MAX_TURNS, threshold: float = 0.5,
                 max_tokens: int | None = None,
                 on_event: Callable[[TrialEvent], None] | None = None,
                 warn: Callable[[str], None] | None = None,
                 max_cost_usd: float | None = None,
                 prices: Mapping[str, Price] | None = None) -> None:
        self.base = base
        # The loop's cost cap: each run gets what is left of it (skillforge.trials.budget);
        # `spent` adds up the runs' recorded spend and what the loop adds (its proposer).
        self.max_cost_usd = max_cost_usd
        self.prices = prices
        self.spent = 0.0
        self.stopped: str | None = None  # why the last run stopped at the cap
        self.client = client
        self.store = store
        self.loop_dir = loop_dir
        self.skill_dir = skill_dir
        self.skill_name = skill_name
        self.decoys = list(decoys)
        self.runs = runs
        self.max_turns = max_turns
        self.threshold = threshold
        self.max_tokens = max_tokens
        self.on_event = on_event
        self.warn = warn
        self.runner: TrialRunner | None = None
        self.cancelled = False

    def spec_for(self, candidate: Path, queries: Sequence[TriggerQuery]) -> RunSpec:
        limits = self.base.limits.model_copy(update={"max_turns": self.max_turns})
        return self.base.model_copy(update={
            "skill_path": str(candidate), "case_ids": [q.id for q in queries],
            "conditions": ["with_skill"], "attempts": self.runs, "limits": limits,
            "workspace": "group", "decoy_skills": list(self.decoys), "judge": False,
            "judge_models": [], "baseline_version": None, "until_decided": False,
            # [trial] max_cost_usd caps one `skillforge trial` run; the loop's many small
            # runs share the loop's own cap (--max-cost-usd of optimize-description).
            "max_cost_usd": None if self.max_cost_usd is None
            else max(self.max_cost_usd - self.spent, 1e-9)})

    async def score(self, description: str, queries: Sequence[TriggerQuery], *,
                    loop_id: str, iteration: int, split: Split) -> tuple[str, TriggerScore]:
        """(run id, score) of `description` on `queries`."""
        candidate = self.loop_dir / f"iter{iteration}"
        folder = candidate / self.skill_name
        if not folder.exists():
            # Both splits share the candidate copy; it holds every query of the loop.
            raise FileNotFoundError(f"{folder}: stage the candidate first")
        spec = self.spec_for(folder, queries)
        run_id = new_run_id()
        self.store.create_run(RunRecord(
            run_id=run_id, created_at=datetime.now(UTC), skill_name=self.skill_name,
            skill_path=str(folder), spec=spec, engine="local",
            label=run_label(loop_id, iteration, split)))
        # The run exists (with its label): the runner reopens it as it would a resume, so
        # no trial is skipped and no --help smoke run is repeated per description.
        self.runner = TrialRunner(spec, client=self.client, store=self.store, judges=[],
                                  resume=run_id, on_event=self.on_event, warn=self.warn,
                                  max_tokens=self.max_tokens, prices=self.prices)
        try:
            summary = await self.runner.run()
            if (cap := self.runner.cost_cap) is not None:
                self.spent += cap.spent
                self.stopped = summary.stop_reason
        except BaseException as exc:
            # The runner closes a run it got going; one refused before that (Docker
            # unreachable, a missing image) would stay "running" in every run list.
            cancelled = self.cancelled or isinstance(exc, asyncio.CancelledError)
            self._close(run_id, "cancelled" if cancelled else "failed")
            raise
        finally:
            self.runner = None
        trials = self.store.trials(run_id)
        return run_id, score_trials(queries, trials, threshold=self.threshold, run_id=run_id)

    def _close(self, run_id: str, status: str) -> None:
        """Mark a run still "running" as `status`; a store error here must not hide the
        run's own."""
        try:
            run = self.store.run(run_id)
            if run is not None and run.status == "running":
                self.store.finish_run(run_id, status)
        except (sqlite3.Error, KeyError):
            pass

    def stage(self, description: str, iteration: int,
              queries: Sequence[TriggerQuery]) -> Path:
        return stage_candidate(self.skill_dir, description, self.loop_dir / f"iter{iteration}",
                               self.skill_name, queries)

    def cancel(self) -> None:
        self.cancelled = True
        if self.runner is not None:
            self.runner.cancel()
