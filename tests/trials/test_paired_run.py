"""A real paired run of sample_skills/csv-insights in Docker, driven by the scripted agent.

3 cases x 2 conditions x 2 attempts. With the skill the agent reads SKILL.md and runs
scripts/summarize.py; in the baseline it sees no skill and writes its own code (which gets
the missing-values case wrong: it counts only blank cells).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import uuid
from pathlib import Path

import pytest

from sessions.atif import load_trajectory
from sessions.atif_rules import validate_trajectory
from sessions.store import RunStore
from skillforge.lift.compute import lift_for_run
from skillforge.models.trial import Limits, RunSpec
from skillforge.providers.base import ClientOptions
from skillforge.trials.run import TrialRunner
from tests.conftest import SAMPLE_SKILLS
from tests.docker_fixtures import managed_containers
from tests.llm_server import LLMServer
from tests.trials.conftest import CSV_CASES
from tests.trials.scripted_agent import ScriptedAgent

pytestmark = [pytest.mark.docker, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def paired(tmp_path_factory, trial_image):
    """Run the 12 trials once for the whole module (its own server, store and loop)."""
    root = tmp_path_factory.mktemp("paired")
    skill = root / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    server = LLMServer().start()
    scripted = ScriptedAgent()
    server.handler = scripted
    rid = f"test-{uuid.uuid4().hex[:12]}"
    events: list = []
    store = RunStore(root / "state")

    async def go():
        from skillforge.providers.openai_provider import OpenAIClient  # the SDK loads late

        client = OpenAIClient(ClientOptions(model="scripted-agent", api_key="test-key",
                                            base_url=server.openai_base_url, max_retries=0))
        try:
            spec = RunSpec(skill_path=str(skill), case_ids=CSV_CASES, attempts=2,
                           image=trial_image, concurrency=4,
                           limits=Limits(timeout_sec=120, memory_mb=512))
            runner = TrialRunner(spec, client=client, store=store, on_event=events.append,
                                 run_id=rid)
            return runner, await runner.run()
        finally:
            await client.aclose()

    try:
        runner, summary = asyncio.run(go())
    finally:
        server.stop()
    assert managed_containers(rid) == []
    yield runner, events, summary, store, scripted
    store.close()


def test_every_trial_finishes_ok_and_is_stored(paired):
    runner, _events, summary, store, _ = paired
    assert summary.status == "finished"
    trials = store.trials(runner.run_id)
    assert len(trials) == 12
    assert {t.status for t in trials} == {"ok"}, [(t.key, t.error) for t in trials]
    assert len(store.finished_keys(runner.run_id)) == 12
    assert store.run(runner.run_id).status == "finished"
    for t in trials:
        assert t.turns >= 2 and t.tool_calls >= 1
        assert t.tokens_in > 0 and t.tokens_out > 0
        assert 0 < t.wall_s < 60
        assert t.started_at < t.finished_at
        assert t.case_kind in ("explicit", "implicit")


def test_grader_rewards_follow_what_the_agent_did(paired):
    runner, _e, _s, store, _ = paired
    rewards = {t.key: t.grader for t in store.trials(runner.run_id)}
    for case in CSV_CASES:
        for attempt in (1, 2):
            assert rewards[(case, "with_skill", attempt)] == 1.0
    assert rewards[("monthly-revenue", "baseline", 1)] == 1.0
    assert rewards[("order-stats", "baseline", 2)] == 1.0
    # Blank cells only: email (1 of 3), nothing else right -> 1/5.
    assert rewards[("missing-values", "baseline", 1)] == pytest.approx(0.2)
    grader_rows = [m for m in store.metrics(runner.run_id) if m.metric == "grader"]
    assert len(grader_rows) == 12
    row = next(m for m in grader_rows if m.case_id == "missing-values"
               and m.condition == "baseline")
    assert "MISS country" in row.evidence["output"]


def test_activation_and_script_facts(paired):
    runner, _e, _s, store, _ = paired
    for t in store.trials(runner.run_id):
        if t.condition == "with_skill":
            assert t.activated is True, t.key
            assert t.script_runs == 1 and t.script_runs_ok == 1, t.key
        else:
            assert t.activated is False, t.key
            assert t.script_runs == 0, t.key


def test_deterministic_metrics_are_stored_with_evidence(paired):
    runner, _e, _s, store, _ = paired
    trials = store.trials(runner.run_id)
    for t in trials:
        assert set(t.metrics) >= {"security", "skill_execution", "skill_efficiency", "grader"}
        assert t.metrics["security"] == 1.0, (t.key, t.metrics)
        if t.condition == "with_skill":
            assert t.metrics["skill_execution"] == 1.0, t.key
        else:
            # Positive cases: the target cannot be activated or its script run.
            assert t.metrics["skill_execution"] == 0.0, t.key
        assert 0.0 < t.metrics["skill_efficiency"] <= 1.0
    rows = store.metrics(runner.run_id, ("order-stats", "with_skill", 1))
    assert {r.metric for r in rows} >= {"security", "skill_execution", "skill_efficiency"}
    assert all(r.evidence is not None for r in rows)
    lift = lift_for_run(store.run(runner.run_id), trials)
    # how the skill was used is use, not lift: 1 with it, 0 without, every case
    assert "skill_execution" not in lift.metrics
    assert lift.extra.use.metrics["skill_execution"] == {"with": 1.0, "base": 0.0}
    assert (lift.extra.use.used, lift.extra.use.cases) == (3, 3)
    assert lift.metrics["grader"].lift == pytest.approx(0.8 / 3, abs=1e-6)
    assert lift.pass_.with_ == 1.0 and lift.pass_.base == pytest.approx(2 / 3)


def test_trajectories_validate_and_carry_the_trial(paired):
    runner, _e, _s, store, _ = paired
    for t in store.trials(runner.run_id):
        path = Path(t.trajectory_path)
        data = json.loads(path.read_text())
        assert validate_trajectory(data) == [], path
        traj = load_trajectory(path)
        assert traj.extra["case_id"] == t.case_id and traj.extra["condition"] == t.condition
        assert traj.extra["attempt"] == t.attempt and traj.extra["run_id"] == runner.run_id
        assert traj.extra["stop_reason"] == "final_answer"
        assert [s.source for s in traj.steps[:2]] == ["system", "user"]
        assert "sales.csv" in traj.steps[1].text or "customers.csv" in traj.steps[1].text
        agent_steps = [s for s in traj.steps[2:]]
        assert all(s.source == "agent" and s.model_name == "scripted-agent"
                   for s in agent_steps)
        assert len(agent_steps) == t.turns
        for step in agent_steps:
            assert step.metrics.prompt_tokens > 0 and step.metrics.completion_tokens > 0
            ids = [c.tool_call_id for c in step.tool_calls or []]
            got = [r.source_call_id for r in (step.observation.results
                                              if step.observation else [])]
            assert ids == got
        assert traj.final_metrics.total_prompt_tokens == t.tokens_in
        assert traj.final_metrics.total_steps == len(traj.steps)
        assert agent_steps[-1].tool_calls is None  # ended on a final answer


def test_the_with_skill_agent_reads_the_skill_and_runs_its_script(paired):
    runner, _e, _s, store, _ = paired
    t = next(t for t in store.trials(runner.run_id)
             if t.key == ("monthly-revenue", "with_skill", 1))
    traj = load_trajectory(t.trajectory_path)
    read, run = traj.steps[2], traj.steps[3]
    assert read.tool_calls[0].function_name == "read_file"
    assert "# CSV Insights" in read.observation.results[0].content
    assert "scripts/summarize.py" in run.tool_calls[0].arguments["command"]
    result = run.observation.results[0]
    assert result.extra["exit_code"] == 0 and result.extra["is_error"] is False


def test_each_conversation_ran_once_per_attempt(paired):
    scripted = paired[4]
    assert dict(scripted.conversations) == {
        (case, cond): 2 for case in CSV_CASES for cond in ("with_skill", "baseline")}


def test_events_describe_the_run_in_order(paired):
    events = paired[1]
    kinds = [e.kind for e in events]
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"
    assert kinds.count("queued") == 12 and kinds.count("started") == 12
    assert kinds.count("finished") == 12 and "failed" not in kinds
    first_step = next(e for e in events if e.kind == "step"
                      and e.key[1] == "with_skill" and e.key[0] == "monthly-revenue")
    assert first_step.summary == "read_file: /skills/csv-insights/SKILL.md"
    assert events[-1].counts == {"ok": 12, "skipped": 0}
