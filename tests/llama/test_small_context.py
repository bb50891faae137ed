"""`skillforge judge`, `evals draft` and `evals refine` against llama-cpp-python's server with
the 8,192-token context a laptop's model has, as a user types them (issue 37): every sample
skill judged and drafted, nothing configured but the server's address and `[provider]
max_tokens = 2048` (docs/providers.md); the real structured-output fallbacks (the server
answers HTTP 500 to `response_format: json_schema`). SmolLM2-135M's opinions are noise; what
is checked is the plumbing: the command succeeds, its document has the promised shape, tokens
were counted, what it writes validates.

Before prompts were sized to the model, the judge's prompt for csv-insights was 17,919
tokens and the draft prompt for lab-units 17,162: the server answered HTTP 400 "maximum
context length". Now the first request may still overflow (llama-cpp-python does not say
its window until then); skillforge reads the window from the error, fits the prompt (SKILL.md
whole, references cut or left out) and says in the result what the model was not shown.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillforge.models.judge import CRITERIA
from skillforge.models.proposals import EDITABLE_FIELDS
from tests.conftest import CORPUS
from tests.llama.cli import no_model, skillforge

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
    judge = ("judge", str(skill), "--format", "json", "--fail-under", "0")
    before = json.loads((skill / "evals" / "evals.json").read_text())

    judged = skillforge(llama_server, home, *judge, cwd=tmp_path)
    # Stored: the same skill, judge and rubric is answered from the cache, no request (asked
    # before the draft is written: evals.json is part of the skill's content hash).
    again = skillforge(llama_server, home, *judge, cwd=tmp_path) if name == NAMES[0] else None
    drafted = skillforge(llama_server, home, "evals", "draft", str(skill), "--kinds",
                         "explicit", "--count", "1", "--write", "--format", "json",
                         cwd=tmp_path)

    assert judged.returncode == 0, judged.explain()
    [result] = judged.json()["skills"]
    assert [c["criterion"] for c in result["criteria"]] == list(CRITERIA)
    assert all(0 <= c["score"] <= 10 and c["evidence"].strip() for c in result["criteria"])
    [verdict] = result["judges"]
    assert verdict["model"] == llama_server.model and verdict["attempts"] >= 1
    assert result["tokens_in"] > 0 and result["tokens_out"] > 0
    # SKILL.md plus references and scripts is more than the window holds: something was
    # cut, and the result says what.
    assert result["left_out"], result
    assert all(":" in note for note in result["left_out"])
    if again is not None:
        assert again.returncode == 0, again.explain()
        [cached] = again.json()["skills"]
        assert cached["cached"] is True and cached["score"] == result["score"]
    assert drafted.returncode == 0, drafted.explain()
    doc = drafted.json()
    proposal = doc["proposal"]
    assert proposal["call"]["tokens_in"] > 0 and proposal["call"]["tokens_out"] > 0
    assert any("not shown to the model" in w for w in proposal["warnings"]), proposal
    for case in proposal["cases"]:
        assert case["kind"] == "explicit" and case["prompt"].strip()
    after = json.loads((skill / "evals" / "evals.json").read_text())
    assert len(after["evals"]) == len(before["evals"]) + len(doc["accepted"])
    valid = no_model("evals", "validate", str(skill), home=home, cwd=tmp_path)
    assert valid.returncode == 0, valid.explain()


def test_refine_from_a_long_real_session_fits_8k(llama_server, tmp_path):
    """`evals refine` from a real Claude Code session whose steps alone exceed the window."""
    skill = copy("csv-insights", tmp_path)
    home = tmp_path / "home"

    ran = skillforge(llama_server, home, "evals", "refine", str(skill), "--case",
                     "monthly-revenue", "--from", str(LONG_SESSION), "--write", "--format",
                     "json", cwd=tmp_path)

    assert ran.returncode == 0, ran.explain()
    diff = ran.json()["diff"]
    assert diff["case_id"] == "monthly-revenue" and "(claude_code)" in diff["trajectory"]
    assert {c["field"] for c in diff["changes"]} <= set(EDITABLE_FIELDS)
    assert diff["call"]["tokens_in"] > 0 and diff["call"]["tokens_out"] > 0
    assert any("the session:" in w for w in diff["warnings"]), diff
    valid = no_model("evals", "validate", str(skill), home=home, cwd=tmp_path)
    assert valid.returncode == 0, valid.explain()
