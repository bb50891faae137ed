"""Drafting trigger queries: positives and near misses, reviewed as a proposal, merged into
evals.json as cases with should_trigger (which the description loop then reads)."""

from __future__ import annotations

import json
import re

from skillforge.authoring.drafting import merge_proposal
from skillforge.authoring.trigger_drafting import draft_triggers
from skillforge.lift.triggers import trigger_queries
from skillforge.models.evals import EvalsFile, load_evals
from skillforge.models.skill import load_skill
from tests.llm_server import structured


def item(i: str, q: str) -> dict:
    return {"id": i, "query": q, "rationale": f"why {i}"}


ANSWER = {
    "should_trigger": [item("month-totals", "What did we sell per month? sales.csv is here."),
                       item("null-check", "Which columns in this export have gaps?")],
    "should_not_trigger": [item("make-chart", "Draw a bar chart of revenue by region."),
                           item("fix-parser", "My CSV parsing code crashes on quotes; fix it.")],
}


async def test_queries_come_back_as_trigger_cases_and_merge(aces_skill, llm_server,
                                                           make_client):
    existing = EvalsFile.load(aces_skill / "evals" / "evals.json").evalset
    llm_server.script(structured(ANSWER))
    proposal = await draft_triggers(load_skill(aces_skill), make_client("openai"), count=2,
                                    existing=existing)
    [req] = llm_server.completions
    user, system = req.last_message_text(), req.system_text()
    nonce = re.search(r"<skill_files_([0-9a-f]{12})>", user).group(1)
    assert f"<existing_cases_{nonce}>" in user and "near misses" in system
    schema = json.dumps(req.body)
    assert "should_not_trigger" in schema
    assert [c.should_trigger for c in proposal.cases] == [True, True, False, False]
    assert [c.kind for c in proposal.cases] == ["implicit", "implicit", "negative", "negative"]
    assert proposal.cases[0].expected_skill == "csv-insights"
    assert proposal.cases[2].expected_skill is None
    assert proposal.cases[2].id == "no-trigger-make-chart"

    merged = merge_proposal(existing, proposal, [c.id for c in proposal.cases])
    ef = EvalsFile.load(aces_skill / "evals" / "evals.json")
    ef.save(merged)
    again, issues = load_evals(aces_skill / "evals" / "evals.json")
    assert issues == []
    queries = {q.id: q for q in trigger_queries(again)}
    assert queries["no-trigger-fix-parser"].should_trigger is False
    assert queries["trigger-month-totals"].query.startswith("What did we sell")
    assert len(again.cases) == len(existing.cases) + 4
