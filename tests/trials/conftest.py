"""Fixtures for trial tests: a scripted agent behind the loopback server, runners, stores."""

from __future__ import annotations

import shutil
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
