"""Pure parts around a run: building the RunSpec, the live progress state, the gate."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from rich.console import Console

from sessions.store import RunStore
from skillforge.models.config import Settings, TrialConfig
from skillforge.models.lift import LiftReport, MetricLift
from skillforge.models.verdicts import ErrorSummary, PassArm, PassTest
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.trials.config import TrialConfigError, build_run_spec
from skillforge.trials.events import (
    RunFinished,
    RunStarted,
    TrialFailed,
    TrialFinished,
    TrialQueued,
    TrialStarted,
    TrialStep,
)
from skillforge.trials.history import run_overviews
from skillforge.trials.output import gate_failures, trial_document
from skillforge.trials.progress import RunProgress, render_progress


def _with_defaults(skill, defaults):
    path = skill / "evals" / "evals.json"
    doc = json.loads(path.read_text())
    doc["defaults"] = defaults
    path.write_text(json.dumps(doc))


def test_settings_then_evals_defaults_then_flags(csv_skill):
    settings = Settings(trial=TrialConfig(attempts=5, concurrency=3, timeout_sec=100,
                                          image="img:1"))
    _with_defaults(csv_skill, {"attempts": 2, "timeout_sec": 300, "max_turns": 12})
    spec = build_run_spec(csv_skill, settings, {"attempts": 4, "case_ids": ["order-stats"],
                                                "network": None})
    assert spec.attempts == 4  # flag
    assert spec.limits.timeout_sec == 300 and spec.limits.max_turns == 12  # evals defaults
    assert spec.concurrency == 3 and spec.image == "img:1"  # [trial]
    assert spec.network is False and spec.case_ids == ["order-stats"]
    assert spec.skill_path == str(csv_skill.resolve())
    assert build_run_spec(csv_skill / "SKILL.md", settings).attempts == 2


def test_a_bad_default_names_evals_json(csv_skill):
    _with_defaults(csv_skill, {"atempts": 2})
    with pytest.raises(TrialConfigError,
                       match=r"(?s)evals\.json \(\"defaults\"\).*atempts: unknown"):
        build_run_spec(csv_skill, Settings())


def test_a_bad_flag_value_is_reported(csv_skill):
    with pytest.raises(TrialConfigError, match="concurrency"):
        build_run_spec(csv_skill, Settings(), {"concurrency": 0})


def _rec(case, cond, attempt, status="ok", **kw):
    return TrialRecord(run_id="r", case_id=case, condition=cond, attempt=attempt,
                       status=status, **kw)


def test_progress_follows_the_events():
    keys = (("a", "with_skill", 1), ("a", "baseline", 1), ("b", "with_skill", 1),
            ("b", "baseline", 1))
    p = RunProgress()
    p.apply(RunStarted("r1", RunSpec(skill_path="x"), keys, "demo"))
    for k in keys:
        p.apply(TrialQueued(k))
    p.apply(TrialStarted(keys[0]))
    p.apply(TrialStep(keys[0], 2, "bash: ls", tokens_in=100, tokens_out=10, cost_usd=0.01))
    assert p.cells[keys[0]].status == "running" and p.running()[0][1].summary == "bash: ls"
    p.apply(TrialFinished(keys[0], _rec("a", "with_skill", 1, grader=1.0, tokens_in=150,
                                        tokens_out=20, cost_usd=0.02)))
    p.apply(TrialStarted(keys[1]))
    p.apply(TrialFailed(keys[1], _rec("a", "baseline", 1, status="timeout", tokens_in=50)))
    t = p.totals()
    assert (t["done"], t["tokens_in"], t["tokens_out"], t["cost_usd"]) == (2, 200, 20, 0.02)
    assert p.counts() == {"ok": 1, "timeout": 1, "queued": 2}
    p.apply(RunFinished("r1", "cancelled"))
    assert p.counts() == {"ok": 1, "timeout": 1, "cancelled": 2}
    out = Console(width=100, record=True, color_system=None)
    out.print(render_progress(p))
    text = out.export_text()
    assert "demo  run r1" in text and "with#1" in text and "base#1" in text
    assert "✓1" in text and "⏱" in text and "2/4 trials" not in text and "4/4 trials" in text


def _report(**rows) -> LiftReport:
    return LiftReport(run_id="r", metrics={k: MetricLift(**v) for k, v in rows.items()})


HURTS = {"lift": -0.5, "ci_low": -0.7, "ci_high": -0.3, "n": 8, "verdict": "hurts"}
FLAT = {"lift": 0.0, "ci_low": -0.1, "ci_high": 0.1, "n": 8}


def test_the_gate_fails_on_a_harmful_headline_or_grader():
    good = _report(overall={"lift": 0.2, "ci_low": 0.1, "ci_high": 0.3, "n": 8,
                            "verdict": "helps"})
    assert gate_failures(good) == []
    (failure,) = gate_failures(_report(overall=HURTS))
    assert failure.startswith("overall: the skill hurts (lift -0.500, 95% CI -0.700 to -0.300 "
                              "over 8 paired cases)")
    (failure,) = gate_failures(_report(grader=HURTS, overall=FLAT))
    assert failure.startswith("grader: the skill hurts")
    # Another metric's harm is in the report, not the gate (section 8): the headline
    # carries it when it matters.
    assert gate_failures(_report(security=HURTS, overall=FLAT)) == []
    # An interval below 0 whose verdict the rule withheld (too few cases) is not a failure.
    below = _report(overall={"lift": -0.2, "ci_low": -0.3, "ci_high": -0.01, "n": 3,
                             "verdict": "inconclusive"})
    assert gate_failures(below) == []


def test_the_gate_fails_on_a_pass_rate_drop_and_on_one_sided_errors():
    report = _report(overall=FLAT)
    report.extra.pass_test = PassTest(kind="pairs", n=8, with_only=0, base_only=8, both=0,
                                      neither=0, with_=PassArm(passes=0, n=8, value=0.0),
                                      base=PassArm(passes=8, n=8, value=1.0), diff=-1.0,
                                      ci_low=-1.0, ci_high=-0.35, interval="Tango score",
                                      test="exact McNemar", p_value=0.0078, verdict="hurts")
    report.extra.errors = ErrorSummary(trials={"with": 8, "base": 8},
                                       excluded={"with": 7, "base": 0}, p_value=0.0014,
                                       one_sided="with", note="The errors fall on one side.")
    failures = gate_failures(report)
    assert [f.split(":")[0] for f in failures] == ["pass rate", "errors"]
    assert "8 case(s) pass only without the skill" in failures[0]
    assert "exact McNemar p = 0.0078" in failures[0]
    assert failures[1] == "errors: The errors fall on one side."


def test_the_json_document_has_every_trial_key():
    doc = trial_document("r", RunSpec(skill_path="x"), [_rec("a", "with_skill", 1, metrics={
        "security": 1.0, "skill_execution": 0.5, "grader": 0.0}, grader=0.0,
        error_stage="grader", error="grader: exit 1; graded 0 (fail-closed)")],
        status="finished", lift=None)
    (item,) = doc["trials"]
    # overall: the outcome metrics (security and the grader), never skill_execution
    assert item["metrics"] == {"security": 1.0, "skill_execution": 0.5, "grader": 0.0,
                               "overall": 0.5}
    assert item["error_stage"] == "grader"
    assert json.loads(json.dumps(doc)) == doc


def test_run_overviews_count_and_lift(tmp_path):
    with RunStore(tmp_path) as store:
        store.create_run(RunRecord(run_id="r", created_at=datetime.now(UTC), skill_name="s",
                                   spec=RunSpec(skill_path="x")))
        for case, w, b in (("a", 1.0, 0.5), ("b", 0.8, 0.4)):
            store.upsert_trial(_rec(case, "with_skill", 1, metrics={"security": w}))
            store.upsert_trial(_rec(case, "baseline", 1, metrics={"security": b}))
        store.upsert_trial(_rec("c", "with_skill", 1, status="error"))
        (row,) = run_overviews(store)
    assert (row.trials, row.ok, row.errors, row.skill_name) == (5, 4, 1, "s")
    assert row.overall_lift == pytest.approx(0.45)


async def test_an_unknown_agent_is_refused_before_anything_runs(csv_skill, tmp_path):
    from skillforge.trials.run import RunError, TrialRunner

    with RunStore(tmp_path) as store:
        runner = TrialRunner(RunSpec(skill_path=str(csv_skill), agent="aider"),
                             client=None, store=store)  # type: ignore[arg-type]
        with pytest.raises(RunError, match="unknown agent 'aider'.*export harbor"):
            await runner.run()
        assert store.runs() == []


def test_prepare_runner_for_a_new_run_and_a_resume(csv_skill, tmp_path, monkeypatch):
    from skillforge.models.llm import ProviderNotConfigured
    from skillforge.trials.setup import prepare_runner
    from skillforge.trials.run import RunError

    settings = Settings()
    with RunStore(tmp_path) as store:
        with pytest.raises(ProviderNotConfigured, match="OPENAI_BASE_URL"):
            prepare_runner(settings, store, skill_dir=csv_skill)
        monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
        monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "local-model")
        from skillforge.config import load_settings

        settings = load_settings(csv_skill)
        runner = prepare_runner(settings, store, skill_dir=csv_skill,
                                overrides={"attempts": 2, "case_ids": ["order-stats"]},
                                judge_models=["judge-a", "judge-b"])
        assert runner.spec.model == "local-model" and runner.spec.attempts == 2
        assert [j.model for j in runner.judges] == ["judge-a", "judge-b"]
        assert prepare_runner(settings, store, skill_dir=csv_skill, judge=False).judges == []
        with pytest.raises(RunError, match="no run 'nope'"):
            prepare_runner(settings, store, resume="nope")
        store.create_run(RunRecord(run_id="r9", created_at=datetime.now(UTC),
                                   spec=runner.spec))
        again = prepare_runner(settings, store, resume="r9", overrides={"concurrency": 7})
        assert again.run_id == "r9" and again.spec.concurrency == 7
        assert again.spec.case_ids == ["order-stats"]


def test_the_cli_headline_is_styled_by_the_headlines_verdict():
    # Overall inconclusive, headline "hurts" (grader and pass rate): red, not yellow.
    from skillforge.lift.compute import compute_lift
    from skillforge.trials.output import lift_table
    from tests.lift.builders import grader_harm

    report = compute_lift(grader_harm())
    head = lift_table(report).renderables[1]
    assert ": hurts" in head.plain and head.style == "bold red"
