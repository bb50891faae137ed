"""The trial cache's key: every input a trial sees changes it, nothing else does.

Given the csv-insights sample skill, one case and a client, `trial_key` is computed once
as it stands and once with one input changed; a changed input must give another key
(so the trial runs again), an unseen one (the case's notes, --concurrency, the skill's
folder, the target's files for a baseline) the same key (so it is reused).
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions.store import RunStore
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.providers.base import ClientOptions
from skillforge.trials import cache
from skillforge.trials.cache import case_fields, reusable, run_fields, trial_key
from skillforge.trials.run import load_cases, plan_trials
from skillforge.sandbox.skill_tree import TreeEntry
from skillforge.trials.staging import load_skill_set
from tests.conftest import SAMPLE_SKILLS
from tests.hypothesis_budget import examples

CASE = "monthly-revenue"
OTHER = "missing-values"


def client(**options) -> SimpleNamespace:
    base = {"model": "agent-model", "api_key": "k", "base_url": "http://models.test/v1",
            "max_tokens": 4096, "temperature": 0.0}
    opts = ClientOptions(**{**base, **options})
    return SimpleNamespace(name="openai", model=opts.model, options=opts)


@dataclass
class World:
    """Everything a key is computed from; `key()` computes it."""

    skill: Path
    spec: RunSpec
    condition: str = "with_skill"
    attempt: int = 1
    case_id: str = CASE
    agent: SimpleNamespace = field(default_factory=client)
    judges: list = field(default_factory=list)
    max_tokens: int | None = None
    image: str | None = "sha256:aaaa"
    harness: str | None = None

    def key(self) -> str | None:
        skills = load_skill_set(self.spec)
        case = next(c for c in load_cases(self.spec) if str(c.id) == self.case_id)
        run = run_fields(self.spec, self.agent, self.judges, max_tokens=self.max_tokens,
                         image_id=self.image, harness_version=self.harness)
        return trial_key(run, skills, self.spec, case_fields(skills.root, case),
                         self.condition, self.attempt)


def edit_json(path: Path, change: Callable[[dict], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def case_of(data: dict, cid: str = CASE) -> dict:
    return next(c for c in data["evals"] if c["id"] == cid)


def append(path: Path, line: str) -> None:
    path.write_text(path.read_text() + line)


@pytest.fixture
def world(tmp_path) -> World:
    skill = tmp_path / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    support = tmp_path / "helper"
    support.mkdir()
    (support / "SKILL.md").write_text("---\nname: helper\ndescription: Formats tables as "
                                      "Markdown for reports and notes.\n---\n# Helper\n")
    spec = RunSpec(skill_path=str(skill), case_ids=[CASE, OTHER], workspace="group",
                   support_skills=[str(support)], image="skillforge-test:1")
    return World(skill=skill, spec=spec)


def spec_edit(**update) -> Callable[[World], None]:
    def change(w: World) -> None:
        w.spec = w.spec.model_copy(update=update)
    return change


def limit_edit(**update) -> Callable[[World], None]:
    return lambda w: setattr(w, "spec", w.spec.model_copy(
        update={"limits": w.spec.limits.model_copy(update=update)}))


# One change of each key field; each must give the trial another key.
CHANGES: dict[str, Callable[[World], None]] = {
    "target SKILL.md (with_skill)": lambda w: append(w.skill / "SKILL.md", "\nOne more line.\n"),
    "target script (with_skill)": lambda w: append(w.skill / "scripts" / "summarize.py", "\n#\n"),
    "support skill": lambda w: append(Path(w.spec.support_skills[0]) / "SKILL.md", "More.\n"),
    "decoy skill added": lambda w: setattr(w, "spec", w.spec.model_copy(update={
        "decoy_skills": [str(SAMPLE_SKILLS / "release-notes")]})),
    "workspace policy": spec_edit(workspace="isolated"),
    "condition": lambda w: setattr(w, "condition", "baseline"),
    "attempt index": lambda w: setattr(w, "attempt", 2),
    "case prompt": lambda w: edit_json(w.skill / "evals" / "evals.json",
                                       lambda d: case_of(d).update(prompt="Another task.")),
    "case ground truth": lambda w: edit_json(
        w.skill / "evals" / "evals.json", lambda d: case_of(d).update(ground_truth="Jan 1")),
    "case expected behaviour": lambda w: edit_json(
        w.skill / "evals" / "evals.json",
        lambda d: case_of(d).update(expected_behavior=["Reads SKILL.md first"])),
    "case file's bytes": lambda w: append(w.skill / "evals" / "files" / "sales.csv", "\n"),
    "case files list": lambda w: edit_json(
        w.skill / "evals" / "evals.json",
        lambda d: case_of(d).update(files=["evals/files/customers.csv"])),
    "case grader": lambda w: edit_json(
        w.skill / "evals" / "evals.json",
        lambda d: case_of(d).update(grader="evals/graders/check_missing.py")),
    "grader file": lambda w: append(
        w.skill / "evals" / "graders" / "check_monthly_revenue.py", "\n# stricter\n"),
    "another file of the grader's folder": lambda w: append(
        w.skill / "evals" / "graders" / "check_missing.py", "\n# helper\n"),
    "harness": spec_edit(agent="codex"),
    "harness CLI version": lambda w: setattr(w, "harness", "2.1.0"),
    "model": lambda w: setattr(w, "agent", client(model="other-model")),
    "provider base URL": lambda w: setattr(w, "agent", client(base_url="http://other/v1")),
    "temperature": lambda w: setattr(w, "agent", client(temperature=0.7)),
    "max tokens": lambda w: setattr(w, "max_tokens", 1024),
    "judges": lambda w: setattr(w, "judges", [client(model="judge-model")]),
    "image id": lambda w: setattr(w, "image", "sha256:bbbb"),
    "sandbox": spec_edit(sandbox="local"),
    "network": spec_edit(network=True),
    "max turns": limit_edit(max_turns=5),
    "timeout": limit_edit(timeout_sec=60),
    "memory": limit_edit(memory_mb=1024),
    "cpus": limit_edit(cpus=2.0),
    "pids": limit_edit(pids=64),
    "disk": limit_edit(disk_mb=256),
    "version delta": spec_edit(baseline_version=str(SAMPLE_SKILLS / "csv-insights")),
    "trial loop version": lambda w: setattr(cache, "TRIAL_LOOP_VERSION",
                                            cache.TRIAL_LOOP_VERSION + 1),
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_each_key_field_changes_the_key(world, name, monkeypatch):
    monkeypatch.setattr(cache, "TRIAL_LOOP_VERSION", cache.TRIAL_LOOP_VERSION)
    if name == "version delta":
        world.condition = "baseline"
    before = world.key()
    assert before is not None
    CHANGES[name](world)
    assert world.key() != before, f"{name} changed and the trial would not run again"


# Changes a trial does not see: the same key, so the stored trial is reused.
UNSEEN: dict[str, Callable[[World], None]] = {
    "the target's SKILL.md, for a baseline": lambda w: append(w.skill / "SKILL.md", "\nMore.\n"),
    "the target's script, for a baseline": lambda w: append(
        w.skill / "scripts" / "summarize.py", "\n#\n"),
    "the case's notes": lambda w: edit_json(
        w.skill / "evals" / "evals.json", lambda d: case_of(d).update(notes="refined")),
    "another case": lambda w: edit_json(
        w.skill / "evals" / "evals.json", lambda d: case_of(d, OTHER).update(prompt="Else.")),
    "the cases' order": lambda w: edit_json(
        w.skill / "evals" / "evals.json", lambda d: d["evals"].reverse()),
    "concurrency": spec_edit(concurrency=9),
    "pass threshold": spec_edit(pass_threshold=0.9),
    "the skill's folder": lambda w: setattr(w, "spec", w.spec.model_copy(update={
        "skill_path": str(shutil.copytree(w.skill, w.skill.parent / "copy" / w.skill.name))})),
}


@pytest.mark.parametrize("name", list(UNSEEN))
def test_what_a_trial_does_not_see_keeps_the_key(world, name):
    world.condition = "baseline"
    before = world.key()
    UNSEEN[name](world)
    assert world.key() == before, f"{name} changed the key of a trial that does not see it"


def test_skill_mode_trials_are_never_keyed(world):
    world.condition = "skill_mode"
    assert world.key() is None


def _store_trial(store: RunStore, run_id: str, key: str, attempt: int = 1, **fields) -> None:
    if store.run(run_id) is None:
        store.create_run(RunRecord(run_id=run_id, created_at="2026-12-01T00:00:00Z",
                                   spec=RunSpec(skill_path="x")))
    store.upsert_trial(TrialRecord(run_id=run_id, case_id=CASE, condition="baseline",
                                   attempt=attempt, cache_key=key, **fields))


@pytest.mark.parametrize("outcome, reused", [
    ({"status": "ok"}, True),
    ({"status": "timeout"}, True),
    ({"status": "error", "error": "the harness crashed", "error_cause": "run"}, True),
    ({"status": "error", "error": "model request failed: 503",
      "error_cause": "infrastructure"}, False),
    ({"status": "cancelled"}, False),
    ({"status": "ok", "contamination": [{"request": 1, "marker": "name", "where": "x"}]},
     False),
])
def test_only_usable_outcomes_are_reused(tmp_path, world, outcome, reused):
    spec = world.spec.model_copy(update={"conditions": ["baseline"], "attempts": 1,
                                         "case_ids": [CASE]})
    plans = plan_trials(spec, load_cases(spec))
    plans = [p.__class__(p.case, p.condition, p.attempt, "k1") for p in plans]
    with RunStore(tmp_path / "state") as store:
        _store_trial(store, "run-a", "k1", **outcome)
        _store_trial(store, "run-a", "k2", 2, status="ok")  # another key: never a match
        found = reusable(store, plans, "run-b")
        assert (found.get((CASE, "baseline", 1)) is not None) is reused
        # A run never reuses its own trials (a resume re-runs what did not finish ok).
        assert reusable(store, plans, "run-a") == {}


def test_the_newest_usable_trial_is_reused(tmp_path, world):
    spec = world.spec.model_copy(update={"conditions": ["baseline"], "attempts": 1,
                                         "case_ids": [CASE]})
    plans = [p.__class__(p.case, p.condition, p.attempt, "k1")
             for p in plan_trials(spec, load_cases(spec))]
    with RunStore(tmp_path / "state") as store:
        _store_trial(store, "run-old", "k1", status="ok", grader=0.0)
        _store_trial(store, "run-new", "k1", status="ok", grader=1.0)
        _store_trial(store, "run-newest", "k1", status="cancelled")
        found = reusable(store, plans, "run-c")
        assert found[(CASE, "baseline", 1)].run_id == "run-new"



@pytest.mark.docker
async def test_the_image_is_keyed_by_its_id_not_its_tag(trial_image, docker_client):
    spec = RunSpec(skill_path="x", image=trial_image)
    found = await cache.image_id(spec)
    assert found == docker_client.api.inspect_image(trial_image)["Id"]
    assert found.startswith("sha256:") and found != trial_image
    assert await cache.image_id(spec.model_copy(update={"sandbox": "local"})) is None


FILE_NAMES = st.sampled_from(["SKILL.md", "scripts/summarize.py", "references/extra.md",
                              "scripts/new_tool.sh"])


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(FILE_NAMES, st.text(min_size=1, max_size=40)), min_size=1,
                      max_size=4))
def test_no_edit_of_the_target_changes_a_baseline_key(world, edits):
    """Whatever is written into the skill under test, the baseline's key stays (it is
    reused) and the with_skill key moves (it runs again)."""
    skills = load_skill_set(world.spec)
    case = next(c for c in load_cases(world.spec) if str(c.id) == CASE)
    run = run_fields(world.spec, world.agent, image_id="sha256:aaaa")
    fields = case_fields(skills.root, case)

    def key(condition: str, skill_set) -> str | None:
        return trial_key(run, skill_set, world.spec, fields, condition, 1)

    edited = replace(skills, target=copy.deepcopy(skills.target))
    for name, text in edits:
        old = edited.target.files.get(name, TreeEntry())
        edited.target.files[name] = TreeEntry(data=old.data + text.encode(),
                                              executable=old.executable)
    assert key("baseline", edited) == key("baseline", skills)
    assert key("with_skill", edited) != key("with_skill", skills)
