"""The "Judges against the author" section of a lift report, as pieces shared by the Markdown
and HTML renderers, the terminal and the TUI (so all of them say the same).

Reads `report.extra.calibration` (skillforge.lift.calibration_run); a report without labels
has no such section. A metric whose judges are "not calibrated" is marked wherever its lift
appears (`mark`). Raw and calibrated lift are shown side by side, never one for the other.
Nothing here escapes text: each renderer escapes for its own format.
"""

from __future__ import annotations

from collections.abc import Callable

from skillforge.models.labels import CalibrationReport, JudgeAgreement
from skillforge.models.lift import LiftReport
from skillforge.report.facts import DASH, num, signed

TITLE = "Judges against the author"
AGREEMENT_HEAD = ["judge", "metric", "n", "MAE", "bias (judge − author)", "Spearman ρ",
                  "weighted κ", "self-consistency", "status", "calibration map"]
LIFT_HEAD = ["metric", "raw lift", "raw 95% CI", "calibrated lift", "calibrated 95% CI", "n",
             "judges mapped"]
NOT_CALIBRATED = "not calibrated"


def calibration_of(report: LiftReport | None) -> CalibrationReport | None:
    return getattr(report.extra, "calibration", None) if report is not None else None


def mark(report: LiftReport | None, metric: str) -> str:
    """" (not calibrated)" after a metric whose judges fall under the bar, else ""."""
    cal = calibration_of(report)
    if cal is not None and cal.status.get(metric) == NOT_CALIBRATED:
        return f" ({NOT_CALIBRATED})"
    return ""


def _ci(ci: tuple[float, float] | None, digits: int = 2, sign: bool = False) -> str:
    if ci is None:
        return ""
    f = (lambda v: signed(v, digits)) if sign else (lambda v: num(v, digits))
    return f" [{f(ci[0])}, {f(ci[1])}]"


def progress_line(cal: CalibrationReport) -> str:
    return f"{cal.labelled} of {cal.judgments} judgments labelled"


def intro(cal: CalibrationReport) -> str:
    bar = cal.bar
    return (f"The author labelled {cal.labelled} of this run's {cal.judgments} judgments "
            "(all labels of this skill count below). Per judge model and metric or rubric "
            "criterion: mean absolute error and bias (judge minus author) on the metric's "
            "scale (0-1 for trial metrics, 0-10 for criteria), Spearman's ρ and Cohen's κ with "
            "quadratic weights over the scale in 11 bins, each with a 95% bootstrap interval "
            "over labels (a studentized bootstrap for MAE and bias, percentiles of the "
            f"same resamples for ρ and κ; none below 10 labels). A judge is \"{NOT_CALIBRATED}\" "
            f"when κ < {bar.min_kappa:g} with at least {bar.min_labels} labels ([judge] "
            "calibration_kappa, calibration_min_labels); with fewer labels it is not shown to "
            "be calibrated either (\"too few labels\").")


def self_consistency_cell(row: JudgeAgreement) -> str:
    sc = row.self_consistency
    if not sc.n_items:
        return "no repeats"
    return f"|Δ| {num(sc.mean_abs_diff, 2)} over {sc.n_items} repeated"


def mapping_cell(row: JudgeAgreement) -> str:
    m = row.mapping
    if m is None:
        return DASH
    if m.heldout_mae_calibrated is None:
        return m.note
    state = "applied" if m.applied else "not applied"
    return (f"{state}: held-out MAE {num(m.heldout_mae_raw, 2)} → "
            f"{num(m.heldout_mae_calibrated, 2)}")


def agreement_cells(row: JudgeAgreement) -> list[str]:
    digits = 2
    return [row.judge, row.metric, str(row.n),
            num(row.mae, digits) + _ci(row.mae_ci, digits),
            signed(row.bias, digits) + _ci(row.bias_ci, digits, sign=True),
            num(row.rho, 2) + _ci(row.rho_ci), num(row.kappa, 2) + _ci(row.kappa_ci),
            self_consistency_cell(row), row.status, mapping_cell(row)]


def lift_cells(cal: CalibrationReport) -> list[list[str]]:
    return [[m, signed(c.raw), _ci(c.raw_ci, 3, sign=True).strip(" []") or DASH,
             signed(c.calibrated), _ci(c.calibrated_ci, 3, sign=True).strip(" []") or DASH,
             str(c.n), ", ".join(c.judges_mapped)] for m, c in cal.lift.items()]


def lift_note(cal: CalibrationReport) -> str:
    if cal.lift:
        return ("Each judged metric's lift from the judges' raw values and through their "
                "isotonic maps (fitted on the labels, applied only where they lowered the "
                "cross-validated error), side by side: the raw lift stays the report's lift.")
    return ("No calibration map was applied (none lowered the held-out error, or too few "
            "labels to fit one): the lift above is the only one.")


def status_lines(cal: CalibrationReport) -> list[str]:
    """One line per metric that is not shown calibrated."""
    return [f"{m}: {s}" for m, s in cal.status.items() if s != "calibrated"]


def gate_failures(report: LiftReport) -> list[str]:
    """Why `--require-calibrated` fails: each judged metric of the report (and each labelled
    criterion) that is not shown calibrated, or every judged metric when nothing is labelled."""
    cal = calibration_of(report)
    judged = [m for m in ("accuracy", "goal_accuracy", "behavior_check")
              if m in report.metrics and report.metrics[m].n]
    if cal is None:
        return [f"{m}: no author labels (label some with `skillforge label "
                f"{report.run_id}`)" for m in judged]
    out = []
    for m in judged:
        s = cal.status.get(m)
        if s is None:
            out.append(f"{m}: no author labels")
        elif s != "calibrated":
            rows = [r for r in cal.rows if r.metric == m and r.status != "calibrated"]
            detail = "; ".join(f"{r.judge} κ {num(r.kappa, 2)} on {r.n} labels" for r in rows)
            out.append(f"{m}: {s} ({detail})")
    return out


# --- the section in each format (the renderers pass their own escaping and table) ----------


def markdown_lines(report: LiftReport, md: Callable[[object], str],
                   table: Callable[[list[str], list[list[str]]], list[str]]) -> list[str]:
    cal = calibration_of(report)
    if cal is None:
        return []
    lines = [f"## {TITLE}", "", md(intro(cal)), ""]
    lines += [f"**{md(line)}**" for line in status_lines(cal)]
    lines += [""] if status_lines(cal) else []
    if cal.rows:
        lines += table(AGREEMENT_HEAD, [[md(c) for c in agreement_cells(r)]
                                        for r in cal.rows]) + [""]
    lines += ["### Raw and calibrated lift", "", md(lift_note(cal)), ""]
    if cal.lift:
        lines += table(LIFT_HEAD, [[md(c) for c in r] for r in lift_cells(cal)]) + [""]
    return lines


def html_section(report: LiftReport, e: Callable[[object], str],
                 table: Callable[..., str]) -> str:
    cal = calibration_of(report)
    if cal is None:
        return ""
    warn = "".join(f'<p class="verdict-hurts">{e(line)}</p>' for line in status_lines(cal))
    rows = ['<tr data-calibration="{}" data-judge="{}" data-status="{}">{}</tr>'.format(
        e(r.metric), e(r.judge), e(r.status), "".join(
            f'<td class="{"text" if i in (0, 1, 7, 8, 9) else ""}">{e(c)}</td>'
            for i, c in enumerate(agreement_cells(r)))) for r in cal.rows]
    lift_rows = ['<tr data-calibrated-lift="{}">{}</tr>'.format(e(r[0]), "".join(
        f'<td class="{"text" if i in (0, 6) else ""}">{e(c)}</td>' for i, c in enumerate(r)))
        for r in lift_cells(cal)]
    lift = table(LIFT_HEAD, lift_rows, text_cols=(0, 6)) if lift_rows else ""
    return (f'<section id="calibration"><h2>{e(TITLE)}</h2><p class="muted">{e(intro(cal))}'
            f"</p>{warn}"
            + (table(AGREEMENT_HEAD, rows, text_cols=(0, 1, 7, 8, 9)) if rows else "")
            + f'<h3>Raw and calibrated lift</h3><p class="muted">{e(lift_note(cal))}</p>'
            f"{lift}</section>")
