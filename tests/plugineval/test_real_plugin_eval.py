"""The REAL `claude plugin eval` (Claude Code 2.1.327, the binary the pinned
claude-agent-sdk wheel bundles) on cases skillforge exported, imported back, with both
tools' verdicts compared run by run.

The plugin holds the sample skill csv-insights; its evals/ folder is what
`skillforge evals convert sample_skills/csv-insights --to cc-plugin-eval` writes (two of
its cases kept, so the run stays short: a positive one and a negative one). The loopback
server (tests/llm_server.py) plays both the agent's model and claude plugin eval's LLM
judge, so every verdict is known in advance. The real CLI runs on this machine, as a user
runs it, with a fresh HOME and TMPDIR.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from sessions.atif import load_trajectory
from sessions.atif_rules import validate_trajectory
from sessions.store import RunStore
from skillforge.harnesses.image import bundled_claude
from skillforge.lift.cases import trial_passes
from skillforge.plugineval.results import ARMS, load_results
from skillforge.trajectory.facts import tool_calls
from tests.conftest import SAMPLE_SKILLS
from tests.llm_server import Reply, Request, text, tool_call
from tests.trials.conftest import SKILLFORGE

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

SKILL = "csv-insights"
CASES = ("monthly-revenue", "convert-to-jsonl")
TOTAL = "7657.92"
JUDGE = "evaluation judge"  # in the system prompt of claude plugin eval's llm grader


def _judge(req: Request, votes: Counter) -> Reply:
    """PASS when the criterion asks for the total and the reply gives it; the "Reads
    SKILL.md" criterion passes 2 votes of 3 on a reply with the total (a split majority)."""
    asked = req.all_text()
    criterion = asked.split("Criterion:", 1)[-1].split("Agent output", 1)[0].strip()
    reply = asked.split("Agent output", 1)[-1]
    votes[(criterion, reply)] += 1
    if TOTAL in reply and TOTAL in criterion:
        return text("PASS")
    if TOTAL in reply and criterion.startswith("Reads SKILL.md"):
        return text("FAIL" if votes[(criterion, reply)] == 2 else "PASS")
    return text("FAIL")


def _agent(req: Request) -> Reply:
    """With the plugin (its skill listed): open the skill, then answer with the total; the
    negative case gets the same (a wrong skill use). Without it: no total."""
    turn = sum(1 for m in req.messages if m.get("role") == "assistant")
    if f"- {SKILL}:{SKILL}" not in req.all_text():
        return text("I cannot work that out without reading sales.csv.")
    if turn == 0:
        return tool_call("Skill", {"skill": f"{SKILL}:{SKILL}"})
    return text(f"Monthly revenue summed: total {TOTAL} over 48 orders.")


@pytest.fixture
def plugin(tmp_path) -> Path:
    """A one-skill plugin whose evals/ skillforge wrote."""
    root = tmp_path / "plugin"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps(
        {"name": SKILL, "version": "1.0.0", "description": "CSV summaries"}))
    shutil.copytree(SAMPLE_SKILLS / SKILL, root / "skills" / SKILL,
                    ignore=shutil.ignore_patterns("evals"))
    done = subprocess.run([SKILLFORGE, "evals", "convert", str(SAMPLE_SKILLS / SKILL), "--to",
                           "cc-plugin-eval", "-o", str(root / "evals")], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    for case in (root / "evals").iterdir():
        if case.name not in CASES:
            shutil.rmtree(case)
    return root


def test_claude_plugin_eval_and_skillforge_agree_on_every_run(plugin, llm_server, tmp_path):
    claude = bundled_claude()
    assert claude is not None, "claude-agent-sdk is not installed: run `make`"
    votes: Counter = Counter()
    llm_server.handler = lambda req: (_judge(req, votes) if JUDGE in req.system_text()
                                      else _agent(req))
    (tmp_path / "home").mkdir()
    (tmp_path / "tmp").mkdir()
    env = {"HOME": str(tmp_path / "home"), "TMPDIR": str(tmp_path / "tmp"),
           "PATH": "/usr/bin:/bin", "ANTHROPIC_API_KEY": "sk-ant-test-not-a-key",
           "ANTHROPIC_BASE_URL": llm_server.anthropic_base_url,
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
           "CLAUDE_CODE_MAX_RETRIES": "0", "IS_SANDBOX": "1"}
    out = tmp_path / "results"
    ran = subprocess.run([str(claude), "plugin", "eval", ".", "--trust-plugin", "--no-publish",
                          "--keep-temp", "--runs", "1", "--output-dir", str(out)],
                         cwd=plugin, env=env, capture_output=True, text=True, timeout=240,
                         check=False)
    # exit 1: some case scored below the default threshold of 1.0 (by design here)
    assert ran.returncode in (0, 1) and (out / "aggregate-result.json").is_file(), ran.stderr
    result = load_results(out / "aggregate-result.json")
    assert result.claude_version == "2.1.327" and [c.name for c in result.cases] == \
        sorted(CASES)

    state = tmp_path / "state"
    imported = subprocess.run([SKILLFORGE, "import", "plugin-eval", str(out), "--state-dir",
                               str(state), "--format", "json"], capture_output=True, text=True,
                              timeout=120, check=False,
                              env={**os.environ, "HOME": str(tmp_path / "home")})
    assert imported.returncode == 0, imported.stderr
    rep = json.loads(imported.stdout)
    assert (rep["skill"], rep["trials"], rep["traces"]) == (SKILL, 4, 4)

    with RunStore(state) as store:
        trials = {t.key: t for t in store.trials(rep["run_id"])}
    outcomes = 0
    for case in result.cases:
        for arm, runs in case.arms.items():
            for attempt, run in enumerate(runs, start=1):
                t = trials[(case.name, ARMS[arm], attempt)]
                # claude plugin eval's verdict on every grader, and skillforge's grade
                assert t.grader_detail == {g.name: float(g.passed) for g in run.graders}
                assert t.grader == run.score and t.cost_usd == run.cost_usd
                assert trial_passes(t, graded=True, threshold=result.suite.threshold) \
                    is run.passed
                outcomes += len(run.graders)
                traj = load_trajectory(t.trajectory_path)
                assert validate_trajectory(traj) == []
                names = [c.function_name for _, _, c in tool_calls(traj)]
                assert names == (["Skill"] if arm == "with" else [])
    # skillforge decided the tool_used graders again on the converted traces: no disagreement
    assert rep["graders_compared"] == 4 and rep["disagreements"] == []
    cases = {c.name: c for c in result.cases}
    with_ = {g.name: g for g in cases["monthly-revenue"].arms["with"][0].graders}
    assert with_["behavior-4"].passed and with_["behavior-1"].passed  # the 2-of-3 majority
    assert not with_["expected-script"].passed and with_["skill-invoked"].with_only
    assert outcomes == 18

    report = subprocess.run([SKILLFORGE, "report", rep["run_id"], "--state-dir", str(state),
                             "--format", "json"], capture_output=True, text=True, timeout=120,
                            check=False)
    assert report.returncode == 0, report.stderr
    rows = {r["case_id"]: r for r in json.loads(report.stdout)["extra"]["cases"]}
    for case in result.cases:
        row = rows[case.name]
        assert row["with"]["grader"] == case.aggregates["score"]
        assert row["base"]["grader"] == case.aggregates["scoreWithout"]
        assert row["delta"]["grader"] == pytest.approx(case.aggregates["delta"])
    print(f"claude plugin eval {result.claude_version}: {outcomes} grader outcomes on 4 runs, "
          f"mean Δ {result.aggregates['meanDelta']}; skillforge agrees on all, decided "
          f"{rep['graders_compared']} again on the traces")
