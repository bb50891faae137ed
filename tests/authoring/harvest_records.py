"""Skill Mode records for harvest tests: a run of csv-insights' cases in which the agent saved
a skill that totals sales.csv by period on the first case and executed it on the next ones.

The skill's code is the kind an agent writes under SkillCraft's protocol: it reads `args`,
reaches the agent's tools through `call_tool` (read_file for the data, bash to count the
file's lines, write_file for the table) and sets `result`.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from sessions.store import RunStore
from skillforge.models.skill_mode import (
    CachedSkill,
    SkillCache,
    SkillEvent,
    SkillModeTrial,
    SkillOrigin,
    SkillStats,
)
from skillforge.models.trial import RunRecord, RunSpec
from tests.conftest import SAMPLE_SKILLS

SKILL_NAME = "summarize_sales_by_period"
HARVESTED = "summarize-sales-by-period"
SCRIPT_CODE = '''\
import csv
import io
from collections import defaultdict

path = args["csv_path"]
period = args.get("period", "month")
text = call_tool("read_file", path=path)
rows = list(csv.DictReader(io.StringIO(text)))
line_count = int(call_tool("bash", command=f"wc -l < {path}")["stdout"].strip())
width = {"year": 4, "month": 7, "day": 10}[period]
totals = defaultdict(float)
for row in rows:
    totals[row["order_date"][:width]] += float(row["revenue"])
result = {
    "rows": len(rows),
    "lines": line_count,
    "totals": {key: round(value, 2) for key, value in sorted(totals.items())},
    "total": round(sum(totals.values()), 2),
}
if args.get("output_path"):
    table = ["| period | revenue |", "|---|---|"]
    table += [f"| {key} | {value:.2f} |" for key, value in result["totals"].items()]
    table.append(f"| total | {result['total']:.2f} |")
    call_tool("write_file", path=args["output_path"], content="\\n".join(table) + "\\n")
    result["written"] = args["output_path"]
'''
PARAMETERS = {
    "csv_path": "Path of the sales CSV (columns order_date and revenue)",
    "period": {"type": "string", "description": "Bucket of order_date: day, month or year"},
    "output_path": "Optional Markdown file to write the totals table to",
}
MONTHLY = {"2024-07": 1236.8, "2024-08": 1769.41, "2024-09": 406.68, "2024-10": 1771.6,
           "2024-11": 799.71, "2024-12": 1673.72}


def cached_skill(run_id: str, **overrides) -> CachedSkill:
    values = {
        "name": SKILL_NAME,
        "description": "Totals the revenue column of a sales CSV by day, month or year of "
                       "order_date, optionally writing a Markdown table",
        "parameters": PARAMETERS,
        "script_code": SCRIPT_CODE,
        "execution_stats": SkillStats(runs=4, failures=1),
        "created_by": SkillOrigin(run_id=run_id, case_id="monthly-revenue", attempt=1),
        **overrides,
    }
    return CachedSkill(**values)


def chain(run_id: str, skill: CachedSkill | None = None) -> list[SkillModeTrial]:
    """monthly-revenue saves and executes the skill, order-stats and q4-top-region reuse it
    (q4-top-region's first call fails with a bad period, its second succeeds)."""
    skill = skill or cached_skill(run_id)
    empty, full = SkillCache(), SkillCache(skills={skill.name: skill})
    monthly = {"csv_path": "sales.csv", "period": "month", "output_path": "/workspace/summary.md"}
    return [
        SkillModeTrial(run_id=run_id, case_id="monthly-revenue", attempt=1, seq=0,
                       cache_before=empty, cache_after=full, events=[
                           SkillEvent(tool="list_skills"),
                           SkillEvent(tool="save_skill", name=skill.name),
                           SkillEvent(tool="execute_skill", name=skill.name, args=monthly)]),
        SkillModeTrial(run_id=run_id, case_id="order-stats", attempt=1, seq=1,
                       cache_before=full, cache_after=full, events=[
                           SkillEvent(tool="list_skills"),
                           SkillEvent(tool="execute_skill", name=skill.name,
                                      args={"csv_path": "sales.csv", "period": "year"})]),
        SkillModeTrial(run_id=run_id, case_id="q4-top-region", attempt=1, seq=2,
                       cache_before=full, cache_after=full, events=[
                           SkillEvent(tool="execute_skill", name=skill.name, ok=False,
                                      failure="exception", detail="KeyError: 'quarter'",
                                      args={"csv_path": "sales.csv", "period": "quarter"}),
                           SkillEvent(tool="execute_skill", name=skill.name,
                                      args={"csv_path": "sales.csv", "period": "month"})]),
    ]


def copy_csv_skill(root: Path) -> Path:
    dest = root / "skills" / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", dest)
    return dest


def store_run(store: RunStore, run_id: str, skill_dir: Path,
              trials: list[SkillModeTrial] | None = None) -> list[SkillModeTrial]:
    """Create the run (skill_mode and baseline) and save its Skill Mode rows."""
    spec = RunSpec(skill_path=str(skill_dir), conditions=["skill_mode", "baseline"],
                   case_ids=["monthly-revenue", "order-stats", "q4-top-region"], attempts=1)
    store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC),
                               skill_name="csv-insights", skill_path=str(skill_dir), spec=spec))
    rows = chain(run_id) if trials is None else trials
    for row in rows:
        store.save_skill_mode_trial(row)
    return rows
