"""`skillforge optimize-description` end to end in Docker: real trigger trials in fresh
containers (the Debian trial image), the scripted agent that opens the skill only when its
description names the query's topic word, and a proposer whose first description lacks the
words and whose second names them. Small on purpose: 8 queries, 1 run, 2 iterations.

Shown: the loop finds the description that raises test accuracy (0.5 -> 1.0), warns that 4
test queries cannot tell that from noise, lists the flipped queries, writes nothing until
`--apply`, then changes only the description line of SKILL.md; `skillforge report` on a
trigger run gives the same numbers as the trials in the store.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.lift.triggers import triggered
from skillforge.models.triggers import parse_run_label
from tests.docker_fixtures import managed_containers
from tests.llm_server import LLMServer
from tests.trials.scripted_triggers import (
    NO_WORDS,
    QUERIES,
    WITH_WORDS,
    ScriptedTriggers,
    trigger_skills,
    triggers,
)

pytestmark = [pytest.mark.docker, pytest.mark.timeout(600)]

SKILLFORGE = str(Path(sys.executable).with_name("skillforge"))


@pytest.fixture(scope="module")
def loop(tmp_path_factory, trial_image):
    root = tmp_path_factory.mktemp("optimize")
    skill = trigger_skills(root)
    before = (skill / "SKILL.md").read_text("utf-8")
    server = LLMServer().start()
    scripted = ScriptedTriggers()
    server.handler = scripted
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(root / "home"),
           "XDG_CONFIG_HOME": str(root / "config"),
           "SKILLFORGE_CACHE_DIR": str(root / "cache"),
           "OPENAI_BASE_URL": server.openai_base_url,
           "SKILLFORGE_PROVIDER__MODEL": "scripted-agent"}
    if "DOCKER_HOST" in os.environ:
        env["DOCKER_HOST"] = os.environ["DOCKER_HOST"]

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([SKILLFORGE, "optimize-description", str(skill), *args,
                               "--state-dir", str(root / "state")], env=env, cwd=root,
                              capture_output=True, text=True, timeout=500, check=False)

    try:
        proc = run("--iterations", "2", "--runs", "1", "--holdout", "0.5", "--seed", "3",
                   "--decoys", "2", "--image", trial_image, "--concurrency", "2",
                   "--format", "json")
    finally:
        server.stop()
    yield {"proc": proc, "skill": skill, "before": before, "run": run, "root": root,
           "scripted": scripted, "env": env}


def history_of(loop) -> dict:
    proc = loop["proc"]
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_the_loop_raises_test_accuracy_and_warns_about_noise(loop):
    h = history_of(loop)
    assert h["status"] == "finished"
    acc = {a["iteration"]: (a["train"]["accuracy"]["value"], a["test"]["accuracy"]["value"])
           for a in h["attempts"]}
    assert acc == {0: (0.5, 0.5), 1: (0.5, 0.5), 2: (1.0, 1.0)}
    assert [a["description"] for a in h["attempts"][1:]] == [NO_WORDS, WITH_WORDS]
    comp = h["comparison"]
    assert comp["best_iteration"] == 2 and comp["diff"] == pytest.approx(0.5)
    assert comp["within_noise"] and "within noise" in comp["warning"]
    assert {f["id"] for f in h["flips"]} == {q for q, (_t, s, _w) in QUERIES.items() if s}
    # Nothing is written without the author's say.
    assert (loop["skill"] / "SKILL.md").read_text("utf-8") == loop["before"]


def test_the_trials_are_real_labelled_runs_in_the_store(loop):
    h = history_of(loop)
    with RunStore(loop["root"] / "state") as store:
        for a in h["attempts"]:
            for split in ("train", "test"):
                run_id = a[f"{split}_run"]
                assert managed_containers(run_id) == []
                run = store.run(run_id)
                assert parse_run_label(run.label) == (h["loop_id"], a["iteration"], split)
                assert run.spec.workspace == "group" and len(run.spec.decoy_skills) == 2
                assert run.spec.limits.max_turns == 3 and run.spec.conditions == ["with_skill"]
                trials = store.trials(run_id)
                assert len(trials) == 4 and {t.status for t in trials} == {"ok"}
                for t in trials:
                    assert triggered(t) == triggers(a["description"], t.case_id)


def test_report_of_a_trigger_run_matches_the_store(loop):
    h = history_of(loop)
    best_test = h["attempts"][2]["test_run"]
    proc = subprocess.run([SKILLFORGE, "report", best_test, "--format", "json", "--state-dir",
                           str(loop["root"] / "state")], env=loop["env"], cwd=loop["root"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    tr = json.loads(proc.stdout)["extra"]["triggers"]
    with RunStore(loop["root"] / "state") as store:
        for a in tr["loop"]["attempts"]:
            for split in ("train", "test"):
                trials = store.trials(a[f"{split}_run"])
                got = {q["id"]: (q["triggered"], q["runs"]) for q in a[split]["queries"]}
                assert got == {t.case_id: (int(triggered(t)), 1) for t in trials}


def test_apply_writes_only_the_description(loop):
    h = history_of(loop)
    proc = loop["run"]("--apply", h["loop_id"])
    assert proc.returncode == 0, proc.stderr
    after = (loop["skill"] / "SKILL.md").read_text("utf-8")
    old, new = loop["before"].splitlines(), after.splitlines()
    changed = [i for i, (x, y) in enumerate(zip(old, new, strict=True)) if x != y]
    assert len(changed) == 1 and new[changed[0]].startswith("description: ")
    assert WITH_WORDS in new[changed[0]]
    again = loop["run"]("--apply", h["loop_id"])
    assert again.returncode == 2 and "changed since the loop started" in again.stderr
