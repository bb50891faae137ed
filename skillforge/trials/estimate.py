"""What a run would take before it starts (`skillforge trial --dry-run`): trials, tokens, cost.

Trials = cases x conditions x attempts. Tokens per trial come from the last stored run of
the same skill that recorded any: per condition where that run had it, a `without:<part>`
condition taking `with_skill`'s figure when the last run did not ablate that part (an
ablation stages the same skill minus one part), anything else the run's mean. The cost is
those tokens at the model's price (skillforge.providers.prices, `[provider] prices`
included); a model with no price gives no cost, never a guess. A judged run also counts the
LLM judge's tokens per trial (stored with each trial since issue 35), from the last run that
was judged, priced at the judge's model; when no earlier run was judged a note says the
judge's share is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sessions.store import RunStore
from skillforge.models.llm import Usage
from skillforge.models.parts import is_ablated
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.providers.prices import Price, cost_usd


@dataclass
class ConditionEstimate:
    condition: str
    trials: int
    tokens_in: float | None = None  # per trial
    tokens_out: float | None = None
    basis: str = ""  # where the per-trial figure comes from
    judge_tokens_in: float | None = None  # per judged trial
    judge_tokens_out: float | None = None


@dataclass
class RunEstimate:
    cases: int
    attempts: int
    conditions: list[ConditionEstimate] = field(default_factory=list)
    source_run: str | None = None
    model: str | None = None
    tokens: int | None = None  # the agent's and (when known) the judge's
    cost_usd: float | None = None
    notes: list[str] = field(default_factory=list)
    agent_tokens: int | None = None
    judge_tokens: int | None = None
    judge_model: str | None = None

    @property
    def trials(self) -> int:
        return sum(c.trials for c in self.conditions)

    def as_dict(self) -> dict:
        return {"trials": self.trials, "cases": self.cases, "attempts": self.attempts,
                "conditions": [c.__dict__ for c in self.conditions],
                "source_run": self.source_run, "model": self.model, "tokens": self.tokens,
                "agent_tokens": self.agent_tokens, "judge_tokens": self.judge_tokens,
                "judge_model": self.judge_model, "cost_usd": self.cost_usd,
                "notes": self.notes}


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


def _judge_means(store: RunStore | None, skill_name: str | None, skill_path: str | None
                 ) -> tuple[str, dict[str, tuple[float, float]]] | None:
    """(run id, per-condition judge tokens per trial) of the newest judged run of the skill."""
    for run in store.runs() if store else []:
        if run.skill_name != skill_name and (skill_path is None or run.skill_path != skill_path):
            continue
        judged = [t for t in store.trials(run.run_id)  # type: ignore[union-attr]
                  if t.judge_tokens_in or t.judge_tokens_out]
        if judged:
            return run.run_id, {c: (sum(t.judge_tokens_in for t in g) / len(g),
                                    sum(t.judge_tokens_out for t in g) / len(g))
                                for c in {t.condition for t in judged}
                                for g in [[t for t in judged if t.condition == c]]}
    return None


def estimate_run(spec: RunSpec, n_cases: int, store: RunStore | None, skill_name: str | None,
                 prices: Mapping[str, Price], *, judged: bool = False,
                 judge_model: str | None = None) -> RunEstimate:
    """The trials, tokens and cost of `spec` over `n_cases` cases (see the module docstring);
    `judged`: the run will call the LLM judge (with `judge_model`, default the agent's)."""
    out = _agent_estimate(spec, n_cases, store, skill_name, prices)
    if not judged:
        return out
    out.judge_model = _bare_model(judge_model) or out.model
    found = _judge_means(store, skill_name, spec.skill_path)
    if found is None:
        out.notes.append("no earlier judged run of this skill: the LLM judge's tokens are not "
                         "in the estimate (they are counted per trial once a judged run ran)")
        return out
    run_id, means = found
    every = [m for m in means.values()]
    mean_all = (sum(m[0] for m in every) / len(every), sum(m[1] for m in every) / len(every))
    judge_in = judge_out = 0.0
    for est in out.conditions:
        figure = means.get(est.condition, mean_all)
        est.judge_tokens_in, est.judge_tokens_out = round(figure[0], 1), round(figure[1], 1)
        judge_in += figure[0] * est.trials
        judge_out += figure[1] * est.trials
    out.judge_tokens = round(judge_in + judge_out)
    out.tokens = (out.tokens or 0) + out.judge_tokens if out.tokens is not None else None
    judge_cost = cost_usd(out.judge_model, Usage(input_tokens=round(judge_in),
                                                 output_tokens=round(judge_out)), prices) \
        if out.judge_model else None
    if out.cost_usd is not None:
        out.cost_usd = None if judge_cost is None else round(out.cost_usd + judge_cost, 6)
        if judge_cost is None:
            out.notes.append(f"no price for the judge model {out.judge_model}: no cost")
    out.notes.append(f"judge tokens per trial from judged run {run_id}")
    return out


def _agent_estimate(spec: RunSpec, n_cases: int, store: RunStore | None,
                    skill_name: str | None, prices: Mapping[str, Price]) -> RunEstimate:
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
        out.tokens = out.agent_tokens = round(total_in + total_out)
        if out.model:
            out.cost_usd = cost_usd(out.model, Usage(input_tokens=round(total_in),
                                                     output_tokens=round(total_out)), prices)
            if out.cost_usd is None:
                out.notes.append(f"no price for {out.model} in the price table: add it under "
                                 "[provider] prices in skillforge.toml for a cost")
        else:
            out.notes.append("no model named: pass --model for a cost")
    return out
