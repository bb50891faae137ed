"""A scripted agent for ablation runs: it behaves differently without a script or a section.

Every trial stages csv-insights (whole or without one part), so the agent always sees the
skill. Its moves, read afresh from each request (the server is stateless):

1. list every file under /skills with its sha256 (so a test can check what the container
   held), then read SKILL.md;
2. from the SKILL.md it was given: without `## Workflow` it fumbles for the steps, 1 to 3
   failing commands depending on the case (wasted turns); while `## Limitations` is there
   it checks for an Excel module first, 1 or 2 failing commands (the section costs it);
3. runs scripts/summarize.py; when the script fails (absent, or its import of
   scripts/report_format.py fails because that one is absent) the agent cannot finish the
   case, except order-stats, where it falls back on its own code (which the grader accepts);
4. writes the result and answers.

Every other part (the description, the other sections, the examples, the reference)
changes nothing it does. It is a script, not a model: each move is here.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from dataclasses import dataclass, field

from tests.llm_server import Reply, Request, text, tool_call
from tests.trials.scripted_agent import (
    BASELINE_STATS,
    EXTRACT_MISSING,
    EXTRACT_STATS,
    SCRIPT,
    SKILL_MD,
    is_agent_request,
    turn_of,
)

LISTING = "cd /skills && find . -type f | sort | xargs sha256sum"
# Task text fragments -> case ids (two extra cases live only in the test's copy of the skill).
MARKERS = {
    "give me the total revenue for each month": "monthly-revenue-2",
    "total revenue for each month": "monthly-revenue",
    "Which columns in customers.csv have missing values": "missing-values",
    "average order value": "order-stats",
    "Which region had the highest revenue in Q4": "q4-top-region-2",
    "which sales region brought in the most revenue": "q4-top-region",
}
CASES = ["monthly-revenue", "monthly-revenue-2", "missing-values", "order-stats",
         "q4-top-region", "q4-top-region-2"]
EXTRA_CASES = [
    {"id": "monthly-revenue-2", "kind": "explicit",
     "prompt": "Use the CSV insights skill: give me the total revenue for each month of "
               "sales.csv as a Markdown table in /workspace/summary.md (one row per month "
               "and a total row).",
     "files": ["evals/files/sales.csv"], "expected_skill": "csv-insights",
     "expected_script": "scripts/summarize.py",
     "ground_truth": "2024-07 1236.80; 2024-08 1769.41; 2024-09 406.68; 2024-10 1771.60; "
                     "2024-11 799.71; 2024-12 1673.72; total 7657.92",
     "grader": "evals/graders/check_monthly_revenue.py"},
    {"id": "q4-top-region-2", "kind": "implicit",
     "prompt": "Which region had the highest revenue in Q4 2024 (October to December) in "
               "sales.csv, and how much was it? Put the region and the amount in "
               "/workspace/answer.md.",
     "files": ["evals/files/sales.csv"], "expected_skill": "csv-insights",
     "expected_script": "scripts/summarize.py",
     "ground_truth": "North, 2232.68 in Q4 2024",
     "grader": "evals/graders/check_top_region.py"},
]


def bash(command: str) -> Reply:
    return tool_call("bash", {"command": command})


def case_of(req: Request) -> str | None:
    first = next((m for m in req.messages if m.get("role") == "user"), None)
    task = str(first.get("content")) if first else ""
    return next((cid for marker, cid in MARKERS.items() if marker in task), None)


def tool_outputs(req: Request) -> list[str]:
    return [str(m.get("content")) for m in req.messages if m.get("role") == "tool"]


def main_moves(case: str, script_ok: bool | None) -> list[Reply]:
    """The script run and what follows (None: the script has not run yet)."""
    if case.startswith("monthly-revenue"):
        run = bash(f"python3 {SCRIPT} sales.csv --group-by order_date --period month "
                   "--sum revenue --output /workspace/summary.md")
        after = [text("Monthly revenue is in /workspace/summary.md.")]
    elif case == "missing-values":
        run = bash(f"python3 {SCRIPT} customers.csv --format json --output /tmp/profile.json")
        after = [bash(EXTRACT_MISSING), text("Missing counts are in /workspace/missing.json.")]
    elif case == "order-stats":
        run = bash(f"python3 {SCRIPT} sales.csv --format json --output /tmp/profile.json")
        after = [bash(EXTRACT_STATS), text("Saved to /workspace/stats.json.")]
        if script_ok is False:  # its own code instead
            after = [bash(BASELINE_STATS), text("Saved to /workspace/stats.json.")]
    else:
        run = bash(f"python3 {SCRIPT} sales.csv --group-by order_date --period quarter "
                   "--group-by region --sum revenue --output /tmp/q4.md")
        after = [bash("printf 'North brought in 2232.68 in Q4 2024.\\n' > /workspace/answer.md"),
                 text("North: 2232.68 (in /workspace/answer.md).")]
    if script_ok is False and case != "order-stats":
        after = [text("The summary script is missing from the skill, so I could not "
                      "compute this reliably.")]
    return [run, *after]


@dataclass
class ScriptedAblationAgent:
    """The handler for `llm_server.handler` (see the module docstring)."""

    conversations: Counter = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def plan(self, req: Request, case: str) -> list[Reply]:
        outputs = tool_outputs(req)
        moves: list[Reply] = [bash(LISTING), tool_call("read_file", {"path": SKILL_MD})]
        if len(outputs) < 2:
            return moves
        skill_md = outputs[1]
        index = CASES.index(case)
        if "## Workflow" not in skill_md:
            moves += [bash("cat /skills/csv-insights/WORKFLOW.md")] * (1 + index % 3)
        if "## Limitations" in skill_md:
            moves += [bash("python3 -c 'import openpyxl'")] * (1 + index % 2)
        at = len(moves)  # the script run's turn
        ran = outputs[at] if len(outputs) > at else None
        script_ok = None if ran is None else not any(
            sign in ran for sign in ("No such file", "can't open file", "Traceback"))
        return moves + main_moves(case, script_ok)

    def __call__(self, req: Request) -> Reply:
        if not is_agent_request(req):
            return text("scripted ablation agent: not an agent request")
        case = case_of(req)
        if case is None:
            return text("scripted ablation agent: unknown case")
        turn = turn_of(req)
        if turn == 0:
            with self._lock:
                self.conversations[case] += 1
        plan = self.plan(req, case)
        return plan[turn] if turn < len(plan) else text("done")


def listing_of(observation: str) -> dict[str, str]:
    """{path under /skills: sha256} from the listing step's output."""
    out = {}
    for line in observation.splitlines():
        parts = line.split()
        if len(parts) == 2 and len(parts[0]) == 64:
            out[parts[1].removeprefix("./")] = parts[0]
    return out


def dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)
