"""Skill Mode runs in Docker, driven by the scripted skill-mode agent (tests/trials/scripted_skill_mode.py).

Run A: csv-insights' three cases with `skill_mode,baseline`, one attempt. The skill_mode
trials run in case order with one cache: the first case saves `csv_column_stats` (after a
syntax rejection), the next two execute it (one mistyped path fails with a traceback).
Run B: a cross-task run that inherits run A's cache in static reuse, on two cases in
another order; its save_skill is refused and the inherited skill runs.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import uuid

import pytest

from sessions.atif import load_trajectory
from sessions.atif_rules import validate_trajectory
from sessions.store import RunStore
from skillforge.models.trial import Limits, RunSpec
from skillforge.providers.base import ClientOptions
from skillforge.trials.run import TrialRunner
from tests.conftest import SAMPLE_SKILLS
from tests.docker_fixtures import managed_containers
from tests.llm_server import LLMServer
from tests.trials.conftest import CSV_CASES
from tests.trials.scripted_skill_mode import (
    BROKEN_LINE,
    SKILL,
    SKILL_CODE,
    ScriptedSkillModeAgent,
)

pytestmark = [pytest.mark.docker, pytest.mark.timeout(400)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory, trial_image):
    """Run A then run B once for the module (own server and store)."""
    root = tmp_path_factory.mktemp("skill-mode")
    skill = root / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    server = LLMServer().start()
    agent = ScriptedSkillModeAgent()
    server.handler = agent
    store = RunStore(root / "state")
    ids = {k: f"test-{uuid.uuid4().hex[:12]}" for k in ("a", "b")}
    base = {"skill_path": str(skill), "image": trial_image, "attempts": 1, "concurrency": 3,
            "limits": Limits(timeout_sec=120, memory_mb=512)}

    async def go():
        from skillforge.providers.openai_provider import OpenAIClient  # the SDK loads late

        client = OpenAIClient(ClientOptions(model="scripted-agent", api_key="test-key",
                                            base_url=server.openai_base_url, max_retries=0))
        try:
            a = TrialRunner(RunSpec(**base, case_ids=CSV_CASES,
                                    conditions=["skill_mode", "baseline"]),
                            client=client, store=store, run_id=ids["a"])
            sa = await a.run()
            b = TrialRunner(RunSpec(**base, case_ids=["order-stats", "monthly-revenue"],
                                    conditions=["skill_mode"], skill_cache_from=ids["a"],
                                    skill_cache_mode="static"),
                            client=client, store=store, run_id=ids["b"])
            return sa, await b.run()
        finally:
            await client.aclose()

    try:
        sa, sb = asyncio.run(go())
        yield {"store": store, "a": sa, "b": sb, "agent": agent, "ids": ids}
    finally:
        server.stop()
        store.close()
        for rid in ids.values():
            assert managed_containers(rid) == []


def test_every_trial_finishes_and_each_skill_mode_trial_has_its_row(runs):
    store, rid = runs["store"], runs["ids"]["a"]
    trials = store.trials(rid)
    assert sorted((t.case_id, t.condition, t.status) for t in trials) == sorted(
        (c, cond, "ok") for c in CSV_CASES for cond in ("skill_mode", "baseline"))
    rows = store.skill_mode_trials(rid)
    assert [(r.case_id, r.seq, r.attempt, r.mode) for r in rows] == [
        ("monthly-revenue", 0, 1, "grow"), ("missing-values", 1, 1, "grow"),
        ("order-stats", 2, 1, "grow")]
    # Graded like any trial: the skill's results solved the two later cases.
    graded = {t.case_id: t.grader for t in trials if t.condition == "skill_mode"}
    assert graded == {"monthly-revenue": 1.0, "missing-values": 1.0, "order-stats": 1.0}


def test_the_cache_carries_from_case_to_case_in_order(runs):
    rows = runs["store"].skill_mode_trials(runs["ids"]["a"])
    assert rows[0].cache_before.skills == {}
    for before, after in zip(rows, rows[1:], strict=False):
        assert after.cache_before == before.cache_after
    # The chain ran in order: each skill_mode conversation started after the previous one.
    assert [c for c, _s in runs["agent"].started][:len(CSV_CASES)] == CSV_CASES
    final = runs["store"].final_skill_cache(runs["ids"]["a"])
    assert final == rows[-1].cache_after and list(final.skills) == [SKILL]
    skill = final.skills[SKILL]
    assert skill.script_code == SKILL_CODE
    assert (skill.created_by.case_id, skill.created_by.attempt) == ("monthly-revenue", 1)
    assert skill.execution_stats.model_dump() == {"runs": 4, "failures": 1}


def test_the_verifier_rejection_and_the_executions_are_recorded(runs):
    rows = runs["store"].skill_mode_trials(runs["ids"]["a"])
    first = [(e.tool, e.ok, e.failure) for e in rows[0].events]
    assert first == [("list_skills", True, None), ("save_skill", False, "syntax"),
                     ("save_skill", True, None), ("execute_skill", True, None)]
    assert f"at line {BROKEN_LINE}" in rows[0].events[1].detail
    second = rows[1].events
    assert [(e.failure, e.args) for e in second] == [
        ("exception", {"path": "customer.csv"}), (None, {"path": "customers.csv"})]
    assert "FileNotFoundError" in second[0].detail and "Traceback" in second[0].detail
    assert [(e.tool, e.ok) for e in rows[2].events] == [("execute_skill", True)]


def test_skill_tools_appear_in_the_atif_trajectory(runs):
    store, rid = runs["store"], runs["ids"]["a"]
    rec = store.trajectory(f"{rid}/missing-values/skill_mode/1")
    traj = load_trajectory(rec.path)
    assert validate_trajectory(json.loads(rec.path.read_text())) == []
    calls = [c.function_name for s in traj.steps for c in (s.tool_calls or [])]
    assert calls == ["execute_skill", "execute_skill", "write_file"]
    extras = [r.extra.get("skill_mode") for s in traj.steps if s.observation
              for r in s.observation.results]
    assert extras[0]["failure"] == "exception" and extras[1]["ok"] is True
    assert extras[2] is None  # write_file is an ordinary tool
    # Staged like the baseline: no trace of the skill under test in the prompt.
    assert "csv-insights" not in traj.steps[0].message.lower()


def test_a_cross_task_run_inherits_the_cache_in_static_reuse(runs):
    store, ids = runs["store"], runs["ids"]
    inherited = store.final_skill_cache(ids["a"])
    rows = store.skill_mode_trials(ids["b"])
    assert [(r.case_id, r.seq, r.mode, r.inherited_from) for r in rows] == [
        ("order-stats", 0, "static", ids["a"]), ("monthly-revenue", 1, "static", ids["a"])]
    assert rows[0].cache_before == inherited
    assert [(e.tool, e.failure) for e in rows[0].events] == [("save_skill", "static"),
                                                             ("execute_skill", None)]
    final = store.final_skill_cache(ids["b"])
    assert list(final.skills) == [SKILL]  # nothing new saved
    assert final.skills[SKILL].execution_stats.runs == inherited.skills[SKILL].execution_stats.runs + 2
    # The prompt listed the inherited skill, and offered no save_skill.
    b_prompts = [s for c, s in runs["agent"].started[len(CSV_CASES):]]
    assert all(f"inherited from run {ids['a']}" in p and f"- {SKILL}:" in p for p in b_prompts)
    assert {t.status for t in store.trials(ids["b"])} == {"ok"}


def test_the_trial_command_summarises_each_chain(runs):
    from rich.console import Console

    from skillforge.trials.skill_summary import skill_mode_summary, skill_mode_table

    summary = skill_mode_summary(runs["store"].skill_mode_trials(runs["ids"]["a"]))
    assert summary == [{
        "attempt": 1, "mode": "grow", "inherited_from": None, "cases": CSV_CASES,
        "calls": {"list_skills": 1, "save_skill": 2, "execute_skill": 4},
        "failures": {"syntax": 1, "exception": 1},
        "skills": [{"name": SKILL, "created_by": "monthly-revenue", "runs": 4, "failures": 1}],
    }]
    console = Console(width=100, record=True)
    console.print(skill_mode_table(summary))
    shown = console.export_text()
    assert "Skill Mode, attempt 1 (grow): monthly-revenue -> missing-values -> order-stats" \
        in shown
    assert "failures: exception 1, syntax 1" in shown and SKILL in shown
