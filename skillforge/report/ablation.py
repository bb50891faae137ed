"""The "Parts of the skill (ablation)" section of a report, in pieces the Markdown and HTML
renderers, the CLI table and the TUI's Parts view share (so all of them say the same).

Reads `report.extra.ablation` (skillforge.lift.ablation says what each figure is); a report
without it has no such section. The reports and the CLI table show every measured metric of
a part (`metric_rows`: the metric its verdict quotes first, each row with its own n and
cases needed), the Parts view one row per part (`task_rows`: that first metric). Nothing here escapes text: each renderer escapes for its
own format (section headings come from the skill).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skillforge.models.lift import LiftReport, MetricLift
from skillforge.lift.ablation import ROUTING_METRICS, cases_to_settle, settled
from skillforge.models.ablation import AblationReport, EffectRow, PartEffect
from skillforge.report.facts import DASH, num, pct, signed

TITLE = "Parts of the skill (ablation)"
TASK_HEAD = ["part", "tokens", "loaded", "metric", "effect", "95% CI", "n", "verdict", "why"]
ROUTING_HEAD = ["part", "skill_execution effect", "95% CI", "activation with → without",
                "routing precision with → without", "routing"]
VERDICT_TONE = {"earns its keep": "helps", "harmful": "hurts", "dead weight": "inconclusive",
                "inconclusive": "inconclusive"}
VERDICT_MARK = {"earns its keep": "▲", "harmful": "▼", "dead weight": "○",
                "inconclusive": "◆"}


def ablation_of(report: LiftReport | None) -> AblationReport | None:
    return report.extra.ablation if report is not None else None


def headline_metric(effect: PartEffect) -> str:
    """The metric a part's row shows (skillforge.lift.ablation sets it)."""
    return effect.headline


def as_metric_lift(row: EffectRow) -> MetricLift:
    """An effect row as a lift row, for the CI bar drawers."""
    return MetricLift(with_=row.with_, base=row.without, lift=row.effect, ci_low=row.ci_low,
                      ci_high=row.ci_high, n=row.n, verdict=row.verdict)


def ci_text(row: EffectRow) -> str:
    if row.ci_low is None or row.ci_high is None:
        return DASH
    return f"[{signed(row.ci_low)}, {signed(row.ci_high)}]"


def tokens_text(effect: PartEffect) -> str:
    return DASH if effect.tokens is None else f"{effect.tokens:,}"


def verdict_text(effect: PartEffect) -> str:
    if effect.verdict == "dead weight" and effect.tokens is not None:
        return f"dead weight ({effect.tokens:,} tokens)"
    if effect.verdict == "inconclusive" and effect.cases_needed:
        return f"inconclusive (~{effect.cases_needed} cases)"
    return effect.verdict


def saving_text(effect: PartEffect) -> str:
    """The token saving of dropping the part, next to its effect."""
    bits = []
    if effect.tokens is not None:
        bits.append(f"dropping it saves {effect.tokens:,} tokens of skill text "
                    f"({effect.loaded or 'when used'})")
    if effect.tokens_measured is not None:
        bits.append(f"measured {signed(effect.tokens_measured, 0)} agent tokens per trial with "
                    f"it over {effect.tokens_measured_n} case(s) both passed")
    return "; ".join(bits)


@dataclass
class TaskRow:
    """One metric of one part. The part's first row (`lead`) carries the part, its cost,
    verdict and reason; the others only their metric's figures and that metric's verdict."""

    effect: PartEffect
    metric: str
    row: EffectRow
    lead: bool = True
    target: float = 0.05

    @property
    def cells(self) -> list[str]:
        e = self.effect
        figures = [self.metric, signed(self.row.effect), ci_text(self.row), str(self.row.n)]
        if self.lead:
            return [e.part, tokens_text(e), e.loaded or DASH, *figures, verdict_text(e),
                    e.reason]
        return ["", "", "", *figures, metric_verdict_text(self.row, self.target), ""]


def metric_verdict_text(row: EffectRow, target: float) -> str:
    """One metric's own verdict, with its own planner figure when it is not settled."""
    if row.verdict != "inconclusive":
        return row.verdict
    if settled(row, target):
        return f"no effect (±{target:g})"
    if row.cases_needed is None and row.n >= 2:
        return "inconclusive (spread too large to plan)"
    return f"inconclusive (~{cases_to_settle(row)} cases)"


def shown_metrics(effect: PartEffect) -> list[str]:
    """Every measured metric of a part but routing's (shown apart), the headline first."""
    measured = [m for m, r in effect.metrics.items() if r.n and m not in ROUTING_METRICS]
    rest = [m for m in measured if m != effect.headline]
    return [effect.headline, *rest] if effect.headline in measured else measured


def task_rows(ab: AblationReport) -> list[TaskRow]:
    """One row per part: its headline metric (the Lift tab's Parts table)."""
    out = []
    for effect in ab.parts:
        metric = headline_metric(effect)
        out.append(TaskRow(effect, metric, effect.metrics.get(metric) or EffectRow(),
                           target=ab.target_half_width))
    return out


def metric_rows(ab: AblationReport) -> list[TaskRow]:
    """Every measured metric of every part, the headline first (the reports' table): what
    lift.json holds per part, each row with its own n and planner figure."""
    out = []
    for effect in ab.parts:
        metrics = shown_metrics(effect) or [headline_metric(effect)]
        out += [TaskRow(effect, m, effect.metrics.get(m) or EffectRow(), lead=i == 0,
                        target=ab.target_half_width) for i, m in enumerate(metrics)]
    return out


def routing_cells(effect: PartEffect) -> list[str]:
    r = effect.routing
    precision = (DASH if r.precision_with is None and r.precision_without is None
                 else f"{num(r.precision_with, 2)} → {num(r.precision_without, 2)}")
    return [effect.part, signed(r.skill_execution.effect), ci_text(r.skill_execution),
            f"{pct(r.activation_with)} → {pct(r.activation_without)}", precision, r.note]


def intro(ab: AblationReport) -> str:
    return (f"Each part's effect is the lift of {ab.reference} over the skill without that "
            "part (positive: the part helps), with the same intervals, verdict rules and "
            f"planner as Skill Lift ({ab.ci_method} interval). Verdicts use the task metrics "
            f"({', '.join(ab.task_metrics)}): earns its keep when removing the part lowers "
            "one, harmful when removing it raises one, dead weight when none moves and each "
            f"is known to within ±{ab.target_half_width:g} on at least {ab.min_cases} paired "
            "cases, else inconclusive with the cases needed. Routing (whether the skill is "
            "used at all) is shown apart.")


def summary_line(ab: AblationReport) -> str:
    counts: dict[str, int] = {}
    for p in ab.parts:
        counts[p.verdict] = counts.get(p.verdict, 0) + 1
    order = ("earns its keep", "dead weight", "harmful", "inconclusive")
    return f"{len(ab.parts)} part(s): " + ", ".join(f"{counts[v]} {v}" for v in order
                                                     if counts.get(v))


def missing_line(ab: AblationReport) -> str:
    return (f"Asked for but with no trial: {', '.join(ab.missing)}." if ab.missing else "")


# --- renderers ---------------------------------------------------------------------------

def markdown_lines(report: LiftReport, md: Callable[[object], str],
                   table: Callable[[list[str], list[list[str]]], list[str]],
                   bar: Callable[[MetricLift, float], str] | None = None) -> list[str]:
    ab = ablation_of(report)
    if ab is None:
        return []
    lines = [f"## {TITLE}", "", md(intro(ab)), "", f"**{md(summary_line(ab))}**", ""]
    rows = metric_rows(ab)
    head = TASK_HEAD if bar is None else [*TASK_HEAD[:5], "CI bar", *TASK_HEAD[5:]]
    cells = []
    for r in rows:
        c = [md(x) for x in r.cells]
        if bar is not None:
            c.insert(5, bar(as_metric_lift(r.row), 1.0))
        cells.append(c)
    lines += table(head, cells) + [""]
    savings = [f"- **{md(r.effect.part)}**: {md(saving_text(r.effect))}" for r in rows
               if r.lead and saving_text(r.effect)]
    if savings:
        lines += ["**Token savings.**", ""] + savings + [""]
    lines += ["### Routing (apart from task effects)", ""]
    lines += table(ROUTING_HEAD, [[md(x) for x in routing_cells(p)] for p in ab.parts]) + [""]
    if ab.missing:
        lines += [md(missing_line(ab)), ""]
    return lines


def html_section(report: LiftReport, e: Callable[[object], str],
                 table: Callable[..., str],
                 bar: Callable[[MetricLift, float, str], str] | None = None) -> str:
    ab = ablation_of(report)
    if ab is None:
        return ""
    task = []
    for r in metric_rows(ab):
        cells = r.cells
        tone = VERDICT_TONE[r.effect.verdict] if r.lead else r.row.verdict
        tds = "".join(f'<td class="{"text" if i in (0, 2, 3, 8) else ""}">{e(c)}</td>'
                      for i, c in enumerate(cells[:7]))
        drawn = bar(as_metric_lift(r.row), 1.0, r.metric) if bar is not None else ""
        verdict = f' data-verdict="{e(r.effect.verdict)}"' if r.lead else ""
        task.append(f'<tr data-part="{e(r.effect.part)}" data-metric="{e(r.metric)}"'
                    f"{verdict}>{tds}<td>{drawn}</td>"
                    f'<td class="text"><span class="badge {e(tone)}">{e(cells[7])}</span></td>'
                    f'<td class="text">{e(cells[8])}</td></tr>')
    head = [*TASK_HEAD[:7], "CI", *TASK_HEAD[7:]]
    routing = [f'<tr data-routing-part="{e(p.part)}">' + "".join(
        f'<td class="{"text" if i in (0, 3, 4, 5) else ""}">{e(c)}</td>'
        for i, c in enumerate(routing_cells(p))) + "</tr>" for p in ab.parts]
    savings = "".join(f"<li><strong>{e(r.effect.part)}</strong>: {e(saving_text(r.effect))}</li>"
                      for r in task_rows(ab) if saving_text(r.effect))
    missing = f"<p>{e(missing_line(ab))}</p>" if ab.missing else ""
    return (f'<section id="ablation"><h2>{e(TITLE)}</h2><p class="muted">{e(intro(ab))}</p>'
            f"<p><strong>{e(summary_line(ab))}</strong></p>"
            + table(head, task, "parts", text_cols=(0, 2, 3, 8, 9))
            + (f"<h3>Token savings</h3><ul>{savings}</ul>" if savings else "")
            + "<h3>Routing (apart from task effects)</h3>"
            + table(ROUTING_HEAD, routing, "routing", text_cols=(0, 3, 4, 5))
            + missing + "</section>")
