"""What `skillforge trial` prints at the end: the JSON document, the lift summary, the gate."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from skillforge.metrics.deterministic import overall
from skillforge.models.lift import LiftReport
from skillforge.models.trial import ALL_METRICS, RunSpec, TrialRecord

TRIAL_KEYS = ("case_id", "condition", "attempt", "status", "error", "metrics", "grader",
              "tokens_in", "tokens_out", "turns", "tool_calls", "wall_s", "trajectory_path")
VERDICT_STYLE = {"helps": "bold green", "hurts": "bold red", "inconclusive": "yellow"}


def trial_item(rec: TrialRecord) -> dict[str, Any]:
    """One trial of the JSON document; `metrics` also holds the derived `overall`."""
    data = rec.model_dump(mode="json")
    item = {k: data[k] for k in TRIAL_KEYS}
    metrics = dict(item["metrics"])
    value = overall(rec.metrics)
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
    """Why the `--gate` fails: a metric whose verdict is `hurts`.

    The gate follows the verdict and nothing else: an interval below 0 that the verdict rule
    withholds (too few cases, a zero-width CI, within the tie tolerance) is noise, and a
    gate that failed on it would be a verdict from noise.
    """
    return [f"{name}: the skill hurts (lift {row.lift:+.3f}, 95% CI {row.ci_low:+.3f} to "
            f"{row.ci_high:+.3f})" for name, row in report.metrics.items()
            if row.verdict == "hurts"]


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def lift_table(report: LiftReport, judged: bool = False) -> Group:
    """The lift table as the terminal shows it: one row per metric, then pass rates."""
    table = Table(box=None, padding=(0, 1), header_style="bold", show_edge=False)
    for name, justify in (("metric", "left"), ("with", "right"), ("base", "right"),
                          ("lift", "right"), ("95% CI", "right"), ("n", "right"),
                          ("verdict", "left")):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for name in ALL_METRICS:
        row = report.metrics.get(name)
        if row is None:
            continue
        ci = "-" if row.ci_low is None else f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}]"
        table.add_row(name, _num(row.with_), _num(row.base), _num(row.lift, True), ci,
                      str(row.n), Text(row.verdict if row.n else "-",
                                       style=VERDICT_STYLE.get(row.verdict, "")))
    head = Text(f"{report.extra.label}: {report.skill or ''}  ({report.n_cases} cases, "
                f"{report.inventory.trials} trials: {report.inventory.ok} ok, "
                f"{report.inventory.error} error, {report.inventory.timeout} timeout)",
                style="bold")
    p = report.pass_
    pass_line = Text(f"pass rate with {_num(p.with_)}  base {_num(p.base)}  "
                     f"normalised gain {_num(p.g, True)}", style="dim")
    parts: list[Any] = [head, table, pass_line]
    if report.extra.missing_metrics:
        why = ""
        if "accuracy" in report.extra.missing_metrics:
            why = " (every judge failed: see the warnings)" if judged else \
                " (no judge: --no-judge)"
        parts.append(Text("not computed: " + ", ".join(report.extra.missing_metrics) + why,
                          style="dim"))
    if report.negative_cases:
        parts.append(Text("negative lift: " + ", ".join(
            f"{c.case_id} ({c.class_}, {c.delta:+.2f})" for c in report.negative_cases),
            style="yellow"))
    return Group(*parts)
