"""Fixtures for trial tests: a scripted agent behind the loopback server, runners, stores."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.models.trial import Limits, RunSpec
from skillforge.providers.base import ClientOptions
from skillforge.providers.retry import RetryPolicy
from skillforge.trials.run import TrialRunner
from tests.conftest import SAMPLE_SKILLS
from tests.trials.scripted_agent import ScriptedAgent

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CSV_CASES = ["monthly-revenue", "missing-values", "order-stats"]


@pytest.fixture
def csv_skill(tmp_path) -> Path:
    """A copy of sample_skills/csv-insights (trials never touch the original)."""
    dest = tmp_path / "skills" / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", dest)
    return dest


@pytest.fixture
def scripted(llm_server) -> ScriptedAgent:
    agent = ScriptedAgent()
    llm_server.handler = agent
    return agent


@pytest.fixture
async def agent_client(llm_server):
    from skillforge.providers.openai_provider import OpenAIClient  # the SDK loads late

    client = OpenAIClient(ClientOptions(model="scripted-agent", api_key="test-key",
                                        base_url=llm_server.openai_base_url, max_retries=0),
                          policy=RetryPolicy(max_retries=0))
    yield client
    await client.aclose()


@pytest.fixture
def store(tmp_path) -> RunStore:
    with RunStore(tmp_path / "state") as s:
        yield s


@pytest.fixture
def make_runner(agent_client, store, trial_image, run_id):
    """runner(skill_path, **spec fields) -> (TrialRunner, events list) on the test image."""
    def make(skill: Path, *, limits: dict | None = None, **fields) -> tuple[TrialRunner, list]:
        values = {"skill_path": str(skill), "image": trial_image, "attempts": 1,
                  "concurrency": 4, "limits": Limits(**{"timeout_sec": 120, "memory_mb": 512,
                                                        **(limits or {})}), **fields}
        events: list = []
        runner = TrialRunner(RunSpec(**values), client=agent_client, store=store,
                             on_event=events.append, run_id=run_id)
        return runner, events

    return make


SKILLFORGE = str(Path(sys.executable).with_name("skillforge"))
# A person's ctrl+c reaches a command run in the foreground. A suite started in the
# background by a shell without job control (`make test &` in a script) inherits SIGINT
# ignored, and so would every command it starts, so the interrupt test would wait forever
# for an exit: the command is started with SIGINT's default restored, then exec'd as is.
FOREGROUND = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
              "os.execv(sys.argv[1], sys.argv[1:])")


@pytest.fixture
def cli(llm_server, tmp_path, trial_image):
    """`skillforge trial` as a user runs it (the real console script, real containers):
    run(*args, env=..., wait=True) -> CompletedProcess (or Popen with wait=False)."""
    base_env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "OPENAI_BASE_URL": llm_server.openai_base_url,
        "SKILLFORGE_PROVIDER__MODEL": "scripted-agent",
        "COLUMNS": "120",
    }
    if "DOCKER_HOST" in os.environ:
        base_env["DOCKER_HOST"] = os.environ["DOCKER_HOST"]
    if os.environ.get("PYTHONPATH"):  # a worktree's code, not the installed checkout's
        base_env["PYTHONPATH"] = os.environ["PYTHONPATH"]

    def run(*args: str, env: dict | None = None, wait: bool = True, image: bool = True):
        argv = [SKILLFORGE, "trial", *args]
        if image:
            argv += ["--image", trial_image]
        full_env = {**base_env, **(env or {})}
        full_env = {k: v for k, v in full_env.items() if v is not None}
        if not wait:
            return subprocess.Popen([sys.executable, "-c", FOREGROUND, *argv], env=full_env,
                                    cwd=tmp_path, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        return subprocess.run(argv, env=full_env, cwd=tmp_path, capture_output=True, text=True,
                              timeout=240, check=False)

    return run
