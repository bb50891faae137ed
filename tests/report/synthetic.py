"""A realistic synthetic paired run of the csv-insights sample skill, and its trajectories.

Twelve cases, three attempts per side, seeded noise: most cases gain from the skill, and
four lose for four different reasons (never discovered, misused, overhead, unstable). Used
by the renderer tests, the Chromium test and docs/example-report.md.
"""

from __future__ import annotations

import random
from typing import Any

from skillforge.lift.compute import compute_lift
from skillforge.models.lift import LiftReport
from skillforge.models.trial import DEFAULT_METRICS, TrialRecord
from skillforge.report import render_markdown
from tests.lift.builders import trial

W, B = "with_skill", "baseline"
RUN_ID = "20261120T100302-a1b2c3"
SKILL = "csv-insights"

# case: (kind, with-skill levels, baseline levels, activated, note)
# levels: (accuracy, goal_accuracy, behavior_check, security, skill_execution, skill_efficiency)
PROFILES: dict[str, tuple[str, tuple, tuple, bool, str]] = {
    "monthly-revenue": ("explicit", (0.9, 1.0, 0.9, 1.0, 1.0, 0.85), (0.6, 0.5, 0.4, 1.0, 0.0, 0.6), True, "helps"),
    "missing-values": ("implicit", (0.85, 1.0, 0.8, 1.0, 1.0, 0.8), (0.5, 0.5, 0.5, 1.0, 0.0, 0.6), True, "helps"),
    "order-stats": ("implicit", (0.8, 1.0, 0.75, 1.0, 0.67, 0.8), (0.7, 0.5, 0.5, 1.0, 0.0, 0.65), True, "helps"),
    "q4-top-region": ("contextual", (0.5, 0.5, 0.4, 1.0, 0.0, 0.6), (0.7, 1.0, 0.6, 1.0, 0.0, 0.65), False, "never_discovered"),
    "convert-to-jsonl": ("negative", (0.9, 1.0, 1.0, 1.0, 1.0, 0.9), (0.9, 1.0, 1.0, 1.0, 1.0, 0.9), False, "tie"),
    "csv-field-limit": ("negative", (0.86, 1.0, 0.86, 1.0, 1.0, 0.45), (0.8, 1.0, 0.8, 1.0, 1.0, 0.85), True, "overhead"),
    "dedupe-customers": ("implicit", (0.85, 1.0, 0.85, 1.0, 1.0, 0.8), (0.55, 0.5, 0.5, 1.0, 0.0, 0.55), True, "helps"),
    "pivot-by-region": ("explicit", (0.3, 0.0, 0.35, 1.0, 0.67, 0.7), (0.75, 1.0, 0.75, 1.0, 0.0, 0.7), True, "misused"),
    "weekly-churn": ("contextual", (0.6, 0.5, 0.6, 1.0, 0.67, 0.6), (0.7, 1.0, 0.7, 1.0, 0.0, 0.7), True, "unstable"),
    "currency-mix": ("implicit", (0.8, 1.0, 0.8, 1.0, 1.0, 0.8), (0.6, 0.5, 0.6, 1.0, 0.0, 0.6), True, "helps"),
    "date-formats": ("implicit", (0.75, 1.0, 0.7, 1.0, 1.0, 0.75), (0.7, 1.0, 0.6, 0.75, 0.0, 0.7), True, "helps"),
    "top-products": ("explicit", (0.9, 1.0, 0.95, 1.0, 1.0, 0.9), (0.65, 0.5, 0.5, 1.0, 0.0, 0.6), True, "helps"),
}
JUDGED = ("accuracy", "goal_accuracy", "behavior_check")
# Attempts whose grader outcome differs from the case's other attempts (pass@k grows with k).
FLAKY = {("order-stats", W, 1), ("currency-mix", W, 2), ("date-formats", B, 0),
         ("missing-values", B, 1)}


def _noisy(rng: random.Random, level: float, metric: str) -> float:
    if metric in ("goal_accuracy", "security", "skill_execution"):
        return level  # discrete metrics: no jitter
    return round(min(1.0, max(0.0, level + rng.gauss(0, 0.03))), 3)


def realistic_trials(*, judged: bool = True, seed: int = 7) -> list[TrialRecord]:
    """36 + 36 trials; `judged=False` leaves the LLM-judged metrics null (no provider)."""
    rng = random.Random(seed)
    out: list[TrialRecord] = []
    for case, (kind, w_levels, b_levels, activated, note) in PROFILES.items():
        for side, levels in ((W, w_levels), (B, b_levels)):
            for attempt in range(3):
                metrics = {m: _noisy(rng, lv, m) for m, lv in zip(DEFAULT_METRICS, levels)}
                if not judged:
                    metrics.update({m: None for m in JUDGED})
                with_side = side == W
                tokens = rng.randint(9000, 14000) if with_side else rng.randint(14000, 22000)
                turns = rng.randint(5, 8) if with_side else rng.randint(8, 13)
                status = "ok"
                if note == "unstable" and with_side and attempt == 2:
                    status = "timeout"
                passed = metrics["goal_accuracy"] == 1.0 and status == "ok"
                if (case, side, attempt) in FLAKY:
                    passed = not passed
                runs = (1 if activated and kind != "negative" else 0) if with_side else 0
                out.append(trial(
                    case, side, attempt, metrics=metrics, status=status, run_id=RUN_ID,
                    case_kind=kind, activated=activated if with_side else None,
                    grader=1.0 if passed else 0.0,
                    tokens_in=tokens, tokens_out=tokens // 9, turns=turns,
                    tool_calls=turns - 1 + (4 if note == "overhead" and with_side else 0),
                    wall_s=round(turns * rng.uniform(4.0, 6.0), 1),
                    cost_usd=round(tokens * 2.2e-6, 5), script_runs=runs,
                    script_runs_ok=runs if note != "misused" else 0,
                    error="agent exceeded the 600 s limit" if status == "timeout" else None,
                ))
    return out


def realistic_report(*, judged: bool = True) -> LiftReport:
    return compute_lift(realistic_trials(judged=judged), run_id=RUN_ID, skill=SKILL,
                        agent="builtin", model="gpt-4.1-mini")


# -- trajectories (ATIF dicts) -------------------------------------------------------------

def _step(i: int, source: str, message: str, calls: list[tuple[str, str, dict, str, int]] = ()) -> dict:
    step: dict[str, Any] = {"step_id": i, "source": source, "message": message}
    if calls:
        step["tool_calls"] = [{"tool_call_id": cid, "function_name": fn, "arguments": args}
                              for cid, fn, args, _, _ in calls]
        step["observation"] = {"results": [
            {"source_call_id": cid, "content": out, "extra": {"exit_code": code}}
            for cid, _, _, out, code in calls]}
    return step


def atif(case: str, condition: str, steps: list[dict], attempt: int = 0) -> dict:
    return {
        "schema_version": "ATIF-v1.7", "session_id": f"{case}-{condition}-{attempt}",
        "agent": {"name": "skillforge-builtin", "version": "0.1.0", "model_name": "gpt-4.1-mini"},
        "steps": steps,
        "extra": {"case_id": case, "condition": condition, "attempt": attempt, "run_id": RUN_ID},
    }


SYSTEM = "You are a careful data analyst. Skills available: csv-insights (/skills/csv-insights/SKILL.md)."


def misused_pair() -> dict[str, dict]:
    """pivot-by-region: opens the skill, runs its script with the wrong flags, answers wrong."""
    task = "Pivot sales.csv by region and quarter; save /workspace/pivot.md."
    with_skill = [
        _step(1, "system", SYSTEM),
        _step(2, "user", task),
        _step(3, "agent", "I'll read the skill first.",
              [("c1", "read_file", {"path": "/skills/csv-insights/SKILL.md"},
                "# csv-insights\nRun scripts/summarize.py --group-by COL --sum COL ...", 0)]),
        _step(4, "agent", "",
              [("c2", "bash", {"command": "python /skills/csv-insights/scripts/summarize.py "
                                           "sales.csv --pivot region,quarter"},
                "summarize.py: error: unrecognized arguments: --pivot region,quarter", 2)]),
        _step(5, "agent", "",
              [("c3", "write_file", {"path": "/workspace/pivot.md", "content": "| region |"},
                "wrote 10 bytes", 0)]),
        _step(6, "agent", "The script does not pivot, so I wrote a partial table."),
    ]
    baseline = [
        _step(1, "system", "You are a careful data analyst."),
        _step(2, "user", task),
        _step(3, "agent", "",
              [("c1", "bash", {"command": "python -c \"import pandas as pd; print(pd.read_csv("
                                           "'sales.csv').pivot_table(index='region', "
                                           "columns='quarter', values='revenue', aggfunc='sum'))\""},
                "quarter   Q3      Q4\nregion\nEast   1204.1  2210.9\nWest   2209.5  2033.4", 0)]),
        _step(4, "agent", "",
              [("c2", "write_file", {"path": "/workspace/pivot.md", "content": "| region | Q3 | Q4 |"},
                "wrote 212 bytes", 0)]),
        _step(5, "agent", "Saved the pivot to /workspace/pivot.md: East 1204.10 / 2210.90, West 2209.50 / 2033.40."),
    ]
    return {W: atif("pivot-by-region", W, with_skill), B: atif("pivot-by-region", B, baseline)}


def never_discovered_pair() -> dict[str, dict]:
    """q4-top-region: the skill is there, the agent never opens it."""
    task = "Our Q4 board deck needs the region with the highest revenue in orders.csv."
    with_skill = [
        _step(1, "system", SYSTEM),
        _step(2, "user", task),
        _step(3, "agent", "", [("c1", "bash", {"command": "head -3 orders.csv"},
                                "order_id,region,order_date,revenue\n1,East,2024-10-02,120.5", 0)]),
        _step(4, "agent", "The top region is East."),
    ]
    baseline = [
        _step(1, "system", "You are a careful data analyst."),
        _step(2, "user", task),
        _step(3, "agent", "", [("c1", "bash", {"command": "awk -F, 'NR>1 && $3>=\"2024-10\" "
                                                          "{s[$2]+=$4} END {for (r in s) print r, s[r]}' orders.csv"},
                                "East 2210.90\nWest 2033.40", 0)]),
        _step(4, "agent", "West had the highest Q4 revenue: 2033.40... no, East: 2210.90."),
    ]
    return {W: atif("q4-top-region", W, with_skill), B: atif("q4-top-region", B, baseline)}


def trajectories_for_negatives() -> dict[str, dict[str, dict]]:
    return {"pivot-by-region": misused_pair(), "q4-top-region": never_discovered_pair()}


def example_markdown() -> str:
    """docs/example-report.md: the synthetic run's report with its negative cases' steps."""
    return render_markdown(realistic_report(), trajectories=trajectories_for_negatives())


if __name__ == "__main__":
    # python -m tests.report.synthetic docs/example-report.md
    import sys
    from pathlib import Path

    from skillforge.models.fileio import atomic_write_text

    atomic_write_text(Path(sys.argv[1]), example_markdown())
