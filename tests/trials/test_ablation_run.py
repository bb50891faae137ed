"""`skillforge trial --ablate all` on csv-insights in Docker, against the scripted ablation agent
(tests/trials/scripted_ablation.py): the agent fails without the summary script (or the
module it imports, scripts/report_format.py), wastes turns
without the Workflow section, is slowed by the Limitations section and ignores every other
part. The run's verdicts, the report's parts section, and what each container held.

One run for the module (6 cases x 14 conditions x 1 attempt, with_skill and one condition
per part, no baseline; the examples are the `## Example` section, so one part): the skill is
a test-local copy of sample_skills/csv-insights with two more cases. Six paired cases measure each part's effect, in the direction the agent was
scripted for, but settle no verdict: the lift's interval holds for any data on [-1, 1], and
six cases cannot rule out what they have not seen (a verdict on five gains of 1 and a tie,
or "no effect within +-0.05", takes more cases; the verdict rules themselves are tested on
80 cases built from records in tests/lift/test_ablation_lift.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import os
import subprocess
import tarfile

import pytest

from sessions.atif import load_trajectory
from sessions.store import RunStore
from skillforge.models.evals import load_evals
from skillforge.models.trial import RunSpec
from skillforge.report.source import run_lift
from skillforge.trials.staging import load_skill_set, stage_trial
from tests.conftest import SAMPLE_SKILLS
from tests.docker_fixtures import managed_containers
from tests.llm_server import LLMServer
from tests.trials.scripted_ablation import CASES, EXTRA_CASES, ScriptedAblationAgent, listing_of
from tests.trials.conftest import SKILLFORGE

pytestmark = [pytest.mark.docker, pytest.mark.timeout(900)]

# The direction of each part's effect (+ removing it lowers that metric, - raises it, 0 none)
# as the agent was scripted; every verdict at six cases is "inconclusive".
EXPECTED = {
    "script:scripts/summarize.py": ("grader", "+"),
    "scripts": ("grader", "+"),
    "section:workflow": ("skill_efficiency", "+"),
    "section:limitations": ("skill_efficiency", "-"),
    "description": ("grader", "0"),
    "section:overview": ("grader", "0"),
    "section:example": ("grader", "0"),  # also the examples: one part, one condition
    "reference:references/output-format.md": ("grader", "0"),
    # summarize.py imports report_format: the ablation finds the dependency
    "script:scripts/report_format.py": ("grader", "+"),
}


def ablation_skill(root):
    """csv-insights with two more graded cases (in the copy only, never in sample_skills)."""
    skill = root / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    path = skill / "evals" / "evals.json"
    doc = json.loads(path.read_text())
    doc["evals"] += EXTRA_CASES
    path.write_text(json.dumps(doc, indent=2))
    return skill


@pytest.fixture(scope="module")
def ablation_run(tmp_path_factory, trial_image):
    root = tmp_path_factory.mktemp("ablation")
    skill = ablation_skill(root)
    server = LLMServer().start()
    agent = ScriptedAblationAgent()
    server.handler = agent
    state = root / "state"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(root / "home"),
           "XDG_CONFIG_HOME": str(root / "config"), "OPENAI_BASE_URL": server.openai_base_url,
           "SKILLFORGE_PROVIDER__MODEL": "scripted-agent", "COLUMNS": "200"}
    if "DOCKER_HOST" in os.environ:
        env["DOCKER_HOST"] = os.environ["DOCKER_HOST"]
    try:
        proc = subprocess.run(
            [SKILLFORGE, "trial", str(skill), "--ablate", "all", "--conditions", "with_skill",
             "--cases", ",".join(CASES), "--attempts", "1", "--no-judge", "--concurrency", "3",
             "--image", trial_image, "--state-dir", str(state), "--timeout", "120"],
            env=env, cwd=root, capture_output=True, text=True, timeout=840, check=False)
    finally:
        server.stop()
    store = RunStore(state)
    run = store.latest_run()
    yield proc, store, run, skill, agent
    store.close()


def test_the_run_finishes_with_every_part_as_a_condition(ablation_run):
    proc, store, run, _skill, agent = ablation_run
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert managed_containers(run.run_id) == []
    trials = store.trials(run.run_id)
    conds = {t.condition for t in trials}
    assert len(conds) == 14 and "with_skill" in conds
    assert len(trials) == 14 * 6 and {t.status for t in trials} == {"ok"}
    assert [p.id for p in run.spec.parts] == [c[8:] for c in run.spec.conditions[1:]]
    assert sum(agent.conversations.values()) == 84
    out = " ".join(proc.stdout.replace("│", " ").split())
    assert "Parts of the skill (ablation)" in out and "inconclusive" in out


def test_the_verdicts_are_those_the_agent_was_scripted_for(ablation_run):
    _proc, store, run, _skill, _agent = ablation_run
    report = run_lift(store, run, store.trials(run.run_id))
    ab = report.extra.ablation
    got = {p.part: p for p in ab.parts}
    for part, (metric, sign) in EXPECTED.items():
        effect = got[part].metrics[metric].effect
        assert {"+": effect > 0, "-": effect < 0, "0": effect == 0}[sign], (part, effect)
        assert got[part].verdict == "inconclusive", (part, got[part].reason)
        assert got[part].cases_needed is not None and got[part].cases_needed > 6, part
        assert "with 6 paired cases" in got[part].reason, got[part].reason
    for script in ("script:scripts/summarize.py", "script:scripts/report_format.py"):
        assert got[script].metrics["grader"].effect == pytest.approx(5 / 6)
    assert got["description"].tokens == run.spec.parts[0].tokens > 0
    # routing apart: the skill was activated on both sides of every part
    assert all(p.routing.activation_with == 1.0 == p.routing.activation_without
               for p in ab.parts)


def test_each_container_held_exactly_the_staged_skill(ablation_run):
    _proc, store, run, skill, _agent = ablation_run
    spec = RunSpec(skill_path=str(skill))
    skills = load_skill_set(spec)
    evals, _ = load_evals(skill / "evals" / "evals.json")
    case = next(c for c in evals.cases if c.id == "order-stats")
    records = {(r.case_id, r.condition): r for r in store.trajectories(run.run_id)}
    for cond in run.spec.conditions:
        staged = {}
        with tarfile.open(fileobj=io.BytesIO(stage_trial(case, cond, spec, skills).archive)) as t:
            for m in t:
                if m.isfile() and m.name.lstrip("/").startswith("skills/"):
                    staged[m.name.lstrip("/").removeprefix("skills/")] = hashlib.sha256(
                        t.extractfile(m).read()).hexdigest()
        traj = load_trajectory(records[("order-stats", cond)].path)
        step = next(s for s in traj.steps if s.observation)  # the listing, the first call
        listing = listing_of(str(step.observation.results[0].content))
        assert listing == staged, cond
        if cond == "without:script:scripts/summarize.py":
            assert "csv-insights/scripts/summarize.py" not in listing
        if cond == "with_skill":
            assert "csv-insights/scripts/summarize.py" in listing


def test_report_and_lift_json_show_the_verdicts(ablation_run, tmp_path):
    _proc, store, run, _skill, _agent = ablation_run
    out = tmp_path / "lift.json"
    done = subprocess.run([SKILLFORGE, "report", run.run_id, "--state-dir",
                           str(store.state_dir), "--format", "json", "-o", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    parts = {p["part"]: p["verdict"] for p in
             json.loads(out.read_text())["extra"]["ablation"]["parts"]}
    assert {parts[k] for k in EXPECTED} == {"inconclusive"}
    md = subprocess.run([SKILLFORGE, "report", run.run_id, "--state-dir",
                         str(store.state_dir), "--format", "md"],
                        capture_output=True, text=True, check=False).stdout
    assert "## Parts of the skill (ablation)" in md
    assert "| section:limitations |" in md and "cases needed" in md
