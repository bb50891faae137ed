"""The grader runs as a uid of its own with no capability; only a root broker may run code
as the agent's uid, and only for the grader (docs/graders.md, "Running the agent's code").

Two containers in all: one grading container set up by hand (to knock on the broker as
every uid), and one real `run_grader` whose grader probes its own process and runs the
agent's code under `as-agent`, reporting each fact as a key of reward.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillforge.sandbox import open_sandbox
from skillforge.sandbox.archive import concat_tars
from skillforge.sandbox.base import AGENT_UID, GRADER_UID
from skillforge.sandbox.grader_support import (
    AS_AGENT,
    AS_AGENT_PY,
    BROKER_DIR,
    BROKER_SOCKET,
    GRADER_ENV,
    GRADER_USER,
    broker_command,
    grading_layout,
)
from skillforge.sandbox.grading import grader_plan, run_grader

pytestmark = [pytest.mark.docker, pytest.mark.timeout(180)]

SKILL = Path(__file__).parent / "fixtures" / "answer-check"
CONNECT = ("import socket, sys\n"
           "s = socket.socket(socket.AF_UNIX)\n"
           "try:\n"
           f"    s.connect({BROKER_SOCKET!r})\n"
           "    print('connected', flush=True)\n"
           "    s.settimeout(5)\n"
           "    print(s.recv(200).decode())\n"
           "except OSError as exc:\n"
           "    print(type(exc).__name__)\n")


async def test_the_broker_runs_code_as_the_agent_for_the_grader_alone(spec):
    archive, _cmd, _workdir = grader_plan(SKILL, "evals/graders/check_as_agent.py")
    async with open_sandbox("docker", spec(grading=True),
                            concat_tars(grading_layout(), archive)) as sb:
        started = await sb.exec(broker_command(), timeout_s=20, user="0:0", workdir="/")
        assert started.ok, started.stderr
        ran = await sb.exec([AS_AGENT, "sh", "-c", "id -u; id -g; id -G; pwd; exit 7"],
                            timeout_s=20, user=GRADER_USER, env=GRADER_ENV, workdir="/grader")
        # uid and gid 1000, no other group, and /workspace for the /grader it may not enter
        assert ran.stdout.split() == [str(AGENT_UID)] * 3 + ["/workspace"], ran.stderr
        assert ran.exit_code == 7
        # The agent's uid cannot reach the socket; root's is turned away by the broker.
        agent = await sb.exec(["python3", "-c", CONNECT], timeout_s=20)
        assert agent.stdout.split() == ["PermissionError"]
        root = await sb.exec(["python3", "-I", "-S", AS_AGENT_PY, "run", BROKER_SOCKET, "id"],
                             timeout_s=20, user="0:0")
        assert root.exit_code == 126 and "refused" in root.stderr
        # Even with the folders opened to everyone, the broker refuses the agent's uid.
        opened = await sb.exec(f"chmod 755 /grader {BROKER_DIR} && chmod 666 {BROKER_SOCKET}",
                               timeout_s=20, user="0:0")
        assert opened.ok, opened.stderr
        agent = await sb.exec(["python3", "-c", CONNECT], timeout_s=20)
        assert agent.stdout.split()[:2] == ["connected", '{"refused":']
        # An image without python3 has no broker: as-agent says so and fails, never runs
        # the command as the grader.
        bare = await sb.exec("mkdir -p /tmp/bare && ln -sf /usr/bin/id /tmp/bare/id && "
                             f"PATH=/tmp/bare {AS_AGENT} touch /tmp/ran", timeout_s=20,
                             user=GRADER_USER, env=GRADER_ENV)
        assert bare.exit_code == 126 and "needs python3" in bare.stderr
        assert (await sb.exec("test -e /tmp/ran", timeout_s=20)).exit_code == 1


PROBE_GRADER = '''"""Reports, key by key, what the grader is and what the agent's code may do."""
import json, os, subprocess, tempfile

def caps(pid="self"):
    fields = dict(line.split(":\\t", 1) for line in open(f"/proc/{pid}/status"))
    return {k: int(fields[k], 16) for k in ("CapInh", "CapPrm", "CapEff", "CapAmb")}

facts = {"grader_uid": os.getuid(), "grader_gid": os.getgid(),
         "grader_other_groups": len(set(os.getgroups()) - {os.getgid()}),
         "grader_caps": sum(caps().values()),
         "cwd_is_grader": float(os.getcwd() == "/grader")}
with tempfile.TemporaryFile() as out:
    done = subprocess.run([os.environ["SKILLFORGE_AS_AGENT"], "python3",
                           "/workspace/solution.py", str(os.getpid())], stdout=out,
                          timeout=60, cwd="/workspace")
    out.seek(0)
    facts.update(json.loads(out.read()))
facts["agent_exit"] = done.returncode
facts["reward_folder_untouched"] = float(os.listdir("/logs/grader") == [])
json.dump(facts, open("/logs/grader/reward.json", "w"))
'''
PROBE_SOLUTION = '''import json, os, signal, socket, sys
grader = int(sys.argv[1])
facts = {"agent_uid": os.getuid(), "agent_gid": os.getgid(),
         "agent_groups": len(os.getgroups())}
def denied(action):
    try:
        action()
    except PermissionError:
        return 1.0
    except OSError:
        return 0.5
    return 0.0
facts["cannot_write_reward"] = denied(lambda: open("/logs/grader/reward.txt", "w"))
facts["cannot_read_grader"] = denied(lambda: open("/grader/expected.txt").read())
facts["cannot_signal_grader"] = denied(lambda: os.kill(grader, signal.SIGSTOP))
facts["cannot_reach_broker"] = denied(
    lambda: socket.socket(socket.AF_UNIX).connect("/grader/.skillforge/broker/socket"))
others = [p for p in os.listdir("/proc") if p.isdigit()
          and os.stat(f"/proc/{p}").st_uid != os.getuid()]
def signalled(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        return 0
    return 1
facts["other_uids_signalled"] = sum(signalled(int(p)) for p in others)
facts["other_processes"] = len(others)
print(json.dumps(facts))
'''


async def test_the_grader_is_its_own_uid_and_the_agents_code_cannot_touch_it(spec, tmp_path):
    skill = tmp_path / "skill"
    (skill / "evals" / "graders").mkdir(parents=True)
    (skill / "evals" / "graders" / "probe.py").write_text(PROBE_GRADER)
    (skill / "evals" / "graders" / "expected.txt").write_text("42\n")
    async with open_sandbox("docker", spec()) as sb:
        done = await sb.exec(f"cat > /workspace/solution.py <<'EOF'\n{PROBE_SOLUTION}EOF",
                             timeout_s=30)
        assert done.ok, done.stderr
        graded = await run_grader(sb, skill, "evals/graders/probe.py")
    facts = graded.detail
    assert facts is not None, graded.exec.stderr
    shown = json.dumps(facts, indent=1)
    assert facts["grader_uid"] == GRADER_UID and facts["grader_gid"] == GRADER_UID, shown
    assert facts["grader_other_groups"] == 0 and facts["grader_caps"] == 0, shown
    assert facts["cwd_is_grader"] == 1, shown
    assert facts["agent_uid"] == AGENT_UID and facts["agent_gid"] == AGENT_UID, shown
    assert facts["agent_groups"] == 0 and facts["agent_exit"] == 0, shown
    for fact in ("cannot_write_reward", "cannot_read_grader", "cannot_signal_grader",
                 "cannot_reach_broker", "reward_folder_untouched"):
        assert facts[fact] == 1, f"{fact}: {shown}"
    # the grader, its launcher's shell, the broker and init at least: none can be signalled
    assert facts["other_processes"] >= 3 and facts["other_uids_signalled"] == 0, shown
