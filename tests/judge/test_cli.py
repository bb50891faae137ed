"""`skillforge judge` as users run it: the installed console script in a subprocess, pointed
at the loopback server through the environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from skillforge.models.judge import CRITERIA
from skillforge.providers.select import NOT_CONFIGURED
from tests.conftest import ROOT
from tests.judge.answers import rubric_answer
from tests.llm_fixtures import PROVIDER_ENV_PREFIXES
from tests.llm_server import error, structured

SKILLFORGE = Path(sys.executable).with_name("skillforge")


@pytest.fixture(autouse=True)
def _judge_is_registered():
    from skillforge.cli import COMMANDS

    assert "judge" in COMMANDS, (
        "register skillforge.cli.judge:judge in COMMANDS in skillforge/cli/__init__.py")


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(PROVIDER_ENV_PREFIXES)}
    return subprocess.run([str(SKILLFORGE), "judge", *args], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=120, check=False)


def local(server, model: str = "judge-model", **extra: str) -> dict[str, str]:
    return {"OPENAI_BASE_URL": server.openai_base_url, "OPENAI_API_KEY": "test-key",
            "SKILLFORGE_PROVIDER__MODEL": model, **extra}


def test_json_output_has_the_nine_criteria_score_and_grade(llm_server):
    llm_server.handler = lambda req: structured(rubric_answer({"examples": 5, "safety": 9}))

    proc = run(["sample_skills/csv-insights", "--format", "json"], **local(llm_server))

    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    [skill] = doc["skills"]
    assert [c["criterion"] for c in skill["criteria"]] == list(CRITERIA)
    assert skill["criteria"][5]["score"] == 5
    assert skill["score"] == pytest.approx(10 * (7 * 7 + 5 + 9) / 9, abs=0.05)
    assert skill["grade"] == "C" and skill["passed_gate"] is True
    assert skill["skill_name"] == "csv-insights" and skill["models"] == ["judge-model"]
    assert doc["summary"] == {"skills": 1, "passed": 1, "failed": 0, "errors": 0}
    [req] = llm_server.completions
    assert req.model == "judge-model" and req.headers["authorization"] == "Bearer test-key"
    assert "csv-insights" in req.last_message_text()


def test_text_output_then_cached(llm_server):
    llm_server.handler = lambda req: structured(rubric_answer(8))
    env = local(llm_server)

    first = run(["sample_skills/csv-insights", "--model", "judge-a"], **env)
    second = run(["sample_skills/csv-insights", "--model", "judge-a"], **env)

    assert first.returncode == 0, first.stderr
    for word in ("judge score 80 (B)", "criterion", "evidence", "suggestion", "quote for trigger",
                 "improve safety", "tokens in"):
        assert word in first.stdout
    assert "cached" in second.stdout and "$0 (cached)" in second.stdout
    assert len(llm_server.completions) == 1


def test_a_score_under_fail_under_exits_1(llm_server):
    llm_server.handler = lambda req: structured(rubric_answer(6))
    proc = run(["sample_skills/csv-insights", "--format", "json", "--fail-under", "65"],
               **local(llm_server))
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["skills"][0]["passed_gate"] is False


def test_no_provider_exits_2_with_what_to_set():
    proc = run(["sample_skills/csv-insights"])
    assert proc.returncode == 2
    assert NOT_CONFIGURED in proc.stderr
    assert "Traceback" not in proc.stderr


def test_provider_failure_exits_2_with_a_message_not_a_traceback(llm_server):
    llm_server.handler = lambda req: error(503, "upstream overloaded")
    proc = run(["sample_skills/csv-insights", "--format", "json"],
               **local(llm_server, SKILLFORGE_PROVIDER__MAX_RETRIES="1"))
    assert proc.returncode == 2
    assert "HTTP 503" in proc.stderr and "upstream overloaded" in proc.stderr
    assert "after 2 attempts" in proc.stderr and "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["skills"][0]["error"]


def test_several_models_in_one_run(llm_server):
    llm_server.handler = lambda req: structured(
        rubric_answer({"workflow": 9 if req.model == "a" else 4}, default=8))
    proc = run(["sample_skills/csv-insights", "--model", "a", "--model", "b"],
               **local(llm_server))
    assert proc.returncode == 0, proc.stderr
    assert "judges disagree (spread >= 3) on: workflow (5)" in proc.stdout
    assert sorted(r.model for r in llm_server.completions) == ["a", "b"]


def test_tokens_a_server_did_not_report_are_said_to_be_counted(llm_server):
    # llama-cpp-python's server streams no usage: skillforge counts the tokens, and says so.
    llm_server.llama_cpp = True
    llm_server.handler = lambda req: structured(rubric_answer(7))
    env = local(llm_server, "judge-counted")

    shown = run(["sample_skills/csv-insights"], **env)
    doc = run(["sample_skills/csv-insights", "--format", "json", "--no-cache"], **env)

    assert shown.returncode == 0, shown.stderr
    assert "(counted by skillforge: the server sent none)" in " ".join(shown.stdout.split())
    [skill] = json.loads(doc.stdout)["skills"]
    assert skill["tokens_estimated"] is True and skill["tokens_in"] > 0
    assert skill["tokens_out"] > 0 and skill["judges"][0]["tokens_estimated"] is True
