"""A lift report as Markdown: readable raw in a terminal and rendered on a code host.

Numbers and sentences come from `skillforge.report.facts`; this module only lays them out.
Text from skills, cases and trajectories is untrusted: `md()` neutralises HTML, links and
table pipes so it always shows as the text it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from skillforge.models.lift import LiftReport, MetricLift
from skillforge.report import facts as F
from skillforge.report import headline as H
from skillforge.report import calibration as CAL
from skillforge.report import ablation as AB
from skillforge.report import skillcraft as SC
from skillforge.report import triggers as TR
from skillforge.report import rounds as RD
from skillforge.report.method import method_notes, rule_text, verdict_cell
from skillforge.report.steps import cut, summary_line, trajectory_view

BAR_WIDTH = 21
_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_LINK_END = re.compile(r"\](?=[(\[:])")


def md(text: object) -> str:
    """Untrusted text made inert for Markdown (one line, no HTML, no links, no table breaks)."""
    s = " ".join(str(text).split())
    s = _ENTITY.sub("&amp;", s)
    s = s.replace("<", "&lt;").replace(">", "&gt;")
    for ch in "\\`*|":
        s = s.replace(ch, "\\" + ch)
    # Only a `]` that starts link syntax (`](url)`, `][ref]`, `]: url`) needs breaking.
    return _LINK_END.sub(r"\\]", s)


def text_bar(row: MetricLift, scale: float, width: int = BAR_WIDTH) -> str:
    """The CI as ━, the lift as ●, zero as │, on a fixed scale shared by all rows."""
    if row.lift is None:
        return " " * width
    half = width // 2

    def pos(v: float) -> int:
        return max(0, min(width - 1, half + round(v / scale * half)))

    chars = ["·"] * width
    chars[half] = "│"
    if row.ci_low is not None and row.ci_high is not None:
        for i in range(pos(row.ci_low), pos(row.ci_high) + 1):
            chars[i] = "┿" if i == half else "━"
    chars[pos(row.lift)] = "●"
    return "".join(chars)


def shade(delta: float | None, scale: float) -> str:
    """A paired delta as its value and one to three ▲/▼ by size; · for a tie."""
    if delta is None:
        return "∅"
    size = abs(delta) / scale if scale else 0.0
    if size < 0.05:
        return f"{F.signed(delta, 2)} ·"
    marks = 1 if size < 0.34 else 2 if size < 0.67 else 3
    return f"{F.signed(delta, 2)} {('▲' if delta > 0 else '▼') * marks}"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _header(report: LiftReport) -> list[str]:
    lines = [f"# {md(F.title(report))}", "", f"> {md(H.headline(report))}", ""]
    lines += [f"- **{k}**: {md(v)}" for k, v in F.header_facts(report)]
    lines += ["", f"**Inventory.** {md(F.inventory_text(report))}", ""]
    for note in F.missing_metric_notes(report):
        lines += [f"**Note.** {md(note)}", ""]
    return lines


def _lift_table(report: LiftReport) -> list[str]:
    scale = F.lift_scale(report)
    rows = []
    for m in F.metric_names(report):
        r = report.metrics[m]
        rows.append([f"**{md(m)}**" if m == "overall" else md(m + CAL.mark(report, m)),
                     F.num(r.with_), F.num(r.base),
                     F.signed(r.lift), F.ci_text(r), f"`{text_bar(r, scale)}`",
                     F.pct(r.positive_share), str(r.n), verdict_cell(report, m)])
    lines = ["## Lift per metric", ""]
    lines += _table(["metric", "with", "base", "lift", "95% CI", "CI bar", "positive", "n",
                     "verdict"], rows)
    key = (f"Bars run from -{scale:g} to +{scale:g} with │ at zero: ● is the lift, ━ its "
           f"interval. {rule_text(report)} See *Method* below.")
    lines += ["", key, ""]
    plans = F.plan_lines(report)
    if plans:
        lines += ["**Sample size.**", ""] + [f"- {md(p)}" for p in plans] + [""]
    return lines


def _use(report: LiftReport) -> list[str]:
    text = H.use_text(report)
    if not text:
        return []
    return ["## How the skill was used", "", md(text), ""]


def _pass(report: LiftReport) -> list[str]:
    lines = ["## Pass rates", "", md(F.pass_line(report)), ""]
    test = H.pass_test_text(report)
    if test:
        lines += [f"**Paired pass/fail.** {md(test)}", ""]
    k_rows = F.pass_at_k_rows(report)
    if k_rows:
        lines += _table(["k", "pass@k with", "pass@k base"],
                        [[str(k), F.num(w), F.num(b)] for k, w, b in k_rows]) + [""]
    return lines


def _efficiency(report: LiftReport) -> list[str]:
    eff = report.efficiency
    intro = (f"On the {eff.n_cases} case(s) both conditions passed; Diff = (with - base) / "
             "base, negative = the skill saves.")
    lines = ["## Efficiency", "", intro, ""]
    lines += _table(["resource", "with", "base", "Diff", "n"],
                    [[r.label, r.with_, r.base, r.diff, str(r.n)]
                     for r in F.efficiency_rows(report)])
    return lines + ["", md(F.script_rate_line(report)), ""]


def _dimensions(report: LiftReport) -> list[str]:
    rows = F.dimension_rows(report)
    if not rows:
        return []
    lines = ["## Stakeholder dimensions", "", "Mean lift of each dimension's metrics.", ""]
    return lines + _table(["dimension", "lift", "metrics"],
                          [[d, F.signed(v), ms] for d, v, ms in rows]) + [""]


def _heatmap(report: LiftReport) -> list[str]:
    cases = report.extra.cases
    if not cases:
        return []
    names = [m for m in F.metric_names(report) if any(m in c.delta for c in cases)]
    scale = F.delta_scale(report)
    classes = {n.case_id: n.class_ for n in report.negative_cases}
    rows = []
    for c in cases:
        rows.append([md(c.case_id), md(c.kind or F.DASH)]
                    + [shade(c.delta.get(m), scale) for m in names]
                    + [f"{F.pct(c.pass_base)} → {F.pct(c.pass_with)}",
                       md(classes.get(c.case_id, ""))])
    intro = (f"Paired delta D = with - base per case and metric. ▲/▼ mark its size against "
             f"±{scale:g} (one: under a third, three: over two thirds); · a tie; ∅ no pair.")
    lines = ["## Per-case deltas", "", intro, ""]
    return lines + _table(["case", "kind", *[md(m) for m in names], "pass base → with", "triage"],
                          rows) + [""]


def _sides(report: LiftReport) -> tuple[str, str]:
    conds = report.conditions or ["with_skill", "baseline"]
    return conds[0], conds[1] if len(conds) > 1 else "baseline"


def _negatives(report: LiftReport,
               trajectories: Mapping[str, Mapping[str, Any]] | None) -> list[str]:
    lines = ["## Where the skill hurt", ""]
    if not report.negative_cases:
        return lines + ["No case has a negative overall lift.", ""]
    evidence = F.evidence_for(report)
    rows = []
    for n in report.negative_cases:
        ev = evidence.get(n.case_id)
        rows.append([md(n.case_id), F.signed(n.delta), n.class_, md(ev.reason if ev else F.DASH),
                     F.pct(ev.activation_rate) if ev else F.DASH,
                     F.failed_text(ev.failed_attempts) if ev else F.DASH,
                     md(", ".join(ev.fell)) if ev and ev.fell else F.DASH])
    lines += _table(["case", "D overall", "class", "why", "activation", "failed attempts",
                     "fell"], rows)
    used = sorted({n.class_ for n in report.negative_cases})
    lines += [""] + [f"- *{c}*: {F.CLASS_MEANING.get(c, '')}" for c in used] + [""]
    if trajectories:
        left, right = _sides(report)
        for n in report.negative_cases:
            pair = trajectories.get(n.case_id)
            if not pair:
                continue
            lines += [f"### {md(n.case_id)}: {n.class_}", ""]
            for side in (left, right):
                if side in pair:
                    view = trajectory_view(pair[side])
                    att = f" (attempt {view.attempt})" if view.attempt is not None else ""
                    lines.append(f"- **{md(side)}**{att}: {md(summary_line(view))}")
                    if view.final_text:
                        lines.append(f"  - final answer: {md(cut(view.final_text, 200))}")
            lines.append("")
    return lines


def _agreement(report: LiftReport) -> list[str]:
    ag = report.extra.judge_agreement
    if ag is None or not ag.metrics:
        return []
    lines = ["## Judge agreement", "", f"Judges: {md(', '.join(ag.judges))}.", ""]
    rows = [[md(m), str(a.n_items), str(a.n_judges), F.num(a.mean_abs_diff), F.num(a.max_abs_diff),
             F.pct(a.percent_agreement), F.num(a.alpha)] for m, a in ag.metrics.items()]
    return lines + _table(["metric", "items", "judges", "mean |diff|", "max |diff|",
                           "agreement", "alpha"], rows) + [""]


def _skillcraft(report: LiftReport) -> list[str]:
    sc = SC.skillcraft_of(report)
    if sc is None:
        return []
    lines = [f"## {SC.TITLE}", "", md(SC.intro(sc)), ""]
    lines += [f"- {md(line)}" for line in SC.rate_lines(sc)] + [""]
    lines += ["### Efficiency over the cases both sides solved", "", md(SC.efficiency_note(sc)),
              ""]
    eff = SC.efficiency_lines(sc)
    if eff:
        lines += _table(SC.EFFICIENCY_HEAD, [[r.label, r.base, r.skill, r.diff, str(r.n)]
                                             for r in eff]) + [""]
    lines += ["### Skills the agent saved", ""]
    if sc.skills:
        lines += _table(SC.SKILL_HEAD, [[md(c) for c in SC.skill_cells(s)] for s in sc.skills])
    else:
        lines.append("No skill was saved or inherited.")
    lines.append("")
    rows = SC.lift_cells(report, sc)
    if rows:
        lines += ["### Skill Lift of skill_mode over baseline", ""]
        lines += _table(SC.LIFT_HEAD, [[md(c) for c in r] for r in rows]) + [""]
    return lines


def _method(report: LiftReport) -> list[str]:
    return ["## Method", ""] + [line for note in method_notes(report)
                                for line in (md(note), "")]


def render_markdown(report: LiftReport, *,
                    trajectories: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """The whole report as Markdown; `trajectories` adds step summaries of negative cases."""
    lines = (_header(report) + _lift_table(report) + _use(report) + _pass(report)
             + _efficiency(report)
             + _dimensions(report) + _heatmap(report) + _negatives(report, trajectories)
             + _skillcraft(report) + AB.markdown_lines(report, md, _table, text_bar)
             + TR.markdown_lines(report, md, _table)
             + _agreement(report) + CAL.markdown_lines(report, md, _table)
             + RD.markdown_lines(report, md, _table) + _method(report))
    lines.append(f"*{md(report.extra.label)} report by skillforge; lift.json holds every number.*")
    return "\n".join(lines).rstrip() + "\n"
