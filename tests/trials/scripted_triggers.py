"""A scripted "model" for trigger tests: an agent that picks a skill by words in its
description, and a proposer that proposes descriptions from a fixed list.

The agent (requests that offer the `bash` tool): on its first turn it reads
/skills/<target>/SKILL.md when the target's description, as listed in the system prompt,
names the query's topic word (`TOPICS`: every query carries one); otherwise it answers
without a tool. After a read it answers. So a query triggers exactly when the description
names its topic, whatever else the description says, and the outcome of every trial is
known in advance.

The proposer (every other request: the structured description answers) replies with the
next description of `proposals`, and records each request it received so a test can check
what it was shown (held-out integrity).
"""

from __future__ import annotations

import json
import re
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

from sessions.store import RunStore
from skillforge.authoring.describe_setup import LoopOptions, prepare_loop
from skillforge.config import load_settings
from tests.conftest import SAMPLE_SKILLS
from tests.llm_server import Reply, Request, structured, text, tool_call
from tests.trials.scripted_agent import is_agent_request, turn_of

TARGET = "csv-insights"
# id -> (query, should_trigger, topic word)
QUERIES: dict[str, tuple[str, bool, str]] = {
    "ledger-totals": ("Add up the ledger export in /workspace and give me the totals per "
                      "account.", True, "ledger"),
    "tally-votes": ("I need a tally of the survey answers in answers.txt by option.", True,
                    "tally"),
    "pivot-sales": ("Make me a pivot of last quarter's orders by region and product.", True,
                    "pivot"),
    "tabulate-logs": ("Tabulate how many requests each endpoint got in access.log.", True,
                      "tabulate"),
    "slides-deck": ("Turn my meeting notes into a slide deck outline.", False, "slides"),
    "poem-coffee": ("Write a short poem about coffee for the office newsletter.", False,
                    "poem"),
    "translate-menu": ("Translate this restaurant menu into French.", False, "translate"),
    "resize-photos": ("Resize all the photos in /workspace to 800 pixels wide.", False,
                      "resize"),
}
TOPICS = {q: topic for q, (_t, _s, topic) in QUERIES.items()}

# Lint-clean descriptions (SF201-SF207): the first names no positive topic, the second all.
NO_WORDS = ("Summarises delimited data files with a bundled script that reports column "
            "types and statistics. Use when someone wants a data file profiled or checked, "
            "not for documents or images.")
WITH_WORDS = ("Summarises tabular data with a bundled script: totals from a ledger export, a "
              "tally of answers, a pivot by region or product, and counts to tabulate from "
              "logs. Use when someone wants figures added up or broken down by a column, not "
              "for writing, presentations or image work.")
PROPOSALS = [NO_WORDS, WITH_WORDS]


def evals_doc() -> dict:
    return {"skill_name": TARGET, "evals": [
        {"id": cid, "kind": "implicit" if trig else "negative", "prompt": q,
         "should_trigger": trig} for cid, (q, trig, _topic) in QUERIES.items()]}


def trigger_skills(root: Path) -> Path:
    """root/skills/ with the three sample skills; the target's evals.json holds QUERIES."""
    dest = root / "skills"
    for name in ("csv-insights", "lab-units", "release-notes"):
        shutil.copytree(SAMPLE_SKILLS / name, dest / name)
    (dest / TARGET / "evals" / "evals.json").write_text(json.dumps(evals_doc(), indent=2))
    return dest / TARGET


def target_description(req: Request) -> str:
    m = re.search(rf"<name>{TARGET}</name>\s*<description>(.*?)</description>",
                  req.system_text(), re.S)
    return m.group(1) if m else ""


def query_of(req: Request) -> str | None:
    first = next((m for m in req.messages if m.get("role") == "user"), None)
    task = str(first.get("content")) if first else ""
    return next((cid for cid, (q, _t, _w) in QUERIES.items() if q in task), None)


def triggers(description: str, query_id: str) -> bool:
    return re.search(rf"\b{TOPICS[query_id]}\b", description, re.I) is not None


@dataclass
class ScriptedTriggers:
    """The handler for `llm_server.handler` (see the module docstring)."""

    proposals: list[str] = field(default_factory=lambda: list(PROPOSALS))
    proposer_requests: list[Request] = field(default_factory=list)
    agent_turns: int = 0
    # Seconds every agent reply waits (a loop that hangs mid-trial, for the signal tests).
    delay: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, req: Request) -> Reply:
        if not is_agent_request(req):
            with self._lock:
                self.proposer_requests.append(req)
                n = len(self.proposer_requests)
            desc = self.proposals[min(n, len(self.proposals)) - 1]
            return structured({"description": desc, "rationale": f"scripted proposal {n}"})
        with self._lock:
            self.agent_turns += 1
        reply = self._agent_reply(req)
        reply.delay = max(reply.delay, self.delay)
        return reply

    def _agent_reply(self, req: Request) -> Reply:
        qid = query_of(req)
        turn = turn_of(req)
        if qid is None:
            return text("scripted triggers: unknown query")
        if turn == 0 and triggers(target_description(req), qid):
            return tool_call("read_file", {"path": f"/skills/{TARGET}/SKILL.md"})
        return text("Done." if turn else "I can answer this without any skill.")


async def run_loop(tmp_path, server, proposals, iterations=2, **opts):
    """The loop in process on the local sandbox: (scripted, history, store, plan)."""
    scripted = ScriptedTriggers(proposals=list(proposals))
    server.handler = scripted
    skill = trigger_skills(tmp_path)
    settings = load_settings(skill)
    store = RunStore(tmp_path / "state")
    options = LoopOptions(iterations=iterations, runs=1, holdout=0.5, seed=3, decoys=2,
                          trial={"sandbox": "local", "concurrency": 4}, **opts)
    plan = prepare_loop(skill, settings, store, options)
    try:
        history = await plan.loop.run()
    finally:
        for c in {id(c): c for c in (plan.agent, plan.proposer)}.values():
            await c.aclose()
    return scripted, history, store, plan
