"""The lift of each part of a skill, by ablation (`extra.ablation`, CONTRACTS.md section 8).

Pure: trial records and the run's parts in, an `AblationReport` out. A part's effect on a
metric is the lift of `with_skill` over `without:<part>`: the same `compute_lift` (paired
deltas, the run's interval, verdict rules and sample-size planner) as Skill Lift, once per
part, so a part's row reads exactly like a Skill Lift row. A positive effect means the part
helps (removing it lowers the metric).

Verdicts, over the task metrics (every default metric but `skill_execution`, plus the
grader; `overall` is shown but mixes routing in, so it does not decide):

- **earns its keep**: some task metric's verdict is `helps` (removing the part hurts it) and
  none is `hurts`;
- **harmful**: some task metric's verdict is `hurts` (removing the part helps) and none is
  `helps`;
- **dead weight**: no task metric moved, and every one measured is known to within the
  planner's target half-width (±0.05 by default) on at least MIN_VERDICT_CASES paired
  cases: no detectable effect at the planned precision, for the part's token cost;
- **inconclusive** otherwise (also when task metrics disagree), with the cases the planner
  says would settle it.

Routing effects (whether the skill is chosen at all) are reported apart, never in the
verdict: `skill_execution`'s row, the share of trials that activated the skill on each
side, and, in runs with decoy skills, routing precision per side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from skillforge.lift.compute import compute_lift
from skillforge.lift.intervals import DEFAULT_CI
from skillforge.lift.planner import TARGET_HALF_WIDTH
from skillforge.lift.stats import MIN_VERDICT_CASES, mean
from skillforge.models.lift import CiMethod, LiftReport, MetricLift, SamplePlan
from skillforge.models.ablation import AblationReport, EffectRow, PartEffect, RoutingEffect
from skillforge.models.parts import SkillPart, ablated_condition, part_of
from skillforge.models.trial import DEFAULT_METRICS, TrialRecord

REFERENCE = "with_skill"
HEADLINE_ORDER = ("grader", "goal_accuracy", "accuracy", "behavior_check", "skill_efficiency",
                  "security")
ROUTING_METRICS: tuple[str, ...] = ("skill_execution",)
TASK_METRICS: tuple[str, ...] = (*[m for m in DEFAULT_METRICS if m not in ROUTING_METRICS],
                                 "grader")
# {(case_id, condition): routing precision values of its attempts} (runs with decoys).
Routing = Mapping[tuple[str, str], Sequence[float]]


def routing_values(metric_records: Iterable) -> dict[tuple[str, str], list[float]]:
    """{(case, condition): routing precision per attempt} from stored metric rows (the
    `routing_precision` check in skill_efficiency's evidence, as the decoy sweep reads it)."""
    out: dict[tuple[str, str], list[float]] = {}
    for rec in metric_records:
        if rec.metric != "skill_efficiency" or not isinstance(rec.evidence, dict):
            continue
        value = (rec.evidence.get("routing_precision") or {}).get("value")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out.setdefault((rec.case_id, rec.condition), []).append(float(value))
    return out


def effect_row(row: MetricLift, plan: SamplePlan | None) -> EffectRow:
    return EffectRow(with_=row.with_, without=row.base, effect=row.lift, ci_low=row.ci_low,
                     ci_high=row.ci_high, n=row.n, verdict=row.verdict,
                     half_width=plan.half_width if plan else None,
                     cases_needed=plan.cases_needed if plan else None)


def settled(row: EffectRow, target: float) -> bool:
    """No effect, and known to within ±target on enough cases (the planner's half-width)."""
    return (row.verdict == "inconclusive" and row.n >= MIN_VERDICT_CASES
            and row.half_width is not None and row.half_width <= target + 1e-12)


def _kind(part_id: str) -> str:
    head = part_id.split(":", 1)[0]
    return head if head in ("section", "reference", "script") else part_id


def judge_part(effect: PartEffect, target: float) -> PartEffect:
    """Set the verdict, the deciding metrics, the cases needed and the reason."""
    rows = {m: r for m, r in effect.metrics.items() if m in TASK_METRICS and r.n > 0}
    helps = [m for m, r in rows.items() if r.verdict == "helps"]
    hurts = [m for m, r in rows.items() if r.verdict == "hurts"]
    cost = f"{effect.tokens:,} tokens" if effect.tokens is not None else "its tokens"
    if not rows:
        effect.verdict, effect.reason = "inconclusive", (
            "no case ran both with the skill and without this part")
        effect.cases_needed = MIN_VERDICT_CASES
        return effect
    if helps and not hurts:
        effect.verdict, effect.deciding = "earns its keep", helps
        effect.reason = f"removing it lowers {', '.join(helps)} (interval above 0)"
        return effect
    if hurts and not helps:
        effect.verdict, effect.deciding = "harmful", hurts
        effect.reason = f"removing it raises {', '.join(hurts)} (interval below 0)"
        return effect
    if helps and hurts:
        effect.verdict, effect.deciding = "inconclusive", helps + hurts
        effect.reason = (f"mixed: removing it lowers {', '.join(helps)} and raises "
                         f"{', '.join(hurts)}")
        return effect
    open_rows = {m: r for m, r in rows.items() if not settled(r, target)}
    if not open_rows:
        n = min(r.n for r in rows.values())
        effect.verdict, effect.deciding = "dead weight", list(rows)
        effect.reason = (f"no detectable effect on {', '.join(rows)} within ±{target:g} over "
                         f"{n} paired cases; it costs {cost} ({effect.loaded or 'when used'}): "
                         "a candidate to cut or move to a reference")
        return effect
    needed = {m: cases_to_settle(r) for m, r in open_rows.items()}
    unknown = [m for m, r in open_rows.items() if r.cases_needed is None and r.n >= 2]
    # The metric that needs the most cases leads (the row shows the figure the verdict
    # quotes), then the others in the report's order.
    lead = unknown[0] if unknown else max(needed, key=lambda m: needed[m])
    effect.verdict = "inconclusive"
    effect.deciding = [lead, *[m for m in open_rows if m != lead]]
    effect.cases_needed = None if unknown else needed[lead]
    on = _with_cases({m: open_rows[m] for m in effect.deciding})
    if effect.cases_needed is None:
        effect.reason = f"not settled on {on}; the spread of {lead} is too large to plan"
    else:
        effect.reason = (f"not settled on {on}; about {effect.cases_needed} cases needed "
                         f"for ±{target:g} on {lead}")
    return effect


def cases_to_settle(row: EffectRow) -> int:
    """The cases an unsettled row needs: the planner's figure, never below the verdict floor."""
    return max(MIN_VERDICT_CASES, row.cases_needed if row.cases_needed is not None
               else MIN_VERDICT_CASES)


def _with_cases(rows: Mapping[str, EffectRow]) -> str:
    """`accuracy, goal_accuracy with 2 paired cases and behavior_check with 1`: each metric
    with its own paired cases (a judged metric can be missing where another is not)."""
    by_n: dict[int, list[str]] = {}
    for m, r in rows.items():
        by_n.setdefault(r.n, []).append(m)
    bits = [f"{', '.join(ms)} with {n} paired case{'' if n == 1 else 's'}"
            for n, ms in by_n.items()]
    return bits[0] if len(bits) == 1 else ", ".join(bits[:-1]) + " and " + bits[-1]


def headline_metric(effect: PartEffect) -> str:
    """The metric a part's row shows: the first that decided its verdict, else the first
    measured task metric (grader first), else overall."""
    if effect.deciding:
        return effect.deciding[0]
    for m in HEADLINE_ORDER:
        row = effect.metrics.get(m)
        if row is not None and row.n:
            return m
    return "overall"


def _activation(trials: Sequence[TrialRecord], condition: str) -> float | None:
    seen = [t.activated for t in trials if t.condition == condition and t.activated is not None]
    return sum(1 for a in seen if a) / len(seen) if seen else None


def _precision(routing: Routing | None, condition: str) -> float | None:
    if not routing:
        return None
    per_case = [sum(v) / len(v) for (_c, cond), v in routing.items() if cond == condition and v]
    return mean(per_case)


def routing_effect(report: LiftReport, trials: Sequence[TrialRecord], condition: str,
                   routing: Routing | None) -> RoutingEffect:
    row = report.metrics.get("skill_execution")
    plan = report.extra.plans.get("skill_execution")
    out = RoutingEffect(
        activation_with=_activation(trials, REFERENCE),
        activation_without=_activation(trials, condition),
        precision_with=_precision(routing, REFERENCE),
        precision_without=_precision(routing, condition),
        skill_execution=effect_row(row, plan) if row is not None else EffectRow())
    ex = out.skill_execution
    if ex.verdict == "helps":
        out.note = "removing it makes the skill be used less or less well (skill_execution)"
    elif ex.verdict == "hurts":
        out.note = "removing it makes the skill be used more or better (skill_execution)"
    else:
        out.note = "no routing effect detected"
    return out


def part_effect(trials: Sequence[TrialRecord], part: SkillPart | str, *,
                case_ids: Iterable[str] | None = None, pass_threshold: float = 0.6,
                ci: CiMethod = DEFAULT_CI, target_half_width: float = TARGET_HALF_WIDTH,
                routing: Routing | None = None) -> PartEffect:
    """One part's effect: `compute_lift(with_skill, without:<part>)` per metric, judged."""
    pid = part if isinstance(part, str) else part.id
    condition = ablated_condition(pid)
    report = compute_lift(trials, conditions=(REFERENCE, condition), case_ids=case_ids,
                          pass_threshold=pass_threshold, ci=ci,
                          target_half_width=target_half_width)
    plans = report.extra.plans
    tokens = report.efficiency.tokens
    effect = PartEffect(
        part=pid, kind=part.kind if isinstance(part, SkillPart) else _kind(pid),  # type: ignore[arg-type]
        title=part.title if isinstance(part, SkillPart) else pid,
        tokens=part.tokens if isinstance(part, SkillPart) else None,
        loaded=part.loaded if isinstance(part, SkillPart) else None,
        condition=condition, n_cases=report.n_cases, trials=report.inventory.trials,
        metrics={m: effect_row(row, plans.get(m)) for m, row in report.metrics.items()},
        routing=routing_effect(report, trials, condition, routing),
        tokens_measured=(tokens.with_ - tokens.base) if tokens.n and tokens.with_ is not None
        and tokens.base is not None else None,
        tokens_measured_n=tokens.n)
    effect = judge_part(effect, target_half_width)
    effect.headline = headline_metric(effect)
    effect.case_deltas = {c.case_id: c.delta.get(effect.headline) for c in report.extra.cases}
    return effect


def compute_ablation(trials: Iterable[TrialRecord], parts: Sequence[SkillPart] = (), *,
                     case_ids: Iterable[str] | None = None, pass_threshold: float = 0.6,
                     ci: CiMethod = DEFAULT_CI, target_half_width: float = TARGET_HALF_WIDTH,
                     routing: Routing | None = None) -> AblationReport | None:
    """The lift of every ablated part of a run; None when the run has no `without:` trial.

    `parts` are the run's parts (`RunSpec.parts`: ids and token costs); a `without:`
    condition whose part is not among them is still reported, with its cost unknown."""
    selected = list(trials)
    present = list(dict.fromkeys(p for t in selected if (p := part_of(t.condition))))
    known = {p.id: p for p in parts}
    order = [p.id for p in parts] + [p for p in present if p not in known]
    if not present:
        return None
    cases = list(case_ids) if case_ids is not None else None
    effects = [part_effect(selected, known.get(pid, pid), case_ids=cases,
                           pass_threshold=pass_threshold, ci=ci,
                           target_half_width=target_half_width, routing=routing)
               for pid in order if pid in present]
    return AblationReport(reference=REFERENCE, task_metrics=list(TASK_METRICS),
                          routing_metrics=list(ROUTING_METRICS),
                          target_half_width=target_half_width, min_cases=MIN_VERDICT_CASES,
                          ci_method=ci, parts=effects,
                          missing=[pid for pid in order if pid not in present])
