"""The hard cost cap of a run (`--max-cost-usd X`, `[trial] max_cost_usd`, the Trials form).

    cap = cost_cap_for(spec, store, run_id, skill, n_cases, agent_model, judges, prices)
    if cap.admit(key):         # before a trial starts; False once the cap is reached
        record = await run_trial(...)
    cap.settle(key, record)    # after it (record None when it stored nothing)

The runner (skillforge.trials.run) uses the small wrappers at the end: `run_cap`, `admit`,
`settled`, `end_status`, so its own code stays the run's.

No trial starts once the recorded spend plus the next trial's estimate would pass the cap;
after the first refusal none starts at all (a cheaper condition slipping in later would make
the partial run lopsided), and the run ends `stopped` with what finished. Trials already
running when the cap is reached finish and are counted: the cap bounds what is started, so
a run can pass it by how much its last trials exceed their estimate, never by a trial that
was not expected to fit.

Spend is priced from each trial's recorded tokens, the agent's at the agent's model and the
judge's at the dearest judge model, with the price table (`[provider] prices` included).
Trials in flight count at their estimate until they finish. A resumed run starts from the
spend of the trials it already stored. A trial's estimate is the mean spend of this run's
finished trials of its condition, before any has finished the pre-run estimate
(skillforge.trials.estimate: the last comparable run, else the stated assumption). A model
without a price cannot be capped: the run refuses to start (`CostCapError`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sessions.store import RunStore
from skillforge.models.llm import Usage
from skillforge.models.trial import RunSpec, TrialRecord
from skillforge.providers.prices import Price, cost_usd, price_table
from skillforge.trials.estimate import TrialKey, estimate_run

STOP_REASON = "stopped at the cost cap"


class CostCapError(ValueError):
    """The cap cannot be kept (a model without a price); the message says what to do."""


@dataclass
class CostCap:
    cap: float
    agent_model: str
    judge_models: list[str]
    prices: Mapping[str, Price]
    estimate: dict[str, float]  # condition -> cost of one trial before the run
    spent: float = 0.0
    stopped: bool = False
    refused: int = 0  # trials not started because of the cap
    _held: dict[TrialKey, float] = field(default_factory=dict)
    _actual: dict[str, list[float]] = field(default_factory=dict)

    def spend_of(self, rec: TrialRecord) -> float:
        """What one trial's recorded calls cost, the agent's and the judge's (0 for a trial
        reused from another run: that run paid for it)."""
        if rec.reused_from:
            return 0.0
        agent = cost_usd(self.agent_model, Usage(input_tokens=rec.tokens_in,
                                                 output_tokens=rec.tokens_out,
                                                 cached_tokens=rec.tokens_cached), self.prices)
        judge = max((cost_usd(m, Usage(input_tokens=rec.judge_tokens_in,
                                       output_tokens=rec.judge_tokens_out), self.prices) or 0.0
                     for m in self.judge_models), default=0.0)
        return (agent or 0.0) + judge

    def next_estimate(self, condition: str) -> float:
        done = self._actual.get(condition)
        if done:
            return sum(done) / len(done)
        return self.estimate.get(condition, max(self.estimate.values(), default=0.0))

    @property
    def held(self) -> float:
        return sum(self._held.values())

    def admit(self, key: TrialKey) -> bool:
        """May this trial start? Holds its estimate until `settle`; False from the first
        trial that would pass the cap on."""
        if not self.stopped:
            est = self.next_estimate(key[1])
            if self.spent + self.held + est <= self.cap + 1e-12:
                self._held[key] = est
                return True
            self.stopped = True
        self.refused += 1
        return False

    def settle(self, key: TrialKey, record: TrialRecord | None) -> None:
        """The trial ended: its estimate is released, its recorded spend counted."""
        self._held.pop(key, None)
        if record is not None:
            spend = self.spend_of(record)
            self.spent += spend
            self._actual.setdefault(key[1], []).append(spend)

    def reason(self) -> str:
        """Why the run stopped, with the figures."""
        return (f"{STOP_REASON}: ${self.spent:.4f} spent of ${self.cap:.4f}; "
                f"{self.refused} trial(s) not started (the next would have passed the cap)")


def cost_cap_for(spec: RunSpec, store: RunStore, run_id: str, skill_name: str, n_cases: int,
                 agent_model: str, judge_models: Sequence[str],
                 prices: Mapping[str, Price]) -> CostCap | None:
    """The cap of this run (None without `spec.max_cost_usd`), its spend so far counted;
    raises CostCapError when a model has no price."""
    if spec.max_cost_usd is None:
        return None
    unpriced = [m for m in [agent_model, *judge_models] if cost_usd(m, Usage(), prices) is None]
    if unpriced:
        raise CostCapError(
            f"--max-cost-usd {spec.max_cost_usd:g}: no price for "
            f"{', '.join(dict.fromkeys(unpriced))} in the price table, so the spend cannot be "
            "counted; add it under [provider] prices in skillforge.toml (input and output "
            "USD per million tokens), or run without the cap")
    spec = spec.model_copy(update={"model": agent_model})
    est = estimate_run(spec, n_cases, store, skill_name, prices, judged=bool(judge_models),
                       judge_model=next(iter(judge_models), None),
                       judges=max(1, len(judge_models)))
    per_trial = {c: v for c, v in est.per_trial_usd().items() if v is not None}
    cap = CostCap(cap=spec.max_cost_usd, agent_model=agent_model,
                  judge_models=list(judge_models), prices=prices, estimate=per_trial)
    cap.spent = sum(cap.spend_of(t) for t in store.trials(run_id))
    return cap


def run_cap(runner: Any, skill_name: str, n_cases: int) -> CostCap | None:
    """The cap of a TrialRunner's run (its spec, store, run id, clients and prices)."""
    if runner.spec.max_cost_usd is None:
        return None
    return cost_cap_for(runner.spec, runner.store, runner.run_id, skill_name, n_cases,
                        runner.client.model, [j.model for j in runner.judges],
                        price_table() if runner.prices is None else runner.prices)


def admit(cap: CostCap | None, key: TrialKey) -> bool:
    """May this trial start (always, without a cap)?"""
    return cap is None or cap.admit(key)


async def settled(cap: CostCap | None, key: TrialKey,
                  trial: Awaitable[TrialRecord]) -> TrialRecord:
    """Await the trial; whatever happens, its estimate is released and its spend counted."""
    record = None
    try:
        record = await trial
        return record
    finally:
        if cap is not None:
            cap.settle(key, record)


def end_status(cancelled: bool, cap: CostCap | None) -> tuple[str, str | None]:
    """(status, stop reason) of a run whose trials are all done."""
    if cancelled:
        return "cancelled", None
    if cap is not None and cap.stopped:
        return "stopped", cap.reason()
    return "finished", None
