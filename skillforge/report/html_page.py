"""A lift report as ONE self-contained HTML page: inline CSS and SVG, no script, no links out.

Readable offline, in any browser, and printable. Every number and sentence comes from
`skillforge.report.facts`; every text is escaped with `e()` (skill names, case ids, triage
reasons and trajectories are untrusted). Rows carry `data-metric` / `data-case` attributes
so tests and tools can find them in the rendered DOM.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skillforge import __version__
from skillforge.models.lift import LiftReport
from skillforge.report import facts as F
from skillforge.report import headline as H
from skillforge.report import calibration as CAL
from skillforge.report import ablation as AB
from skillforge.report import skillcraft as SC
from skillforge.report import triggers as TR
from skillforge.report import rounds as RD
from skillforge.report.html_steps import side_by_side
from skillforge.report.method import method_notes, rule_text, verdict_cell
from skillforge.report.style import CSS
from skillforge.report.svg import axis, ci_bar, e, heatmap, legend


def _table(head: list[str], rows: list[str], cls: str = "",
           text_cols: tuple[int, ...] = (0,)) -> str:
    """`head` cells are escaped here; `rows` are finished <tr> strings."""
    ths = "".join(f'<th class="{"text" if i in text_cols else ""}">{e(h)}</th>'
                  for i, h in enumerate(head))
    body = "".join(rows)
    return f'<table class="{cls}"><thead><tr>{ths}</tr></thead><tbody>{body}</tbody></table>'


def _header(report: LiftReport) -> str:
    facts = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in F.header_facts(report))
    row = report.metrics.get("overall")
    if row is not None and row.lift is not None:
        # The headline's verdict (overall, the grader and the pass rate together), the one
        # the sentence beside it says; overall's own is in its table row.
        verdict = H.headline_verdict(report)[0]
        big = (f'<span class="big">{e(F.signed(row.lift))}</span>'
               f'<span class="badge {e(verdict)}">{e(verdict)}</span>')
    else:
        big = '<span class="big">—</span>'
    notes = "".join(f'<div class="note">{e(n)}</div>' for n in F.missing_metric_notes(report))
    return (f"<header><h1>{e(F.title(report))}</h1>"
            f'<div class="muted">{e(F.comparison(report))}</div>'
            f'<div class="headline" id="headline">{big}<div><div>{e(H.headline(report))}</div>'
            f"<div>{e(F.pass_line(report))}</div></div></div>"
            f'<dl class="facts">{facts}</dl>'
            f'<p id="inventory"><strong>Inventory.</strong> {e(F.inventory_text(report))}</p>'
            f"{notes}</header>")


def _lift(report: LiftReport) -> str:
    scale = F.lift_scale(report)
    rows = []
    for m in F.metric_names(report):
        r = report.metrics[m]
        verdict = verdict_cell(report, m)
        cls = "overall" if m == "overall" else ""
        rows.append(
            f'<tr class="{cls}" data-metric="{e(m)}"><td class="text">{e(m)}'
            f'{e(CAL.mark(report, m))}</td>'
            f"<td>{e(F.num(r.with_))}</td><td>{e(F.num(r.base))}</td>"
            f'<td class="lift">{e(F.signed(r.lift))}</td><td>{e(F.ci_text(r))}</td>'
            f'<td class="bar">{ci_bar(r, scale, m)}</td><td>{e(F.pct(r.positive_share))}</td>'
            f'<td>{r.n}</td><td class="text verdict-{e(r.verdict)}">{e(verdict)}</td></tr>')
    head = ("<thead><tr><th class=\"text\">metric</th><th>with</th><th>base</th><th>lift</th>"
            f"<th>95% CI</th><th class=\"bar\">{axis(scale)}</th><th>positive</th><th>n</th>"
            "<th class=\"text\">verdict</th></tr></thead>")
    plans = F.plan_lines(report)
    plan_html = ""
    if plans:
        plan_html = ('<h3>Sample size</h3><ul class="plans">'
                     + "".join(f"<li>{e(p)}</li>" for p in plans) + "</ul>")
    return (f'<section id="lift"><h2>Lift per metric</h2><div class="figure">'
            f'<table class="lift">{head}<tbody>{"".join(rows)}</tbody></table></div>'
            '<p class="muted">Dot: the lift (mean paired delta). '
            f"Bar: its {e(F.ci_method(report))}. "
            f"Axis from {e(F.signed(-scale, 2))} to {e(F.signed(scale, 2))}. "
            f'{e(rule_text(report))} See <a href="#method">Method</a>.</p>'
            f"{plan_html}</section>")


def _pass(report: LiftReport) -> str:
    k_rows = [f'<tr data-k="{k}"><td>{k}</td><td>{e(F.num(w))}</td><td>{e(F.num(b))}</td></tr>'
              for k, w, b in F.pass_at_k_rows(report)]
    p = report.pass_
    rate_row = (f'<tr data-row="pass-rate"><td class="text">pass rate</td>'
                f"<td>{e(F.pct(p.with_, 1))}</td><td>{e(F.pct(p.base, 1))}</td>"
                f"<td>{e(F.signed(p.g))}</td></tr>")
    main = _table(["", "with", "base", "g"], [rate_row])
    k_table = _table(["k", "pass@k with", "pass@k base"], k_rows) if k_rows else ""
    test = H.pass_test_text(report)
    paired = (f'<p id="pass-test"><strong>Paired pass/fail.</strong> {e(test)}</p>'
              if test else "")
    return (f'<section id="pass"><h2>Pass rates</h2><p>{e(F.pass_line(report))}</p>{main}'
            f"{paired}{k_table}</section>")


def _use(report: LiftReport) -> str:
    text = H.use_text(report)
    if not text:
        return ""
    return f'<section id="use"><h2>How the skill was used</h2><p>{e(text)}</p></section>'


def _efficiency(report: LiftReport) -> str:
    rows = []
    for r in F.efficiency_rows(report):
        tone = "verdict-helps" if (r.diff_value or 0) < 0 else \
            "verdict-hurts" if (r.diff_value or 0) > 0 else ""
        rows.append(f'<tr data-resource="{e(r.name)}"><td class="text">{e(r.label)}</td>'
                    f"<td>{e(r.with_)}</td><td>{e(r.base)}</td>"
                    f'<td class="{tone}">{e(r.diff)}</td>'
                    f"<td>{r.n}</td></tr>")
    dims = F.dimension_rows(report)
    dim_html = ""
    if dims:
        dim_rows = [f'<tr data-dimension="{e(d)}"><td class="text">{e(d)}</td>'
                    f'<td>{e(F.signed(v))}</td><td class="text muted">{e(ms)}</td></tr>'
                    for d, v, ms in dims]
        dim_html = ("<h3>Stakeholder dimensions</h3><p class=\"muted\">Mean lift of each "
                    "dimension's metrics.</p>" + _table(["dimension", "lift", "metrics"], dim_rows,
                                                          text_cols=(0, 2)))
    return (f'<section id="efficiency"><h2>Efficiency</h2><p class="muted">On the '
            f"{report.efficiency.n_cases} case(s) both conditions passed; Diff = (with - base) "
            "/ base, negative = the skill saves.</p>"
            + _table(["resource", "with", "base", "Diff", "n"], rows)
            + f"<p>{e(F.script_rate_line(report))}</p>{dim_html}</section>")


def _heatmap(report: LiftReport) -> str:
    if not report.extra.cases:
        return ""
    return ('<section id="heatmap"><h2>Per-case deltas</h2><p class="muted">Paired delta '
            "D = with - base per case and metric; hover a cell for its exact value.</p>"
            f'<div class="figure">{heatmap(report)}</div>'
            f"<div>{legend(F.delta_scale(report))}</div></section>")


def _negatives(report: LiftReport, trajectories: Mapping[str, Mapping[str, Any]] | None) -> str:
    if not report.negative_cases:
        return ('<section id="negative"><h2>Where the skill hurt</h2>'
                "<p>No case has a negative overall lift.</p></section>")
    evidence = F.evidence_for(report)
    conds = report.conditions or ["with_skill", "baseline"]
    left, right = conds[0], conds[1] if len(conds) > 1 else "baseline"
    rows, cards = [], []
    for i, n in enumerate(report.negative_cases):
        ev = evidence.get(n.case_id)
        rows.append(
            f'<tr data-case="{e(n.case_id)}"><td class="text"><a href="#neg-{i}">{e(n.case_id)}</a>'
            f'</td><td>{e(F.signed(n.delta))}</td><td class="text">{e(n.class_)}</td>'
            f'<td class="text">{e(ev.reason if ev else "—")}</td>'
            f"<td>{e(F.pct(ev.activation_rate) if ev else '—')}</td>"
            f"<td>{e(F.failed_text(ev.failed_attempts) if ev else '—')}</td>"
            f'<td class="text">{e(", ".join(ev.fell) if ev and ev.fell else "—")}</td></tr>')
        pair = (trajectories or {}).get(n.case_id)
        body = side_by_side(dict(pair), left, right) if pair else (
            '<p class="muted">No trajectories were given for this case.</p>' if trajectories
            else "")
        cards.append(f'<div class="case" id="neg-{i}"><h3>{e(n.case_id)}: {e(n.class_)} '
                     f'<span class="muted">D = {e(F.signed(n.delta))}</span></h3>'
                     f"<p><strong>{e(n.class_)}</strong>: {e(F.CLASS_MEANING.get(n.class_, ''))}."
                     f" Evidence: {e(ev.reason if ev else 'none recorded')}.</p>{body}</div>")
    table = _table(["case", "D overall", "class", "why", "activation", "failed attempts",
                    "fell"], rows, "negative", text_cols=(0, 2, 3, 6))
    return (f'<section id="negative"><h2>Where the skill hurt</h2>{table}'
            f'{"".join(cards)}</section>')


def _agreement(report: LiftReport) -> str:
    ag = report.extra.judge_agreement
    if ag is None or not ag.metrics:
        return ""
    rows = [f'<tr data-agreement="{e(m)}"><td class="text">{e(m)}</td><td>{a.n_items}</td>'
            f"<td>{a.n_judges}</td><td>{e(F.num(a.mean_abs_diff))}</td>"
            f"<td>{e(F.num(a.max_abs_diff))}</td><td>{e(F.pct(a.percent_agreement))}</td>"
            f"<td>{e(F.num(a.alpha))}</td></tr>" for m, a in ag.metrics.items()]
    return (f'<section id="agreement"><h2>Judge agreement</h2><p>Judges: '
            f"{e(', '.join(ag.judges))}.</p>"
            + _table(["metric", "items", "judges", "mean |diff|", "max |diff|", "agreement",
                      "alpha"], rows) + "</section>")


def _skillcraft(report: LiftReport) -> str:
    sc = SC.skillcraft_of(report)
    if sc is None:
        return ""
    rates = "".join(f"<li>{e(line)}</li>" for line in SC.rate_lines(sc))
    eff_rows = []
    for r in SC.efficiency_lines(sc):
        tone = "verdict-helps" if (r.diff_value or 0) < 0 else \
            "verdict-hurts" if (r.diff_value or 0) > 0 else ""
        eff_rows.append(f'<tr data-sc-resource="{e(r.name)}"><td class="text">{e(r.label)}</td>'
                        f"<td>{e(r.base)}</td><td>{e(r.skill)}</td>"
                        f'<td class="{tone}">{e(r.diff)}</td><td>{r.n}</td></tr>')
    eff = _table(SC.EFFICIENCY_HEAD, eff_rows) if eff_rows else ""
    skill_rows = ["<tr data-skill=\"{}\" data-attempt=\"{}\">{}</tr>".format(
        e(s.name), s.attempt, "".join(
            f'<td class="{"text" if i in (0, 2, 3, 6, 7) else ""}">{e(c)}</td>'
            for i, c in enumerate(SC.skill_cells(s)))) for s in sc.skills]
    skills = (_table(SC.SKILL_HEAD, skill_rows, "skills", text_cols=(0, 2, 3, 6, 7))
              if skill_rows else "<p>No skill was saved or inherited.</p>")
    lift_rows = ["<tr data-sc-metric=\"{}\">{}</tr>".format(
        e(r[0]), "".join(f'<td class="{"text" if i in (0, 6) else ""}">{e(c)}</td>'
                         for i, c in enumerate(r))) for r in SC.lift_cells(report, sc)]
    lift = ("<h3>Skill Lift of skill_mode over baseline</h3>"
            + _table(SC.LIFT_HEAD, lift_rows, text_cols=(0, 6))) if lift_rows else ""
    return (f'<section id="skillcraft"><h2>{e(SC.TITLE)}</h2><p class="muted">'
            f"{e(SC.intro(sc))}</p><ul>{rates}</ul>"
            "<h3>Efficiency over the cases both sides solved</h3>"
            f'<p class="muted">{e(SC.efficiency_note(sc))}</p>{eff}'
            f"<h3>Skills the agent saved</h3>{skills}{lift}</section>")


def _method(report: LiftReport) -> str:
    paras = "".join(f"<p>{e(note)}</p>" for note in method_notes(report))
    return f'<section id="method"><h2>Method</h2>{paras}</section>'


def render_html(report: LiftReport, *,
                trajectories: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """The whole report as one HTML document; `trajectories` adds side-by-side views."""
    body = (_header(report) + _lift(report) + _use(report) + _pass(report)
            + _efficiency(report)
            + _heatmap(report) + _negatives(report, trajectories) + _skillcraft(report)
            + AB.html_section(report, e, _table, ci_bar) + TR.html_section(report, e, _table)
            + _agreement(report) + CAL.html_section(report, e, _table)
            + RD.html_section(report, e, _table) + _method(report))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(F.title(report))}</title><style>{CSS}</style></head><body><main>"
            f"{body}<footer>{e(report.extra.label)} report by skillforge {e(__version__)}. "
            "Every number is in lift.json (skillforge report RUN --format json).</footer>"
            "</main></body></html>\n")
