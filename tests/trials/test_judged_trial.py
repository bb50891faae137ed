"""Judged metrics inside a trial run: the judge sees the finished trial, its verdict becomes
accuracy, goal_accuracy and behavior_check, stored with the judge's evidence."""

from __future__ import annotations

import json

import pytest

from skillforge.trials.output import trial_item
from tests.llm_server import Request, structured

pytestmark = [pytest.mark.docker, pytest.mark.timeout(180)]


def judge(req: Request):
    """A scripted judge: with the skill 'met', without it 'not met' (read off the prompt)."""
    seen = req.all_text()
    skilled = "/skills/csv-insights/SKILL.md" in seen
    return structured({
        "accuracy": {"score": 9 if skilled else 4, "rationale": "scripted",
                     "evidence": [{"step_id": 3, "quote": "summary"}]},
        "goal": {"verdict": "met" if skilled else "not_met", "rationale": "scripted",
                 "evidence": [{"step_id": 3, "quote": "summary"}]},
        "behaviors": [{"index": i, "answer": "yes" if skilled else "no",
                       "step_id": 3 if skilled else None, "quote": "", "rationale": "scripted"}
                      for i in range(1, 5)],
    }, usage={"input": 1234, "output": 56})


async def test_a_judged_trial_stores_the_three_judged_metrics(csv_skill, scripted, make_runner,
                                                             store, agent_client,
                                                             llm_server):
    scripted.judge = judge
    runner, _ = make_runner(csv_skill, case_ids=["monthly-revenue"])
    runner.judges = [agent_client]
    summary = await runner.run()
    by_cond = {r.condition: r for r in summary.records}
    assert {r.status for r in by_cond.values()} == {"ok"}
    assert scripted.judge_requests == 2
    # The judge's calls are stored with each trial, apart from the agent's tokens (before,
    # a judged run recorded only the agent's share).
    for rec in by_cond.values():
        assert (rec.judge_tokens_in, rec.judge_tokens_out) == (1234, 56)
        assert rec.tokens_in > 0 and rec.tokens_in != 1234
        stored = next(t for t in store.trials(runner.run_id) if t.key == rec.key)
        assert (stored.judge_tokens_in, stored.judge_tokens_out) == (1234, 56)
    # The estimate of this run made from the store counts exactly these calls, the judge's
    # with the agent's; with an empty store the judge is still in it, by assumption.
    from skillforge.trials.estimate import estimate_run

    est = estimate_run(runner.spec, 1, store, "csv-insights", {}, judged=True)
    recs = summary.records
    assert est.judge_tokens == sum(r.judge_tokens_in + r.judge_tokens_out for r in recs)
    assert est.agent_tokens == sum(r.tokens_in + r.tokens_out for r in recs)
    assert est.judge_source.endswith(f"judged run {runner.run_id}")
    blind = estimate_run(runner.spec, 1, None, "csv-insights", {}, judged=True)
    assert blind.judge_tokens and blind.judge_tokens >= est.judge_tokens
    w, b = by_cond["with_skill"].metrics, by_cond["baseline"].metrics
    assert (w["accuracy"], w["goal_accuracy"], w["behavior_check"]) == (0.9, 1.0, 1.0)
    assert (b["accuracy"], b["goal_accuracy"], b["behavior_check"]) == (0.4, 0.0, 0.0)
    rows = {r.metric: r for r in store.metrics(runner.run_id,
                                               ("monthly-revenue", "with_skill", 1))}
    assert rows["accuracy"].judge_model == "scripted-agent"
    assert rows["accuracy"].rubric_version
    assert rows["goal_accuracy"].evidence is not None
    # The judge was told what /workspace held at the end.
    judge_bodies = [json.dumps(r.body) for r in llm_server.requests
                    if "response_format" in r.body]
    assert len(judge_bodies) == 2
    assert any("/workspace/summary.md" in body for body in judge_bodies)
    item = trial_item(by_cond["with_skill"])
    # overall: the outcome metrics (the grader among them), never how the skill was used
    assert item["metrics"]["overall"] == pytest.approx(
        sum(w[m] for m in ("grader", "accuracy", "goal_accuracy", "behavior_check",
                           "security")) / 5)
