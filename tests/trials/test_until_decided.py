"""`skillforge trial --until-decided` on a clear effect stops after the first round (issue
38): real containers, the real console script, the scripted agent of the uniform-harm
fixture (tests/trials/scripted_verdict.py: with the skill every right answer is
overwritten, grader 1 -> 0 on all 8 cases).

One run of 16 containers (of 48 planned): what it prints per round and why it stopped, the
stored record, and the report's anytime-valid headline. Run again, it takes round 1's trials
from the trial cache (no container), stops at round 1 again, and holds no trial of the
rounds it did not need.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli.report import report
from skillforge.trials.rounds import load_record
from tests.docker_fixtures import managed_containers
from tests.trials import scripted_verdict

pytestmark = [pytest.mark.docker, pytest.mark.timeout(600)]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "verdict"


def test_a_clear_harm_stops_at_round_one_with_an_anytime_valid_verdict(cli, llm_server,
                                                                         tmp_path):
    skill = shutil.copytree(FIXTURES / "uniform-harm", tmp_path / "skills" / "uniform-harm")
    llm_server.handler = scripted_verdict.uniform_harm()
    state = tmp_path / "state"
    proc = cli(str(skill), "--until-decided", "--max-attempts", "3", "--no-judge",
               "--concurrency", "3", "--state-dir", str(state))
    assert proc.returncode == 0, proc.stderr
    err = " ".join(proc.stderr.split())
    # the round's interval, printed as the round ends, and why the run stopped
    assert "round 1/3: overall -0.500, 95% anytime-valid [-1.000, " in err
    assert "pass/fail discordant 0 with / 8 without, E = 50.3: hurts" in err
    assert "stopped at round 1 because decided hurts (32 planned trials not needed)" in err
    assert "round 2/3" not in err

    with RunStore(state) as store:
        run = store.runs()[0]
        trials = store.trials(run.run_id)
    assert run.status == "finished" and run.spec.until_decided and run.spec.attempts == 3
    assert {t.attempt for t in trials} == {1} and len(trials) == 16
    assert managed_containers(run.run_id) == []
    record = load_record(RunStore(state), run.run_id)
    assert record is not None and (record.stopped_at, record.reason) == (1, "decided hurts")
    assert [r.round for r in record.rounds] == [1]
    assert record.rounds[0].metrics["grader"].ci_high < 0

    text = " ".join(proc.stdout.split())
    assert ("hurts (overall alone is inconclusive; grader and pass rate decided it; interval: "
            "anytime-valid, stopped at round 1 because decided hurts)") in text

    res = CliRunner().invoke(report, [run.run_id, "--state-dir", str(state), "--format",
                                      "json"])
    assert res.exit_code == 0, res.output
    lift = json.loads(res.output)
    rounds = lift["extra"]["rounds"]
    assert (rounds["stopped_at"], rounds["reason"]) == (1, "decided hurts")
    # the reported intervals are the last round's anytime-valid ones, not the fixed-n ones
    grader = lift["metrics"]["grader"]
    seq = rounds["rounds"][0]["metrics"]["grader"]
    assert (grader["ci_low"], grader["ci_high"]) == (seq["ci_low"], seq["ci_high"])
    assert lift["extra"]["pass_test"]["test"].startswith("anytime-valid mixture SPRT")
    assert lift["extra"]["headline"]["verdict"] == "hurts"
    md = CliRunner().invoke(report, [run.run_id, "--state-dir", str(state)])
    assert "## Rounds (stopped when decided)" in md.output
    assert "Stopped when decided: this run looked at its lift after every round" in \
        " ".join(md.output.split())

    again = cli(str(skill), "--until-decided", "--max-attempts", "3", "--no-judge",
                "--state-dir", str(state))
    assert again.returncode == 0, again.stderr
    err = " ".join(again.stderr.split())
    assert "stopped at round 1 because decided hurts (32 planned trials not needed)" in err
    assert "0 trial(s) run, 16 reused from earlier runs" in err
    with RunStore(state) as store:
        second = store.runs()[0]
        trials = store.trials(second.run_id)
    assert second.run_id != run.run_id and len(trials) == 16
    assert {t.attempt for t in trials} == {1} and all(t.reused_from == run.run_id
                                                      for t in trials)
