"""`skillforge optimize-description` in process on the local sandbox: the text result (cost
first, the table, the warning, the flips, the diff), --write, --dry-run --format json, and
bad input with exit code 2 and a message saying what to do."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from skillforge.cli.optimize import optimize_description
from tests.trials.scripted_triggers import WITH_WORDS, ScriptedTriggers, trigger_skills

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def run(llm_server, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    env = {"OPENAI_BASE_URL": llm_server.openai_base_url,
           "SKILLFORGE_PROVIDER__MODEL": "scripted-agent"}
    llm_server.handler = ScriptedTriggers()

    def invoke(*args: str):
        return CliRunner().invoke(optimize_description, [*args, "--state-dir",
                                                         str(tmp_path / "state")], env=env)
    return invoke


def test_text_result_then_write(run, tmp_path):
    skill = trigger_skills(tmp_path)
    before = (skill / "SKILL.md").read_text()
    res = run(str(skill), "--iterations", "2", "--runs", "1", "--holdout", "0.5",
              "--decoys", "2", "--sandbox", "local", "--write")
    assert res.exit_code == 0, res.output
    out = res.output
    assert out.index("trigger trials: at most 24") < out.index("iter  status")
    assert "estimated cost (upper bound)" in out
    assert "warning: the test difference to the current description" in out
    assert "Queries that flipped (current -> best):" in out and "fixed" in out
    assert "+description: " + WITH_WORDS in out
    assert "wrote the description of iteration 2" in out
    after = (skill / "SKILL.md").read_text()
    assert after != before and WITH_WORDS in after


def test_dry_run_json_runs_nothing(run, tmp_path, llm_server):
    skill = trigger_skills(tmp_path)
    res = run(str(skill), "--dry-run", "--format", "json", "--decoys", "2", "--sandbox",
              "local")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["trials"] == 6 * 8 * 3 and doc["queries"] == 8
    assert not llm_server.requests
    assert not (tmp_path / "state" / "triggers").exists() or not any(
        (tmp_path / "state" / "triggers").iterdir())


def test_too_few_trigger_queries_is_exit_2_with_the_fix(run, tmp_path):
    skill = trigger_skills(tmp_path)
    (skill / "evals" / "evals.json").write_text(json.dumps({"evals": [
        {"id": "a", "prompt": "x", "should_trigger": True}]}))
    res = run(str(skill), "--sandbox", "local")
    assert res.exit_code == 2
    assert "at least 2 of each" in res.output and "should_trigger" in res.output
