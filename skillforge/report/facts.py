"""What a lift report says, as plain text pieces shared by the Markdown and HTML renderers.

Both renderers take every number and sentence from here (and the leading sentences from
skillforge.report.headline), so the two formats can never disagree. Pure functions over a `LiftReport`; nothing here escapes text (each renderer
escapes for its own format).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from skillforge.models.lift import LiftReport, MetricLift, SamplePlan, TriageEvidence
from skillforge.models.trial import DIMENSIONS, JUDGED_METRICS, OUTCOME_METRICS, PROCESS_METRICS

DASH = "—"
METRIC_ORDER: tuple[str, ...] = (*OUTCOME_METRICS, *PROCESS_METRICS, "overall")
RESOURCE_LABELS: dict[str, str] = {
    "tokens": "tokens (in + out)",
    "turns": "turns",
    "tool_calls": "tool calls",
    "wall_s": "wall time",
    "cost_usd": "cost",
}
CLASS_MEANING: dict[str, str] = {
    "unstable": "errored/timed-out attempts, or attempts disagree more than the loss",
    "never_discovered": "the agent never opened the skill",
    "misused": "the skill was opened and correctness fell",
    "overhead": "correctness held, but the skill cost extra steps",
    "unexplained": "none of the four classes fits the recorded facts",
}
VERDICT_MARK: dict[str, str] = {"helps": "▲", "hurts": "▼", "inconclusive": "◆"}
# Lift scales snap to one of these so bars of different reports look alike.
NICE_SCALES: tuple[float, ...] = (0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0)


def num(x: float | None, digits: int = 3) -> str:
    """A score in [0, 1] (or any plain number): fixed decimals, a dash for None."""
    return DASH if x is None else f"{x:.{digits}f}"


def signed(x: float | None, digits: int = 3) -> str:
    """A difference with its sign; a value that rounds to zero is written without one."""
    if x is None:
        return DASH
    text = f"{x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def pct(x: float | None, digits: int = 0) -> str:
    """A share as a percentage."""
    return DASH if x is None else f"{100 * x:.{digits}f}%"


def signed_pct(x: float | None, digits: int = 1) -> str:
    """A relative difference as a signed percentage (efficiency Diff)."""
    if x is None:
        return DASH
    text = f"{100 * x:+.{digits}f}"
    return (text[1:] if float(text) == 0 else text) + "%"


def ci_text(row: MetricLift) -> str:
    """`[low, high]` of the lift's interval, or why there is none."""
    if row.ci_low is None or row.ci_high is None:
        return "n < 2" if row.n else DASH
    return f"[{signed(row.ci_low)}, {signed(row.ci_high)}]"


def metric_names(report: LiftReport) -> list[str]:
    """The report's metrics in report order (the six, grader, overall, then any others)."""
    known = [m for m in METRIC_ORDER if m in report.metrics]
    return known + sorted(m for m in report.metrics if m not in METRIC_ORDER)


def nice_scale(values: list[float | None], floor: float = 0.05) -> float:
    """The smallest nice bound >= every |value|: one scale for all bars of a report."""
    top = max((abs(v) for v in values if v is not None and math.isfinite(v)), default=0.0)
    for s in NICE_SCALES:
        if top <= s and s >= floor:
            return s
    return float(math.ceil(top))


def lift_scale(report: LiftReport) -> float:
    """Bar scale covering every lift and CI bound of the metric table."""
    vals: list[float | None] = []
    for row in report.metrics.values():
        vals += [row.lift, row.ci_low, row.ci_high]
    return nice_scale(vals)


def delta_scale(report: LiftReport) -> float:
    """Colour scale covering every paired delta of the per-case table."""
    return nice_scale([d for c in report.extra.cases for d in c.delta.values()])


def title(report: LiftReport) -> str:
    label = report.extra.label
    return f"{label}: {report.skill}" if report.skill else label


def comparison(report: LiftReport) -> str:
    """What is compared with what, in words."""
    conds = report.conditions or ["with_skill", "baseline"]
    left = conds[0]
    right = conds[1] if len(conds) > 1 else "baseline"
    if report.extra.baseline_version:
        return f"{left} vs {right} (earlier version {report.extra.baseline_version})"
    return f"{left} vs {right}"


def ci_method(report: LiftReport) -> str:
    """The interval the report used, with its settings."""
    ex = report.extra
    level = f"{100 * ex.confidence:g}%"
    if ex.ci_method == "bounded":
        return (f"{level} betting interval over cases, valid for any distribution of the "
                "deltas on [-1, 1] (Waudby-Smith and Ramdas)")
    if ex.ci_method == "skew-t":
        return f"{level} skew-corrected t interval over cases (Hall's transformation; withdrawn)"
    if ex.ci_method != "bootstrap":
        return f"{level} t interval over cases (withdrawn)"
    settings = f"B = {ex.bootstrap_resamples}, seed {ex.bootstrap_seed}"
    if ex.bootstrap_kind is None:  # a lift.json written before the studentized bootstrap
        return f"{level} percentile bootstrap over cases ({settings}; under-covers at small n)"
    minimum = ex.verdict_rule.bootstrap_min_cases
    refused = f"; refused below {minimum} paired cases" if minimum else ""
    return f"{level} {ex.bootstrap_kind} bootstrap over cases ({settings}{refused}; withdrawn)"


def header_facts(report: LiftReport) -> list[tuple[str, str]]:
    """(label, value) pairs for the report header."""
    return [
        ("skill", report.skill or DASH),
        ("agent", report.agent or DASH),
        ("model", report.model or DASH),
        ("run", report.run_id or DASH),
        ("compared", comparison(report)),
        ("cases", str(report.n_cases)),
        ("interval", ci_method(report)),
        ("overall", overall_of_text(report)),
        ("pass rule", f"grader reward 1, else overall ≥ {report.extra.pass_threshold:g}"),
    ]


def overall_of_text(report: LiftReport) -> str:
    """What `overall` averages in this run, in words."""
    parts = report.extra.overall_of
    if not parts and any(report.metrics[m].n for m in OUTCOME_METRICS if m in report.metrics):
        return "the mean of the metrics measured (which, this report does not record)"
    if not parts:
        return "no outcome metric was measured" if report.extra.cases else DASH
    return "mean of " + ", ".join(parts) + " (outcome metrics; how the skill was used is " \
        "reported apart, never in overall)"


def inventory_text(report: LiftReport) -> str:
    inv = report.inventory
    parts = [f"{inv.ok} ok", f"{inv.error} error", f"{inv.timeout} timeout"]
    if report.extra.cancelled:
        parts.append(f"{report.extra.cancelled} cancelled")
    text = f"{inv.trials} trials: {', '.join(parts)}."
    if report.extra.reused:
        text += f" {reused_text(report)}"
    if inv.missing_pairs:
        text += f" {_unpaired_overall(report)} and are left out of the overall lift " \
                "(not imputed)."
    paired = paired_text(report)
    if paired:
        text += f" {paired}"
    if report.extra.errors.note:
        text += f" {report.extra.errors.note}"
    return text


def reused_text(report: LiftReport) -> str:
    """How many trials an earlier run's trials with the same inputs stood in for, by run."""
    runs: dict[str, int] = {}
    for t in report.extra.reused:
        runs[t.reused_from] = runs.get(t.reused_from, 0) + 1
    n = len(report.extra.reused)
    where = ", ".join(f"{k} from run {run}" for run, k in runs.items())
    return (f"{n} of them reused from earlier runs with the same inputs, not run again "
            f"({where}); they count as trials of this run.")


def _unpaired_overall(report: LiftReport) -> str:
    """Why the cases without an overall pair have none: a side never ran, or ran unscored."""
    no_trial = one_side = neither = 0
    for row in report.extra.cases:
        if row.delta.get("overall") is not None:
            continue
        if not row.attempts_with or not row.attempts_base:
            no_trial += 1
        elif row.with_.get("overall") is None and row.base.get("overall") is None:
            neither += 1
        else:
            one_side += 1
    n = report.inventory.missing_pairs
    if no_trial + one_side + neither != n:  # a report without its per-case rows
        return f"{n} case(s) lack one side (or both) of the overall score"
    said = [text for count, text in (
        (no_trial, f"{no_trial} case(s) lack one side (no trial)"),
        (one_side, f"{one_side} case(s) have an overall score on one side only"),
        (neither, f"{neither} case(s) have no overall score on either side"),
    ) if count]
    return "; ".join(said)


def paired_metrics(report: LiftReport) -> list[tuple[str, int]]:
    """(metric, paired cases) of every metric with at least one paired case, report order."""
    return [(m, report.metrics[m].n) for m in metric_names(report) if report.metrics[m].n]


def paired_text(report: LiftReport) -> str:
    """How many cases each metric is paired on, when some metric is paired on more cases
    than overall (a Harbor `nop` run: the grader is paired, overall is not); else ""."""
    overall = report.metrics.get("overall")
    base_n = overall.n if overall else 0
    shown = [m for m in metric_names(report) if m not in report.extra.missing_metrics]
    if not any(report.metrics[m].n > base_n for m in shown):
        return ""
    listed = ", ".join(f"{m} {report.metrics[m].n}" for m in shown)
    return f"Paired cases per metric, of {report.n_cases}: {listed}."


def _are(items: list[str]) -> str:
    return "is" if len(items) == 1 else "are"


def missing_metric_notes(report: LiftReport) -> list[str]:
    """Plain sentences about metrics that were never measured or are only partly paired."""
    notes = []
    missing = list(report.extra.missing_metrics)
    judged = [m for m in missing if m in JUDGED_METRICS]
    other = [m for m in missing if m not in JUDGED_METRICS]
    if judged and report.extra.no_judge:
        notes.append(
            f"Not measured: {', '.join(judged)} (LLM-judged): the run used --no-judge. "
            "overall is the mean of the outcome metrics that were measured.")
    elif judged and report.extra.no_judge is False:
        notes.append(
            f"Not measured: {', '.join(judged)} (LLM-judged) {_are(judged)} null in every "
            "trial although the run asked for the judge: every judge call failed (the run's "
            "warnings say why). overall is the mean of the outcome metrics that were "
            "measured.")
    elif judged:
        notes.append(
            f"Not measured: {', '.join(judged)} (LLM-judged) {_are(judged)} null in every "
            "trial, so no judge scored this run; usually no LLM provider was configured. Set "
            "ANTHROPIC_API_KEY or OPENAI_API_KEY (or OPENAI_BASE_URL for a local server) and "
            "score the run again. overall is the mean of the outcome metrics that were "
            "measured."
        )
    if other:
        notes.append(f"Not measured: {', '.join(other)} {_are(other)} null in every trial.")
    unpaired = {m: k for m, k in report.extra.unpaired.items() if k and m not in missing}
    if unpaired:
        listed = ", ".join(f"{m} ({k})" for m, k in unpaired.items())
        notes.append(f"Cases with a value on one side only, left out of that metric: {listed}.")
    return notes


def pass_line(report: LiftReport) -> str:
    p = report.pass_
    g = "undefined (baseline already passes everything)" if p.g is None and p.base == 1 \
        else signed(p.g)
    return f"Pass rate {pct(p.base)} without → {pct(p.with_)} with the skill; " \
           f"normalised gain g = {g}."


def plan_line(metric: str, plan: SamplePlan) -> str:
    """The sample-size planner's advice for one inconclusive metric."""
    target = f"±{plan.target_half_width:g}"
    if plan.cases_needed is None:
        return f"{metric} is inconclusive: {plan.note}".strip()
    if plan.half_width is not None and plan.half_width <= plan.target_half_width:
        return (f"{metric} is inconclusive although its interval is already within {target} "
                f"(±{plan.half_width:.3f} with {plan.n_cases} cases): any effect is smaller "
                "than that.")
    now = f"now ±{plan.half_width:.3f} with {plan.n_cases}" if plan.half_width is not None \
        else f"{plan.n_cases} so far"
    text = f"{metric} is inconclusive: about {plan.cases_needed} cases needed for {target} " \
           f"on {metric} ({now}; sd of the deltas {num(plan.sd)})."
    if plan.attempts_needed is not None and plan.attempts_needed > (plan.attempts_observed or 1):
        text += f" Or {plan.attempts_needed} attempts per side on the current cases."
    elif _attempts_matter(plan):
        trade = ", ".join(f"{a} → {DASH if n is None else n}"
                          for a, n in sorted(plan.cases_by_attempts.items()))
        text += f" Attempts per side → cases needed: {trade}."
    return text


def _attempts_matter(plan: SamplePlan) -> bool:
    """Whether more attempts would cut the cases needed by at least a tenth."""
    needed = [n for n in plan.cases_by_attempts.values() if n is not None]
    return bool(needed) and min(needed) <= 0.9 * max(needed)


def plan_lines(report: LiftReport) -> list[str]:
    """Planner lines for every inconclusive metric that has a plan, in report order; a
    verdict withheld by rule (too few cases, a zero-width interval) says so instead."""
    plans, withheld = report.extra.plans, report.extra.withheld
    return [f"{m} is {withheld[m].note}" if m in withheld else plan_line(m, plans[m])
            for m in metric_names(report)
            if (m in plans or m in withheld) and report.metrics[m].verdict == "inconclusive"]


def pass_at_k_rows(report: LiftReport) -> list[tuple[int, float | None, float | None]]:
    """(k, pass@k with, pass@k base) for every k either side has."""
    curves = report.pass_.pass_at_k
    w = {int(k): v for k, v in curves.get("with", {}).items()}
    b = {int(k): v for k, v in curves.get("base", {}).items()}
    return [(k, w.get(k), b.get(k)) for k in sorted(set(w) | set(b))]


@dataclass(frozen=True)
class ResourceRow:
    name: str
    label: str
    with_: str
    base: str
    diff: str
    diff_value: float | None
    n: int


def _resource(name: str, x: float | None) -> str:
    if x is None:
        return DASH
    if name == "wall_s":
        return f"{x:.1f} s"
    if name == "cost_usd":
        return f"${x:.4f}"
    if name == "tokens":
        return f"{x:,.0f}"
    return f"{x:.1f}"


def efficiency_rows(report: LiftReport) -> list[ResourceRow]:
    eff = report.efficiency
    out = []
    for name, label in RESOURCE_LABELS.items():
        r = getattr(eff, name)
        out.append(ResourceRow(name, label, _resource(name, r.with_), _resource(name, r.base),
                               signed_pct(r.diff), r.diff, r.n))
    return out


def script_rate_line(report: LiftReport) -> str:
    eff = report.efficiency
    if not eff.script_runs:
        return "Skill-script exec rate: no skill script was run in the with-skill trials."
    ok = round((eff.script_exec_rate or 0.0) * eff.script_runs)
    return f"Skill-script exec rate: {pct(eff.script_exec_rate)} " \
           f"({ok} of {eff.script_runs} runs exited 0)."


def dimension_rows(report: LiftReport) -> list[tuple[str, float | None, str]]:
    """(dimension, mean lift of its lift metrics, the metrics) in the contract's order; a
    process metric that is use, not lift, in this report is marked so (and left out)."""
    dims = report.extra.dimensions
    use = set(report.extra.use.metrics) if report.extra.use is not None else set()
    return [(d, dims.get(d), ", ".join(f"{m} (use)" if m in use else m for m in ms))
            for d, ms in DIMENSIONS.items() if d in dims]


def evidence_for(report: LiftReport) -> dict[str, TriageEvidence]:
    """Triage evidence by case id."""
    return {e.case_id: e for e in report.extra.triage}


def failed_text(failed: dict[str, int]) -> str:
    parts = [f"{side} {n}" for side, n in failed.items() if n]
    return ", ".join(parts) if parts else "none"
