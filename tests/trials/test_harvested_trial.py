"""A paired trial of a harvested skill, in Docker (issue 17's "a harvested skill folder that
lints with no error, and a paired trial of it"), and the whole loop from a real skill_mode run.

From stored Skill Mode records of a csv-insights run (the agent saved a skill that totals
sales.csv by period, on monthly-revenue, and reused it), `harvest_skills` writes a skill
folder; that folder is then tried as it is, `with_skill` against `baseline`, on the
monthly-revenue case it brought along in its evals.json. The scripted agent reads the
harvested SKILL.md and runs the harvested script with the skill; in the baseline it sees no
skill and writes its own code.

The last test runs csv-insights' cases in skill_mode with the scripted skill-mode agent,
harvests what it saved with the CLI, lints the folder and runs the harvested command on this
machine: it prints what execute_skill gave in the container.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sessions.atif import load_trajectory
from sessions.store import RunStore
from skillforge.authoring.harvest import harvest_skills
from skillforge.models.trial import Limits, RunSpec
from skillforge.providers.base import ClientOptions
from skillforge.trials.run import TrialRunner
from tests.authoring.harvest_records import HARVESTED, store_run
from tests.conftest import SAMPLE_SKILLS
from tests.docker_fixtures import managed_containers
from tests.llm_server import LLMServer
from tests.trials.conftest import CSV_CASES
from tests.trials.scripted_agent import BASELINE, ScriptedAgent, answer, bash, read
from tests.trials.scripted_skill_mode import SKILL, ScriptedSkillModeAgent

pytestmark = [pytest.mark.docker, pytest.mark.timeout(300)]

SKILL_MD = f"/skills/{HARVESTED}/SKILL.md"
SCRIPT = f"/skills/{HARVESTED}/scripts/{HARVESTED}.py"
COMMAND = (f"python3 {SCRIPT} --csv-path sales.csv --period month "
           "--output-path /workspace/summary.md")
CASE = "monthly-revenue"


@pytest.fixture(scope="module")
def harvested_trial(tmp_path_factory, trial_image):
    root = tmp_path_factory.mktemp("harvested-trial")
    skill = root / "skills" / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    store = RunStore(root / "state")
    store_run(store, "skill-mode-run", skill)
    folder = harvest_skills(store, "skill-mode-run", root / "harvested").folders[0]

    server = LLMServer().start()
    scripted = ScriptedAgent(
        with_skill={CASE: [read(SKILL_MD), bash(COMMAND),
                           answer("Monthly revenue is in /workspace/summary.md.")]},
        baseline={CASE: BASELINE[CASE]}, skill_md=SKILL_MD)
    server.handler = scripted
    rid = "harvested-" + root.name[-8:].strip("-_")

    async def go():
        from skillforge.providers.openai_provider import OpenAIClient  # the SDK loads late

        client = OpenAIClient(ClientOptions(model="scripted-agent", api_key="test-key",
                                            base_url=server.openai_base_url, max_retries=0))
        try:
            spec = RunSpec(skill_path=str(folder), case_ids=[CASE], attempts=1,
                           conditions=["with_skill", "baseline"], image=trial_image,
                           concurrency=2, limits=Limits(timeout_sec=120, memory_mb=512))
            runner = TrialRunner(spec, client=client, store=store, run_id=rid)
            return runner, await runner.run()
        finally:
            await client.aclose()

    try:
        runner, summary = asyncio.run(go())
    finally:
        server.stop()
    assert managed_containers(rid) == []
    yield folder, runner, summary, store, scripted
    store.close()


def test_the_harvested_folder_is_the_run_skill(harvested_trial):
    folder, runner, summary, store, scripted = harvested_trial
    assert summary.status == "finished"
    run = store.run(runner.run_id)
    assert run.skill_name == HARVESTED and run.spec.skill_path == str(folder)
    assert scripted.conversations == {(CASE, "with_skill"): 1, (CASE, "baseline"): 1}


def test_both_trials_are_stored_and_graded(harvested_trial):
    _folder, runner, _summary, store, _ = harvested_trial
    trials = {t.condition: t for t in store.trials(runner.run_id)}
    assert set(trials) == {"with_skill", "baseline"}
    assert {t.status for t in trials.values()} == {"ok"}, [(t.key, t.error)
                                                          for t in trials.values()]
    # The grader came with the harvested evals (copied from csv-insights): both answers right.
    assert trials["with_skill"].grader == 1.0 and trials["baseline"].grader == 1.0
    with_skill, baseline = trials["with_skill"], trials["baseline"]
    assert with_skill.activated is True and baseline.activated is False
    assert (with_skill.script_runs, with_skill.script_runs_ok) == (1, 1)
    assert baseline.script_runs == 0
    assert with_skill.metrics["skill_execution"] == 1.0


def test_with_skill_ran_the_harvested_script(harvested_trial):
    _folder, runner, _summary, store, _ = harvested_trial
    trial = next(t for t in store.trials(runner.run_id) if t.condition == "with_skill")
    traj = load_trajectory(Path(trial.trajectory_path))
    calls = [(c, step) for step in traj.steps for c in (step.tool_calls or [])]
    runs = [(c, step) for c, step in calls if c.function_name == "bash"
            and SCRIPT in json.dumps(c.arguments)]
    assert len(runs) == 1
    call, step = runs[0]
    output = next(r.content for r in step.observation.results
                  if r.source_call_id == call.tool_call_id)
    assert "[exit code 0]" in output
    printed = json.loads(output[:output.rindex("[exit code 0]")])
    # The agent's code, run as the harvested command inside the container: read_file, bash
    # (wc -l) and write_file all worked there.
    assert printed["rows"] == 48 and printed["lines"] == 49
    assert printed["total"] == 7657.92 and printed["totals"]["2024-12"] == 1673.72
    assert printed["written"] == "/workspace/summary.md"
    reads = [c for c, _ in calls if c.function_name == "read_file"]
    assert reads and reads[0].arguments["path"] == SKILL_MD


# --- the whole loop: a real skill_mode run, harvested, linted, its script run ------------

@pytest.fixture(scope="module")
def skill_mode_run(tmp_path_factory, trial_image):
    """csv-insights' three cases in skill_mode (one attempt), played by the scripted
    skill-mode agent: monthly-revenue saves `csv_column_stats`, the next cases execute it."""
    root = tmp_path_factory.mktemp("skill-mode-harvest")
    skill = root / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    server = LLMServer().start()
    server.handler = ScriptedSkillModeAgent()
    rid = "harvest-sm-" + root.name[-8:].strip("-_")

    async def go():
        from skillforge.providers.openai_provider import OpenAIClient  # the SDK loads late

        client = OpenAIClient(ClientOptions(model="scripted-agent", api_key="test-key",
                                            base_url=server.openai_base_url, max_retries=0))
        try:
            spec = RunSpec(skill_path=str(skill), case_ids=CSV_CASES, attempts=1,
                           conditions=["skill_mode"], image=trial_image, concurrency=2,
                           limits=Limits(timeout_sec=120, memory_mb=512))
            with RunStore(root / "state") as store:
                await TrialRunner(spec, client=client, store=store, run_id=rid).run()
        finally:
            await client.aclose()

    try:
        asyncio.run(go())
    finally:
        server.stop()
    assert managed_containers(rid) == []
    return root, rid


def test_a_real_skill_mode_run_harvests_into_a_clean_runnable_skill(skill_mode_run):
    root, rid = skill_mode_run
    exe = str(Path(sys.executable).with_name("skillforge"))
    proc = subprocess.run([exe, "harvest", rid, "-o", "drafts", "--state-dir", "state"],
                          cwd=root, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    name = "csv-column-stats"
    folder = root / "drafts" / name
    assert f"from the skill '{SKILL}'" in proc.stdout and folder.is_dir()
    lint = subprocess.run([exe, "lint", str(folder), "--format", "json"], capture_output=True,
                          text=True, timeout=120, check=False)
    report = json.loads(lint.stdout)["skills"][0]
    assert lint.returncode == 0
    assert [f["rule"] for f in report["findings"] if f["severity"] in ("error", "warning")] == []
    body = (folder / "SKILL.md").read_text()
    assert "Reused in `missing-values` and `order-stats`." in body
    assert "3 of 4 recorded executions succeeded (exec rate 75%)" in body
    doc = json.loads((folder / "evals/evals.json").read_text())
    assert [c["id"] for c in doc["evals"]] == ["monthly-revenue", "missing-values",
                                              "order-stats"]

    # The harvested command gives, on this machine, what execute_skill gave in the container.
    with RunStore(root / "state") as store:
        trial = next(t for t in store.trials(rid) if t.case_id == "missing-values")
    traj = load_trajectory(Path(trial.trajectory_path))
    outputs = [r.content for s in traj.steps if s.observation for r in s.observation.results
               if isinstance(r.content, str) and "result: " in r.content]
    in_sandbox = json.loads(outputs[-1].split("result: ", 1)[1].split("\nPrinted output:")[0])
    work = root / "work"
    work.mkdir()
    shutil.copy(SAMPLE_SKILLS / "csv-insights/evals/files/customers.csv", work)
    ran = subprocess.run([sys.executable, str(folder / "scripts" / f"{name}.py"), "--path",
                          "customers.csv"], cwd=work, capture_output=True, text=True,
                         timeout=60, check=False)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == in_sandbox
    assert in_sandbox["columns"]["referred_by"]["missing"] == 16
