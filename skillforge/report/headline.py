"""The sentences a lift report leads with, for every renderer (text, Markdown, HTML, the Lift
tab): the headline with its verdict (overall, the grader and the paired pass rate
together), how the skill was used (never a lift) and the paired pass/fail test.

Pure functions over a `LiftReport`, like skillforge.report.facts, whose number formats they
use; nothing here escapes text.
"""

from __future__ import annotations

from skillforge.models.lift import LiftReport
from skillforge.models.verdicts import NO_TASK_METRIC
from skillforge.models.trial import OUTCOME_METRICS
from skillforge.report.facts import DASH, ci_text, num, paired_metrics, pct, signed


def headline(report: LiftReport, components: bool = True) -> str:
    """One sentence for a room: the overall lift (with `components`, what it averages), its
    interval and verdict; or why there is no number. The Lift tab leaves the components
    out: its table lists them one row each right below."""
    row = report.metrics.get("overall")
    unmeasured = set(OUTCOME_METRICS) - {"grader"} <= set(report.extra.missing_metrics) \
        and "grader" not in report.metrics
    if report.extra.cases and unmeasured and (row is None or row.lift is None):
        return NO_TASK_METRIC
    if row is None or row.lift is None:
        paired = [(m, n) for m, n in paired_metrics(report) if m != "overall"]
        if not paired:
            return "No paired case yet: the overall lift cannot be computed."
        listed = ", ".join(f"{m} on {n} case(s)" for m, n in paired)
        return f"No overall lift: no case has an overall score on both sides. Paired: {listed}."
    level = f"{100 * report.extra.confidence:g}%"
    ci = f" ({level} CI {ci_text(row)})" if row.ci_low is not None else " (no interval)"
    of = f" (mean of {', '.join(report.extra.overall_of)})" \
        if components and report.extra.overall_of else ""
    verdict, why = headline_verdict(report)
    return f"Overall {report.extra.label}{of}: {signed(row.lift)}{ci}: {verdict}{why}, " \
           f"over {row.n} paired case(s)."


def headline_verdict(report: LiftReport) -> tuple[str, str]:
    """(verdict, " (why)" or "") the headline leads with: `extra.headline` (overall, the
    grader and the paired pass rate together), or overall's own in an older report."""
    row = report.metrics.get("overall")
    head = report.extra.headline
    if head is None:
        verdict = row.verdict if row is not None else "inconclusive"
        withheld = report.extra.withheld.get("overall")
        return verdict, f" ({withheld.reason})" if withheld is not None else ""
    if head.note:
        return head.verdict, f" ({head.note})"
    withheld = report.extra.withheld.get("overall")
    return head.verdict, f" ({withheld.reason})" if withheld is not None else ""


def use_text(report: LiftReport) -> str:
    """How the agent used the skill, with each side's process metrics ("" when unknown).
    Never a lift: the baseline withholds the skill, so these differ by construction."""
    use = report.extra.use
    if use is None:
        return ""
    sides = [f"{m} {num(v.get('with'), 2)} with the skill, {num(v.get('base'), 2)} without"
             for m, v in use.metrics.items()]
    text = use.note
    if sides:
        text += " Process metrics (not a lift: the baseline cannot use the skill): " \
                + "; ".join(sides) + "."
    return text


def pass_test_text(report: LiftReport) -> str:
    """The paired pass/fail analysis in one sentence ("" without one)."""
    t = report.extra.pass_test
    if t is None:
        return ""
    w, b = t.with_, t.base

    def arm(a) -> str:
        ci = f"95% Wilson {pct(a.ci_low)}-{pct(a.ci_high)}"
        if t.kind == "pairs":
            return f"{a.passes:g} of {a.n} ({ci})"
        return f"{pct(a.value)} on average over {a.n} cases ({ci})"

    diff = f"difference {signed(t.diff)}"
    if t.ci_low is not None and t.ci_high is not None:
        diff += f" ({t.interval} 95% CI [{signed(t.ci_low)}, {signed(t.ci_high)}])"
    if t.kind == "pairs":
        split = (f"{t.base_only} case(s) pass only without the skill, {t.with_only} only "
                 "with it")
    else:
        split = (f"{t.base_only} case(s) pass less often with the skill, {t.with_only} more "
                 "often")
    p = "p = " + (DASH if t.p_value is None else f"{t.p_value:.2g}")
    last = report.extra.rounds.rounds[-1] if report.extra.rounds and \
        report.extra.rounds.rounds else None
    if t.p_value is None and last is not None and last.pass_ is not None:
        p = f"E = {last.pass_.e_value:.3g}, 20 decides"  # stopped when decided
    verdict = t.verdict + (f" ({t.withheld})" if t.withheld else "")
    return (f"with the skill {arm(w)}, without {arm(b)}; {diff}; {split} ({t.test} {p}): "
            f"{verdict}.")


def errors_text(report: LiftReport) -> str:
    """The errored trials behind this lift, by side and stage, and how each was counted, in
    one sentence ("" when none): infrastructure errors left out, runs that broke off and
    grader failures counted as failures. A lift over what remains reads like a lift over
    every trial unless this is said beside it."""
    e = report.extra.errors
    w, b = report.conditions[:2] if len(report.conditions) >= 2 else ("with", "base")
    said = []
    setup = sum(e.setup.values())
    left = sum(e.excluded.values())
    stages = ", ".join(part for part in (
        f"{setup} before the agent's first turn" if setup else "",
        f"{left - setup} the provider or Docker failing during its run" if left - setup else "",
    ) if part)
    for counts, what, why in (
            (e.excluded, "left out of this lift", f"infrastructure: {stages}"),
            (e.failed_runs, "counted as failed trials", "the agent's run broke off"),
            (e.grader_failed, "counted as failed grades (0)",
             "the grader failed after the agent ran")):
        cw, cb = counts.get("with", 0), counts.get("base", 0)
        if cw + cb:
            said.append(f"{cw + cb} errored trial(s) {what}: {cw} {w}, {cb} {b} ({why})")
    if not said:
        return ""
    if e.one_sided:
        side = w if e.one_sided == "with" else b
        why = (f"they fall on the {side} side, so no 'helps' verdict is given and --gate "
               "fails")
    elif any(e.excluded.values()):
        why = "the numbers are over the other trials"
    else:
        why = "the numbers count them"
    return "; ".join(said) + f" ({why}; the Trials tab says why they failed)."
