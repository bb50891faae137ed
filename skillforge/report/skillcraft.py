"""The "Skill Mode (SkillCraft)" section of a lift report, as text pieces shared by the
Markdown and HTML renderers and the TUI (so all three say the same).

Reads `report.extra.skillcraft` (see `skillforge.lift.skillcraft` for what each figure
counts); a report without it has no such section. Nothing here escapes text: each renderer
escapes for its own format (skill names and descriptions come from the agent: untrusted).
"""

from __future__ import annotations

from dataclasses import dataclass

from skillforge.models.lift import LiftReport
from skillforge.models.skillcraft import SkillcraftReport, SkillRow
from skillforge.report.facts import DASH, metric_names, num, pct, signed, signed_pct

TITLE = "Skill Mode (SkillCraft)"
EFFICIENCY_LABELS: dict[str, str] = {
    "tokens": "tokens (in + out)",
    "cost_usd": "cost",
    "turns": "turns",
    "tool_calls": "tool calls",
}
EFFICIENCY_HEAD = ["resource", "Base", "Skill", "Diff", "n"]
SKILL_HEAD = ["skill", "attempt", "created by", "reused in", "executions", "exec rate",
              "failures", "inherited"]
LIFT_HEAD = ["metric", "Base", "Skill", "lift", "95% CI", "n", "verdict"]


def skillcraft_of(report: LiftReport | None) -> SkillcraftReport | None:
    return report.extra.skillcraft if report is not None else None


def rate_lines(sc: SkillcraftReport) -> list[str]:
    """The headline rates, one sentence each."""
    t = f"{sc.success_threshold:g}"
    lines = [
        f"Success rate (score ≥ {t}, SkillCraft's rule): Base {pct(sc.success.base)} → "
        f"Skill {pct(sc.success.skill)}; skillforge's pass rate (grader reward 1, else "
        f"overall ≥ {sc.pass_threshold:g}): Base {pct(sc.pass_rate.base)} → Skill "
        f"{pct(sc.pass_rate.skill)}.",
    ]
    if sc.executions:
        lines.append(f"Exec rate: {pct(sc.exec_rate)} ({sc.executions_ok} of {sc.executions} "
                     "execute_skill calls succeeded).")
    else:
        lines.append("Exec rate: no execute_skill call was made.")
    if sc.skills_saved:
        lines.append(f"Reuse rate: {num(sc.reuse_rate, 2)} invocations per saved skill "
                     f"({sc.invocations} execute_skill calls of {sc.skills_saved} skill(s) "
                     "saved in this run).")
    else:
        lines.append("Reuse rate: no skill was saved in this run.")
    if sc.skills_inherited:
        source = ", ".join(sc.inherited_from) or "another run"
        lines.append(f"Inherited from {source} ({', '.join(sc.modes)} mode): "
                     f"{sc.skills_inherited} skill(s), {num(sc.inherited_reuse_rate, 2)} "
                     f"invocations each ({sc.inherited_invocations} calls).")
    lines.append(rejections_line(sc))
    return lines


def summary_line(sc: SkillcraftReport) -> str:
    """The three rates in one short line (the TUI's headline above the skill table)."""
    execs = f"{pct(sc.exec_rate)} ({sc.executions_ok}/{sc.executions})" if sc.executions \
        else DASH
    reuse = f"{num(sc.reuse_rate, 2)}/skill ({sc.invocations}/{sc.skills_saved})" \
        if sc.skills_saved else DASH
    return (f"Success ≥ {sc.success_threshold:g}: Base {pct(sc.success.base)} → Skill "
            f"{pct(sc.success.skill)} · Exec {execs} · Reuse {reuse}")


def rejections_line(sc: SkillcraftReport) -> str:
    if not sc.rejections:
        return "Verifier rejections and failed skill calls: none."
    listed = ", ".join(f"{kind} {n}" for kind, n in sc.rejections.items())
    return f"Verifier rejections and failed skill calls, by kind: {listed}."


def efficiency_note(sc: SkillcraftReport) -> str:
    eff = sc.efficiency
    if not eff.n_cases:
        return (f"No case solved on both sides (score ≥ {sc.success_threshold:g} in Skill "
                "Mode and in baseline): no efficiency figures.")
    return (f"Per case over the {eff.n_cases} case(s) both sides solved ({', '.join(eff.cases)}); "
            "Diff = (Skill − Base) / Base, negative = Skill Mode saves.")


def _resource(name: str, x: float | None) -> str:
    if x is None:
        return DASH
    if name == "cost_usd":
        return f"${x:.4f}"
    if name == "tokens":
        return f"{x:,.0f}"
    return f"{x:.1f}"


@dataclass(frozen=True)
class EfficiencyLine:
    name: str
    label: str
    base: str
    skill: str
    diff: str
    diff_value: float | None
    n: int


def efficiency_lines(sc: SkillcraftReport) -> list[EfficiencyLine]:
    """The efficiency table's rows (empty when no case was solved on both sides)."""
    if not sc.efficiency.n_cases:
        return []
    out = []
    for name, label in EFFICIENCY_LABELS.items():
        r = getattr(sc.efficiency, name)
        out.append(EfficiencyLine(name, label, _resource(name, r.base), _resource(name, r.skill),
                                  signed_pct(r.diff), r.diff, r.n))
    return out


def created_text(row: SkillRow) -> str:
    o = row.created_by
    where = ", ".join(x for x in (o.case_id, f"attempt {o.attempt}" if o.attempt is not None
                                  else None) if x)
    if row.inherited:
        run = o.run_id or row.inherited_from or "another run"
        return f"run {run}" + (f" ({where})" if where else "")
    return where or DASH


def failures_text(row: SkillRow) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(row.failures.items())) or "none"


def skill_cells(row: SkillRow) -> list[str]:
    """One row of the per-skill table, in SKILL_HEAD order."""
    return [row.name, str(row.attempt), created_text(row), ", ".join(row.reused_in) or DASH,
            str(row.executions), pct(row.exec_rate), failures_text(row),
            "yes" if row.inherited else "no"]  # from which run: in "created by"


def lift_cells(report: LiftReport, sc: SkillcraftReport) -> list[list[str]]:
    """Per-metric Skill Lift of skill_mode over baseline, in the report's metric order."""
    order = [m for m in metric_names(report) if m in sc.lift]
    order += sorted(m for m in sc.lift if m not in order)
    rows = []
    for m in order:
        r = sc.lift[m]
        ci = DASH if r.ci_low is None or r.ci_high is None else \
            f"[{signed(r.ci_low)}, {signed(r.ci_high)}]"
        if r.ci_low is None and r.n:
            ci = "n < 2"
        rows.append([m, num(r.base), num(r.skill), signed(r.lift), ci, str(r.n), r.verdict])
    return rows


def intro(sc: SkillcraftReport) -> str:
    return (f"skill_mode (the agent saves, lists, reads and executes its own code skills, the "
            f"cache carried across cases in order) against baseline, over {sc.n_cases} "
            f"case(s), {sc.trials} trial(s), {sc.skill_mode_rows} skill-mode trial row(s).")
