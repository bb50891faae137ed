"""Version comparison: the baseline runs an earlier version of the skill (git:REF) instead of
no skill; the statistics are the same and the report calls it a version delta."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.lift.compute import lift_for_run
from skillforge.models.lift import VERSION_DELTA

pytestmark = [pytest.mark.docker, pytest.mark.timeout(300)]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@x", "PATH": "/usr/bin:/bin:/usr/local/bin"})


@pytest.fixture
def versioned_skill(csv_skill: Path) -> Path:
    """csv-insights in a git repository whose previous commit lacked its scripts."""
    repo = csv_skill.parent
    scripts = csv_skill / "scripts"
    kept = repo / "kept-scripts"
    shutil.move(scripts, kept)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A", str(csv_skill))
    _git(repo, "commit", "-qm", "v1: no scripts yet")
    shutil.move(kept, scripts)  # summarize.py and the report_format.py it imports
    _git(repo, "add", "-A", str(csv_skill))
    _git(repo, "commit", "-qm", "v2: add the scripts")
    return csv_skill


def test_baseline_version_runs_the_earlier_version_and_reports_a_version_delta(
        cli, versioned_skill, scripted, tmp_path):  # noqa: F811
    state = tmp_path / "state"
    proc = cli(str(versioned_skill), "--cases", "monthly-revenue", "--attempts", "1", "--no-judge",
               "--baseline-version", "git:HEAD~1", "--state-dir", str(state), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["spec"]["baseline_version"] == "git:HEAD~1"
    by_cond = {t["condition"]: t for t in doc["trials"]}
    with RunStore(state) as store:
        run = store.run(doc["run_id"])
        trials = store.trials(doc["run_id"])
        report = lift_for_run(run, trials)
    # The earlier version is staged under the same name, so the agent finds and reads it in
    # both conditions; only the current version has the script the agent then runs.
    base = next(t for t in trials if t.condition == "baseline")
    cur = next(t for t in trials if t.condition == "with_skill")
    assert base.activated and cur.activated
    assert (cur.script_runs, cur.script_runs_ok) == (1, 1)
    assert base.script_runs_ok == 0
    assert by_cond["with_skill"]["grader"] == 1.0
    assert (by_cond["baseline"]["grader"] or 0.0) < 1.0
    assert report.extra.label == VERSION_DELTA
    assert report.metrics["grader"].lift > 0
