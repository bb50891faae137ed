"""The headline a run leaves behind, on the hostile and degenerate runs of issue 33: real
containers, the real `skillforge trial` console script, a scripted agent that obeys the
skill under test (tests/trials/scripted_verdict.py, tests/fixtures/verdict/).

- uniform harm: the skill overwrites every right answer (grader 1 -> 0 on all 8 cases).
  Before: "Overall Skill Lift +0.251 ... helps" and `--gate` exited 0. Now: hurts, exit 1.
- grader crash: the skill makes the grader crash where its answer would be wrong. Before,
  those trials were errors the lift left out, and the rest read "helps". Now they are
  failed grades.
- routing only: a skill whose only step is a greeting. Before: overall about +0.44 from
  skill_execution and routing alone. Now: lift 0, and "used in 8 of 8 cases" apart.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.docker_fixtures import managed_containers
from tests.trials import scripted_verdict

pytestmark = [pytest.mark.docker, pytest.mark.timeout(600)]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "verdict"


def _skill(name: str, tmp_path: Path) -> Path:
    dest = tmp_path / "skills" / name
    shutil.copytree(FIXTURES / name, dest)
    return dest


def _run(cli, llm_server, tmp_path, name: str, agent, *extra: str):
    llm_server.handler = agent
    state = tmp_path / "state"
    proc = cli(str(_skill(name, tmp_path)), "--attempts", "1", "--no-judge", "--concurrency",
               "3", "--state-dir", str(state), *extra)
    return proc, state


def test_a_skill_that_breaks_every_case_reads_hurts_and_fails_the_gate(cli, llm_server,
                                                                        tmp_path):
    proc, state = _run(cli, llm_server, tmp_path, "uniform-harm",
                       scripted_verdict.uniform_harm(), "--format", "json", "--gate")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    graders = {(t["case_id"], t["condition"]): t["grader"] for t in doc["trials"]}
    assert sorted(set(graders.values())) == [0.0, 1.0] and len(graders) == 16
    assert all(graders[(c, "with_skill")] == 0.0 and graders[(c, "baseline")] == 1.0
               for c, _ in graders)
    lift = doc["lift"]
    assert lift["metrics"]["grader"]["verdict"] == "hurts"
    # overall averages the grader with security (which held), so its deltas are -0.5, and 8
    # of them leave room for a hidden mass at +1; the grader's -1s and the pass test do not
    assert lift["metrics"]["overall"]["lift"] == pytest.approx(-0.5)
    assert lift["extra"]["overall_of"] == ["grader", "security"]
    assert lift["extra"]["headline"] == {
        "verdict": "hurts", "by": ["grader", "pass rate"],
        "note": "overall alone is inconclusive; grader and pass rate decided it"}
    test = lift["extra"]["pass_test"]
    assert (test["kind"], test["with_only"], test["base_only"]) == ("pairs", 0, 8)
    assert test["p_value"] == pytest.approx(2 / 256) and test["verdict"] == "hurts"
    assert set(lift["extra"]["plans"]) <= {"overall", "security", "accuracy",
                                          "goal_accuracy", "behavior_check"}
    assert "skill_execution" not in lift["metrics"]
    assert lift["extra"]["use"]["used"] == 8
    failures = doc["gate"]["failures"]
    assert [f.split(":")[0] for f in failures] == ["grader", "pass rate"]
    assert managed_containers(doc["run_id"]) == []
    # The text a person reads says harm in its headline, with the same exit code.
    again = cli("--resume", doc["run_id"], "--state-dir", str(state), "--gate", "--no-judge",
                image=False)
    assert again.returncode == 1
    text = " ".join(again.stdout.split())
    assert "Overall Skill Lift (mean of grader, security): -0.500" in text
    assert ("): hurts (overall alone is inconclusive; grader and pass rate decided it), over "
            "8 paired case(s).") in text
    assert "gate: grader: the skill hurts" in text and "gate: pass rate:" in text
    assert "use (not lift): The agent used the skill in 8 of 8 cases" in text


def test_a_skill_that_crashes_the_grader_on_its_failures_gets_no_helps(cli, llm_server,
                                                                      tmp_path):
    proc, _state = _run(cli, llm_server, tmp_path, "grader-crash",
                        scripted_verdict.grader_crash(), "--format", "json", "--gate")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    crashed = [t for t in doc["trials"] if t["error_stage"] == "grader"]
    # the six odd sets with the skill: the agent ran, the grader crashed -> graded 0
    assert sorted(t["case_id"] for t in crashed) == [f"sum-{k}" for k in (1, 11, 3, 5, 7, 9)]
    assert all(t["condition"] == "with_skill" and t["status"] == "ok" and t["grader"] == 0.0
               and "fail-closed" in t["error"] for t in crashed)
    lift = doc["lift"]
    assert lift["extra"]["errors"]["grader_failed"] == {"with": 6, "base": 0}
    assert lift["extra"]["errors"]["excluded"] == {"with": 0, "base": 0}
    grader = lift["metrics"]["grader"]
    # odd sets -1 x 6, even sets +1 x 5 and 0 x 1: leaving the crashes out read +0.83 helps
    assert grader["n"] == 12 and grader["lift"] == pytest.approx(-1 / 12)
    assert grader["verdict"] == "inconclusive" and lift["metrics"]["overall"]["verdict"] != \
        "helps"
    assert lift["extra"]["pass_test"]["verdict"] == "inconclusive"
    assert ("6 grader failure(s) after the agent ran, counted as failed grades (0): "
            "6 with_skill, 0 baseline") in lift["extra"]["errors"]["note"]


def test_a_skill_the_agent_only_reads_has_no_lift_only_use(cli, llm_server, tmp_path):
    proc, state = _run(cli, llm_server, tmp_path, "routing-only",
                       scripted_verdict.routing_only(), "--format", "json", "--gate")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    lift = doc["lift"]
    overall = lift["metrics"]["overall"]
    assert overall["lift"] == pytest.approx(0.0) and overall["verdict"] == "inconclusive"
    assert all(row["verdict"] != "helps" for row in lift["metrics"].values())
    assert set(lift["metrics"]) == {"grader", "accuracy", "goal_accuracy", "behavior_check",
                                    "security", "overall"}
    use = lift["extra"]["use"]
    assert (use["used"], use["cases"]) == (8, 8)
    assert use["metrics"]["skill_execution"]["with"] == 1.0
    assert use["metrics"]["skill_execution"]["base"] == 0.0
    assert use["note"].startswith("The agent used the skill in 8 of 8 cases")
    # the Markdown report a person shares says the same: no lift, the use apart
    from click.testing import CliRunner

    from skillforge.cli.report import report

    res = CliRunner().invoke(report, [doc["run_id"], "--state-dir", str(state)])
    assert res.exit_code == 0, res.output
    md = " ".join(res.output.split())
    assert "> Overall Skill Lift (mean of grader, security): 0.000" in md
    assert "## How the skill was used The agent used the skill in 8 of 8 cases" in md
    assert "| skill_execution |" not in md


def test_a_sparse_file_left_on_a_wrong_answer_is_a_failed_grade(cli, llm_server, tmp_path):
    # Issue 34: a workspace the grading container cannot hold turned the trial into an error
    # the lift left out. It is the grade of a trial whose agent ran: 0, saying why.
    proc, _state = _run(cli, llm_server, tmp_path, "grader-crash",
                        scripted_verdict.sparse_on_failure(), "--cases", "sum-1",
                        "--disk-mb", "256", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    (sparse,) = [t for t in doc["trials"] if t["condition"] == "with_skill"]
    assert (sparse["status"], sparse["grader"], sparse["error_stage"]) == ("ok", 0.0, "grader")
    assert "could not be copied" in sparse["error"] and "fail-closed" in sparse["error"]
    assert doc["lift"]["extra"]["errors"]["grader_failed"] == {"with": 1, "base": 0}
    assert managed_containers(doc["run_id"]) == []
