"""The trial cache on the real run path: a trial whose inputs did not change is not run again.

The csv-insights sample skill (2 cases x with_skill/baseline x 2 attempts = 8 trials) is
run by the scripted agent through `TrialRunner` and, last, through the `skillforge trial`
command. `--sandbox local` (no containers: the cache sits above the sandbox, and
tests/trials/test_trial_cache_key.py checks the Docker image id). What ran is counted twice:
by the runner's records and by the conversations the scripted model actually had.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from skillforge.lift.compute import lift_for_run
from skillforge.models.trial import Limits, RunSpec
from skillforge.report.facts import inventory_text
from skillforge.trials.run import RunSummary, TrialRunner

CASES = ["monthly-revenue", "missing-values"]
TRIALS = len(CASES) * 2 * 2


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


async def test_an_edit_of_one_case_runs_only_that_case_and_fresh_runs_all(
        csv_skill, scripted, agent_client, store):
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
    assert {(r.case_id, r.reused_from) for r in second.reused} == {
        ("monthly-revenue", first.run_id)}
    assert sum(n for (case, _), n in (scripted.conversations - before).items()
               if case == "monthly-revenue") == 0
    # --fresh runs every trial again; then an unchanged skill runs none, reusing the newest.
    before = Counter(scripted.conversations)
    fresh = await run_once(csv_skill, store, agent_client, fresh=True)
    assert figures("--fresh, run 3", fresh) == (TRIALS, 0)
    assert talked(scripted, before) == Counter(with_skill=TRIALS // 2, baseline=TRIALS // 2)
    before = Counter(scripted.conversations)
    again = await run_once(csv_skill, store, agent_client)
    assert figures("unchanged, run 4", again) == (0, TRIALS)
    assert talked(scripted, before) == Counter()
    assert {r.reused_from for r in again.reused} == {fresh.run_id}


@pytest.fixture
def trial_cli(llm_server, tmp_path, monkeypatch):
    """run(*args) -> click's Result of `skillforge ARGS`, in this process (a subprocess per
    run costs seconds of imports)."""
    from click.testing import CliRunner

    from skillforge.cli import main

    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "scripted-agent")
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.chdir(tmp_path)
    return lambda *args: CliRunner().invoke(main, list(args))


def test_the_cli_says_what_it_reused(csv_skill, scripted, trial_cli, tmp_path):
    base = ["trial", str(csv_skill), "--sandbox", "local", "--cases", "monthly-revenue",
            "--attempts", "1", "--no-judge", "--state-dir", str(tmp_path / "state")]
    done = trial_cli(*base, "--format", "json")
    assert done.exit_code == 0, done.output
    run1 = json.loads(done.stdout)["run_id"]
    with (csv_skill / "SKILL.md").open("a") as fh:
        fh.write("\nOne more line.\n")
    done = trial_cli(*base)
    assert done.exit_code == 0, done.output
    assert f"↺ monthly-revenue baseline#1 reused from run {run1}" in done.stderr
    assert "1 trial(s) run, 1 reused from earlier runs" in done.stderr
    done = trial_cli(*base, "--fresh", "--format", "json")
    assert done.exit_code == 0, done.output
    trials = json.loads(done.stdout)["trials"]
    assert [t["reused_from"] for t in trials] == [None, None]
    assert scripted.conversations == Counter({("monthly-revenue", "with_skill"): 3,
                                              ("monthly-revenue", "baseline"): 2})


@pytest.mark.docker
@pytest.mark.timeout(300)
async def test_in_docker_a_skill_md_edit_runs_only_the_with_skill_trial(
        csv_skill, scripted, agent_client, store, trial_image):
    """The same in containers (the image's id in the key): one case, one attempt a side."""
    from tests.docker_fixtures import managed_containers

    spec = RunSpec(skill_path=str(csv_skill), case_ids=CASES[:1], attempts=1,
                   image=trial_image, concurrency=2, judge=False,
                   limits=Limits(timeout_sec=120, memory_mb=512))
    first = await TrialRunner(spec, client=agent_client, store=store).run()
    assert figures("Docker, run 1", first) == (2, 0)
    with (csv_skill / "SKILL.md").open("a") as fh:
        fh.write("\nCheck the totals against the raw rows before you report them.\n")
    second = await TrialRunner(spec, client=agent_client, store=store).run()
    assert figures("Docker, run 2", second) == (1, 1)
    assert [(r.condition, r.status) for r in second.records] == [("with_skill", "ok")]
    assert [(r.condition, r.reused_from) for r in second.reused] == [("baseline", first.run_id)]
    assert scripted.conversations == Counter({(CASES[0], "with_skill"): 2,
                                              (CASES[0], "baseline"): 1})
    assert managed_containers(first.run_id) == managed_containers(second.run_id) == []


async def test_a_trial_whose_judge_failed_is_not_reused(csv_skill, scripted, agent_client,
                                                        store):
    """The judge answered garbage (a model down, a format it cannot keep): the judged metrics
    are null. Reusing that trial would freeze an outage into every later run."""
    spec = RunSpec(skill_path=str(csv_skill), case_ids=CASES[:1], attempts=1, sandbox="local",
                   conditions=["baseline"], judge=True, limits=Limits(timeout_sec=60))

    async def run() -> RunSummary:
        return await TrialRunner(spec, client=agent_client, store=store,
                                 judges=[agent_client], warn=lambda _m: None).run()

    first = await run()
    assert [(r.status, r.metrics["accuracy"], r.cache_key) for r in first.records] == [
        ("ok", None, None)]
    second = await run()
    assert figures("judge failed, run 2", second) == (1, 0)
