"""What an agent can and cannot see or touch in a real trial container.

- The baseline agent's system prompt and every message it exchanges (tool outputs included)
  hold no trace of the target skill, even when the agent goes looking.
- The API key stays on the host: not in the container's environment or files, not in the
  stored trajectory or database, while the model server did receive it.
- The file tools act with the agent user's permissions.
"""

from __future__ import annotations

import base64
import json
import uuid
from pathlib import Path

import pytest

from sessions.atif import load_trajectory
from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.trial import Limits, RunSpec
from skillforge.providers import select_provider
from skillforge.sandbox.labels import RUN_ID
from skillforge.trials.run import TrialRunner
from tests.trials.scripted_agent import SCRIPT, SKILL_MD, answer, bash, read, write

pytestmark = [pytest.mark.docker, pytest.mark.timeout(180)]

PROBE = ("ls -laR /skills /workspace /home/agent /logs 2>&1; env; "
         "find / -xdev \\( -iname '*insight*' -o -iname '*summar*' -o -iname 'SKILL.md' \\) "
         "2>/dev/null | head -50; ls /grader 2>&1")

# Run as root inside the container by the test (not by the agent): every file on the
# container's own filesystem and every process environment, searched for the needle.
ROOT_SCAN = r"""
import base64, os, sys
needle = base64.b64decode(sys.argv[1])
hits = []
for top, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if not os.path.ismount(os.path.join(top, d))]
    for name in files:
        path = os.path.join(top, name)
        try:
            small = os.path.isfile(path) and os.path.getsize(path) < 50_000_000
            if small and not os.path.islink(path) and needle in open(path, "rb").read():
                hits.append(path)
        except OSError:
            pass
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            if needle in open(f"/proc/{pid}/environ", "rb").read():
                hits.append(f"/proc/{pid}/environ")
        except OSError:
            pass
print("HITS", hits)
"""


def _baseline_texts(llm_server) -> list[str]:
    texts = []
    for req in llm_server.requests:
        system = req.system_text()
        if "<available_skills>" in system:
            continue
        texts.append(system)
        texts.append(req.all_text())
    return texts


async def test_the_baseline_agent_sees_no_trace_of_the_target(csv_skill, scripted,
                                                              make_runner, llm_server):
    probe = [bash(PROBE), bash("cat /skills/*/SKILL.md 2>&1; python3 -c 'import os; "
                               "print(sorted(os.listdir(\"/\")))'"), answer("nothing here")]
    scripted.baseline = {"missing-values": probe, "monthly-revenue": probe}
    runner, _ = make_runner(csv_skill, case_ids=["missing-values", "monthly-revenue"],
                            conditions=["baseline"])
    summary = await runner.run()
    assert {r.status for r in summary.records} == {"ok"}
    texts = _baseline_texts(llm_server)
    assert len(texts) == 2 * 2 * 3  # two conversations of three requests
    assert any("customers.csv" in t for t in texts)  # the probe really listed /workspace
    needles = ["csv-insights", "summarize.py", "Summarises CSV and other delimited",
               "The numbers come from", "output-format.md"]
    for text in texts:
        for needle in needles:
            assert needle.lower() not in text.lower(), (needle, text[:300])


async def test_the_api_key_never_enters_the_container_or_the_store(
        csv_skill, llm_server, trial_image, tmp_path, docker_client, run_id):
    key = f"sk-test-{uuid.uuid4().hex}"
    env = {"OPENAI_API_KEY": key, "OPENAI_BASE_URL": llm_server.openai_base_url}
    client = select_provider(Settings(), model="scripted-agent", environ=env)
    seen: dict = {}

    def scan_container(_req):
        # While the trial runs: inspect its container from the outside, as root.
        (info,) = docker_client.api.containers(filters={"label": f"{RUN_ID}={run_id}"})
        seen["env"] = docker_client.api.inspect_container(info["Id"])["Config"]["Env"]
        exec_id = docker_client.api.exec_create(
            info["Id"], ["python3", "-c", ROOT_SCAN, base64.b64encode(key.encode()).decode()],
            user="0:0")["Id"]
        seen["scan"] = docker_client.api.exec_start(exec_id).decode()
        return bash("env; cat /proc/1/environ 2>&1 | tr '\\0' '\\n'")(_req)

    plan = [read(SKILL_MD), scan_container, bash(f"python3 {SCRIPT} sales.csv"),
            answer("done")]
    llm_server.handler = lambda req: plan[sum(1 for m in req.messages
                                              if m["role"] == "assistant")](req)
    store = RunStore(tmp_path / "state")
    spec = RunSpec(skill_path=str(csv_skill), case_ids=["monthly-revenue"], attempts=1,
                   conditions=["with_skill"], image=trial_image,
                   limits=Limits(timeout_sec=60, memory_mb=512))
    try:
        summary = await TrialRunner(spec, client=client, store=store, run_id=run_id).run()
    finally:
        await client.aclose()
    (record,) = summary.records
    assert record.status == "ok", record.error
    assert llm_server.requests[0].headers["authorization"] == f"Bearer {key}"
    assert seen["scan"].strip() == "HITS []"
    assert not any(key in e for e in seen["env"])
    assert not any(e.split("=")[0].startswith(("OPENAI", "ANTHROPIC")) for e in seen["env"])
    for path in store.state_dir.rglob("*"):
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path
    trajectory = json.loads(Path(record.trajectory_path).read_text())
    outputs = [r["content"] for s in trajectory["steps"]
               for r in (s.get("observation") or {}).get("results", [])]
    assert any("HOME=/home/agent" in o for o in outputs)  # the env really was printed
    store.close()


async def test_file_tools_act_with_the_agent_users_permissions(csv_skill, scripted,
                                                              make_runner, store):
    scripted.with_skill = {"monthly-revenue": [
        write("/skills/csv-insights/SKILL.md", "hijacked"),
        write("/etc/motd", "hijacked"),
        read("/etc/shadow"),
        write("/workspace/deep/new/file.txt", "fine\n"),
        bash("cat /workspace/deep/new/file.txt; stat -c '%u' /workspace/deep/new/file.txt; "
             "head -n 2 /skills/csv-insights/SKILL.md"),
        answer("done"),
    ]}
    runner, _ = make_runner(csv_skill, case_ids=["monthly-revenue"], conditions=["with_skill"])
    summary = await runner.run()
    (record,) = summary.records
    traj = load_trajectory(record.trajectory_path)
    results = [s.observation.results[0] for s in traj.steps[2:7]]
    assert results[0].extra["is_error"] and "cannot write /skills/csv-insights/SKILL.md" in \
        results[0].content
    assert results[1].extra["is_error"] and "cannot write /etc/motd" in results[1].content
    assert results[2].content == "Error: permission denied: /etc/shadow"
    assert results[3].content == "wrote 5 bytes to /workspace/deep/new/file.txt"
    assert results[4].content.splitlines()[:4] == ["fine", "1000", "---", "name: csv-insights"]
