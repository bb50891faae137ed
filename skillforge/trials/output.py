"""What `skillforge trial` prints at the end: the JSON document, the lift summary, the gate."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from skillforge.lift.cases import trial_overall
from skillforge.models.lift import LiftReport
from skillforge.models.trial import RunSpec, TrialRecord
from skillforge.report import facts as F
from skillforge.report import headline as H

TRIAL_KEYS = ("case_id", "condition", "attempt", "status", "error", "error_stage",
              "error_cause", "metrics",
              "grader", "tokens_in", "tokens_out", "cost_usd", "judge_tokens_in",
              "judge_tokens_out", "judge_cost_usd", "contamination", "turns", "tool_calls",
              "wall_s", "trajectory_path", "reused_from")
VERDICT_STYLE = {"helps": "bold green", "hurts": "bold red", "inconclusive": "yellow"}
# The metrics whose `hurts` fails the gate: the headline and the grader (section 8).
GATED_METRICS = ("overall", "grader")


def trial_item(rec: TrialRecord) -> dict[str, Any]:
    """One trial of the JSON document; `metrics` also holds the derived `overall`."""
    data = rec.model_dump(mode="json")
    item = {k: data[k] for k in TRIAL_KEYS}
    metrics = dict(item["metrics"])
    value = trial_overall(rec)
    if value is not None:
        metrics["overall"] = round(value, 6)
    item["metrics"] = metrics
    return item


def trial_document(run_id: str, spec: RunSpec, trials: Sequence[TrialRecord], *,
                   status: str, lift: LiftReport | None,
                   gate: list[str] | None = None) -> dict[str, Any]:
    """`{"run_id", "spec", "status", "trials": [...], "lift", "gate"}`: one JSON document."""
    doc: dict[str, Any] = {
        "run_id": run_id,
        "spec": spec.model_dump(mode="json"),
        "status": status,
        "trials": [trial_item(t) for t in trials],
        "lift": lift.model_dump(mode="json", by_alias=True) if lift is not None else None,
    }
    if gate is not None:
        doc["gate"] = {"passed": not gate, "failures": gate}
    return doc


def gate_failures(report: LiftReport) -> list[str]:
    """Why `--gate` fails (CONTRACTS.md section 8), one sentence each:

    - `overall` (the headline) or the grader reads `hurts`;
    - the paired pass rate falls significantly (the pass test reads `hurts`: its interval
      is below 0 and its exact test agrees);
    - errors are one-sided (skillforge.lift.errors): runs that broke off on one side only,
      or errored trials that differ between the sides more than chance allows.

    The gate follows the verdicts and nothing else: an interval below 0 that the verdict
    rule withholds (too few cases) is noise, and a gate that failed on it would be a
    verdict from noise.
    """
    out = [f"{name}: the skill hurts (lift {row.lift:+.3f}, 95% CI {row.ci_low:+.3f} to "
           f"{row.ci_high:+.3f} over {row.n} paired cases)"
           for name in GATED_METRICS if (row := report.metrics.get(name)) is not None
           and row.verdict == "hurts"]
    test = report.extra.pass_test
    if test is not None and test.verdict == "hurts":
        out.append(f"pass rate: {H.pass_test_text(report)}")
    if report.extra.errors.one_sided:
        out.append(f"errors: {report.extra.errors.note}")
    return out


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def lift_table(report: LiftReport) -> Group:
    """The lift summary as the terminal shows it: the headline, one row per lift metric, how
    the skill was used, the paired pass rates and the errors."""
    table = Table(box=None, padding=(0, 1), header_style="bold", show_edge=False)
    for name, justify in (("metric", "left"), ("with", "right"), ("base", "right"),
                          ("lift", "right"), ("95% CI", "right"), ("n", "right"),
                          ("verdict", "left")):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for name in F.metric_names(report):
        row = report.metrics[name]
        ci = "-" if row.ci_low is None else f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}]"
        withheld = report.extra.withheld.get(name)
        verdict = row.verdict if row.n else "-"
        if withheld is not None and row.n:
            verdict += f" ({withheld.reason})"
        table.add_row(name, _num(row.with_), _num(row.base), _num(row.lift, True), ci,
                      str(row.n), Text(verdict, style=VERDICT_STYLE.get(row.verdict, "")))
    head = Text(f"{report.extra.label}: {report.skill or ''}  ({report.n_cases} cases, "
                f"{report.inventory.trials} trials: {report.inventory.ok} ok, "
                f"{report.inventory.error} error, {report.inventory.timeout} timeout)",
                style="bold")
    overall = report.metrics.get("overall")
    verdict = H.headline_verdict(report)[0] if overall is not None and overall.n else ""
    parts: list[Any] = [head, Text(H.headline(report), style=VERDICT_STYLE.get(verdict, "")),
                        table]
    use = H.use_text(report)
    if use:
        parts.append(Text(f"use (not lift): {use}", style="cyan"))
    parts.append(Text(F.pass_line(report), style="dim"))
    test = report.extra.pass_test
    if test is not None:
        parts.append(Text(f"paired pass/fail: {H.pass_test_text(report)}",
                          style=VERDICT_STYLE.get(test.verdict, "dim")))
    if report.extra.errors.note:
        parts.append(Text(report.extra.errors.note,
                          style="bold red" if report.extra.errors.one_sided else "dim"))
    for note in F.missing_metric_notes(report):
        parts.append(Text(note, style="dim"))
    if report.negative_cases:
        parts.append(Text("negative lift: " + ", ".join(
            f"{c.case_id} ({c.class_}, {c.delta:+.2f})" for c in report.negative_cases),
            style="yellow"))
    return Group(*parts)
