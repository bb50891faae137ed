"""`--agent claude-code` and `--agent codex` trials in real containers, with stand-in CLIs.

The stand-ins replay real transcripts from the shared corpus as the CLIs' JSON streams and
record how they were started. Each test runs one paired case (with_skill + baseline) through
`run_trial` inside a harness session (its model proxy), the same path `skillforge trial`
takes, and checks: the command line and its environment (a per-trial token and the proxy's
address, never the key), the skills in the harness's own folder (only in with_skill), the
ATIF trajectory (valid, the transcript's tool calls), the stored metrics, and that the key
is in no file of the container, not in the container's configuration, not in the trajectory
and not in the run store. The real Claude Code binary: tests/harnesses/test_real_claude.py.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sessions.atif import load_trajectory
from sessions.atif_rules import validate_trajectory
from sessions.importers import import_trajectory
from sessions.store import RunStore
from skillforge.harnesses import ClaudeCodeHarness, CodexHarness
from skillforge.models.trial import Limits, RunRecord, RunSpec
from skillforge.trials.staging import load_skill_set
from skillforge.trajectory.facts import activated_skills, commands, tool_calls
from skillforge.harnesses.claude_code import DEFAULT_TOOLS
from skillforge.trials.harness_session import harness_session
from skillforge.trials.runner import TrialContext, TrialPlan, run_trial
from skillforge.trials.run import load_cases
from tests.harnesses.conftest import CLAUDE_TRACES, CODEX_TRACES, NoModel, standin_files

pytestmark = [pytest.mark.docker, pytest.mark.timeout(300)]

CLAUDE_SMALL = CLAUDE_TRACES / "codemie-ai__codemie-code__4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl"
CLAUDE_SKILL = CLAUDE_TRACES / "codemie-ai__codemie-code__session-3fe1b6bc.jsonl"
CODEX_SKILLS = CODEX_TRACES / ("codemie-ai__codemie-code__rollout-2026-05-11T13-28-45-"
                               "019e1695-0522-7c83-8b39-0dd379793f80.jsonl")
CODEX_SPAWN = CODEX_TRACES / "codemie-ai__codemie-code__turn-spawn-skill.jsonl"
CASE = "monthly-revenue"


async def _paired(harness, agent: str, skill: Path, image: str, run_id: str, store: RunStore,
                  *, network: bool = False, model: str | None = "test-model",
                  timeout_sec: int = 120, conditions=("with_skill", "baseline")):
    # harness_cli "image": the stand-in is the image's CLI (nothing layered onto it)
    spec = RunSpec(skill_path=str(skill), case_ids=[CASE], attempts=1, agent=agent,
                   model=model, image=image, network=network, harness_cli="image",
                   limits=Limits(timeout_sec=timeout_sec, memory_mb=512))
    (case,) = load_cases(spec)
    store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC),
                               skill_name="csv-insights", spec=spec))
    events: list = []
    async with harness_session(spec, harness) as session:
        ctx = TrialContext(run_id=run_id, spec=spec, skills=load_skill_set(spec),
                           client=NoModel(), store=store, emit=events.append, harness=harness,
                           harness_session=session)
        records = [await run_trial(ctx, TrialPlan(case, cond, 1)) for cond in conditions]
    return case, records, events


def _calls(traj) -> list[tuple[str, str, dict]]:
    return [(c.tool_call_id, c.function_name, c.arguments) for _, _, c in tool_calls(traj)]


def _no_key_anywhere(key: str, seen: list, store: RunStore) -> None:
    for found in seen:
        assert found["hits"] == {"0:0": "[]", "1000:1000": "[]"}, found["hits"]
        assert not any(key in e for e in found["config_env"])
        assert not any(e.startswith(("ANTHROPIC", "OPENAI", "CODEX")) for e in found["config_env"])
        assert key not in json.dumps(found["record"])
    for path in store.state_dir.rglob("*"):
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path


@pytest.mark.parametrize("transcript", [CLAUDE_SMALL, CLAUDE_SKILL], ids=["small", "skill-tool"])
async def test_claude_code_runs_the_cli_with_the_skill_in_its_own_folder(
        transcript, csv_skill, trial_image, run_id, tmp_path, observed):
    key = f"sk-ant-test-{uuid.uuid4().hex}"
    seen = observed(key)
    harness = ClaudeCodeHarness(environ={"ANTHROPIC_API_KEY": key},
                                extra_files=standin_files("claude", transcript))
    with RunStore(tmp_path / "state") as store:
        case, (with_, base), events = await _paired(harness, "claude-code", csv_skill,
                                                    trial_image, run_id, store)
        assert with_.status == "ok", with_.error
        assert base.status == "ok", base.error

        # The command line, as the stand-in saw it (the key only as "present").
        rec_with, rec_base = seen[0]["record"], seen[1]["record"]
        assert rec_with["argv"] == ["-p", case.prompt, "--output-format", "stream-json",
                                    "--verbose", "--dangerously-skip-permissions",
                                    "--max-turns", "30", "--tools", DEFAULT_TOOLS,
                                    "--model", "test-model"]
        # the trial's token in the key's variable, the proxy's address as the base URL
        assert rec_with["key_present"] == {"ANTHROPIC_API_KEY": True,
                                           "CLAUDE_CODE_OAUTH_TOKEN": False}
        assert rec_with["env"]["ANTHROPIC_BASE_URL"].startswith("http://")
        assert rec_with["cwd"] == "/workspace" and rec_with["uid"] == 1000
        assert rec_with["env"]["HOME"] == "/home/agent"
        assert "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB" not in rec_with["env"]  # needs bubblewrap
        assert rec_with["claude_dir_writable"] is True

        # Skills: in Claude Code's folder, read-only, and only with the skill.
        assert [(s["folder"], s["name"], s["readable"], s["writable"], s["folder_writable"])
                for s in rec_with["skills"]] == [("csv-insights", "csv-insights", True, False,
                                                  False)]
        assert rec_with["skills"][0]["path"] == \
            "/home/agent/.claude/skills/csv-insights/SKILL.md"
        assert rec_base["skills"] == []
        assert rec_with["builtin_skills_dir"] == [] and rec_base["builtin_skills_dir"] == []
        assert "1000 755 /home/agent/.claude" in seen[0]["stat"]
        assert "0 755 /home/agent/.claude/skills" in seen[0]["stat"]

        # The trajectory: valid ATIF, the task first, then the transcript's tool calls.
        direct = import_trajectory(transcript).trajectory
        for rec in (with_, base):
            traj = load_trajectory(rec.trajectory_path)
            assert validate_trajectory(traj) == []
            assert traj.steps[0].source == "user" and traj.steps[0].message == case.prompt
            assert _calls(traj) == _calls(direct)
            assert traj.agent.name == "claude-code"
            assert traj.agent.version == direct.agent.version
            assert traj.final_metrics.total_cost_usd == 0.0421
            assert traj.extra["condition"] == rec.condition
            assert traj.extra["harness"]["exit_code"] == 0
            assert traj.extra["harness"]["argv"][2] == "<task>"
            assert rec.tool_calls == len(_calls(direct)) and rec.turns > 0
            assert rec.tokens_in > 0 and rec.cost_usd == 0.0421
            assert rec.metrics["security"] is not None
            assert rec.metrics["skill_execution"] == 0.0  # the transcript never used it
        assert traj.extra["visible_skills"] == []
        assert activated_skills(direct) == activated_skills(traj)

        steps = [e for e in events if e.kind == "step"]
        assert steps and steps[-1].tool_calls == len(_calls(direct))
        _no_key_anywhere(key, seen, store)


@pytest.mark.parametrize("transcript", [CODEX_SKILLS, CODEX_SPAWN], ids=["skills", "spawn"])
async def test_codex_runs_exec_json_with_the_skill_in_agents_skills(
        transcript, csv_skill, trial_image, run_id, tmp_path, observed):
    key = f"sk-proj-test-{uuid.uuid4().hex}"
    seen = observed(key)
    harness = CodexHarness(environ={"OPENAI_API_KEY": key},
                           extra_files=standin_files("codex", transcript))
    with RunStore(tmp_path / "state") as store:
        case, (with_, base), _ = await _paired(harness, "codex", csv_skill, trial_image,
                                               run_id, store, model="openai:gpt-test")
        assert with_.status == "ok", with_.error
        assert base.status == "ok", base.error
        rec_with, rec_base = seen[0]["record"], seen[1]["record"]
        assert rec_with["argv"][:8] == ["exec", "--json", "--skip-git-repo-check",
                                        "--dangerously-bypass-approvals-and-sandbox", "-c",
                                        "shell_environment_policy.ignore_default_excludes=false",
                                        "--model", "gpt-test"]
        # the proxy's address, in the config value newer releases read
        assert rec_with["argv"][8] == "-c"
        assert rec_with["argv"][9].startswith('openai_base_url="http://')
        assert rec_with["argv"][10:] == ["--", case.prompt]
        assert rec_with["key_present"] == {"CODEX_API_KEY": True, "OPENAI_API_KEY": True}
        assert rec_with["cwd"] == "/workspace" and rec_with["uid"] == 1000
        assert [(s["folder"], s["readable"], s["writable"]) for s in rec_with["skills"]] == \
            [("csv-insights", True, False)]
        assert rec_with["skills"][0]["path"] == "/home/agent/.agents/skills/csv-insights/SKILL.md"
        assert rec_base["skills"] == []
        assert rec_with["agents_dir_writable"] is True

        direct = import_trajectory(transcript).trajectory
        for rec in (with_, base):
            traj = load_trajectory(rec.trajectory_path)
            assert validate_trajectory(traj) == []
            assert traj.steps[0].message == case.prompt
            # Every shell command of the rollout, unwrapped from `bash -lc`, in order.
            assert [c.command for c in commands(traj)] == [c.command for c in commands(direct)]
            assert activated_skills(traj) == activated_skills(direct)
            assert traj.agent.name == "codex" and traj.agent.model_name == "gpt-test"
            assert traj.agent.version == direct.agent.version
            assert rec.metrics["skill_efficiency"] is not None
        _no_key_anywhere(key, seen, store)


async def test_a_key_the_agent_prints_is_scrubbed_from_the_trajectory(
        csv_skill, trial_image, run_id, tmp_path, observed):
    key = f"sk-ant-test-{uuid.uuid4().hex}"
    seen = observed(key)
    harness = ClaudeCodeHarness(environ={"ANTHROPIC_API_KEY": key}, extra_files=standin_files(
        "claude", CLAUDE_SMALL, leak_env=True))
    with RunStore(tmp_path / "state") as store:
        _, (with_, _base), _ = await _paired(harness, "claude-code", csv_skill, trial_image,
                                             run_id, store)
        traj = load_trajectory(with_.trajectory_path)
        (env_result,) = [r for s in traj.steps for r in (s.observation.results if s.observation
                                                        else [])
                         if r.source_call_id == "toolu_standin_env"]
        # the CLI's variable holds only the trial's token, and even that is scrubbed
        assert "ANTHROPIC_API_KEY=[REDACTED:SKILLFORGE_TRIAL_TOKEN]" in env_result.content
        assert "HOME=/home/agent" in env_result.content  # the output really was kept
        _no_key_anywhere(key, seen, store)


async def test_an_image_without_the_cli_is_an_error_that_says_what_to_build(
        csv_skill, trial_image, run_id, tmp_path):
    harness = ClaudeCodeHarness(environ={"ANTHROPIC_API_KEY": "sk-ant-test-1234567890"})
    with RunStore(tmp_path / "state") as store:
        _, (with_, base), _ = await _paired(harness, "claude-code", csv_skill, trial_image,
                                            run_id, store)
    for rec in (with_, base):
        assert rec.status == "error"
        assert f"the trial image {trial_image!r} has no `claude` on the PATH" in rec.error
        assert "docs/harnesses.md" in rec.error


async def test_a_cli_that_hangs_times_out_and_keeps_what_it_printed(csv_skill, trial_image,
                                                                    run_id, tmp_path):
    harness = ClaudeCodeHarness(environ={"ANTHROPIC_API_KEY": "sk-ant-test-1234567890"},
                                extra_files=standin_files("claude", CLAUDE_SMALL, hang_after=6))
    with RunStore(tmp_path / "state") as store:
        _, (rec,), _ = await _paired(harness, "claude-code", csv_skill, trial_image, run_id,
                                     store, timeout_sec=6, conditions=("with_skill",))
    assert rec.status == "timeout" and "trial timeout" in rec.error
    traj = load_trajectory(rec.trajectory_path)
    assert traj.extra["harness"]["timed_out"] is True
    assert traj.extra["stop_reason"] == "timeout"
    # the five conversation events printed before the hang: the first tool call is there
    direct = _calls(import_trajectory(CLAUDE_SMALL).trajectory)
    kept = _calls(traj)
    assert 1 <= len(kept) < len(direct) and kept == direct[:len(kept)]


async def test_a_cli_that_fails_is_an_error_with_its_message(csv_skill, trial_image, run_id,
                                                            tmp_path):
    harness = ClaudeCodeHarness(environ={"ANTHROPIC_API_KEY": "sk-ant-test-1234567890"},
                                extra_files=standin_files(
                                    "claude", CLAUDE_SMALL,
                                    fail="Invalid API key · Please run /login"))
    with RunStore(tmp_path / "state") as store:
        _, (rec,), _ = await _paired(harness, "claude-code", csv_skill, trial_image, run_id,
                                     store, conditions=("with_skill",))
    assert rec.status == "error"
    assert rec.error == "claude exited with code 1: Invalid API key · Please run /login"
    traj = load_trajectory(rec.trajectory_path)
    assert [s.source for s in traj.steps] == ["user"]


async def test_skill_use_through_the_harness_folder_is_scored(csv_skill, trial_image, run_id,
                                                              tmp_path):
    # an exec stream that reads the staged SKILL.md and runs its script (first turn only)
    stream = Path(__file__).parent / "fixtures" / "codex_exec.jsonl"
    first_turn = tmp_path / "first-turn.jsonl"
    first_turn.write_text("".join(stream.read_text().splitlines(keepends=True)[:12]))
    harness = CodexHarness(environ={"OPENAI_API_KEY": "sk-test-1234567890"},
                           extra_files=standin_files("codex", first_turn))
    with RunStore(tmp_path / "state") as store:
        _, (with_,), _ = await _paired(harness, "codex", csv_skill, trial_image, run_id,
                                       store, conditions=("with_skill",))
    assert with_.status == "ok", with_.error
    assert with_.activated is True and with_.script_runs == 1 and with_.script_runs_ok == 0
    assert with_.metrics["skill_execution"] == 1.0  # activated, script run, in that order
    assert with_.tokens_in == 24763 and with_.tokens_cached == 24448
