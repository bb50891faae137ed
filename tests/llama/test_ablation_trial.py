"""Ablation against llama-cpp-python's server: `skillforge trial --ablate ...` (issue 18).

One csv-insights case, one attempt, Docker, no judge, with_skill plus two ablated parts (the
Workflow section and the summary script). Checked: the plumbing (the run completes, each
condition's trial is stored with a valid ATIF trajectory, the parts and their token costs
are in the stored spec, the JSON document and the report's lift.json carry extra.ablation with
one entry per part), never what a small model did with or without a part.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions.atif_rules import validate_trajectory
from sessions.store import RunStore
from skillforge.models.lift import dump_lift_report
from skillforge.report.source import run_lift
from tests.conftest import SAMPLE_SKILLS
from tests.docker_fixtures import managed_containers
from tests.llama.cli import skillforge

pytestmark = [pytest.mark.docker, pytest.mark.timeout(3600)]

PARTS = ("section:workflow", "script:scripts/summarize.py")


def test_an_ablation_run_against_the_real_server(llama_server, trial_image, tmp_path):
    home, state = tmp_path / "home", tmp_path / "state"
    ran = skillforge(llama_server, home, "trial", str(SAMPLE_SKILLS / "csv-insights"),
                     "--cases", "monthly-revenue", "--conditions", "with_skill", "--ablate",
                     ",".join(PARTS), "--attempts", "1", "--max-turns", "3", "--timeout",
                     "1800", "--no-judge", "--image", trial_image, "--state-dir", str(state),
                     "--format", "json", cwd=tmp_path)
    assert ran.returncode == 0, ran.explain()
    doc = ran.json()
    assert managed_containers(doc["run_id"]) == []
    conds = ["with_skill", *[f"without:{p}" for p in PARTS]]
    assert sorted(t["condition"] for t in doc["trials"]) == sorted(conds)
    for t in doc["trials"]:
        assert t["status"] == "ok" and t["error"] is None, (t["condition"], ran.stderr[-2000:])
        assert t["tokens_in"] > 0
        raw = json.loads(Path(t["trajectory_path"]).read_text("utf-8"))
        assert validate_trajectory(raw) == [], t["condition"]
    assert [p["id"] for p in doc["spec"]["parts"]] == list(PARTS)
    assert all(p["tokens"] > 0 for p in doc["spec"]["parts"])
    ablation = doc["ablation"]
    assert [p["part"] for p in ablation["parts"]] == list(PARTS)
    assert all(p["verdict"] == "inconclusive" for p in ablation["parts"])  # one case
    with RunStore(state) as store:  # what `skillforge report` computes
        run = store.run(doc["run_id"])
        lift = json.loads(dump_lift_report(run_lift(store, run, store.trials(run.run_id))))
    parts = lift["extra"]["ablation"]["parts"]
    assert [p["condition"] for p in parts] == conds[1:]
    print(f"[llama] ablation: {[(p['part'], p['verdict'], p['reason']) for p in parts]}")
