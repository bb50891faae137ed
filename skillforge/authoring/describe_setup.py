"""Setting up a description-optimisation loop from settings and flags, and its cost up front.

    plan = prepare_loop(skill_dir, settings, store, options)   # raises LoopSetupError
    print(plan.estimate)                                       # trials, tokens, cost
    history = await plan.loop.run()

One path for the CLI (`skillforge optimize-description`) and the workbench's Triggers tab.
The trial settings come from `[trial]`, evals.json `defaults` and the options, as for
`skillforge trial` (skillforge.trials.config); the trigger trials then run condition
`with_skill`, workspace `group` with the decoys, `max_turns` turns, no judge.

The estimate is an upper bound: every iteration tried, every trial using all its turns with
the target's SKILL.md read on the first (the largest thing an activation adds to the
context), the proposer asked twice per iteration (a lint resend). Tokens are counted with
the linter's tokenizer (tiktoken cl100k) on the agent's real system prompt; the price is the
price table's (`[provider] prices` merged over the built-in one), unknown when the model is
not in it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from linters.text.tokens import count_tokens
from sessions.store import RunStore
from skillforge.agent.loop import system_prompt
from skillforge.authoring.describe_loop import (
    DescriptionLoop,
    description_of,
    loop_dir,
)
from skillforge.authoring.describe_prompt import SKILL_CHARS
from skillforge.lift.triggers import split_queries, trigger_queries
from skillforge.models.config import Settings
from skillforge.models.evals import EVALS_PATH, load_evals
from skillforge.models.llm import ModelClient, Usage
from skillforge.models.proposals import ProposalError
from skillforge.models.skill_loader import load_skill
from skillforge.models.stage import TrialStage, VisibleSkill
from skillforge.models.triggers import Attempt, LoopHistory, LoopSettings
from skillforge.providers import select_provider
from skillforge.providers.prices import cost_usd, price_table
from skillforge.sandbox import SKILLS_DIR
from skillforge.sandbox.skill_tree import read_skill_tree
from skillforge.trials.config import build_run_spec, check_harness
from skillforge.trials.decoys import DecoyError, decoys_up_to
from skillforge.trials.events import TrialEvent
from skillforge.trials.triggers import TriggerTrials

MIN_QUERIES_PER_CLASS = 2
TURN_OUTPUT_TOKENS = 150
PROPOSER_OUTPUT_TOKENS = 400
PROPOSER_OVERHEAD_TOKENS = 700


class LoopSetupError(ValueError):
    """The loop cannot start as asked; the message names the file or option and the fix."""


class LoopOptions(BaseModel):
    iterations: int = 5
    runs: int = 3
    holdout: float = 0.4
    seed: int = 0
    threshold: float = 0.5
    max_turns: int = 3
    decoys: int = 5
    decoys_from: str | None = None
    model: str | None = None  # the agent's
    proposer_model: str | None = None
    trial: dict[str, Any] = {}  # other [trial] overrides (sandbox, image, concurrency...)
    max_cost_usd: float | None = None  # the loop's hard cap: trigger trials and proposer


class Estimate(BaseModel):
    trials: int
    queries: int
    train: int
    test: int
    agent_model: str | None = None
    agent_tokens_in: int = 0
    agent_tokens_out: int = 0
    agent_cost_usd: float | None = None
    proposer_model: str | None = None
    proposer_tokens_in: int = 0
    proposer_tokens_out: int = 0
    proposer_cost_usd: float | None = None
    max_turns: int = 3

    @property
    def source(self) -> str:
        """Where the per-trial figures come from, in words (shown with the estimate)."""
        return (f"per-trial figures: the price table and an assumption: every trial uses all "
                f"its {self.max_turns} turns with the skill's SKILL.md read on the first, "
                f"{TURN_OUTPUT_TOKENS} output tokens a turn; the proposer asked twice an "
                "iteration; no judge calls (trigger trials are not judged), no trial reused")

    @property
    def cost_usd(self) -> float | None:
        parts = [self.agent_cost_usd, self.proposer_cost_usd]
        return None if any(p is None for p in parts) else sum(p or 0.0 for p in parts)

    def lines(self) -> list[str]:
        def money(v: float | None) -> str:
            return "unknown (model not in the price table)" if v is None else f"${v:.4f}"
        return [
            f"trigger trials: at most {self.trials} ({self.queries} queries: {self.train} "
            f"train, {self.test} test; every description on both)",
            f"agent {self.agent_model}: up to {self.agent_tokens_in:,} input + "
            f"{self.agent_tokens_out:,} output tokens, {money(self.agent_cost_usd)}",
            f"proposer {self.proposer_model}: up to {self.proposer_tokens_in:,} input + "
            f"{self.proposer_tokens_out:,} output tokens, {money(self.proposer_cost_usd)}",
            f"estimated cost (upper bound): {money(self.cost_usd)}",
            self.source,
        ]


@dataclass
class LoopPlan:
    loop: DescriptionLoop
    history: LoopHistory
    estimate: Estimate
    agent: ModelClient
    proposer: ModelClient
    folder: Path
    warnings: list[str] = field(default_factory=list)


def new_loop_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "-" + secrets.token_hex(3)


def _queries(skill_dir: Path, holdout: float, seed: int):
    path = skill_dir / EVALS_PATH
    evalset, issues = load_evals(path) if path.is_file() else (None, [])
    if issues:
        first = issues[0]
        where = f"{path}:{first.line}" if first.line else str(path)
        raise LoopSetupError(f"{where}: {first.message}; fix it (`skillforge evals validate`)")
    queries = trigger_queries(evalset)
    pos = sum(1 for q in queries if q.should_trigger)
    neg = len(queries) - pos
    if pos < MIN_QUERIES_PER_CLASS or neg < MIN_QUERIES_PER_CLASS:
        raise LoopSetupError(
            f"{path} has {pos} trigger queries that should trigger and {neg} that should not; "
            f"the loop needs at least {MIN_QUERIES_PER_CLASS} of each (about 10 of each is "
            "the usual set): add cases with \"should_trigger\": true/false, or draft them in "
            "the Evals tab (ctrl+k)")
    try:
        train, test = split_queries(queries, holdout, seed)
    except ValueError as exc:
        raise LoopSetupError(f"--holdout: {exc}") from None
    return queries, train, test


def estimate(skill_dir: Path, history: LoopHistory, decoys: list[str], agent_model: str,
             proposer_model: str, settings: Settings) -> Estimate:
    s = history.settings
    n_q = len(history.train) + len(history.test)
    tries = 1 + s.iterations
    trials = tries * n_q * s.runs
    visible = [VisibleSkill(name=history.skill, description=history.attempts[0].description
                            if history.attempts else "", path=f"{SKILLS_DIR}/{history.skill}/SKILL.md",
                            role="target")]
    for d in decoys:
        tree = read_skill_tree(d)
        visible.append(VisibleSkill(name=tree.name, description=tree.description,
                                    path=f"{SKILLS_DIR}/{tree.name}/SKILL.md", role="decoy"))
    base = count_tokens(system_prompt(TrialStage(case_id="estimate", condition="with_skill",
                                                 skills=visible)))
    skill = load_skill(skill_dir)
    md = skill.skill_md.text if skill.skill_md is not None and skill.skill_md.text else ""
    growth = count_tokens(md) + TURN_OUTPUT_TOKENS
    q_tokens = sum(count_tokens(q.query) for q in [*history.train, *history.test])
    per_query_in = sum(base + t * growth for t in range(s.max_turns))
    agent_in = tries * s.runs * (n_q * per_query_in + q_tokens)
    agent_out = trials * s.max_turns * TURN_OUTPUT_TOKENS
    train_text = sum(count_tokens(q.query) + 20 for q in history.train)
    prop_in = 0
    for k in range(1, s.iterations + 1):
        # the skill, the training queries, and k earlier attempts with per-query results
        prop_in += 2 * (PROPOSER_OVERHEAD_TOKENS + count_tokens(md[:SKILL_CHARS]) + train_text
                        + k * (250 + 25 * len(history.train)))
    prop_out = 2 * s.iterations * PROPOSER_OUTPUT_TOKENS
    table = price_table(settings.provider.prices)
    return Estimate(
        trials=trials, queries=n_q, train=len(history.train), test=len(history.test),
        max_turns=s.max_turns,
        agent_model=agent_model, agent_tokens_in=agent_in, agent_tokens_out=agent_out,
        agent_cost_usd=cost_usd(agent_model, Usage(input_tokens=agent_in,
                                                   output_tokens=agent_out), table),
        proposer_model=proposer_model, proposer_tokens_in=prop_in,
        proposer_tokens_out=prop_out,
        proposer_cost_usd=cost_usd(proposer_model, Usage(input_tokens=prop_in,
                                                         output_tokens=prop_out), table))


def prepare_loop(skill_dir: Path, settings: Settings, store: RunStore, options: LoopOptions, *,
                 on_event: Callable[[TrialEvent], None] | None = None,
                 on_progress: Callable[[LoopHistory], None] | None = None,
                 warn: Callable[[str], None] | None = None) -> LoopPlan:
    """Everything a loop needs, checked; raises LoopSetupError, TrialConfigError,
    ProviderNotConfigured or PriceTableError with a message saying what to do."""
    skill_dir = Path(skill_dir).resolve()
    if options.iterations < 0 or options.runs < 1 or options.max_turns < 1:
        raise LoopSetupError("--iterations must be 0 or more, --runs and --max-turns 1 or more")
    try:
        current = description_of(skill_dir)
    except ProposalError as exc:
        raise LoopSetupError(str(exc)) from None
    name = load_skill(skill_dir).name or skill_dir.name
    queries, train, test = _queries(skill_dir, options.holdout, options.seed)
    notes: list[str] = []
    try:
        decoys = decoys_up_to(skill_dir, options.decoys, source=options.decoys_from,
                              seed=options.seed, warn=notes.append)
    except DecoyError as exc:
        raise LoopSetupError(f"--decoys: {exc}") from None
    base = build_run_spec(skill_dir, settings, {**options.trial, "model": options.model},
                          warn=notes.append)
    check_harness(base)
    agent = select_provider(settings, base.model, base.provider)
    proposer = select_provider(settings, options.proposer_model or base.model, base.provider)
    prices = price_table(settings.provider.prices)
    if options.max_cost_usd is not None:
        unpriced = [m for m in (agent.model, proposer.model)
                    if cost_usd(m, Usage(), prices) is None]
        if unpriced:
            raise LoopSetupError(
                f"--max-cost-usd: no price for {', '.join(dict.fromkeys(unpriced))} in the "
                "price table, so the spend cannot be counted; add it under [provider] prices "
                "in skillforge.toml, or run without the cap")
    base = base.model_copy(update={"model": agent.model, "provider": agent.name})
    loop_id = new_loop_id()
    folder = loop_dir(store.state_dir, loop_id)
    history = LoopHistory(
        loop_id=loop_id, skill=name, skill_path=str(skill_dir), created_at=datetime.now(UTC),
        proposer_model=proposer.model, agent_model=agent.model,
        settings=LoopSettings(iterations=options.iterations, runs=options.runs,
                              holdout=options.holdout, seed=options.seed,
                              threshold=options.threshold, max_turns=options.max_turns,
                              decoys=len(decoys)),
        decoy_skills=decoys, train=train, test=test,
        attempts=[Attempt(iteration=0, description=current, rationale="the current "
                          "description")])
    trials = TriggerTrials(base, client=agent, store=store, loop_dir=folder,
                           skill_dir=skill_dir, skill_name=name, decoys=decoys,
                           runs=options.runs, max_turns=options.max_turns,
                           threshold=options.threshold,
                           max_tokens=settings.provider.max_tokens, on_event=on_event,
                           warn=warn, max_cost_usd=options.max_cost_usd, prices=prices)
    loop = DescriptionLoop(skill_dir, history, trials=trials, proposer=proposer,
                           folder=folder, lint_config=settings.lint,
                           max_tokens=settings.provider.max_tokens,
                           temperature=settings.provider.temperature, on_progress=on_progress)
    est = estimate(skill_dir, history, decoys, agent.model, proposer.model, settings)
    if warn is not None:
        for note in notes:
            warn(note)
    return LoopPlan(loop=loop, history=history, estimate=est, agent=agent, proposer=proposer,
                    folder=folder, warnings=notes)
