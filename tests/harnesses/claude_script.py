"""Scripted replies for the real Claude Code in trials (tests/harnesses/test_real_claude.py).

The loopback server (tests/llm_server.py) answers Claude Code's streamed Messages requests
from these plans. Each request is read afresh: the condition from whether the "skills
available" listing names csv-insights, the thread from the subagent's marker in its first
user message, the turn from how many assistant messages the request carries.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tests.llm_server import Reply, Request, text, tool_call

SKILL_ROOT = "/home/agent/.claude/skills/csv-insights"
SUBTASK = "SUBTASK-3C"  # in the subagent's prompt: the server knows who is asking
WRONG_TABLE = "| month | revenue |\n|---|---|\n| total | 1.00 |\n"

WITH_SKILL = [
    lambda: tool_call("Skill", {"skill": "csv-insights"}),
    lambda: tool_call("Bash", {
        "command": f"python3 {SKILL_ROOT}/scripts/summarize.py sales.csv --group-by order_date "
                   "--period month --sum revenue --output /workspace/summary.md",
        "description": "Monthly revenue with the skill's script"}),
    lambda: text("Monthly revenue is in /workspace/summary.md (total 7657.92)."),
]
BASELINE = [
    lambda: tool_call("Bash", {"command": "head -n 3 sales.csv", "description": "Look"}),
    lambda: tool_call("Write", {"file_path": "/workspace/summary.md", "content": WRONG_TABLE}),
    lambda: text("Monthly revenue is in /workspace/summary.md."),
]


def skilled(req: Request) -> bool:
    return "- csv-insights:" in req.all_text()


def first_user_text(req: Request) -> str:
    for message in req.messages:
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            return " ".join(b.get("text", "") for b in content or [] if isinstance(b, dict))
    return ""


def turn(req: Request) -> int:
    return sum(1 for m in req.messages if m.get("role") == "assistant")


def paired(req: Request) -> Reply:
    plan = WITH_SKILL if skilled(req) else BASELINE
    return plan[min(turn(req), len(plan) - 1)]()


def looping_subagent(req: Request) -> Reply:
    """The main thread hands the task to a subagent that never stops running commands."""
    if SUBTASK in first_user_text(req):
        return tool_call("Bash", {"command": "wc -l sales.csv", "description": "Count"})
    if turn(req) == 0:
        return tool_call("Agent", {"description": "Count rows", "subagent_type":
                                   "general-purpose", "prompt": f"{SUBTASK}: count the rows "
                                   "of sales.csv, again and again", "run_in_background": False})
    return text("done")


def background_work(req: Request) -> Reply:
    """The issue's failure case: work left running in the background restarts the loop.

    The main thread writes the summary with the skill's script, starts a subagent in the
    background (which never stops running commands, one a second) and a short background
    `sleep`, then answers; when the `sleep` ends Claude Code wakes the main thread up again,
    which starts another one, and so on: without a limit on every model call the trial
    would run until its timeout."""
    if SUBTASK in first_user_text(req):
        reply = tool_call("Bash", {"command": "wc -l sales.csv", "description": "Count"})
        reply.delay = 1.0
        return reply
    step = turn(req)
    if step == 0:
        return WITH_SKILL[1]()  # /workspace/summary.md, the right one
    if step == 1:
        return tool_call("Agent", {"description": "Count rows", "subagent_type":
                                   "general-purpose", "prompt": f"{SUBTASK}: count the rows "
                                   "of sales.csv, again and again", "run_in_background": True})
    if step % 2 == 0:
        return tool_call("Bash", {"command": f"sleep 2; echo {BACKGROUND_MARK}",
                                  "description": "Wait a little", "run_in_background": True})
    return text("Monthly revenue is in /workspace/summary.md; counting goes on.")


BACKGROUND_MARK = "BG-TICK-5E"


def usage_by_session(requests: list[Request]) -> dict[str, dict[str, int]]:
    """What the server said each Claude Code session used, summed over its replies."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"in": 0, "out": 0, "calls": 0})
    for req in requests:
        sid = next((v for k, v in req.headers.items()
                    if k.lower() == "x-claude-code-session-id"), "?")
        usage: dict[str, Any] = (req.response or {}).get("usage") or {}
        out[sid]["in"] += sum(int(usage.get(k) or 0) for k in (
            "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))
        out[sid]["out"] += int(usage.get("output_tokens") or 0)
        out[sid]["calls"] += 1
    return dict(out)
