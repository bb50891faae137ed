"""`skillforge trial --max-cost-usd` as a user runs it: the real console script, real
containers (two, then two for the resume), the scripted agent and judge behind the loopback server reporting fixed token
counts, so every trial's price is known to the cent. The run stops before the trial that
would pass the cap, exits 2, and its partial results are a report like any other."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from tests.docker_fixtures import managed_containers
from tests.trials.test_judged_trial import judge

pytestmark = [pytest.mark.docker, pytest.mark.timeout(240)]

# $100 per million tokens: a token is $0.0001, so a trial's cost reads off its tokens.
PRICES = json.dumps({"scripted-agent": {"input": 100.0, "output": 100.0}})
AGENT_USAGE = {"input": 1000, "output": 100}  # every agent turn
# monthly-revenue: with_skill takes 3 turns, baseline 4 (tests/trials/scripted_agent.py);
# the judge's scripted answer reports 1,234 + 56 tokens.
WITH_SKILL_USD = (3 * 1100 + 1290) / 10_000  # 0.459
BASELINE_USD = (4 * 1100 + 1290) / 10_000  # 0.569


def priced(agent):
    """The scripted agent with every agent turn reporting AGENT_USAGE."""
    def handler(req):
        reply = agent(req)
        if reply.usage is None:
            reply.usage = dict(AGENT_USAGE)
        return reply
    return handler


def earlier_run(state, skill) -> None:
    """A finished run of the same skill, agent and model: the estimate's source."""
    with RunStore(state) as store:
        store.create_run(RunRecord(run_id="earlier", created_at=datetime.now(UTC),
                                   skill_name=skill.name, skill_path=str(skill),
                                   spec=RunSpec(skill_path=str(skill), model="scripted-agent"),
                                   status="finished"))
        for cond, turns in (("with_skill", 3), ("baseline", 4)):
            store.upsert_trial(TrialRecord(
                run_id="earlier", case_id="monthly-revenue", condition=cond, attempt=1,
                tokens_in=1000 * turns, tokens_out=100 * turns, turns=turns,
                judge_tokens_in=1234, judge_tokens_out=56))


def test_a_run_stops_at_the_cost_cap_with_its_partial_report(cli, csv_skill, scripted,
                                                             llm_server, tmp_path):
    scripted.judge = judge
    llm_server.handler = priced(scripted)
    state = tmp_path / "state"
    earlier_run(state, csv_skill)
    # 2 attempts x 2 conditions; one at a time: with_skill#1 ($0.459), baseline#1 ($0.569:
    # $1.028 so far), then with_skill#2 would make $1.487 > $1.20: it never starts.
    args = (str(csv_skill), "--cases", "monthly-revenue", "--attempts", "2",
            "--concurrency", "1", "--max-cost-usd", "1.2", "--state-dir", str(state))
    env = {"SKILLFORGE_PROVIDER__PRICES": PRICES}
    dry = cli(*args, "--dry-run", "--format", "json", env=env, image=False)
    assert dry.returncode == 0, dry.stderr
    plan = json.loads(dry.stdout)
    assert plan["trials_within_cap"] == 2 and plan["trials"] == 4
    assert abs(plan["cost_usd"] - 2 * (WITH_SKILL_USD + BASELINE_USD)) < 1e-6
    assert "from run earlier" in plan["source"] and "judged run earlier" in plan["judge_source"]

    proc = cli(*args, "--format", "json", env=env)
    assert proc.returncode == 2, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["status"] == "stopped"
    assert doc["stop_reason"].startswith("stopped at the cost cap: $1.0280 spent of $1.2000; "
                                         "2 trial(s) not started")
    assert "stopped at the cost cap" in proc.stderr and "--resume" in proc.stderr
    done = sorted((t["condition"], t["attempt"], t["status"]) for t in doc["trials"])
    assert done == [("baseline", 1, "ok"), ("with_skill", 1, "ok")]
    assert sorted(t["judge_tokens_in"] for t in doc["trials"]) == [1234, 1234]
    run_id = doc["run_id"]
    assert managed_containers(run_id) == []
    with RunStore(state) as store:
        assert store.run(run_id).status == "stopped"
    # the partial results are a report like any finished run's: lift.json and Markdown
    lift = json.loads(CliRunner().invoke(main, ["report", run_id, "--state-dir", str(state),
                                                "--format", "json"]).output)
    assert lift["inventory"]["trials"] == 2 and lift["n_cases"] == 1
    md = CliRunner().invoke(main, ["report", run_id, "--state-dir", str(state)]).output
    assert "monthly-revenue" in md or "1 case" in md
    # a higher cap finishes it: the two trials not started run, the spend so far counted
    proc = cli("--resume", run_id, "--max-cost-usd", "5", "--state-dir", str(state),
               "--format", "json", env=env, image=False)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["status"] == "finished" and len(doc["trials"]) == 4
    assert doc["spec"]["max_cost_usd"] == 5
    # the same run asked for again: every trial would be reused from the cache, at $0
    again = json.loads(cli(*args, "--dry-run", "--format", "json", env=env).stdout)
    assert (again["reused"], again["trials"], again["cost_usd"]) == (4, 0, 0)
    fresh = json.loads(cli(*args, "--dry-run", "--fresh", "--format", "json", env=env).stdout)
    assert (fresh["reused"], fresh["trials"]) == (0, 4)
