"""Drafting and refining tests: a tmp copy of a sample skill, the loopback model server, and
the `skillforge evals` group run in-process with the environment a user would set."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from skillforge.cli.evals import evals_group
from tests.conftest import CORPUS, SAMPLE_SKILLS, copy_skill
from tests.llm_fixtures import clean_provider_env, llm_server, make_client  # noqa: F401
from tests.llm_server import LLMServer

FIXTURES = Path(__file__).parent / "fixtures"
# A built-in agent's with_skill run of csv-insights' q4-top-region case that used full-year
# totals: its answer (North, 2556.83) is wrong for Q4 (North, 2232.68).
SESSION = FIXTURES / "q4-top-region.with_skill.trajectory.json"
CODEX_ROLLOUT = (CORPUS / "traces" / "codex" / "codemie-ai__codemie-code__rollout-2026-05-11T"
                 "13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl")


@pytest.fixture(autouse=True)
def _no_real_keys(clean_provider_env):  # noqa: F811
    return None


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    """csv-insights, copied, with an evals.json written the way skill-creator writes them
    (integer ids, expected_output, expectations, unknown fields, 4-space indent)."""
    root = copy_skill(SAMPLE_SKILLS / "csv-insights", tmp_path / "skills")
    shutil.copy(FIXTURES / "skill_creator_evals.json", root / "evals" / "evals.json")
    return root


@pytest.fixture
def aces_skill(tmp_path: Path) -> Path:
    """csv-insights, copied, with its own (ACES-style, canonical) evals.json."""
    return copy_skill(SAMPLE_SKILLS / "csv-insights", tmp_path / "aces")


def openai_env(server: LLMServer, model: str = "draft-model") -> dict[str, str]:
    return {"OPENAI_BASE_URL": server.openai_base_url, "OPENAI_API_KEY": "test-key",
            "SKILLFORGE_PROVIDER__MODEL": model, "SKILLFORGE_PROVIDER__MAX_RETRIES": "0"}


def anthropic_env(server: LLMServer, model: str = "claude-test") -> dict[str, str]:
    return {"ANTHROPIC_BASE_URL": server.anthropic_base_url, "ANTHROPIC_API_KEY": "test-key",
            "SKILLFORGE_PROVIDER__MODEL": model, "SKILLFORGE_PROVIDER__MAX_RETRIES": "0"}


@pytest.fixture
def evals_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """`skillforge evals ARGS...` in the tmp folder, with `env` added to the environment."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)

    def run(*args: object, env: dict[str, str] | None = None) -> Result:
        return CliRunner().invoke(evals_group, [str(a) for a in args], env=env or {},
                                  catch_exceptions=False)
    return run
