"""`skillforge report`: from a lift.json file or a stored run, to stdout or a file; exit 2
with a clear message for an unknown run, a missing store or a broken file."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from sessions.atif import Trajectory
from sessions.store import RunStore
from skillforge.cli.report import report
from skillforge.lift.compute import lift_for_run
from skillforge.models.lift import dump_lift_report, save_lift_report
from skillforge.models.trial import RunRecord, RunSpec
from skillforge.report import render_html, render_markdown
from tests.report.synthetic import (
    RUN_ID,
    SKILL,
    atif,
    misused_pair,
    never_discovered_pair,
    realistic_report,
    realistic_trials,
)


def _invoke(*args: str):
    return CliRunner().invoke(report, list(args), catch_exceptions=False)


@pytest.fixture
def lift_file(tmp_path):
    path = tmp_path / "lift.json"
    save_lift_report(realistic_report(), path)
    return path


@pytest.fixture
def state_dir(tmp_path):
    """A run store holding the synthetic run, and the trajectories of two negative cases."""
    state = tmp_path / "state"
    run = RunRecord(run_id=RUN_ID, created_at=datetime(2026, 11, 20, 10, 3, tzinfo=UTC),
                    skill_name=SKILL, status="finished",
                    spec=RunSpec(skill_path="sample_skills/csv-insights", agent="builtin",
                                 model="gpt-4.1-mini"))
    older = run.model_copy(update={"run_id": "20261119T090000-000000",
                                   "created_at": datetime(2026, 11, 19, tzinfo=UTC)})
    with RunStore(state) as store:
        store.create_run(older)
        store.create_run(run)
        for t in realistic_trials():
            store.upsert_trial(t)
        pairs = {"pivot-by-region": misused_pair(), "q4-top-region": never_discovered_pair()}
        for case_id, pair in pairs.items():
            for cond, data in pair.items():
                # the representative attempt of these cases is stored for every attempt
                for attempt in range(3):
                    data = {**data, "extra": {**data["extra"], "attempt": attempt}}
                    store.save_trajectory(Trajectory.model_validate(data), run_id=RUN_ID,
                                          case_id=case_id, condition=cond, attempt=attempt)
    return state


def test_a_lift_json_file_renders_as_markdown_html_and_json(lift_file, tmp_path):
    res = _invoke(str(lift_file))
    assert res.exit_code == 0
    assert res.output == render_markdown(realistic_report())
    res = _invoke(str(lift_file), "--format", "json")
    assert res.output == lift_file.read_text("utf-8")
    out = tmp_path / "out" / "report.html"
    res = _invoke(str(lift_file), "--format", "html", "-o", str(out))
    assert res.exit_code == 0 and f"wrote {out}" in res.stderr
    assert out.read_text("utf-8") == render_html(realistic_report())
    assert list(out.parent.iterdir()) == [out]  # no temp file left behind


def test_a_missing_or_broken_file_exits_2_naming_it(tmp_path):
    res = _invoke(str(tmp_path / "nope.json"))
    assert res.exit_code == 2 and "nope.json: no such file" in res.stderr
    broken = tmp_path / "lift.json"
    broken.write_text('{"run_id": "x",\n  "metrics": [\n', "utf-8")
    res = _invoke(str(broken))
    assert res.exit_code == 2 and f"{broken}:3: not valid JSON" in res.stderr


def test_a_lift_json_computed_with_a_withdrawn_interval_still_renders(lift_file):
    doc = json.loads(lift_file.read_text("utf-8"))
    doc["extra"].update(ci_method="skew-t")
    lift_file.write_text(json.dumps(doc), "utf-8")
    res = _invoke(str(lift_file))
    assert res.exit_code == 0, res.stderr
    assert "computed with the skew-t interval, which skillforge no longer offers" in \
        " ".join(res.output.split())
    # a withdrawn interval cannot be asked for (tests/trials/test_ci_choice.py)
    assert _invoke(str(lift_file), "--ci", "skew-t").exit_code == 2


def test_latest_run_is_recomputed_from_the_store(state_dir):
    res = _invoke("--state-dir", str(state_dir), "--format", "json")
    assert res.exit_code == 0, res.stderr
    with RunStore(state_dir) as store:
        run = store.run(RUN_ID)
        expected = lift_for_run(run, store.trials(RUN_ID))
    assert res.output == dump_lift_report(expected)
    by_id = _invoke(RUN_ID, "--state-dir", str(state_dir), "--format", "json")
    assert by_id.output == res.output


def test_stored_trajectories_of_negative_cases_go_side_by_side(state_dir):
    res = _invoke("latest", "--state-dir", str(state_dir), "--format", "html")
    assert res.exit_code == 0
    assert res.output.count('<div class="sbs">') == 2
    assert "skill opened: csv-insights" in res.output
    md = _invoke("latest", "--state-dir", str(state_dir)).output
    # with-skill overall of pivot-by-region's attempts: 0.481, 0.510, 0.506 (mean 0.499), so
    # the representative attempt shown is attempt 2
    assert "**with_skill** (attempt 2): 6 steps, 3 tool calls; opened csv-insights" in md


def test_a_missing_trajectory_file_is_a_warning_not_a_failure(state_dir):
    for path in (state_dir / "runs").rglob("pivot-by-region__with_skill__*.json"):
        path.unlink()
    res = _invoke("latest", "--state-dir", str(state_dir), "--format", "html")
    assert res.exit_code == 0
    assert "warning: trajectory" in res.stderr and "is missing" in res.stderr
    assert res.output.count('<div class="sbs">') == 2  # the baseline side is still shown
    assert "no trajectory stored" in res.output


def test_unknown_run_exits_2_and_lists_recent_runs(state_dir):
    res = _invoke("20200101T000000-ffffff", "--state-dir", str(state_dir))
    assert res.exit_code == 2
    assert "no run '20200101T000000-ffffff'" in res.stderr
    assert f"recent runs: {RUN_ID}, 20261119T090000-000000" in res.stderr


def test_no_store_exits_2_and_creates_nothing(tmp_path):
    state = tmp_path / "empty"
    res = _invoke("latest", "--state-dir", str(state))
    assert res.exit_code == 2 and "no run store at" in res.stderr
    assert not state.exists()


def test_an_empty_store_says_it_has_no_runs(tmp_path):
    RunStore(tmp_path / "s").close()
    res = _invoke("--state-dir", str(tmp_path / "s"))
    assert res.exit_code == 2 and "no runs in" in res.stderr and "has no runs yet" in res.stderr


def test_atif_helper_round_trips_through_the_store_model():
    # the synthetic trajectories are valid ATIF, so the store accepts them as they are
    Trajectory.model_validate(atif("c", "baseline", misused_pair()["baseline"]["steps"]))
