"""A scripted Skill Mode agent for trial tests: saves a code skill on the first case, runs it on the next.

It answers the built-in agent's requests through the loopback LLM server. A request whose
tools include `execute_skill` is a `skill_mode` trial; every other request goes to the
plain `ScriptedAgent` (the baseline plans). Like that one, it is a script, not a model:

- monthly-revenue (first case): save `csv_column_stats` with a syntax error (the verifier
  rejects it, with the line), save the corrected script, execute it on sales.csv, then
  write the monthly table the baseline's way and answer;
- missing-values: execute the cached skill with a mistyped file name (an exception with
  traceback and arguments), then on customers.csv, and write missing.json from its result;
- order-stats: execute it on sales.csv and write stats.json from its result;
- in static reuse (an inherited cache): try save_skill (refused), then as order-stats.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.llm_server import Reply, Request, text, tool_call
from tests.trials.scripted_agent import (
    BASELINE_AGG,
    ScriptedAgent,
    case_of,
    last_tool_output,
    turn_of,
)

SKILL = "csv_column_stats"
SKILL_CODE = '''\
import csv
import io
import statistics

MISSING = {"", "n/a", "na", "null", "-"}
text = call_tool("read_file", path=args["path"])
lines = call_tool("bash", command="wc -l < " + args["path"])
rows = list(csv.DictReader(io.StringIO(text)))
columns = {}
for name in (rows[0].keys() if rows else []):
    values = [(r.get(name) or "").strip() for r in rows]
    present = [v for v in values if v.lower() not in MISSING]
    info = {"missing": len(values) - len(present)}
    try:
        nums = [float(v) for v in present]
    except ValueError:
        nums = []
    if nums:
        info.update(sum=round(sum(nums), 2), mean=round(statistics.mean(nums), 2),
                    median=round(statistics.median(nums), 2))
    columns[name] = info
result = {"path": args["path"], "lines": int(lines["stdout"].strip()), "rows": len(rows),
          "columns": columns}
'''
# The `for` line loses its colon: the verifier must reject it, naming that line.
_FOR = "for name in (rows[0].keys() if rows else []):"
BROKEN_CODE = SKILL_CODE.replace(_FOR, _FOR[:-1])
BROKEN_LINE = SKILL_CODE.splitlines().index(_FOR) + 1
PARAMS = {"path": "the CSV file, relative to /workspace"}
DESCRIPTION = ("Profile a CSV file: row count, and per column the missing cells (blank, N/A, "
               "NA, null, -) and, for numeric columns, sum, mean and median.")

Move = Callable[[Request], Reply]


def _save(code: str) -> Move:
    return lambda _r: tool_call("save_skill", {"name": SKILL, "script_code": code,
                                               "parameters": PARAMS,
                                               "description": DESCRIPTION})


def _execute(path: str) -> Move:
    return lambda _r: tool_call("execute_skill", {"name": SKILL, "args": {"path": path}})


def skill_result(req: Request) -> dict:
    """The `result` of the last execute_skill, from the tool output the agent got."""
    out = last_tool_output(req)
    body = out.split("result: ", 1)[1].split("\nPrinted output:", 1)[0]
    return json.loads(body)


def _write_missing(req: Request) -> Reply:
    cols = skill_result(req)["columns"]
    data = {c: v["missing"] for c, v in cols.items() if v["missing"]}
    return tool_call("write_file", {"path": "/workspace/missing.json",
                                    "content": json.dumps(data)})


def _write_stats(req: Request) -> Reply:
    cols = skill_result(req)["columns"]
    data = {"mean_revenue": cols["revenue"]["mean"], "median_revenue": cols["revenue"]["median"],
            "total_units": int(cols["units"]["sum"])}
    return tool_call("write_file", {"path": "/workspace/stats.json",
                                    "content": json.dumps(data)})


def _answer(s: str) -> Move:
    return lambda _r: text(s)


GROW: dict[str, list[Move]] = {
    "monthly-revenue": [
        lambda _r: tool_call("list_skills", {}),
        _save(BROKEN_CODE),
        _save(SKILL_CODE),
        _execute("sales.csv"),
        lambda _r: tool_call("write_file", {"path": "/workspace/agg.py",
                                            "content": BASELINE_AGG}),
        lambda _r: tool_call("bash", {"command": "python3 agg.py && cat summary.md"}),
        _answer("Monthly revenue is in /workspace/summary.md (total 7657.92)."),
    ],
    "missing-values": [
        _execute("customer.csv"),
        _execute("customers.csv"),
        _write_missing,
        _answer("Missing counts are in /workspace/missing.json."),
    ],
    "order-stats": [
        _execute("sales.csv"),
        _write_stats,
        _answer("Saved to /workspace/stats.json."),
    ],
}
STATIC: dict[str, list[Move]] = {
    "order-stats": [_save(SKILL_CODE), *GROW["order-stats"]],
    "monthly-revenue": [_execute("sales.csv"), *GROW["monthly-revenue"][4:]],
}


def is_skill_mode(req: Request) -> bool:
    tools = (req.body or {}).get("tools") or []
    return any((t.get("function") or {}).get("name") == "execute_skill" for t in tools)


def is_static(req: Request) -> bool:
    tools = (req.body or {}).get("tools") or []
    return not any((t.get("function") or {}).get("name") == "save_skill" for t in tools)


@dataclass
class ScriptedSkillModeAgent:
    """`llm_server.handler`: skill_mode requests play GROW/STATIC, others the ScriptedAgent."""

    other: ScriptedAgent = field(default_factory=ScriptedAgent)
    grow: dict[str, list[Move]] = field(default_factory=lambda: dict(GROW))
    static: dict[str, list[Move]] = field(default_factory=lambda: dict(STATIC))
    # (case, system prompt) of each skill_mode conversation, in the order they started.
    started: list[tuple[str | None, str]] = field(default_factory=list)

    def __call__(self, req: Request) -> Reply:
        if not is_skill_mode(req):
            return self.other(req)
        case, turn = case_of(req), turn_of(req)
        if turn == 0:
            self.started.append((case, req.system_text()))
        plan = (self.static if is_static(req) else self.grow).get(case or "")
        if plan is None:
            return text(f"scripted skill-mode agent: no plan for case {case!r}")
        return plan[turn](req) if turn < len(plan) else text("done")
