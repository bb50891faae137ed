"""Skill Mode's settings and refusals: flags, staging, harnesses, Harbor export, cache sources, resume.

The resume test runs the scripted skill-mode agent in a `local` sandbox (fast, no Docker).
"""

from __future__ import annotations

import tarfile
import io
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from skillforge.cli.export import export
from skillforge.cli.trial import trial
from skillforge.models.config import Settings
from skillforge.models.evals import load_evals
from skillforge.models.skill_mode import SkillCache
from skillforge.models.trial import Limits, RunRecord, RunSpec
from skillforge.trials.config import TrialConfigError, build_run_spec, check_harness
from skillforge.trials.run import RunError, TrialRunner
from skillforge.trials.staging import load_skill_set, stage_trial
from tests.llm_server import error
from tests.trials.scripted_skill_mode import SKILL, ScriptedSkillModeAgent

pytestmark = pytest.mark.timeout(120)


def test_flags_reach_the_run_spec(csv_skill):
    spec = build_run_spec(csv_skill, Settings(), {
        "conditions": ["skill_mode", "baseline"], "skill_cache_from": "run-a",
        "skill_cache_mode": "static"})
    assert spec.conditions == ["skill_mode", "baseline"]
    assert (spec.skill_cache_from, spec.skill_cache_mode) == ("run-a", "static")
    assert build_run_spec(csv_skill, Settings(), {}).skill_cache_mode == "grow"


def test_the_cli_offers_the_condition_and_its_flags():
    out = CliRunner().invoke(trial, ["--help"], terminal_width=200).output
    assert "skill_mode" in out and "--skill-cache-from RUN_ID" in out
    assert "--static-reuse" in out and "Only meaningful with --skill-cache-from" in out
    bad = CliRunner().invoke(trial, ["--resume", "r1", "--static-reuse"])
    assert bad.exit_code == 2 and "its own skill cache settings" in bad.output


def test_skill_mode_stages_like_the_baseline_without_the_target(csv_skill):
    spec = RunSpec(skill_path=str(csv_skill), workspace="group")
    evals, _ = load_evals(csv_skill / "evals" / "evals.json")
    stage = stage_trial(evals.case("monthly-revenue"), "skill_mode", spec, load_skill_set(spec))
    base = stage_trial(evals.case("monthly-revenue"), "baseline", spec, load_skill_set(spec))
    assert stage.skills == base.skills == [] and stage.paths == base.paths
    with tarfile.open(fileobj=io.BytesIO(stage.archive)) as tar:
        names = tar.getnames()
    assert not any("csv-insights" in n or n.startswith("skills/") and n != "skills"
                   for n in names)
    assert stage.instruction is None


def test_external_harnesses_refuse_skill_mode(csv_skill):
    spec = RunSpec(skill_path=str(csv_skill), agent="claude-code", network=True,
                   conditions=["skill_mode", "baseline"])
    with pytest.raises(TrialConfigError, match="skill_mode condition runs only with "
                                               "skillforge's built-in agent"):
        check_harness(spec, environ={"ANTHROPIC_API_KEY": "sk-ant-test"})
    check_harness(spec.model_copy(update={"conditions": ["baseline"]}),
                  environ={"ANTHROPIC_API_KEY": "sk-ant-test"})


def test_the_harbor_export_refuses_skill_mode(csv_skill, tmp_path):
    out = tmp_path / "ds"
    result = CliRunner().invoke(export, ["harbor", str(csv_skill), "-o", str(out),
                                         "--conditions", "skill_mode,baseline"])
    assert result.exit_code == 2
    assert "Skill Mode runs only with skillforge's built-in agent" in result.output
    assert "Harbor's agents have no skill tools" in result.output
    assert not out.exists()


async def test_a_cache_source_must_exist_and_have_skill_mode_rows(csv_skill, store,
                                                                   agent_client):
    spec = RunSpec(skill_path=str(csv_skill), sandbox="local", conditions=["skill_mode"],
                   skill_cache_from="ghost")
    with pytest.raises(RunError, match="no run 'ghost' in .*`skillforge report` lists"):
        await TrialRunner(spec, client=agent_client, store=store).run()
    store.create_run(RunRecord(run_id="plain", created_at=datetime.now(UTC),
                               spec=RunSpec(skill_path=str(csv_skill))))
    with pytest.raises(RunError, match="run 'plain' has no Skill Mode trials \\(it ran "
                                       "with_skill, baseline\\); run a skill first with "
                                       "--conditions skill_mode"):
        await TrialRunner(spec.model_copy(update={"skill_cache_from": "plain"}),
                          client=agent_client, store=store).run()
    assert [r.run_id for r in store.runs()] == ["plain"]  # nothing was started


async def test_a_resumed_run_continues_the_chain_from_the_stored_cache(
        csv_skill, store, agent_client, llm_server):
    agent = ScriptedSkillModeAgent()
    broken = dict(agent.grow)
    broken["order-stats"] = [lambda _r: error(400, "scripted failure")]
    agent.grow = broken
    llm_server.handler = agent
    spec = RunSpec(skill_path=str(csv_skill), sandbox="local", attempts=1,
                   case_ids=["monthly-revenue", "order-stats"], conditions=["skill_mode"],
                   limits=Limits(timeout_sec=60))
    first = await TrialRunner(spec, client=agent_client, store=store, run_id="r-resume",
                              warn=lambda _m: None).run()
    assert {(r.case_id, r.status) for r in first.records} == {("monthly-revenue", "ok"),
                                                              ("order-stats", "error")}
    saved = store.skill_mode_trials("r-resume")[0].cache_after
    assert list(saved.skills) == [SKILL] and saved.skills[SKILL].execution_stats.runs == 1
    agent.grow = ScriptedSkillModeAgent().grow
    second = await TrialRunner(spec, client=agent_client, store=store, resume="r-resume",
                               warn=lambda _m: None).run()
    assert [(r.case_id, r.status) for r in second.records] == [("order-stats", "ok")]
    rows = store.skill_mode_trials("r-resume")
    assert [(r.case_id, r.seq) for r in rows] == [("monthly-revenue", 0), ("order-stats", 1)]
    assert rows[1].cache_before == saved
    assert rows[1].cache_after.skills[SKILL].execution_stats.runs == 2
    assert store.final_skill_cache("r-resume") == rows[1].cache_after != SkillCache()
