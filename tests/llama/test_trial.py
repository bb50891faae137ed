"""A paired trial with the built-in agent on llama-cpp-python's server, then its report, as a
user with a local model runs them: `skillforge trial` (2 cases x 2 conditions x 1 attempt
of sample_skills/csv-insights, Docker sandbox, LLM-judged metrics on), `skillforge report`.

Nothing stands between skillforge and the server: the agent's tool calls go through
llama.cpp's chatml-function-calling format, the judges' answers through its
grammar-constrained forced tool call. Checked: the plumbing (every trial ok, every judged
metric has a value, tokens counted, trajectories stored as valid ATIF, the report renders),
never what a 135M model concluded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions.atif_rules import validate_trajectory
from sessions.store import RunStore
from tests.conftest import SAMPLE_SKILLS
from tests.docker_fixtures import managed_containers
from tests.llama.cli import no_model, skillforge

pytestmark = [pytest.mark.docker, pytest.mark.timeout(3600)]

CASES = ("monthly-revenue", "convert-to-jsonl")  # an explicit case and a negative one
JUDGED = ("accuracy", "goal_accuracy", "behavior_check")


def test_a_judged_paired_trial_and_its_report(llama_server, trial_image, tmp_path):
    home, state = tmp_path / "home", tmp_path / "state"

    ran = skillforge(llama_server, home, "trial", str(SAMPLE_SKILLS / "csv-insights"),
                     "--cases", ",".join(CASES), "--attempts", "1", "--max-turns", "2",
                     "--timeout", "1800", "--image", trial_image, "--state-dir", str(state),
                     "--format", "json", cwd=tmp_path)

    assert ran.returncode == 0, ran.explain()
    doc = ran.json()
    assert managed_containers(doc["run_id"]) == []
    trials = doc["trials"]
    assert sorted((t["case_id"], t["condition"]) for t in trials) == sorted(
        (c, cond) for c in CASES for cond in ("with_skill", "baseline"))
    for t in trials:
        where = f"{t['case_id']}/{t['condition']}"
        assert t["status"] == "ok" and t["error"] is None, (where, t, ran.stderr[-2000:])
        assert t["tokens_in"] > 0 and t["tokens_out"] > 0, where
        assert all(t["metrics"][m] is not None for m in JUDGED), (where, t["metrics"],
                                                                  ran.stderr[-2000:])
        raw = json.loads(Path(t["trajectory_path"]).read_text("utf-8"))
        assert validate_trajectory(raw) == [], where
        assert raw["agent"]["model_name"] == llama_server.model
        assert raw["final_metrics"]["total_prompt_tokens"] == t["tokens_in"]
    with RunStore(state) as store:
        rows = store.metrics(doc["run_id"])
        judged = [r for r in rows if r.metric in JUDGED]
        assert len(judged) == len(JUDGED) * len(trials)
        assert {r.judge_model for r in judged} == {llama_server.model}

    report = no_model("report", doc["run_id"], "--format", "json", "--state-dir", str(state),
                      home=home, cwd=tmp_path)
    assert report.returncode == 0, report.explain()
    lift = report.json()
    assert lift["run_id"] == doc["run_id"] and lift["n_cases"] == len(CASES)
    assert lift["inventory"]["ok"] == len(trials) and lift["inventory"]["missing_pairs"] == 0
    assert all(lift["metrics"][m]["n"] == len(CASES) for m in JUDGED)
    markdown = no_model("report", doc["run_id"], "--state-dir", str(state), home=home,
                        cwd=tmp_path)
    assert markdown.returncode == 0 and "csv-insights" in markdown.stdout, markdown.explain()
