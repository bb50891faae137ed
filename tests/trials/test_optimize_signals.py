"""SIGTERM and SIGHUP stop `skillforge optimize-description` as Ctrl+C does (issue 34).

The description loop runs trigger trials in containers, like `skillforge trial`. Before, a
SIGTERM (CI cancellation, `timeout`, `docker stop`) or SIGHUP (a closed terminal) ended it at
once: its containers kept running until their lifetime ran out and loop.json stayed
"running". Here a real `skillforge optimize-description` hangs in its trials (the scripted
agent answers after two minutes) and gets the signal.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sessions.store import RunStore
from tests.docker_fixtures import managed_containers
from tests.llm_server import LLMServer
from tests.trials.hanging import wait_until_hanging
from tests.trials.scripted_triggers import ScriptedTriggers, trigger_skills

pytestmark = [pytest.mark.docker, pytest.mark.timeout(300)]

SKILLFORGE = str(Path(sys.executable).with_name("skillforge"))


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_cancels_the_description_loop_like_ctrl_c(tmp_path, trial_image, sig, code):
    skill = trigger_skills(tmp_path)
    server = LLMServer().start()
    server.handler = ScriptedTriggers(delay=120.0)
    state = tmp_path / "state"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "SKILLFORGE_CACHE_DIR": str(tmp_path / "cache"),
           "OPENAI_BASE_URL": server.openai_base_url,
           "SKILLFORGE_PROVIDER__MODEL": "scripted-agent"}
    for passed in ("DOCKER_HOST", "PYTHONPATH"):
        if passed in os.environ:
            env[passed] = os.environ[passed]
    proc = subprocess.Popen(
        [SKILLFORGE, "optimize-description", str(skill), "--iterations", "1", "--runs", "1",
         "--holdout", "0.5", "--decoys", "1", "--image", trial_image, "--concurrency", "2",
         "--format", "json", "--state-dir", str(state)],
        env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        run_id = wait_until_hanging(proc, state, seconds=120, what="the loop")
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        server.stop()
    assert proc.returncode == code, err
    assert f"stopped by {sig.name}" in err and "stored as cancelled" in err and out == ""
    assert managed_containers(run_id) == []
    (loop_json,) = state.glob("triggers/*/loop.json")
    assert json.loads(loop_json.read_text())["status"] == "cancelled"
    with RunStore(state) as store:
        assert store.run(run_id).status == "cancelled"
