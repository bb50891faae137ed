"""Pass rates, normalised gain, pass@k and SkillCraft efficiency (CONTRACTS.md section 8).

Pass rate per condition: the mean over *all* cases of the case's mean pass over its
attempts. Timed-out trials and failed grades count as failed attempts, and a case with no
attempt on a side (not run) counts as 0: the fixed denominator of SkillsBench. Trials whose
agent run did not complete (an error before or during it, a cancellation) are left out, as
in the lift (skillforge.lift.cases); a case whose attempts on a side were all left out has
no rate there and is not in that side's mean. Whether leaving them out is fair is
skillforge.lift.errors's question.

Efficiency, "cases where both conditions passed": a case qualifies when each condition has at
least one passing attempt. For each qualifying case and side, a resource is averaged over
that side's *passing* attempts only (so a failed attempt that burned the whole time budget
does not count as the cost of solving the case), then averaged over the qualifying cases:
Diff = (mean_with - mean_base) / mean_base, negative = the skill saves. Tokens are
tokens_in + tokens_out (cached prompt tokens are part of tokens_in, not added again).
Attempts without a cost are skipped for cost only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from skillforge.lift.cases import CaseTrials
from skillforge.lift.stats import mean, normalised_gain, pass_at_k, relative_diff
from skillforge.models.lift import Efficiency, PassSummary, ResourceDiff
from skillforge.models.trial import TrialRecord

RESOURCES: dict[str, Callable[[TrialRecord], float | None]] = {
    "tokens": lambda t: float(t.tokens_in + t.tokens_out),
    "turns": lambda t: float(t.turns),
    "tool_calls": lambda t: float(t.tool_calls),
    "wall_s": lambda t: float(t.wall_s),
    "cost_usd": lambda t: None if t.cost_usd is None else float(t.cost_usd),
}


def pass_rate(cases: Sequence[CaseTrials], side: str, threshold: float) -> float | None:
    """Mean over all cases of the mean pass over attempts.

    None when the condition has no scored trial at all (it was not run, so it has no rate);
    once it ran, a case without attempts in it counts as 0, one whose attempts were all
    left out is skipped.
    """
    if not any(c.side(side) for c in cases):
        return None
    return mean([r for c in cases if (r := c.pass_rate(side, threshold)) is not None])


def pass_at_k_curve(cases: Sequence[CaseTrials], side: str, threshold: float) -> dict[int, float]:
    """{k: mean over all cases of the unbiased pass@k}, for k = 1 .. most attempts of a case."""
    counts = [(len(flags), sum(flags)) for flags in (c.pass_flags(side, threshold) for c in cases)]
    top = max((n for n, _ in counts), default=0)
    return {k: mean([pass_at_k(n, c, k) for n, c in counts]) or 0.0 for k in range(1, top + 1)}


def pass_summary(cases: Sequence[CaseTrials], threshold: float) -> PassSummary:
    """Pass rate per side, normalised gain g and pass@k curves."""
    p_with = pass_rate(cases, "with", threshold)
    p_base = pass_rate(cases, "base", threshold)
    return PassSummary(
        with_=p_with,
        base=p_base,
        g=normalised_gain(p_with, p_base),
        pass_at_k={
            "with": pass_at_k_curve(cases, "with", threshold),
            "base": pass_at_k_curve(cases, "base", threshold),
        },
    )


def _passing(case: CaseTrials, side: str, threshold: float) -> list[TrialRecord]:
    trials = case.side(side)
    return [t for t, ok in zip(trials, case.pass_flags(side, threshold)) if ok]


def efficiency(cases: Sequence[CaseTrials], threshold: float) -> Efficiency:
    """SkillCraft efficiency diffs on cases both conditions passed, and the script exec rate."""
    both = []
    for case in cases:
        w, b = _passing(case, "with", threshold), _passing(case, "base", threshold)
        if w and b:
            both.append((w, b))
    diffs: dict[str, ResourceDiff] = {}
    for name, get in RESOURCES.items():
        ws: list[float] = []
        bs: list[float] = []
        for w_trials, b_trials in both:
            w = mean([v for v in map(get, w_trials) if v is not None])
            b = mean([v for v in map(get, b_trials) if v is not None])
            if w is not None and b is not None:
                ws.append(w)
                bs.append(b)
        mw, mb = mean(ws), mean(bs)
        diffs[name] = ResourceDiff(with_=mw, base=mb, diff=relative_diff(mw, mb), n=len(ws))
    runs = sum(t.script_runs for c in cases for t in c.with_)
    runs_ok = sum(t.script_runs_ok for c in cases for t in c.with_)
    return Efficiency(
        n_cases=len(both),
        **diffs,
        script_exec_rate=runs_ok / runs if runs else None,
        script_runs=runs,
    )
