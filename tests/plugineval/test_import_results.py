"""`skillforge import plugin-eval` on results the real Claude Code 2.1.327 wrote
(tests/fixtures/plugineval/README.md says how each was recorded)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from sessions.atif import load_trajectory
from sessions.atif_rules import validate_trajectory
from sessions.store import RunStore
from skillforge.lift.cases import trial_passes
from skillforge.plugineval.importer import import_plugin_eval
from skillforge.plugineval.results import PluginEvalFileError, load_results
from skillforge.trajectory.compare_data import load_case_attempts
from tests.trials.conftest import SKILLFORGE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "plugineval"


def _stored(state: Path, run_id: str) -> dict:
    with RunStore(state) as store:
        return {t.key: t for t in store.trials(run_id)}


def test_every_run_becomes_a_trial_with_plugin_evals_own_grades(tmp_path):
    result = load_results(FIXTURES / "kept" / "aggregate-result.json")
    with RunStore(tmp_path) as store:
        rep = import_plugin_eval(FIXTURES / "kept", store)
        run = store.run(rep.run_id)
    trials = _stored(tmp_path, rep.run_id)
    # the plugin's skill, found from the traces' init event (its folder is not here)
    assert (rep.plugin, rep.skill, rep.claude_version) == ("csvtools", "csv-summary", "2.1.327")
    assert run.engine == "import" and run.spec.agent == "claude-code"
    assert run.spec.model == "claude-opus-5-5" and run.spec.pass_threshold == 1.0
    assert len(trials) == rep.trials == rep.traces == 4
    for case in result.cases:
        for arm, condition in (("with", "with_skill"), ("without", "baseline")):
            for attempt, got in enumerate(case.arms[arm], start=1):
                t = trials[(case.name, condition, attempt)]
                assert t.grader == got.score
                assert t.grader_detail == {g.name: float(g.passed) for g in got.graders}
                assert trial_passes(t, graded=True, threshold=1.0) is got.passed
                assert t.cost_usd == got.cost_usd and t.status == "ok"
                traj = load_trajectory(t.trajectory_path)
                assert validate_trajectory(traj) == []
                assert traj.extra["plugin_eval"]["score"] == got.score
    with_, base = trials[("monthly-revenue", "with_skill", 1)], trials[
        ("monthly-revenue", "baseline", 1)]
    assert (with_.activated, with_.metrics["skill_execution"]) == (True, 1.0)
    assert with_.tokens_in > 0 and with_.tokens_out > 0
    assert base.activated is False
    # skillforge decides the regex, tool_used and file_exists graders again on the traces
    assert rep.graders_compared == 10 and rep.disagreements == []
    # the workbench's side-by-side view reads the run as any other
    with RunStore(tmp_path) as store:
        pair = load_case_attempts(store, rep.run_id, "monthly-revenue")
    assert [len(pair.sides[s]) for s in ("with_skill", "baseline")] == [2, 2]
    first = pair.sides["with_skill"][0]
    assert first.problem is None and "7657.92" in first.final_answer
    checks = first.evidence["grader"].evidence["skillforge_checks"]
    assert {c["grader"]: c["plugin_eval"] for c in checks} == {
        "says-total": True, "used-skill": True, "wrote-summary": True}


def test_api_errors_are_left_out_and_timeouts_kept_as_locally(tmp_path):
    with RunStore(tmp_path) as store:
        rep = import_plugin_eval(FIXTURES / "errors" / "aggregate-result.json", store)
    trials = _stored(tmp_path, rep.run_id)
    broken = trials[("broken", "with_skill", 1)]
    assert (broken.status, broken.error_cause, broken.grader) == ("error", "infrastructure",
                                                                  None)
    assert broken.excluded and "API Error: 500" in broken.error
    slow = trials[("slow", "baseline", 1)]
    assert (slow.status, slow.grader, slow.grader_detail) == ("timeout", 0.0,
                                                              {"says-thinking": 0.0})
    # their temporary folders are gone: imported without trajectories, and said so
    assert rep.traces == 0 and rep.traces_missing == 4
    assert all(t.trajectory_path is None for t in trials.values())


def test_the_cli_imports_a_plugin_folder_and_the_run_reports(tmp_path):
    plugin = tmp_path / "plugin"
    shutil.copytree(FIXTURES / "kept", plugin / "evals" / "results" / "20261205-132503")
    state = tmp_path / "state"
    done = subprocess.run([SKILLFORGE, "import", "plugin-eval", str(plugin), "--state-dir",
                           str(state), "--format", "json"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    again = subprocess.run([SKILLFORGE, "import", "plugin-eval", str(plugin), "--state-dir",
                            str(state)], capture_output=True, text=True, timeout=120,
                           check=False)
    assert again.returncode == 0 and "replaced an earlier import" in again.stdout
    assert "monthly-revenue  1.00  0.50  +0.50" in again.stdout
    report = subprocess.run([SKILLFORGE, "report", doc["run_id"], "--state-dir", str(state),
                             "--format", "json"], capture_output=True, text=True, timeout=120,
                            check=False)
    assert report.returncode == 0, report.stderr
    lift = json.loads(report.stdout)
    (row,) = lift["extra"]["cases"]
    # claude plugin eval's per-case numbers are the grader metric's here
    assert (row["with"]["grader"], row["base"]["grader"], row["delta"]["grader"]) == \
        (1.0, 0.5, 0.5)
    assert lift["pass"]["with"] == 1.0 and lift["pass"]["base"] == 0.0


@pytest.mark.parametrize("text, message", [
    ("{}", "not a `claude plugin eval`"),
    ('{"schemaVersion": 9, "cases": []}', "schemaVersion 9"),
    ("nope", "cannot be read as JSON"),
])
def test_unreadable_results_are_named(tmp_path, text, message):
    path = tmp_path / "aggregate-result.json"
    path.write_text(text)
    with pytest.raises(PluginEvalFileError, match=message), RunStore(tmp_path / "s") as store:
        import_plugin_eval(path, store)


def test_the_cli_says_what_is_missing(tmp_path):
    done = subprocess.run([SKILLFORGE, "import", "plugin-eval", str(tmp_path / "nowhere")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and "no such file or folder" in done.stderr
