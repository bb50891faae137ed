"""`skillforge optimize-description` in process on the local sandbox: the text result (cost
first, the table, the warning, the flips, the diff), --write, --dry-run --format json,
--apply --format json, and bad input with exit code 2 and a message saying what to do."""

from __future__ import annotations

import json
import os
import stat

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
    # where the figures come from: the price table and a stated assumption, no judge
    assert doc["source"].startswith("per-trial figures: the price table and an assumption")
    assert "every trial uses all its 3 turns" in doc["source"]
    assert "no judge calls" in doc["source"] and "proposer asked twice" in doc["source"]
    text = run(str(skill), "--dry-run", "--decoys", "2", "--sandbox", "local").output
    assert "per-trial figures: the price table" in text
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


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_apply_with_json_prints_one_document(run, tmp_path, umask_022):
    """Issue 37: `--apply ID --format json` printed text. Now stdout holds the loop history
    (written_at set) and nothing else; what happened goes to stderr. And loop.json, made by
    the loop, is readable by others as any new file (it was 0600)."""
    skill = trigger_skills(tmp_path)
    loop = run(str(skill), "--iterations", "2", "--runs", "1", "--holdout", "0.5",
               "--decoys", "2", "--sandbox", "local", "--format", "json")
    assert loop.exit_code == 0, loop.output
    loop_id = json.loads(loop.stdout)["loop_id"]
    loop_json = tmp_path / "state" / "triggers" / loop_id / "loop.json"
    assert stat.S_IMODE(loop_json.stat().st_mode) == 0o644

    applied = run(str(skill), "--apply", loop_id, "--format", "json")
    assert applied.exit_code == 0, applied.output
    doc = json.loads(applied.stdout)
    assert doc["loop_id"] == loop_id and doc["written_at"] is not None
    assert doc == json.loads(loop_json.read_text())  # what loop.json now says
    assert "wrote the description of iteration 2" in applied.stderr
    assert WITH_WORDS in (skill / "SKILL.md").read_text()
    assert stat.S_IMODE(loop_json.stat().st_mode) == 0o644  # rewritten, mode kept

    again = run(str(skill), "--apply", loop_id, "--format", "json")
    assert again.exit_code == 2 and "changed since the loop started" in again.stderr
