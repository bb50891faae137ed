"""`skillforge optimize-description --max-cost-usd` on the local sandbox: every model call
reports 1,000 input tokens at $1 per million, so the loop's spend is known; it stops before
the step that would pass the cap, exit 2, with the attempts scored in full kept."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli.optimize import optimize_description
from tests.trials.scripted_triggers import ScriptedTriggers, trigger_skills

pytestmark = pytest.mark.timeout(120)

PRICES = json.dumps({"scripted-agent": {"input": 1.0, "output": 1.0}})


def fixed_usage(handler):
    def reply(req):
        out = handler(req)
        out.usage = {"input": 1000, "output": 0}
        return out
    return reply


def test_the_loop_stops_at_its_cost_cap(llm_server, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    llm_server.handler = fixed_usage(ScriptedTriggers())
    env = {"OPENAI_BASE_URL": llm_server.openai_base_url,
           "SKILLFORGE_PROVIDER__MODEL": "scripted-agent",
           "SKILLFORGE_PROVIDER__PRICES": PRICES}
    skill = trigger_skills(tmp_path)
    state = tmp_path / "state"
    cap = 0.03
    res = CliRunner().invoke(optimize_description, [
        str(skill), "--iterations", "5", "--runs", "1", "--holdout", "0.5", "--decoys", "2",
        "--sandbox", "local", "--max-cost-usd", str(cap), "--format", "json",
        "--state-dir", str(state)], env=env)
    assert res.exit_code == 2, res.output
    history = json.loads(res.stdout)
    assert history["status"] == "stopped"
    assert history["error"].startswith("stopped at the cost cap: $")
    assert "stopped at the cost cap" in res.stderr
    attempts = history["attempts"]
    # the current description was scored in full; the loop did not get through all five
    assert attempts[0]["train"] is not None and attempts[0]["test"] is not None
    assert len(attempts) < 6 or attempts[-1]["status"] == "stopped"
    # every recorded call, trials and proposals, at $1 per million input tokens
    with RunStore(state) as store:
        trial_usd = sum(t.tokens_in for r in store.runs() for t in store.trials(r.run_id)) / 1e6
    spent = trial_usd + sum(a.get("propose_cost_usd") or 0.0 for a in attempts)
    # no step started past the cap; a trial in flight may end above its estimate
    assert cap - 0.005 < spent <= cap + 0.002, spent
    stopped = [a for a in attempts if a["status"] == "stopped"]
    assert all(a["train"] is None and a["test"] is None for a in stopped)


def test_a_cap_needs_prices(llm_server, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    llm_server.handler = ScriptedTriggers()
    env = {"OPENAI_BASE_URL": llm_server.openai_base_url,
           "SKILLFORGE_PROVIDER__MODEL": "scripted-agent"}
    res = CliRunner().invoke(optimize_description, [
        str(trigger_skills(tmp_path)), "--sandbox", "local", "--max-cost-usd", "1",
        "--state-dir", str(tmp_path / "state")], env=env)
    assert res.exit_code == 2
    assert "no price for scripted-agent" in res.output and "[provider] prices" in res.output
    assert not llm_server.requests
