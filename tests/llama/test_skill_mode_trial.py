"""Skill Mode against llama-cpp-python's server: `skillforge trial --conditions skill_mode,baseline`.

Two csv-insights cases, one attempt, Docker, no judge. The agent's requests carry the four
skill tools next to bash/read_file/write_file through llama.cpp's function calling. Checked:
the plumbing (the run completes, each trial is stored with a valid ATIF trajectory that
declares the skill tools, the skill_mode trials ran as one chain in case order with their
rows stored), never what a 135M model chose to do with the tools.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions.atif_rules import validate_trajectory
from sessions.store import RunStore
from tests.conftest import SAMPLE_SKILLS
from tests.docker_fixtures import managed_containers
from tests.llama.cli import skillforge

pytestmark = [pytest.mark.docker, pytest.mark.timeout(3600)]

CASES = ("monthly-revenue", "order-stats")
SKILL_TOOLS = {"save_skill", "execute_skill", "list_skills", "get_skill"}


def test_a_skill_mode_run_against_the_real_server(llama_server, trial_image, tmp_path):
    home, state = tmp_path / "home", tmp_path / "state"
    ran = skillforge(llama_server, home, "trial", str(SAMPLE_SKILLS / "csv-insights"),
                     "--cases", ",".join(CASES), "--conditions", "skill_mode,baseline",
                     "--attempts", "1", "--max-turns", "3", "--timeout", "1800", "--no-judge",
                     "--image", trial_image, "--state-dir", str(state), "--format", "json",
                     cwd=tmp_path)
    assert ran.returncode == 0, ran.explain()
    doc = ran.json()
    run_id = doc["run_id"]
    assert managed_containers(run_id) == []
    trials = doc["trials"]
    assert sorted((t["case_id"], t["condition"]) for t in trials) == sorted(
        (c, cond) for c in CASES for cond in ("skill_mode", "baseline"))
    for t in trials:
        where = f"{t['case_id']}/{t['condition']}"
        assert t["status"] == "ok" and t["error"] is None, (where, t, ran.stderr[-2000:])
        assert t["tokens_in"] > 0, where
        raw = json.loads(Path(t["trajectory_path"]).read_text("utf-8"))
        assert validate_trajectory(raw) == [], where
        offered = {d["name"] for d in raw["agent"]["tool_definitions"]}
        assert (SKILL_TOOLS <= offered) == (t["condition"] == "skill_mode"), where
    assert [c["cases"] for c in doc["skill_mode"]] == [list(CASES)]
    with RunStore(state) as store:
        rows = store.skill_mode_trials(run_id)
        assert [(r.case_id, r.seq, r.mode) for r in rows] == [(CASES[0], 0, "grow"),
                                                               (CASES[1], 1, "grow")]
        assert rows[0].cache_before.skills == {}
        assert rows[1].cache_before == rows[0].cache_after
        assert store.final_skill_cache(run_id) == rows[1].cache_after
        print(f"[llama] skill events: {[(e.tool, e.ok, e.failure) for r in rows for e in r.events]}"
              f"; cached: {list(rows[1].cache_after.skills)}")
