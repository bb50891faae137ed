"""What a run would take before it starts (`skillforge trial --dry-run`): trials, tokens, cost.

Trials = cases x conditions x attempts. Tokens per trial come from the last stored run of
the same skill that recorded any: per condition where that run had it, a `without:<part>`
condition taking `with_skill`'s figure when the last run did not ablate that part (an
ablation stages the same skill minus one part), anything else the run's mean. The cost is
those tokens at the model's price (skillforge.providers.prices, `[provider] prices`
included); a model with no price gives no cost, never a guess. Only the agent's tokens are
counted: the judge's are not stored per trial.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sessions.store import RunStore
from skillforge.models.llm import Usage
from skillforge.models.parts import is_ablated
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.providers.prices import Price, cost_usd, find_price


@dataclass
class ConditionEstimate:
    condition: str
    trials: int
    tokens_in: float | None = None  # per trial
    tokens_out: float | None = None
    basis: str = ""  # where the per-trial figure comes from


@dataclass
class RunEstimate:
    cases: int
    attempts: int
    conditions: list[ConditionEstimate] = field(default_factory=list)
    source_run: str | None = None
    model: str | None = None
    tokens: int | None = None
    cost_usd: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def trials(self) -> int:
        return sum(c.trials for c in self.conditions)

    def as_dict(self) -> dict:
        return {"trials": self.trials, "cases": self.cases, "attempts": self.attempts,
                "conditions": [c.__dict__ for c in self.conditions],
                "source_run": self.source_run, "model": self.model, "tokens": self.tokens,
                "cost_usd": self.cost_usd, "notes": self.notes}


def last_run_with_tokens(store: RunStore, skill_name: str | None,
                         skill_path: str | None = None) -> tuple[RunRecord, list[TrialRecord]] | None:
    """The newest run of the skill whose trials recorded tokens."""
    for run in store.runs():
        if run.skill_name != skill_name and (skill_path is None or run.skill_path != skill_path):
            continue
        trials = [t for t in store.trials(run.run_id) if t.tokens_in or t.tokens_out]
        if trials:
            return run, trials
    return None


def _means(trials: Sequence[TrialRecord]) -> tuple[float, float] | None:
    if not trials:
        return None
    return (sum(t.tokens_in for t in trials) / len(trials),
            sum(t.tokens_out for t in trials) / len(trials))


def _bare_model(model: str | None) -> str | None:
    if model and ":" in model and model.split(":", 1)[0] in ("openai", "anthropic"):
        return model.split(":", 1)[1]
    return model


def estimate_run(spec: RunSpec, n_cases: int, store: RunStore | None, skill_name: str | None,
                 prices: Mapping[str, Price]) -> RunEstimate:
    """The trials, tokens and cost of `spec` over `n_cases` cases (see the module docstring)."""
    out = RunEstimate(cases=n_cases, attempts=spec.attempts)
    last = last_run_with_tokens(store, skill_name, spec.skill_path) if store else None
    by_cond: dict[str, tuple[float, float]] = {}
    overall = None
    if last is not None:
        run, trials = last
        out.source_run = run.run_id
        for cond in {t.condition for t in trials}:
            m = _means([t for t in trials if t.condition == cond])
            if m is not None:
                by_cond[cond] = m
        overall = _means(trials)
        out.model = _bare_model(run.spec.model if run.spec else None)
    else:
        out.notes.append("no earlier run of this skill recorded tokens: the token and cost "
                         "estimate needs one (run a few cases first, e.g. --cases ID "
                         "--attempts 1)")
    out.model = _bare_model(spec.model) or out.model
    total_in = total_out = 0.0
    known = True
    for cond in spec.conditions:
        n = n_cases * spec.attempts
        est = ConditionEstimate(condition=cond, trials=n)
        if cond in by_cond:
            figure, basis = by_cond[cond], f"{cond} in run {out.source_run}"
        elif is_ablated(cond) and "with_skill" in by_cond:
            figure, basis = by_cond["with_skill"], f"with_skill in run {out.source_run}"
        elif overall is not None:
            figure, basis = overall, f"all trials of run {out.source_run}"
        else:
            figure, basis = None, "unknown"
        if figure is not None:
            est.tokens_in, est.tokens_out = round(figure[0], 1), round(figure[1], 1)
            total_in += figure[0] * n
            total_out += figure[1] * n
        else:
            known = False
        est.basis = basis
        out.conditions.append(est)
    if known and out.conditions:
        out.tokens = round(total_in + total_out)
        if out.model:
            out.cost_usd = cost_usd(out.model, Usage(input_tokens=round(total_in),
                                                     output_tokens=round(total_out)), prices)
            if out.cost_usd is None:
                out.notes.append(f"no price for {out.model} in the price table: add it under "
                                 "[provider] prices in skillforge.toml for a cost")
        else:
            out.notes.append("no model named: pass --model for a cost")
    if find_price(out.model or "", prices) is not None and out.tokens is not None:
        out.notes.append("agent tokens only; the LLM judge's calls are not counted")
    return out
