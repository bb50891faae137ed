"""`--resume` finishes a run with the judge setting it started with (issue 15, item 4).

A run is judged or not, by given models, from its first trial to its last: the choice is part
of the stored spec, a resume uses it, and a resume whose flags say otherwise is refused before
anything runs. No Docker here: the refusals happen while the run is prepared.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main
from skillforge.config import load_settings
from skillforge.models.trial import RunRecord
from skillforge.trials.run import RunError
from skillforge.trials.setup import prepare_runner


@pytest.fixture
def provider(monkeypatch):
    """A provider that is configured but never called (nothing runs in these tests)."""
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "local-model")


def _stored(store: RunStore, skill, run_id: str, **options):
    """A new run of `skill` prepared with `options`, stored as `run_id` (as the runner does)."""
    runner = prepare_runner(load_settings(skill), store, skill_dir=skill,
                            overrides={"case_ids": ["order-stats"]}, **options)
    store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC), spec=runner.spec))
    return runner.spec


def test_a_run_started_without_the_judge_resumes_without_it(csv_skill, tmp_path, provider):
    with RunStore(tmp_path) as store:
        spec = _stored(store, csv_skill, "plain", judge=False)
        assert spec.judge is False and spec.judge_models == []
        again = prepare_runner(load_settings(csv_skill), store, resume="plain")
    assert again.judges == [] and again.spec.judge is False


def test_a_judged_run_resumes_with_its_own_judges(csv_skill, tmp_path, provider):
    with RunStore(tmp_path) as store:
        spec = _stored(store, csv_skill, "judged", judge_models=["judge-a", "judge-b"])
        assert spec.judge is True and spec.judge_models == ["judge-a", "judge-b"]
        again = prepare_runner(load_settings(csv_skill), store, resume="judged")
        same = prepare_runner(load_settings(csv_skill), store, resume="judged",
                              judge_models=["judge-a", "judge-b"])
    assert [j.model for j in again.judges] == ["judge-a", "judge-b"]
    assert [j.model for j in same.judges] == ["judge-a", "judge-b"]


def test_the_default_judge_is_recorded_as_the_model_it_was(csv_skill, tmp_path, provider,
                                                          monkeypatch):
    with RunStore(tmp_path) as store:
        spec = _stored(store, csv_skill, "default")
        assert spec.judge_models == ["local-model"]  # no [judge] models: the agent's model
        # The agent's model changes afterwards: the resume still judges with the old one.
        monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "another-model")
        again = prepare_runner(load_settings(csv_skill), store, resume="default")
    assert [j.model for j in again.judges] == ["local-model"]


def test_conflicting_judge_flags_are_refused_naming_the_stored_setting(csv_skill, tmp_path,
                                                                       provider):
    settings = load_settings(csv_skill)
    with RunStore(tmp_path) as store:
        _stored(store, csv_skill, "judged", judge_models=["judge-a"])
        _stored(store, csv_skill, "plain", judge=False)
        with pytest.raises(RunError, match=r"judged by judge-a.*Drop --no-judge"):
            prepare_runner(settings, store, resume="judged", judge=False)
        with pytest.raises(RunError, match=r"judged by judge-a, not judge-c.*Drop --judge-model"):
            prepare_runner(settings, store, resume="judged", judge_models=["judge-c"])
        with pytest.raises(RunError, match=r"started with --no-judge.*--judge-model judge-c"):
            prepare_runner(settings, store, resume="plain", judge_models=["judge-c"])


def test_the_cli_refuses_a_conflicting_resume_with_exit_2(csv_skill, tmp_path, provider):
    state = tmp_path / "state"
    with RunStore(state) as store:
        _stored(store, csv_skill, "judged", judge_models=["judge-a"])
    res = CliRunner().invoke(main, ["trial", "--resume", "judged", "--no-judge",
                                    "--state-dir", str(state)])
    assert res.exit_code == 2, res.output
    assert "run judged is judged by judge-a" in res.output
    assert "start a new run with --no-judge" in res.output
    with RunStore(state) as store:
        assert store.trials("judged") == []  # nothing ran


def test_a_run_stored_before_the_judge_setting_existed_takes_the_flags(csv_skill, tmp_path,
                                                                       provider):
    with RunStore(tmp_path) as store:
        spec = _stored(store, csv_skill, "old", judge=False)
        store.create_run(RunRecord(run_id="older", created_at=datetime.now(UTC),
                                   spec=spec.model_copy(update={"judge": None,
                                                                "judge_models": []})))
        settings = load_settings(csv_skill)
        assert prepare_runner(settings, store, resume="older", judge=False).judges == []
        assert [j.model for j in prepare_runner(settings, store, resume="older").judges] == \
            ["local-model"]


@pytest.mark.parametrize(("overrides", "said"), [
    ({"attempts": 5}, "--attempts 5 (the run has 3)"),
    ({"disk_mb": 512}, "--disk-mb 512 (the run has "),
    ({"case_ids": ["monthly-revenue"]}, "--cases monthly-revenue (the run has order-stats)"),
    ({"conditions": ["with_skill"]}, "--conditions with_skill (the run has "),
    ({"max_turns": 3, "attempts": 2}, "--attempts 2 (the run has 3); --max-turns 3"),
])
def test_a_resume_refuses_flags_that_contradict_the_stored_run(csv_skill, tmp_path, provider,
                                                               overrides, said):
    # Before, `--resume RUN --attempts 5` silently resumed with the stored settings.
    with RunStore(tmp_path) as store:
        _stored(store, csv_skill, "run", judge=False)
        with pytest.raises(RunError) as raised:
            prepare_runner(load_settings(csv_skill), store, resume="run", overrides=overrides)
    assert said in str(raised.value)
    assert "only --concurrency may change" in str(raised.value)


def test_a_resume_takes_repeated_settings_and_a_new_concurrency(csv_skill, tmp_path,
                                                                provider):
    with RunStore(tmp_path) as store:
        spec = _stored(store, csv_skill, "run", judge=False)
        same = {"attempts": spec.attempts, "disk_mb": spec.limits.disk_mb,
                "case_ids": list(spec.case_ids), "conditions": list(reversed(spec.conditions)),
                "concurrency": spec.concurrency + 3}
        again = prepare_runner(load_settings(csv_skill), store, resume="run", overrides=same,
                               skill_dir=csv_skill)
    assert again.spec.attempts == spec.attempts
    assert again.spec.concurrency == spec.concurrency + 3


def test_a_resume_of_another_skills_run_is_refused(csv_skill, tmp_path, provider):
    other = tmp_path / "other"
    other.mkdir()
    (other / "SKILL.md").write_text("---\nname: other\ndescription: x\n---\nbody\n")
    with RunStore(tmp_path) as store:
        _stored(store, csv_skill, "run", judge=False)
        with pytest.raises(RunError, match=r"is a run of .*, not .*other"):
            prepare_runner(load_settings(csv_skill), store, resume="run", skill_dir=other)


@pytest.mark.parametrize(("argv", "said"), [
    (["--attempts", "5"], "--attempts 5 (the run has 3)"),
    (["--disk-mb", "999"], "--disk-mb 999 (the run has "),
])
def test_the_cli_refuses_a_resume_with_other_settings_with_exit_2(csv_skill, tmp_path,
                                                                  provider, argv, said):
    state = tmp_path / "state"
    with RunStore(state) as store:
        _stored(store, csv_skill, "plain", judge=False)
    res = CliRunner().invoke(main, ["trial", "--resume", "plain", *argv,
                                    "--state-dir", str(state)])
    assert res.exit_code == 2, res.output
    assert said in res.output and "start a new run" in res.output
    with RunStore(state) as store:
        assert store.trials("plain") == []  # nothing ran
