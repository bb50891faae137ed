"""`skillforge trial --agent claude-code` with the REAL Claude Code (2.1.327, the binary the
pinned claude-agent-sdk wheel bundles), in real containers, against the loopback server.

skillforge layers the binary onto the test image, starts its model proxy, and runs the CLI
as a user would. The server scripts the model (tests/harnesses/claude_script.py) and
records what really went over the wire; every figure below is checked against it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sessions.atif import load_trajectory
from sessions.atif_rules import validate_trajectory
from sessions.importers.claude_code import import_claude_code
from sessions.store import RunStore
from skillforge.trajectory.facts import commands, tool_calls
from skillforge.trials.trial_files import session_dir
from tests.docker_fixtures import managed_containers
from tests.harnesses import claude_script as S
from tests.trials.conftest import FOREGROUND, SKILLFORGE

pytestmark = [pytest.mark.docker, pytest.mark.timeout(600)]

KEY = "sk-ant-api03-real-key-never-in-a-container-0123456789"


@pytest.fixture
def claude_cli(llm_server, tmp_path, trial_image):
    """run(*args, wait=True) -> `skillforge trial SKILL --agent claude-code ...` finished
    (CompletedProcess) or running (Popen), with the key and the server as a user sets them."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "COLUMNS": "160",
           "ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": llm_server.anthropic_base_url}
    for name in ("DOCKER_HOST", "PYTHONPATH"):  # the same skillforge as this test imports
        if name in os.environ:
            env[name] = os.environ[name]

    def run(skill: Path, *args: str, wait: bool = True):
        argv = [SKILLFORGE, "trial", str(skill), "--agent", "claude-code", "--image",
                trial_image, "--cases", "monthly-revenue", "--attempts", "1", "--no-judge",
                "--state-dir", str(tmp_path / "state"), "--format", "json", *args]
        if not wait:
            return subprocess.Popen([sys.executable, "-c", FOREGROUND, *argv], env=env,
                                    cwd=tmp_path, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        return subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True,
                              timeout=500, check=False)

    return run


def _no_key_stored(state: Path) -> None:
    for path in state.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path


def test_a_paired_claude_code_trial_counts_what_the_proxy_forwarded(claude_cli, csv_skill,
                                                                     llm_server, tmp_path):
    llm_server.handler = S.paired
    proc = claude_cli(csv_skill)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    trials = {t["condition"]: t for t in doc["trials"]}
    assert {t["status"] for t in trials.values()} == {"ok"}, proc.stderr
    assert (trials["with_skill"]["grader"], trials["baseline"]["grader"]) == (1.0, 0.0)
    # every request carried the real key, which only skillforge's proxy held
    assert llm_server.completions and all(
        r.headers.get("x-api-key") == KEY for r in llm_server.completions)
    sent = S.usage_by_session(llm_server.completions)
    for cond, t in trials.items():
        traj = load_trajectory(t["trajectory_path"])
        assert validate_trajectory(traj) == []
        server = sent[traj.session_id]
        proxy = traj.extra["proxy"]
        # tokens: what the server sent = what the proxy forwarded = what the trial records
        # = the CLI's own totals (its `result` event), and none of them 0
        assert server["in"] > 0 and server["out"] > 0
        assert (t["tokens_in"], t["tokens_out"]) == (server["in"], server["out"])
        assert (proxy["tokens_in"], proxy["tokens_out"]) == (server["in"], server["out"])
        fm = traj.final_metrics
        assert (fm.total_prompt_tokens, fm.total_completion_tokens) == \
            (server["in"], server["out"])
        assert proxy["model_calls"] == server["calls"] == 3 and t["cost_usd"] is not None
        assert t["contamination"] is None and proxy["contamination"] == []
        cli = traj.extra["harness"]["cli"]
        assert cli["version"] == "2.1.327" and cli["image"].startswith(
            "skillforge-harness/claude-code:2.1.327-")
        # the CLI's own session log, kept beside the trajectory, imports to the same run
        logs = sorted(session_dir(t["trajectory_path"]).rglob("*.jsonl"))
        assert logs, "the session log was not kept"
        log = import_claude_code(max(logs, key=lambda p: p.stat().st_size))
        assert validate_trajectory(log.trajectory) == []
        assert [c.command for c in commands(log.trajectory)] == \
            [c.command for c in commands(traj)]
        assert log.trajectory.final_metrics.total_completion_tokens == server["out"]
        assert traj.extra["harness"]["session_log"]["tokens_out"] == server["out"]
        names = [c.function_name for _, _, c in tool_calls(traj)]
        assert names == (["Skill", "Bash"] if cond == "with_skill" else ["Bash", "Write"])
        print(f"claude-code {cond}: grader {t['grader']}, steps {len(traj.steps)}, tokens "
              f"{t['tokens_in']}/{t['tokens_out']} (proxy {proxy['tokens_in']}/"
              f"{proxy['tokens_out']}, server {server['in']}/{server['out']}), cost "
              f"{t['cost_usd']}, contamination {t['contamination']}, cli {cli['version']}")
    assert trials["with_skill"]["metrics"]["skill_execution"] == 1.0
    assert managed_containers(doc["run_id"]) == []
    _no_key_stored(tmp_path / "state")


def _baseline_waiting_on_its_second_call(claude_cli, skill, llm_server, delay: float):
    """A baseline trial started in the background whose CLI is waiting `delay` s for the
    answer to its second model call: the moment to look inside its running container."""
    def slow(req):
        reply = S.paired(req)
        reply.delay = delay if S.turn(req) == 1 else 0.0
        return reply

    llm_server.handler = slow
    proc = claude_cli(skill, "--conditions", "baseline", wait=False)
    deadline = time.monotonic() + 240
    while len(llm_server.completions) < 2:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"the CLI never made its second call: {proc.communicate()}")
        time.sleep(0.2)
    return proc


def _trial_box(docker_client, proc) -> dict:
    """The running baseline container of the `skillforge trial` process `proc` (other
    test workers may run trials of their own at the same time)."""
    (box,) = docker_client.api.containers(filters={"label": [
        "skillforge.condition=baseline", f"skillforge.pid={proc.pid}"]})
    return box


# Run inside a trial container: which processes' environment or command line, and which
# files, hold the key; what could not be read (a process gone meanwhile is not counted);
# whether the trial's token was seen in a process environment; whether the internet answers.
INSIDE = r"""
import json, os, socket, sys
key = sys.argv[1].encode()
out = {"environ": [], "cmdline": [], "files": [], "token": False, "unread": [], "procs": 0}
for pid in filter(str.isdigit, os.listdir("/proc")):
    if int(pid) == os.getpid():  # this probe, whose own argv holds the needle
        continue
    out["procs"] += 1
    for what in ("environ", "cmdline"):
        try:
            data = open(f"/proc/{pid}/{what}", "rb").read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        except OSError:
            out["unread"].append(f"/proc/{pid}/{what}")
            continue
        if key in data:
            out[what].append(pid)
        if what == "environ" and b"ANTHROPIC_API_KEY=sk-skillforge-" in data:
            out["token"] = True
for top, dirs, files in os.walk("/", onerror=lambda e: out["unread"].append(e.filename)):
    dirs[:] = [d for d in dirs if os.path.join(top, d) not in ("/proc", "/sys", "/dev")]
    for name in files:
        path = os.path.join(top, name)
        try:
            if os.path.isfile(path) and key in open(path, "rb").read():
                out["files"].append(path)
        except FileNotFoundError:
            pass
        except OSError:
            out["unread"].append(path)
try:
    socket.create_connection(("1.1.1.1", 443), timeout=3)
    out["internet"] = True
except OSError as exc:
    out["internet"] = str(exc)
print(json.dumps(out))
"""


def test_the_key_is_nowhere_in_a_running_trial_and_the_net_is_only_the_proxy(
        claude_cli, csv_skill, llm_server, docker_client, tmp_path):
    # The second reply waits, so the CLI is running while we look inside, twice: as the
    # agent's user (what a hostile skill script could read) and as root. Root in a trial
    # has no capabilities (and `docker exec --privileged` cannot give them to it here), so
    # it cannot read the agent's processes' environments, nor the agent the files only root
    # may read: between them the two probes must have read everything.
    proc = _baseline_waiting_on_its_second_call(claude_cli, csv_skill, llm_server, 20.0)
    try:
        box = _trial_box(docker_client, proc)
        seen = {}
        for user in ("1000:1000", "0:0"):
            run = docker_client.api.exec_create(box["Id"], ["python3", "-c", INSIDE, KEY],
                                                user=user)
            seen[user] = json.loads(docker_client.api.exec_start(run["Id"]).decode())
        network = docker_client.api.inspect_container(box["Id"])["HostConfig"]["NetworkMode"]
        config_env = docker_client.api.inspect_container(box["Id"])["Config"]["Env"]
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    print("inside a running claude-code trial:", json.dumps(seen), "network:", network)
    assert proc.returncode == 0, err
    for user, found in seen.items():
        assert found["environ"] == found["cmdline"] == found["files"] == [], (user, found)
        assert found["internet"] is not True, user  # no route out: only the proxy
    # so "nowhere" above means nowhere: nothing was unreadable to both; the agent's user
    # read the CLI's environment (it holds the trial's token), which root could not
    root, agent = seen["0:0"], seen["1000:1000"]
    assert root["procs"] >= 3 and not set(root["unread"]) & set(agent["unread"]), seen
    assert agent["token"] is True and root["token"] is False
    assert network == "skillforge-proxy" and not any(KEY in e for e in config_env)
    assert json.loads(out)["trials"][0]["status"] == "ok"
    _no_key_stored(tmp_path / "state")


def test_a_subagent_that_never_stops_is_ended_at_the_turn_limit(claude_cli, csv_skill,
                                                                llm_server, tmp_path):
    llm_server.handler = S.looping_subagent
    t0 = time.monotonic()
    proc = claude_cli(csv_skill, "--conditions", "with_skill", "--max-turns", "4")
    assert proc.returncode == 0, proc.stderr
    (trial,) = json.loads(proc.stdout)["trials"]
    traj = load_trajectory(trial["trajectory_path"])
    # four model calls went out (main thread and subagent together); the fifth was refused
    assert traj.extra["proxy"]["model_calls"] == 4 and traj.extra["proxy"]["limit_reached"]
    assert len([r for r in llm_server.completions if r.response]) == 4
    assert trial["status"] == "ok" and traj.extra["stop_reason"] == "max_turns"
    assert trial["error"] is None and time.monotonic() - t0 < 240
    assert any(S.SUBTASK in S.first_user_text(r) for r in llm_server.completions)
    assert managed_containers(json.loads(proc.stdout)["run_id"]) == []


def test_background_subagents_and_tasks_are_ended_at_the_turn_limit(claude_cli, csv_skill,
                                                                   llm_server, tmp_path):
    # The case: work left running in the background (a subagent that never stops,
    # `sleep`s that wake the main thread up again) keeps Claude Code going past --max-turns
    # and would run to the trial timeout (300 s here).
    llm_server.handler = S.background_work
    t0 = time.monotonic()
    proc = claude_cli(csv_skill, "--conditions", "with_skill", "--max-turns", "8",
                      "--timeout", "300")
    took = time.monotonic() - t0
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    doc = json.loads(proc.stdout)
    (trial,) = doc["trials"]
    traj = load_trajectory(trial["trajectory_path"])
    proxy = traj.extra["proxy"]
    # exactly eight model calls reached the server, counted by the proxy; none after
    assert proxy["model_calls"] == len(llm_server.completions) == 8, proxy
    assert proxy["limit_reached"] and traj.extra["stop_reason"] == "max_turns"
    assert trial["status"] == "ok" and trial["error"] is None and took < 200, took
    # both kinds of background work were running when the limit struck
    names = [c.function_name for _, _, c in tool_calls(traj)]
    main = [S.turn(r) for r in llm_server.completions if S.SUBTASK not in S.first_user_text(r)]
    print(f"background work: {took:.0f} s, main-thread turns {main}, tools {names}")
    assert len(main) < 8 and max(main) >= 4, main  # the subagent called; a sleep woke main
    # what the CLI did before it is kept: the summary it wrote (graded), its stream, the
    # session logs (the subagent's too), and its container is gone
    assert trial["grader"] == 1.0
    assert names[:3] == ["Bash", "Agent", "Bash"], names
    logs = [p.relative_to(session_dir(trial["trajectory_path"])).as_posix()
            for p in session_dir(trial["trajectory_path"]).rglob("*.jsonl")]
    assert any("/subagents/" in name for name in logs), logs
    assert managed_containers(doc["run_id"]) == []


def test_a_cli_killed_mid_run_is_an_error_of_the_agent_stage(claude_cli, csv_skill,
                                                             llm_server, docker_client,
                                                             tmp_path):
    proc = _baseline_waiting_on_its_second_call(claude_cli, csv_skill, llm_server, 60.0)
    try:
        box = _trial_box(docker_client, proc)
        kill = ("import os, signal\nfor p in filter(str.isdigit, os.listdir('/proc')):\n"
                "    try:\n        cmd = open(f'/proc/{p}/cmdline', 'rb').read()\n"
                "    except OSError:\n        continue\n"
                "    if cmd.startswith(b'claude'):\n        os.kill(int(p), signal.SIGKILL)\n")
        run = docker_client.api.exec_create(box["Id"], ["python3", "-c", kill],
                                            user="1000:1000")
        docker_client.api.exec_start(run["Id"])
        killed = time.monotonic()
        out, err = proc.communicate(timeout=300)
        after_kill = time.monotonic() - killed
    finally:
        if proc.poll() is None:
            proc.kill()
    # the run's only trial errored: "no trial could finish" (exit 2), stored all the same
    assert proc.returncode == 2 and "Traceback" not in err, err
    # the run ends with its trial, not when the dead CLI's open call would have been answered
    assert after_kill < 30, after_kill
    with RunStore(tmp_path / "state") as store:
        (trial,) = store.trials(store.latest_run().run_id)
    assert trial.status == "error" and trial.error_stage == "agent", trial
    assert trial.error.startswith("claude exited"), trial.error
    traj = load_trajectory(trial.trajectory_path)
    assert [c.function_name for _, _, c in tool_calls(traj)] == ["Bash"]  # what it did


async def test_a_baseline_whose_requests_carry_the_target_is_left_out(csv_skill, llm_server,
                                                                      trial_image, run_id,
                                                                      observed, tmp_path):
    # A decoy skill that names the target, where staging never looks: baked into the
    # image's home (planted here with the harness's extra files), so the CLI lists it in
    # both conditions. The proxy reads the baseline's requests and catches it.
    from datetime import UTC, datetime

    from skillforge.harnesses import ClaudeCodeHarness
    from skillforge.lift.errors import error_summary
    from skillforge.models.trial import Limits, RunRecord, RunSpec
    from skillforge.trials.harness_session import harness_session
    from skillforge.trials.run import load_cases
    from skillforge.trials.runner import TrialContext, TrialPlan, run_trial
    from skillforge.trials.staging import load_skill_set
    from tests.harnesses.conftest import NoModel

    target = load_skill_set(RunSpec(skill_path=str(csv_skill))).target
    leaky = (f"---\nname: sheet-helper\ndescription: Like csv-insights: {target.description}"
             "\n---\nUse csv-insights instead.\n")
    harness = ClaudeCodeHarness(
        environ={"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": llm_server.anthropic_base_url},
        extra_files={"/home/agent/.claude/skills/sheet-helper/SKILL.md": (leaky.encode(),
                                                                          0o644)})
    def replies(req):
        # The baseline's CLI waits 15 s for its second answer: long enough for telemetry,
        # were it on, to give up sending and make its folder (below).
        reply = S.BASELINE[min(S.turn(req), 2)]()
        reply.delay = 15.0 if S.turn(req) == 1 and not S.skilled(req) else 0.0
        return reply

    llm_server.handler = replies
    boxes = observed()  # each container looked into before it is removed
    spec = RunSpec(skill_path=str(csv_skill), case_ids=["monthly-revenue"], attempts=1,
                   agent="claude-code", image=trial_image, limits=Limits(memory_mb=1024))
    (case,) = load_cases(spec)
    with RunStore(tmp_path / "state") as store:
        store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC), spec=spec))
        async with harness_session(spec, harness) as session:
            ctx = TrialContext(run_id=run_id, spec=spec, skills=load_skill_set(spec),
                               client=NoModel(), store=store, emit=lambda e: None,
                               harness=harness, harness_session=session)
            with_, base = [await run_trial(ctx, TrialPlan(case, c, 1))
                           for c in ("with_skill", "baseline")]
    assert with_.status == base.status == "ok"
    # Telemetry is off: Claude Code wrote its state to ~/.claude, and no telemetry/ folder.
    # Without DISABLE_TELEMETRY and CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC it tries to
    # send (no route out: the attempts hang) and makes ~/.claude/telemetry/ for the events
    # it could not send (1p_failed_events.*.json; seen in the baseline's long wait).
    print("~/.claude of each trial:", [b["claude_home"] for b in boxes])
    assert len(boxes) == 2
    for box in boxes:
        assert "projects" in box["claude_home"], box["claude_home"]
        assert "telemetry" not in box["claude_home"], box["claude_home"]
    assert with_.contamination is None and not with_.excluded  # the skill is its to see
    assert base.excluded and base.contamination
    hit = base.contamination[0]
    assert hit["marker"] == "description" and hit["where"].startswith("messages[")
    assert "summarises csv" in hit["excerpt"]
    errors = error_summary([with_, base], ("with_skill", "baseline"))
    assert errors.contaminated == {"with": 0, "base": 1}
    assert "contaminated" in errors.note
