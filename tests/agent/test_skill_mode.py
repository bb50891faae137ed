"""Skill Mode in the built-in agent: the four tools, the runner executed for real, the prompt.

The runner runs in a `local` sandbox here (a temp folder, python3 from the machine); the
same code in the Debian trial image is covered by tests/trials/test_skill_mode_run.py.
"""

from __future__ import annotations

import json

import pytest

from sessions.atif import dumps_trajectory
from sessions.atif_rules import validate_trajectory
from skillforge.agent.loop import AgentRun, system_prompt
from skillforge.agent.skill_mode import SKILL_CACHE_PATH, SkillSession, stage_info
from skillforge.models.evals import load_evals
from skillforge.models.llm import ToolCall
from skillforge.models.skill_mode import CachedSkill, SkillCache, SkillOrigin
from skillforge.models.trial import RunSpec
from skillforge.sandbox import SandboxSpec, open_sandbox
from skillforge.trials.staging import load_skill_set, stage_trial
from tests.llm_server import text, tool_call
from tests.trials.scripted_skill_mode import (
    BROKEN_CODE,
    BROKEN_LINE,
    DESCRIPTION,
    PARAMS,
    SKILL,
    SKILL_CODE,
)

pytestmark = pytest.mark.timeout(60)
ORIGIN = SkillOrigin(run_id="r1", case_id="monthly-revenue", attempt=1)


def _call(tool: str, **args) -> ToolCall:
    return ToolCall(id=f"call-{tool}", name=tool, arguments=args)


def _save(code: str = SKILL_CODE, name: str = SKILL) -> ToolCall:
    return _call("save_skill", name=name, script_code=code, parameters=PARAMS,
                 description=DESCRIPTION)


def _stage(skill, case_id="monthly-revenue"):
    spec = RunSpec(skill_path=str(skill))
    evals, _ = load_evals(skill / "evals" / "evals.json")
    return stage_trial(evals.case(case_id), "skill_mode", spec, load_skill_set(spec))


@pytest.fixture
async def sandbox(csv_skill):
    async with open_sandbox("local", SandboxSpec(timeout_sec=60), _stage(csv_skill).archive,
                            warn=lambda _m: None) as sb:
        yield sb


async def test_save_rejects_a_syntax_error_then_caches_and_runs_the_fixed_script(sandbox):
    session = SkillSession(SkillCache(), origin=ORIGIN)
    await session.upload(sandbox)
    bad = await session.run(sandbox, _save(BROKEN_CODE), 30)
    assert bad.is_error and f"line {BROKEN_LINE}" in bad.content
    assert "Fix it and call save_skill again" in bad.content
    assert bad.extra["skill_mode"]["failure"] == "syntax"
    assert SKILL not in session.cache.skills
    ok = await session.run(sandbox, _save(), 30)
    assert not ok.is_error and session.cache.skills[SKILL].created_by == ORIGIN
    ran = await session.run(sandbox, _call("execute_skill", name=SKILL,
                                           args={"path": "sales.csv"}), 30)
    assert not ran.is_error, ran.content
    result = json.loads(ran.content.split("result: ", 1)[1])
    # read_file and bash both reached through call_tool, inside the sandbox.
    assert result["rows"] == 48 and result["lines"] == 49
    assert result["columns"]["revenue"]["sum"] == 7657.92
    assert session.cache.skills[SKILL].execution_stats.model_dump() == {"runs": 1,
                                                                        "failures": 0}
    # The sandbox's skill_cache.json is the session's, stats included.
    on_disk = SkillCache.model_validate_json(await sandbox.get_file(SKILL_CACHE_PATH))
    assert on_disk == session.cache and await session.read_back(sandbox) is None
    assert [e.failure for e in session.events] == ["syntax", None, None]


async def test_execution_failures_are_structured_and_counted(sandbox):
    session = SkillSession(SkillCache(), origin=ORIGIN)
    await session.upload(sandbox)
    scripts = {
        "boom": "def f(x):\n    return 1 / x\nresult = {'v': f(args['x'])}\n",
        "quiet": "value = 3\n",
        "hollow": "result = {'region': 'Unknown', 'revenue': 0, 'orders': None}\n",
        "tools": ("call_tool('write_file', path='out/x.txt', content='hi')\n"
                  "result = {'back': call_tool('read_file', path='out/x.txt'),\n"
                  "          'sh': call_tool('bash', command='cat out/x.txt; exit 3')}\n"),
    }
    for name, code in scripts.items():
        assert not (await session.run(sandbox, _save(code, name), 30)).is_error
    boom = await session.run(sandbox, _call("execute_skill", name="boom", args={"x": 0}), 30)
    assert boom.is_error and boom.extra["skill_mode"]["failure"] == "exception"
    assert "ZeroDivisionError: division by zero" in boom.content
    assert 'File "<skill boom>", line 2, in f' in boom.content  # the skill's own frame
    assert "return 1 / x" in boom.content
    assert 'Arguments given: {"x": 0}' in boom.content
    assert boom.extra["skill_mode"]["args"] == {"x": 0}
    quiet = await session.run(sandbox, _call("execute_skill", name="quiet"), 30)
    assert quiet.extra["skill_mode"]["failure"] == "no_result"
    assert "without setting `result`" in quiet.content
    hollow = await session.run(sandbox, _call("execute_skill", name="hollow"), 30)
    assert hollow.extra["skill_mode"]["failure"] == "quality"
    assert "region, revenue, orders" in hollow.content
    tools = await session.run(sandbox, _call("execute_skill", name="tools"), 30)
    assert not tools.is_error, tools.content
    result = json.loads(tools.content.split("result: ", 1)[1])
    assert result["back"] == "hi" and result["sh"]["exit_code"] == 3
    assert result["sh"]["stdout"] == "hi"
    unknown = await session.run(sandbox, _call("execute_skill", name="nope"), 30)
    assert unknown.extra["skill_mode"]["failure"] == "unknown_skill"
    assert "cached: boom, quiet, hollow, tools" in unknown.content
    stats = {n: s.execution_stats.model_dump() for n, s in session.cache.skills.items()}
    assert stats == {"boom": {"runs": 1, "failures": 1}, "quiet": {"runs": 1, "failures": 1},
                     "hollow": {"runs": 1, "failures": 1}, "tools": {"runs": 1, "failures": 0}}


async def test_a_script_past_its_time_limit_is_killed(sandbox):
    session = SkillSession(SkillCache())
    await session.upload(sandbox)
    await session.run(sandbox, _save("import time\ntime.sleep(30)\nresult = 1\n", "slow"), 30)
    out = await session.run(sandbox, _call("execute_skill", name="slow", timeout=1), 30)
    assert out.extra["skill_mode"]["failure"] == "timeout" and "longer than 1 s" in out.content
    assert session.cache.skills["slow"].execution_stats.failures == 1


async def test_static_reuse_offers_no_save_and_refuses_one(sandbox):
    cache = SkillCache(skills={SKILL: CachedSkill(name=SKILL, script_code=SKILL_CODE,
                                                  description=DESCRIPTION, parameters=PARAMS)})
    session = SkillSession(cache, mode="static")
    assert [t.name for t in session.tools] == ["execute_skill", "list_skills", "get_skill"]
    await session.upload(sandbox)
    out = await session.run(sandbox, _save("result = 1\n", "other"), 30)
    assert out.is_error and out.extra["skill_mode"]["failure"] == "static"
    assert set(session.cache.skills) == {SKILL}
    listed = await session.run(sandbox, _call("list_skills"), 30)
    assert listed.content.startswith(f"- {SKILL}: Profile a CSV file")
    got = json.loads((await session.run(sandbox, _call("get_skill", name=SKILL), 30)).content)
    assert got["script_code"] == SKILL_CODE


async def test_a_cache_edited_by_hand_is_noticed(sandbox):
    session = SkillSession(SkillCache())
    await session.upload(sandbox)
    forged = '{"skills": {"x": {"name": "x", "script_code": "result = 1"}}}'
    await sandbox.exec(["sh", "-c", f"echo '{forged}' > {SKILL_CACHE_PATH}"])
    assert "changed outside the skill tools" in (await session.read_back(sandbox) or "")


def test_the_prompt_says_when_and_how_and_lists_cached_skills(csv_skill):
    stage = _stage(csv_skill)
    assert "Skill Mode" not in system_prompt(stage)
    stage.skill_mode = stage_info(SkillCache(), "grow", None)
    grow = system_prompt(stage)
    assert "recurring structure" in grow and "call_tool(name, **kwargs)" in grow
    assert "`result`" in grow and "Your skill cache is empty." in grow
    assert "csv-insights" not in grow.lower()  # staged like baseline: no target anywhere
    cache = SkillCache(skills={SKILL: CachedSkill(name=SKILL, script_code=SKILL_CODE,
                                                  description=DESCRIPTION, parameters=PARAMS)})
    stage.skill_mode = stage_info(cache, "static", "run-a")
    static = system_prompt(stage)
    assert "no new skills can be saved" in static
    assert f"Skills in your cache (inherited from run run-a):\n- {SKILL}: {DESCRIPTION}" in static
    assert '"path": "the CSV file' in static


async def test_the_loop_offers_the_tools_and_records_skill_events(llm_server, agent_client,
                                                                 csv_skill):
    stage = _stage(csv_skill)
    stage.skill_mode = stage_info(SkillCache(), "grow", None)
    llm_server.script(
        tool_call("save_skill", {"name": SKILL, "script_code": SKILL_CODE,
                                 "parameters": PARAMS, "description": DESCRIPTION}),
        tool_call("execute_skill", {"name": SKILL, "args": {"path": "sales.csv"}}),
        text("Revenue total 7657.92."))
    session = SkillSession(SkillCache(), origin=ORIGIN)
    async with open_sandbox("local", SandboxSpec(timeout_sec=60), stage.archive,
                            warn=lambda _m: None) as sb:
        run = AgentRun(agent_client, sb, stage, "Summarise sales.csv.", skills=session,
                       meta={"run_id": "r1", "case_id": "c", "condition": "skill_mode",
                             "attempt": 1})
        result = await run.run()
    assert result.stop == "final_answer"
    offered = [t["function"]["name"] for t in llm_server.requests[0].body["tools"]]
    assert offered == ["bash", "read_file", "write_file", "save_skill", "execute_skill",
                       "list_skills", "get_skill"]
    traj = result.trajectory
    extras = [r.extra["skill_mode"] for s in traj.steps if s.observation
              for r in s.observation.results]
    assert [(e["tool"], e["ok"]) for e in extras] == [("save_skill", True),
                                                      ("execute_skill", True)]
    assert extras[1]["args"] == {"path": "sales.csv"}
    assert [t["name"] for t in traj.agent.tool_definitions][-4:] == [
        "save_skill", "execute_skill", "list_skills", "get_skill"]
    assert validate_trajectory(json.loads(dumps_trajectory(traj))) == []
    assert session.cache.skills[SKILL].execution_stats.runs == 1


async def test_an_image_without_python3_gets_a_clear_error(sandbox):
    session = SkillSession(SkillCache())
    await session.upload(sandbox)
    await session.run(sandbox, _save("result = {'a': 1, 'b': 2}\n", "tiny"), 30)
    real_exec = sandbox.exec

    async def no_python(cmd, **kw):
        if isinstance(cmd, list) and "command -v python3" in cmd[2]:
            # The launcher's own check, as in an image without python3 on PATH.
            cmd = ["sh", "-c", cmd[2].replace("command -v python3", "command -v no-python3")]
        return await real_exec(cmd, **kw)

    sandbox.exec = no_python
    out = await session.run(sandbox, _call("execute_skill", name="tiny"), 30)
    assert out.is_error and "needs python3 in the trial image" in out.content
    assert "python:3.12-slim" in out.content
    assert session.cache.skills["tiny"].execution_stats.runs == 0  # the skill never ran
