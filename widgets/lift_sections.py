"""The Lift tab's Metrics section below the lift table: how the skill was used (never a
lift), pass rates with pass@k and the paired pass/fail test, efficiency and cost diffs with
the script exec rate, the inventory with errors, missing metrics and judge agreement.
Sentences and numbers come from `skillforge.report.facts`, as in the reports."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from skillforge.models.lift import LiftReport
from skillforge.report import facts as F
from skillforge.report import headline as H


VERDICT_STYLE = {"helps": "green", "hurts": "bold red", "inconclusive": "yellow"}


def use_section(report: LiftReport) -> RenderableType:
    """"The agent used the skill in 7 of 8 cases", with each side's process metrics."""
    text = H.use_text(report)
    return Text(text, style="cyan") if text else ""


def pass_section(report: LiftReport) -> RenderableType:
    rows = F.pass_at_k_rows(report)
    line = Text(F.pass_line(report))
    test = report.extra.pass_test
    if test is not None:
        line.append("\nPaired pass/fail: ", style="bold")
        line.append(H.pass_test_text(report), style=VERDICT_STYLE.get(test.verdict, ""))
    if rows:
        line.append("\npass@k (with / base): ", style="dim")
        line.append("  ".join(f"k={k} {F.pct(w)} / {F.pct(b)}" for k, w, b in rows))
    return line


def efficiency_section(report: LiftReport) -> RenderableType:
    eff = report.efficiency
    note = Text(f"Efficiency on the {eff.n_cases} case(s) both conditions passed "
                "(Diff = (with − base) / base; negative = saving)", style="dim")
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                  header_style="bold")
    for head, justify in (("resource", "left"), ("with", "right"), ("base", "right"),
                          ("Diff", "right")):
        table.add_column(head, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for r in F.efficiency_rows(report):
        style = "" if r.diff_value is None else "green" if r.diff_value < 0 else "red" \
            if r.diff_value > 0 else ""
        table.add_row(r.label, r.with_, r.base, Text(r.diff, style=style))
    return Group(note, table, Text(F.script_rate_line(report)))


def inventory_section(report: LiftReport) -> RenderableType:
    parts: list[RenderableType] = [Text(F.inventory_text(report))]
    parts += [Text(n, style="yellow") for n in F.missing_metric_notes(report)]
    agreement = report.extra.judge_agreement
    if agreement is not None and agreement.metrics:
        bits = [f"{m} α {F.num(a.alpha, 2)}, mean |Δ| {F.num(a.mean_abs_diff, 2)}"
                for m, a in agreement.metrics.items()]
        parts.append(Text(f"Judge agreement ({', '.join(agreement.judges)}): " +
                          "; ".join(bits), style="dim"))
    return Group(*parts)
