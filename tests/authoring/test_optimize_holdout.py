"""The description loop in process, on the local sandbox (fast; the Docker test is
tests/trials/test_optimize_description.py): held-out integrity, the lint gate, the split.

Held-out integrity: the proposing model never receives a test query, a test query's id or a
test score; what it gets about attempts are training figures, checked against the trials.
"""

from __future__ import annotations

import re

import pytest

from sessions.store import RunStore
from skillforge.authoring.describe_setup import LoopOptions, prepare_loop
from skillforge.config import load_settings
from skillforge.models.triggers import parse_run_label
from tests.trials.scripted_triggers import (
    NO_WORDS,
    QUERIES,
    WITH_WORDS,
    ScriptedTriggers,
    run_loop,
    trigger_skills,
    triggers,
)

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def env(llm_server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "scripted-agent")
    monkeypatch.chdir(tmp_path)
    return llm_server


async def test_the_proposer_never_sees_the_test_set(env, tmp_path):
    scripted, history, store, _plan = await run_loop(tmp_path, env, [NO_WORDS, WITH_WORDS])
    assert history.status == "finished"
    assert len(scripted.proposer_requests) == 2
    test_ids = {q.id for q in history.test}
    train_ids = {q.id for q in history.train}
    assert len(test_ids) == 4 and len(train_ids) == 4 and not test_ids & train_ids
    for req in scripted.proposer_requests:
        body = req.all_text()
        for q in history.test:
            assert q.query not in body, q.id
            assert not re.search(rf"\b{re.escape(q.id)}\b", body), q.id
        for q in history.train:
            assert q.query in body
        # Every accuracy figure the proposer read is a training accuracy.
        shown = re.findall(r"attempt (\d+): training accuracy (\d+)/(\d+)", body)
        assert shown
        for k, hits, n in shown:
            acc = history.attempt(int(k)).train.accuracy
            assert (int(hits), int(n)) == (acc.k, acc.n)
        assert "test accuracy" not in body.lower() and "held-out" not in body.lower()
    # The second request saw the first proposal's training results, not its test results.
    second = scripted.proposer_requests[1].all_text()
    assert "attempt 1: training accuracy" in second and NO_WORDS in second


async def test_the_loop_finds_the_description_with_the_words(env, tmp_path):
    _s, history, store, _plan = await run_loop(tmp_path, env, [NO_WORDS, WITH_WORDS])
    accs = [(a.iteration, a.train.accuracy.value, a.test.accuracy.value)
            for a in history.attempts]
    assert accs == [(0, 0.5, 0.5), (1, 0.5, 0.5), (2, 1.0, 1.0)]
    assert history.comparison.best_iteration == 2
    assert history.comparison.diff == pytest.approx(0.5)
    # 4 test queries: below the 5 a verdict needs, so within noise, with the planner's count.
    assert history.comparison.within_noise and history.comparison.queries_needed >= 5
    assert "within noise" in history.comparison.warning
    flipped = {f.id for f in history.flips}
    assert flipped == {q for q, (_t, trig, _w) in QUERIES.items() if trig}
    assert all(f.now_correct for f in history.flips)
    # Every trial is an ordinary stored trial of a labelled run, triggered as scripted.
    for a in history.attempts:
        for split, run_id in (("train", a.train_run), ("test", a.test_run)):
            run = store.run(run_id)
            assert parse_run_label(run.label) == (history.loop_id, a.iteration, split)
            for t in store.trials(run_id):
                assert t.status == "ok" and t.turns >= 1
                assert bool(t.activated) == triggers(a.description, t.case_id)


async def test_a_candidate_the_linter_rejects_is_sent_back_once_then_skipped(env, tmp_path):
    bad = "Summarises <csv> files"
    scripted, history, _store, _plan = await run_loop(tmp_path, env, [bad, bad, WITH_WORDS],
                                                      iterations=2)
    first, second = history.attempt(1), history.attempt(2)
    assert first.status == "lint_rejected" and first.train is None
    assert any(f.startswith("SF117") for f in first.lint_findings)
    # Sent back once with the findings, then skipped: 2 requests for iteration 1.
    assert "rejected by the skill linter" in scripted.proposer_requests[1].all_text()
    assert second.status == "tried" and second.test.accuracy.value == 1.0
    assert len(scripted.proposer_requests) == 3


async def test_dry_run_estimate_counts_every_trial(env, tmp_path):
    scripted = ScriptedTriggers()
    env.handler = scripted
    skill = trigger_skills(tmp_path)
    plan = prepare_loop(skill, load_settings(skill), RunStore(tmp_path / "state"),
                        LoopOptions(iterations=5, runs=3, decoys=2,
                                    trial={"sandbox": "local"}))
    est = plan.estimate
    assert est.trials == 6 * 8 * 3
    assert est.agent_tokens_in > est.trials * 200 and est.proposer_tokens_in > 0
    assert scripted.agent_turns == 0 and not scripted.proposer_requests
    await plan.agent.aclose()
