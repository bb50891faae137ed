"""The trial cache on the real run path: a trial whose inputs did not change is not run again.

The csv-insights sample skill (2 cases x with_skill/baseline x 2 attempts = 8 trials) is
run by the scripted agent through `TrialRunner` and, last, through `skillforge trial` as a
user types it. `--sandbox local` (no containers: the cache sits above the sandbox, and
tests/trials/test_trial_cache_key.py checks the Docker image id). What ran is counted twice:
by the runner's records and by the conversations the scripted model actually had.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from skillforge.lift.compute import lift_for_run
from skillforge.models.trial import Limits, RunSpec
from skillforge.report.facts import inventory_text
from skillforge.trials.run import RunSummary, TrialRunner

CASES = ["monthly-revenue", "missing-values"]
TRIALS = len(CASES) * 2 * 2
SKILLFORGE = str(Path(sys.executable).with_name("skillforge"))


async def run_once(skill: Path, store, client, *, fresh: bool = False) -> RunSummary:
    spec = RunSpec(skill_path=str(skill), case_ids=CASES, attempts=2, sandbox="local",
                   concurrency=4, judge=False, limits=Limits(timeout_sec=60))
    summary = await TrialRunner(spec, client=client, store=store, fresh=fresh,
                                warn=lambda _m: None).run()
    assert summary.status == "finished"
    return summary


def figures(label: str, summary: RunSummary) -> tuple[int, int]:
    executed, reused = len(summary.records), len(summary.reused)
    print(f"[trial cache] {label}: run {summary.run_id}: executed {executed}, reused {reused}")
    return executed, reused


def talked(scripted, before: Counter) -> Counter:
    """Conversations the scripted model had since `before`, by condition."""
    out: Counter = Counter()
    for (_case, cond), n in (scripted.conversations - before).items():
        out[cond] += n
    return out


async def test_a_skill_md_edit_runs_only_the_with_skill_trials(csv_skill, scripted,
                                                               agent_client, store):
    first = await run_once(csv_skill, store, agent_client)
    assert figures("SKILL.md edit, run 1", first) == (TRIALS, 0)
    with (csv_skill / "SKILL.md").open("a") as fh:
        fh.write("\nCheck the totals against the raw rows before you report them.\n")
    before = Counter(scripted.conversations)
    second = await run_once(csv_skill, store, agent_client)
    assert figures("SKILL.md edit, run 2", second) == (TRIALS // 2, TRIALS // 2)
    assert {r.condition for r in second.records} == {"with_skill"}
    assert {(r.condition, r.reused_from) for r in second.reused} == {("baseline", first.run_id)}
    assert talked(scripted, before) == Counter(with_skill=TRIALS // 2)
    # The reused trials are ordinary trials of run 2: stored there, in its lift.
    trials = store.trials(second.run_id)
    assert len(trials) == TRIALS and all(t.status == "ok" for t in trials)
    assert all(t.cache_key for t in trials)
    lift = lift_for_run(store.run(second.run_id), trials)
    assert lift.inventory.trials == TRIALS and lift.n_cases == len(CASES)
    assert [(r.condition, r.reused_from) for r in lift.extra.reused] == \
        [("baseline", first.run_id)] * (TRIALS // 2)
    assert f"4 from run {first.run_id}" in inventory_text(lift)
    doc = json.loads(lift.model_dump_json(by_alias=True))
    assert doc["extra"]["reused"][0]["reused_from"] == first.run_id
    # Their metric evidence came along.
    assert store.metrics(second.run_id, ("monthly-revenue", "baseline", 1))


async def test_an_edit_of_one_case_runs_only_that_case(csv_skill, scripted, agent_client,
                                                      store):
    first = await run_once(csv_skill, store, agent_client)
    assert figures("case edit, run 1", first) == (TRIALS, 0)
    path = csv_skill / "evals" / "evals.json"
    data = json.loads(path.read_text())
    next(c for c in data["evals"] if c["id"] == "missing-values")["ground_truth"] += \
        " (N/A, null and - count as missing)"
    path.write_text(json.dumps(data, indent=2))
    before = Counter(scripted.conversations)
    second = await run_once(csv_skill, store, agent_client)
    assert figures("case edit, run 2", second) == (TRIALS // 2, TRIALS // 2)
    assert {r.case_id for r in second.records} == {"missing-values"}
    assert {r.case_id for r in second.reused} == {"monthly-revenue"}
    assert sum(n for (case, _), n in (scripted.conversations - before).items()
               if case == "monthly-revenue") == 0


async def test_fresh_runs_everything_and_an_unchanged_skill_runs_nothing(
        csv_skill, scripted, agent_client, store):
    first = await run_once(csv_skill, store, agent_client)
    before = Counter(scripted.conversations)
    fresh = await run_once(csv_skill, store, agent_client, fresh=True)
    assert figures("--fresh, run 2", fresh) == (TRIALS, 0)
    assert talked(scripted, before) == Counter(with_skill=TRIALS // 2, baseline=TRIALS // 2)
    before = Counter(scripted.conversations)
    again = await run_once(csv_skill, store, agent_client)
    assert figures("unchanged, run 3", again) == (0, TRIALS)
    assert talked(scripted, before) == Counter()
    # The newest usable trial is reused: the --fresh run's, not the first run's.
    assert {r.reused_from for r in again.reused} == {fresh.run_id} != {first.run_id}


@pytest.fixture
def trial_cli(llm_server, tmp_path):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "COLUMNS": "160",
           "OPENAI_BASE_URL": llm_server.openai_base_url,
           "SKILLFORGE_PROVIDER__MODEL": "scripted-agent"}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([SKILLFORGE, *args], env=env, cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, check=False)

    return run


def test_the_cli_says_what_it_reused(csv_skill, scripted, trial_cli, tmp_path):
    base = ["trial", str(csv_skill), "--sandbox", "local", "--cases", "monthly-revenue",
            "--attempts", "1", "--no-judge", "--state-dir", str(tmp_path / "state")]
    done = trial_cli(*base, "--format", "json")
    assert done.returncode == 0, done.stderr
    run1 = json.loads(done.stdout)["run_id"]
    with (csv_skill / "SKILL.md").open("a") as fh:
        fh.write("\nOne more line.\n")
    done = trial_cli(*base)
    assert done.returncode == 0, done.stderr
    assert f"↺ monthly-revenue baseline#1 reused from run {run1}" in done.stderr
    assert "1 trial(s) run, 1 reused from earlier runs" in done.stderr
    run2 = done.stdout.split("skillforge report ")[1].split()[0]
    report = trial_cli("report", run2, "--format", "json", "--state-dir",
                       str(tmp_path / "state"))
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["extra"]["reused"] == [
        {"case_id": "monthly-revenue", "condition": "baseline", "attempt": 1,
         "reused_from": run1}]
    done = trial_cli(*base, "--fresh", "--format", "json")
    trials = json.loads(done.stdout)["trials"]
    assert [t["reused_from"] for t in trials] == [None, None]
