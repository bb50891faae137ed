"""skillforge's Harbor files checked by Harbor itself (its own interpreter and models).

Harbor needs Python >= 3.12; tests/harbor/harbor_env.py makes its venv once (outside the
repository) and these tests call it through tests/harbor/harbor_checks.py. Without any
Python >= 3.12 on the machine, or when the install fails, they fail saying why.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import asdict
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.harbor.importer import import_harbor_job
from tests.harbor.jobs import T0, trial_times, write_job, write_trial_files
from tests.harbor.scenario import CASES, check_scenario, scenario_specs
from tests.harbor.test_export import DECOY, SUPPORT
from tests.harbor.test_import import add_unusable_trials

pytestmark = pytest.mark.timeout(1800)  # the first run installs Harbor (a few minutes)


def harbor_json(harbor_env, *args: str) -> dict:
    done = harbor_env.run(*args)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_harbor_loads_every_exported_task(harbor_env, export_csv):
    result = export_csv(conditions=["with_skill", "baseline", "self_generated"],
                        workspace="group", support_skills=[SUPPORT], decoy_skills=[DECOY])
    ds = Path(result.dataset_dir)
    checked = harbor_json(harbor_env, "tasks", *[str(ds / t.folder) for t in result.tasks])
    assert len(checked) == 18
    for task in result.tasks:
        got = checked[str(ds / task.folder)]
        assert got["ok"], got
        assert got["valid_dir"] and got["unknown_keys"] == []
        assert got["name"] == task.name and got["schema_version"] == "1.4"
        assert got["metadata"]["skillforge"]["case_id"] == task.case_id
        assert got["metadata"]["skillforge"]["condition"] == task.condition
        assert (got["skills_dir"], got["workdir"], got["docker_image"]) == (
            "/skills", "/workspace", None)
        assert (got["env_network_mode"], got["agent_network_mode"],
                got["verifier_network_mode"]) == ("public", None, None)  # docker
        assert (got["cpus"], got["memory_mb"], got["agent_timeout_sec"],
                got["verifier_timeout_sec"]) == (1, 2048, 600.0, 120.0)
        assert got["test_script"].endswith("/tests/test.sh")
        instruction = (ds / task.folder / "instruction.md").read_text()
        assert got["instruction"] == instruction  # what Harbor will hand the agent


def test_harbor_plans_the_job_the_readme_gives(harbor_env, export_csv):
    result = export_csv(case_ids=["monthly-revenue", "order-stats"], attempts=3)
    readme = (Path(result.dataset_dir) / "README.md").read_text()
    command = re.search(r"^harbor run -p (\S+) -e docker -a <agent> -m <model> -k 3 -n 4$",
                        readme, re.MULTILINE)
    assert command is not None
    done = subprocess.run(
        [str(harbor_env.harbor), "run", "-p", command.group(1), "-e", "docker", "-a",
         "terminus-2", "-m", "openai/gpt-4o", "-k", "3", "-n", "4", "--dry-run"],
        capture_output=True, text=True, timeout=600, cwd=Path(result.dataset_dir).parent,
        # Harbor 0.25 refuses to plan terminus-2 without a key; a dry run sends nothing.
        env={**harbor_env.env(), "OPENAI_API_KEY": "sk-dry-run-sends-nothing"}, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    # 4 tasks (2 cases x 2 conditions) x 3 attempts.
    assert "Dry run OK" in done.stdout and "12 trial(s)" in done.stdout


def test_the_hand_built_job_is_what_harbors_models_read(harbor_env, export_csv, tmp_path):
    export = export_csv(case_ids=CASES, attempts=2)
    job = write_job(tmp_path / "jobs" / "by-hand", Path(export.dataset_dir),
                    scenario_specs(export), attempts=2)
    checked = harbor_json(harbor_env, "job", str(job))
    # Valid, and no key Harbor's models do not define (they would ignore a misspelt one).
    assert checked["config.json"] == {"ok": True, "unknown_keys": []}
    assert checked["result.json"] == {"ok": True, "unknown_keys": []}
    assert len(checked["trials"]) == 8
    for name, trial in checked["trials"].items():
        assert trial["ok"] and trial["unknown_keys"] == [], (name, trial)
    rewards = {t["task_name"]: t["rewards"] for t in checked["trials"].values()
               if t["exception"] is None}
    assert rewards["csv-insights/convert-to-jsonl__baseline"] == {"reward": 1.0}


def test_a_job_written_by_harbors_models_imports_to_the_right_run(harbor_env, export_csv,
                                                                  tmp_path):
    export = export_csv(case_ids=CASES, attempts=2)
    specs = scenario_specs(export)
    job = tmp_path / "jobs" / "by-harbor"
    for spec in specs:
        write_trial_files(job / spec.trial_name, spec)
    doc = {"job_id": "5b0e1f9a-9a57-4c1e-8d43-0c6b5f3f0a11", "attempts": 2,
           "dataset": export.dataset_dir, "started_at": T0.isoformat(),
           "trials": [{**asdict(s), "times": {k: v.isoformat()
                                              for k, v in trial_times(s).items()}}
                      for s in specs]}
    (tmp_path / "specs.json").write_text(json.dumps(doc))
    assert harbor_json(harbor_env, "build-job", str(tmp_path / "specs.json"), str(job)) == {
        "ok": True, "trials": 8}
    add_unusable_trials(job, Path(export.dataset_dir))
    with RunStore(tmp_path / "state") as store:
        report = import_harbor_job(job, store)
        check_scenario(store, report, export)
        stored = [str(r.path) for r in store.trajectories(run_id=report.runs[0].run_id)]
    # Every trajectory skillforge stored is ATIF that Harbor's models and validator accept.
    checked = harbor_json(harbor_env, "trajectories", *stored)
    assert len(checked) == 7
    for path, got in checked.items():
        assert got["ok"] and got["validator_ok"], (path, got)
        assert got["schema_version"] == "ATIF-v1.7"
