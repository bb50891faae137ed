"""Every sample skill judged and drafted by a local model with an 8,192-token context, as a
user types it (issue 37): llama-cpp-python's server started with `--n_ctx 8192`, nothing
configured but the server's address and `[provider] max_tokens = 2048` (docs/providers.md).

Before prompts were sized to the model, the judge's prompt for csv-insights was 17,919
tokens and the draft prompt for lab-units 17,162: the server answered HTTP 400 "maximum
context length". Now the first request may still overflow (llama-cpp-python does not say
its window until then); skillforge reads the window from the error, fits the prompt (SKILL.md
whole, references cut or left out) and says in the result what the model was not shown.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from skillforge.models.judge import CRITERIA
from tests.conftest import CORPUS
from tests.llama.cli import skillforge

pytestmark = pytest.mark.timeout(2400)

SAMPLES = Path(__file__).resolve().parents[2] / "sample_skills"
NAMES = sorted(p.name for p in SAMPLES.iterdir() if (p / "SKILL.md").is_file())
# A long real Claude Code session: its steps alone are more than 8,192 tokens.
LONG_SESSION = (CORPUS / "traces" / "claude_code"
                / "d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl")


def copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(SAMPLES / name, tmp_path / "skills" / name))


def test_the_samples_are_the_tour_s_three():
    assert NAMES == ["csv-insights", "lab-units", "release-notes"]


@pytest.mark.parametrize("name", NAMES)
def test_judge_and_draft_every_sample_at_8k(llama_server, name, tmp_path):
    skill = copy(name, tmp_path)
    home = tmp_path / "home"

    judged = skillforge(llama_server, home, "judge", str(skill), "--format", "json",
                        "--fail-under", "0", cwd=tmp_path)
    drafted = skillforge(llama_server, home, "evals", "draft", str(skill), "--kinds",
                         "explicit", "--count", "1", "--format", "json", cwd=tmp_path)

    assert judged.returncode == 0, judged.explain()
    assert "maximum context length" not in judged.stderr
    [result] = judged.json()["skills"]
    assert [c["criterion"] for c in result["criteria"]] == list(CRITERIA)
    assert result["tokens_in"] > 0
    assert drafted.returncode == 0, drafted.explain()
    proposal = drafted.json()["proposal"]
    assert proposal["call"]["tokens_in"] > 0
    # SKILL.md plus references and scripts is more than the window holds: something was
    # cut, and the result says what.
    assert result["left_out"], result
    assert all(":" in note for note in result["left_out"])
    assert any("not shown to the model" in w for w in proposal["warnings"]), proposal


def test_trigger_drafting_and_refining_fit_8k(llama_server, tmp_path, monkeypatch):
    """The workbench's trigger drafting (no command of its own) in process, and
    `evals refine` from a long real session, typed."""
    from skillforge.authoring.trigger_drafting import draft_triggers
    from skillforge.models.config import Settings
    from skillforge.models.skill_loader import load_skill
    from skillforge.providers.select import select_provider

    skill = copy("csv-insights", tmp_path)
    for key, value in llama_server.env().items():
        monkeypatch.setenv(key, value)
    settings = Settings.model_validate({"provider": {
        "name": "openai", "model": llama_server.model, "max_tokens": 2048,
        "timeout_sec": 1800}})

    async def triggers():
        async with select_provider(settings) as client:
            return await draft_triggers(load_skill(skill), client, count=2, max_tokens=2048)

    proposal = asyncio.run(triggers())
    assert proposal.call is not None and proposal.call.tokens_in > 0
    assert any("not shown to the model" in w for w in proposal.warnings)

    home = tmp_path / "home"
    refined = skillforge(llama_server, home, "evals", "refine", str(skill), "--case",
                         "monthly-revenue", "--from", str(LONG_SESSION), "--format", "json",
                         cwd=tmp_path)
    assert refined.returncode == 0, refined.explain()
    diff = json.loads(refined.stdout)
    assert any("the session:" in w for w in diff["diff"]["warnings"]), diff
