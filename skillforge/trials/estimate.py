"""What a run would take before it starts (`skillforge trial --dry-run`, the Trials form, the
cost cap): trials, tokens and cost, the agent's calls and the LLM judge's.

Trials = cases x conditions x attempts, less the trials known to be reused from stored runs
(`reused`: they run nothing, so they count 0 tokens and $0). Tokens per trial come from the
last comparable run of the skill in the store: the newest that recorded tokens, one with
the same agent and model when there is one. Per condition where that run had it, a
`without:<part>` condition taking `with_skill`'s figure when the run did not ablate that
part (an ablation stages the same skill minus one part), anything else the run's mean. With
no such run, the figures are the stated assumption of skillforge.trials.assumed.

A judged run also counts the judge's tokens per trial (stored with each trial since issue
35): from the last judged run of the skill, else assumed from the agent's figures (one call
per judge per trial, reading the trajectory). The cost is every token at its model's price
(skillforge.providers.prices, `[provider] prices` included); a model with no price gives no
cost, never a guess. `source` says in words where the per-trial figures came from.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from sessions.store import RunStore
from skillforge.models.llm import Usage
from skillforge.models.parts import is_ablated
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.providers.prices import Price, cost_usd
from skillforge.trials import assumed

TrialKey = tuple[str, str, int]  # (case_id, condition, attempt), as skillforge.trials.events


@dataclass
class ConditionEstimate:
    condition: str
    trials: int  # trials that will run (reused ones not included)
    tokens_in: float | None = None  # per trial
    tokens_out: float | None = None
    basis: str = ""  # where the per-trial figure comes from
    judge_tokens_in: float | None = None  # per judged trial
    judge_tokens_out: float | None = None
    judge_basis: str = ""
    reused: int = 0  # trials reused from stored runs: no tokens, no cost
    cost_usd: float | None = None  # per trial, the agent's and the judge's
    turns: float | None = None  # mean turns per trial of the source run, when known


@dataclass
class RunEstimate:
    cases: int
    attempts: int
    conditions: list[ConditionEstimate] = field(default_factory=list)
    source_run: str | None = None
    model: str | None = None
    tokens: int | None = None  # the agent's and (when judged) the judge's
    cost_usd: float | None = None
    notes: list[str] = field(default_factory=list)
    agent_tokens: int | None = None
    judge_tokens: int | None = None
    judge_model: str | None = None
    source: str = ""  # where the agent's per-trial figures came from, in words
    judge_source: str = ""  # and the judge's ("" when the run is not judged)

    @property
    def trials(self) -> int:
        return sum(c.trials for c in self.conditions)

    @property
    def reused(self) -> int:
        return sum(c.reused for c in self.conditions)

    def per_trial_usd(self) -> dict[str, float | None]:
        """Condition -> the estimated cost of one of its trials (None: no price)."""
        return {c.condition: c.cost_usd for c in self.conditions}

    def trials_within(self, cap: float) -> int | None:
        """How many trials start before `cap` stops the run, in the run's order (attempt,
        case, condition), or None without a cost."""
        costs = self.per_trial_usd()
        if self.cost_usd is None or any(v is None for v in costs.values()):
            return None
        left = {c.condition: c.trials for c in self.conditions}
        spent, started = 0.0, 0
        while any(left.values()):
            for cond, n in left.items():
                if n == 0:
                    continue
                if spent + (costs[cond] or 0.0) > cap + 1e-12:
                    return started
                spent += costs[cond] or 0.0
                left[cond], started = n - 1, started + 1
        return started

    def brief(self, cap: float | None = None) -> tuple[str, str]:
        """(one line, the rest) for a form: trials, tokens, cost, the source in short; the
        rest says where every figure came from."""
        tokens = "tokens unknown" if self.tokens is None else f"~{_short(self.tokens)} tokens"
        if self.judge_tokens is not None:
            tokens += f" (judge ~{_short(self.judge_tokens)})"
        cost = "cost unknown" if self.cost_usd is None else f"~${self.cost_usd:,.2f}"
        reused = f" + {self.reused} reused" if self.reused else ""
        where = (f"per trial from run {self.source_run}" if self.source_run else
                 "figures assumed (no run yet)")
        line = f"est. {self.trials} trials{reused} · {tokens} · {cost} · {where}"
        if cap is not None and (fit := self.trials_within(cap)) is not None \
                and fit < self.trials:
            line += f" · the ${cap:g} cap stops it after ~{fit}"
        rest = "\n".join(n for n in [self.source, self.judge_source, *self.notes] if n)
        return line, rest

    def as_dict(self) -> dict:
        return {"trials": self.trials, "reused": self.reused, "cases": self.cases,
                "attempts": self.attempts, "conditions": [c.__dict__ for c in self.conditions],
                "source_run": self.source_run, "source": self.source,
                "judge_source": self.judge_source, "model": self.model,
                "tokens": self.tokens, "agent_tokens": self.agent_tokens,
                "judge_tokens": self.judge_tokens, "judge_model": self.judge_model,
                "cost_usd": self.cost_usd, "notes": self.notes}


def _of_skill(run: RunRecord, skill_name: str | None, skill_path: str | None) -> bool:
    return run.skill_name == skill_name or (skill_path is not None
                                            and run.skill_path == skill_path)


def last_run_with_tokens(store: RunStore, skill_name: str | None,
                         skill_path: str | None = None, *, agent: str | None = None,
                         model: str | None = None
                         ) -> tuple[RunRecord, list[TrialRecord], bool] | None:
    """The newest run of the skill whose trials recorded tokens, preferring one with this
    agent and model: (run, its trials with tokens, whether agent and model match)."""
    fallback = None
    for run in store.runs():
        if not _of_skill(run, skill_name, skill_path):
            continue
        trials = [t for t in store.trials(run.run_id) if t.tokens_in or t.tokens_out]
        if not trials:
            continue
        same = run.spec is not None and (agent is None or run.spec.agent == agent) and (
            model is None or _bare_model(run.spec.model) == _bare_model(model))
        if same:
            return run, trials, True
        fallback = fallback or (run, trials, False)
    return fallback


def _means(trials: Sequence[TrialRecord]) -> tuple[float, float, float] | None:
    """Mean (tokens in, tokens out, turns) per trial."""
    if not trials:
        return None
    n = len(trials)
    return (sum(t.tokens_in for t in trials) / n, sum(t.tokens_out for t in trials) / n,
            sum(t.turns for t in trials) / n)


def _bare_model(model: str | None) -> str | None:
    if model and ":" in model and model.split(":", 1)[0] in ("openai", "anthropic"):
        return model.split(":", 1)[1]
    return model


def _judge_means(store: RunStore | None, skill_name: str | None, skill_path: str | None
                 ) -> tuple[str, dict[str, tuple[float, float]]] | None:
    """(run id, per-condition judge tokens per trial) of the newest judged run of the skill."""
    for run in store.runs() if store else []:
        if not _of_skill(run, skill_name, skill_path):
            continue
        judged = [t for t in store.trials(run.run_id)  # type: ignore[union-attr]
                  if t.judge_tokens_in or t.judge_tokens_out]
        if judged:
            return run.run_id, {c: (sum(t.judge_tokens_in for t in g) / len(g),
                                    sum(t.judge_tokens_out for t in g) / len(g))
                                for c in {t.condition for t in judged}
                                for g in [[t for t in judged if t.condition == c]]}
    return None


def _price(model: str | None, tokens_in: float, tokens_out: float,
           prices: Mapping[str, Price]) -> float | None:
    if not model:
        return None
    return cost_usd(model, Usage(input_tokens=round(tokens_in), output_tokens=round(tokens_out)),
                    prices)


def estimate_run(spec: RunSpec, n_cases: int, store: RunStore | None, skill_name: str | None,
                 prices: Mapping[str, Price], *, judged: bool = False,
                 judge_model: str | None = None, judges: int = 1,
                 reused: Collection[TrialKey] | Mapping[str, int] = ()) -> RunEstimate:
    """The trials, tokens and cost of `spec` over `n_cases` cases (see the module docstring);
    `judged`: the run will call the LLM judge (`judges` models, the first `judge_model`,
    default the agent's); `reused`: the trial keys (or a count per condition) a trial cache
    will reuse instead of running."""
    per_cond = dict(reused) if isinstance(reused, Mapping) else {}
    if not isinstance(reused, Mapping):
        for key in reused:
            per_cond[key[1]] = per_cond.get(key[1], 0) + 1
    out = _agent_estimate(spec, n_cases, store, skill_name, per_cond)
    if getattr(spec, "until_decided", False):
        out.notes.append(f"--until-decided: the most it can take ({spec.attempts} rounds); "
                         "it stops sooner once the verdict is decided")
    if judged:
        _add_judge(out, spec, store, skill_name, judge_model, judges)
    _price_all(out, prices, judged)
    return out


def _agent_estimate(spec: RunSpec, n_cases: int, store: RunStore | None,
                    skill_name: str | None, reused: Mapping[str, int]) -> RunEstimate:
    out = RunEstimate(cases=n_cases, attempts=spec.attempts)
    last = last_run_with_tokens(store, skill_name, spec.skill_path, agent=spec.agent,
                                model=spec.model) if store else None
    by_cond: dict[str, tuple[float, float, float]] = {}
    overall = None
    if last is not None:
        run, trials, same = last
        out.source_run = run.run_id
        for cond in {t.condition for t in trials}:
            m = _means([t for t in trials if t.condition == cond])
            if m is not None:
                by_cond[cond] = m
        overall = _means(trials)
        was = run.spec.model if run.spec else None
        out.model = _bare_model(was)
        out.source = (f"per-trial tokens from run {run.run_id}, the last run of this skill "
                      + ("with this agent and model" if same else
                         f"that recorded tokens (agent {run.spec.agent if run.spec else '?'}, "
                         f"model {_bare_model(was) or '?'}: not the same as this run's)"))
    else:
        figure = assumed.agent_tokens(spec.limits.max_turns)
        overall = (*figure, float(spec.limits.max_turns))
        out.source = ("no earlier run of this skill recorded tokens: per-trial tokens "
                      f"{assumed.assumption(spec.limits.max_turns)}; one attempt of a few "
                      "cases gives figures from data")
    out.model = _bare_model(spec.model) or out.model
    total_in = total_out = 0.0
    for cond in spec.conditions:
        planned = n_cases * spec.attempts
        skip = min(planned, max(0, reused.get(cond, 0)))
        est = ConditionEstimate(condition=cond, trials=planned - skip, reused=skip)
        if cond in by_cond:
            figure, basis = by_cond[cond], f"{cond} in run {out.source_run}"
        elif is_ablated(cond) and "with_skill" in by_cond:
            figure, basis = by_cond["with_skill"], f"with_skill in run {out.source_run}"
        elif last is not None:
            figure, basis = overall, f"all trials of run {out.source_run}"
        else:
            figure, basis = overall, "assumed"
        est.tokens_in, est.tokens_out = round(figure[0], 1), round(figure[1], 1)
        est.turns = figure[2] or None
        total_in += figure[0] * est.trials
        total_out += figure[1] * est.trials
        est.basis = basis
        out.conditions.append(est)
    out.tokens = out.agent_tokens = round(total_in + total_out)
    return out


def _add_judge(out: RunEstimate, spec: RunSpec, store: RunStore | None,
               skill_name: str | None, judge_model: str | None, judges: int) -> None:
    out.judge_model = _bare_model(judge_model) or out.model
    found = _judge_means(store, skill_name, spec.skill_path)
    means: dict[str, tuple[float, float]] = {}
    if found is not None:
        run_id, means = found
        out.judge_source = f"judge tokens per trial from judged run {run_id}"
    else:
        out.judge_source = ("no earlier judged run of this skill: judge tokens per trial "
                            + assumed.judge_assumption(judges))
    judge_in = judge_out = 0.0
    for est in out.conditions:
        if means:
            figure = means.get(est.condition) or (
                sum(m[0] for m in means.values()) / len(means),
                sum(m[1] for m in means.values()) / len(means))
            est.judge_basis = f"judged run {found[0]}"  # type: ignore[index]
        else:
            figure = assumed.judge_tokens(est.tokens_in or 0.0, est.turns, judges)
            est.judge_basis = "assumed"
        est.judge_tokens_in, est.judge_tokens_out = round(figure[0], 1), round(figure[1], 1)
        judge_in += figure[0] * est.trials
        judge_out += figure[1] * est.trials
    out.judge_tokens = round(judge_in + judge_out)
    out.tokens = (out.agent_tokens or 0) + out.judge_tokens


def _short(n: int | None) -> str:
    if n is None:
        return "?"
    return f"{n / 1e6:.1f}M" if n >= 1_000_000 else f"{n / 1e3:.0f}k" if n >= 10_000 \
        else f"{n:,}"


def _price_all(out: RunEstimate, prices: Mapping[str, Price], judged: bool) -> None:
    """Each condition's cost per trial and the run's total, or notes saying why not."""
    if not out.model:
        out.notes.append("no model named: pass --model for a cost")
        return
    total = 0.0
    for est in out.conditions:
        agent = _price(out.model, est.tokens_in or 0.0, est.tokens_out or 0.0, prices)
        judge = (_price(out.judge_model, est.judge_tokens_in or 0.0, est.judge_tokens_out or 0.0,
                        prices) if judged else 0.0)
        est.cost_usd = None if agent is None or judge is None else round(agent + judge, 8)
        if est.cost_usd is not None:
            total += est.cost_usd * est.trials
    if cost_usd(out.model, Usage(), prices) is None:
        out.notes.append(f"no price for {out.model} in the price table: add it under "
                         "[provider] prices in skillforge.toml for a cost")
    elif judged and out.judge_model and cost_usd(out.judge_model, Usage(), prices) is None:
        out.notes.append(f"no price for the judge model {out.judge_model}: no cost")
    else:
        out.cost_usd = round(total, 6)
