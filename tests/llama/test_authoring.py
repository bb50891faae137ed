"""`skillforge judge`, `evals draft` and `evals refine` against llama-cpp-python's server, as a
user with a local model types them: no stand-in between, the real structured-output
fallbacks (the server answers HTTP 500 to `response_format: json_schema`).

SmolLM2-135M's opinions are noise; what is checked is the plumbing: the command succeeds,
its document has the promised shape, tokens were counted, what it stores is valid.
The skill is a small real-looking one (tests/llama/fixtures/word-count) so the prompts
stay a few thousand tokens.
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

pytestmark = pytest.mark.timeout(1800)

SKILL = Path(__file__).parent / "fixtures" / "word-count"
# A real Codex CLI rollout (4 steps, 3 tool calls): small enough for a 135M model's context.
SESSION = CORPUS / "traces" / "codex" / "codemie-ai__codemie-code__turn-spawn-skill.jsonl"


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SKILL, tmp_path / "skills" / SKILL.name))


def test_judge_scores_the_nine_criteria_and_caches_the_verdict(llama_server, skill, tmp_path):
    home = tmp_path / "home"
    args = ("judge", str(skill), "--format", "json", "--fail-under", "0")

    first = skillforge(llama_server, home, *args, cwd=tmp_path)
    again = skillforge(llama_server, home, *args, cwd=tmp_path)

    assert first.returncode == 0, first.explain()
    [result] = first.json()["skills"]
    assert "error" not in result
    assert [c["criterion"] for c in result["criteria"]] == list(CRITERIA)
    assert all(isinstance(c["score"], int | float) and 0 <= c["score"] <= 10
               for c in result["criteria"])
    assert all(c["evidence"].strip() and c["suggestion"].strip() for c in result["criteria"])
    [verdict] = result["judges"]
    assert verdict["model"] == llama_server.model and verdict["attempts"] >= 1
    assert result["tokens_in"] > 0 and result["tokens_out"] > 0
    assert result["rubric_version"] == "2" and result["cached"] is False
    # Stored: the same skill, judge and rubric is answered from the cache, no request.
    assert again.returncode == 0, again.explain()
    [cached] = again.json()["skills"]
    assert cached["cached"] is True and cached["score"] == result["score"]


def test_evals_draft_writes_cases_that_validate(llama_server, skill, tmp_path):
    home = tmp_path / "home"
    before = json.loads((skill / "evals" / "evals.json").read_text())

    ran = skillforge(llama_server, home, "evals", "draft", str(skill), "--kinds",
                     "explicit,negative", "--count", "1", "--write", "--format", "json",
                     cwd=tmp_path)

    assert ran.returncode == 0, ran.explain()
    doc = ran.json()
    proposal = doc["proposal"]
    assert proposal["requested"] == {"explicit": 1, "negative": 1}
    call = proposal["call"]
    assert call["model"] == llama_server.model and call["attempts"] >= 1
    assert call["tokens_in"] > 0 and call["tokens_out"] > 0
    for case in proposal["cases"]:
        assert case["kind"] in ("explicit", "negative")
        assert 2 <= len(case["expected_behavior"]) <= 4
        assert case["prompt"].strip() and case["ground_truth"].strip()
    after = json.loads((skill / "evals" / "evals.json").read_text())
    assert len(after["evals"]) == len(before["evals"]) + len(doc["accepted"])
    valid = no_model("evals", "validate", str(skill), home=home, cwd=tmp_path)
    assert valid.returncode == 0, valid.explain()


def test_evals_refine_from_a_real_codex_session(llama_server, skill, tmp_path):
    home = tmp_path / "home"

    ran = skillforge(llama_server, home, "evals", "refine", str(skill), "--case", "notes-words",
                     "--from", str(SESSION), "--write", "--format", "json", cwd=tmp_path)

    assert ran.returncode == 0, ran.explain()
    diff = ran.json()["diff"]
    assert diff["case_id"] == "notes-words" and "(codex)" in diff["trajectory"]
    assert {c["field"] for c in diff["changes"]} <= set(EDITABLE_FIELDS)
    assert len({c["field"] for c in diff["changes"]}) == len(diff["changes"])
    assert diff["call"]["tokens_in"] > 0 and diff["call"]["tokens_out"] > 0
    valid = no_model("evals", "validate", str(skill), home=home, cwd=tmp_path)
    assert valid.returncode == 0, valid.explain()
