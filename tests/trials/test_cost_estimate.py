"""The estimate before a run and the cost cap's arithmetic, without containers: the judge's
calls are counted (from data, else from a stated assumption), reused trials count 0, the
source of the per-trial figures is said, and the cap never lets a trial start past it."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions.store import RunStore
from skillforge.models.config import Settings
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.providers.prices import Price
from skillforge.trials import assumed
from skillforge.trials.budget import CostCap, CostCapError, cost_cap_for
from skillforge.trials.config import TrialConfigError, build_run_spec
from skillforge.trials.estimate import estimate_run
from skillforge.trials.setup import resumed_with
from tests.conftest import SAMPLE_SKILLS
from tests.hypothesis_budget import examples

PRICES = {"m": Price(input=1.0, output=2.0), "judge-m": Price(input=3.0, output=6.0)}
CSV = SAMPLE_SKILLS / "csv-insights"


def spec(**fields) -> RunSpec:
    return RunSpec(**{"skill_path": "/skills/csv-insights", "model": "m", "attempts": 2,
                      **fields})


def trial(case: str, cond: str, **fields) -> TrialRecord:
    return TrialRecord(run_id="r1", case_id=case, condition=cond, attempt=1, **fields)


def store_with(tmp_path, trials, *, model: str = "m", run_id: str = "r1") -> RunStore:
    store = RunStore(tmp_path / "state")
    store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC),
                               skill_name="csv-insights", skill_path="/skills/csv-insights",
                               spec=spec(model=model), status="finished"))
    for t in trials:
        store.upsert_trial(t.model_copy(update={"run_id": run_id}))
    return store


def test_with_no_earlier_run_the_figures_are_a_stated_assumption_judge_included():
    est = estimate_run(spec(limits={"max_turns": 4}), 3, None, "csv-insights", PRICES,
                       judged=True)
    a_in, a_out = assumed.agent_tokens(4)
    assert (a_in, a_out) == (4 * 2000 + 600 * 6, 4 * 150)
    j_in, j_out = assumed.judge_tokens(a_in, 4)
    assert j_in == a_in / 4 + assumed.JUDGE_OVERHEAD_TOKENS
    assert est.trials == 12 and est.agent_tokens == round(12 * (a_in + a_out))
    assert est.judge_tokens == round(12 * (j_in + j_out))
    assert est.cost_usd == round(12 * ((a_in + j_in) * 1.0 + (a_out + j_out) * 2.0) / 1e6, 6)
    assert "no earlier run of this skill recorded tokens" in est.source
    assert "every trial uses all 4 turns" in est.source
    assert "no earlier judged run" in est.judge_source and "reads the whole trajectory" \
        in est.judge_source


def test_figures_come_from_the_last_comparable_run_and_say_so(tmp_path):
    old = store_with(tmp_path, [trial("a", "with_skill", tokens_in=1000, tokens_out=100,
                                      turns=4, judge_tokens_in=3000, judge_tokens_out=50),
                                trial("a", "baseline", tokens_in=2000, tokens_out=200,
                                      turns=4, judge_tokens_in=3000, judge_tokens_out=50)])
    est = estimate_run(spec(), 1, old, "csv-insights", PRICES, judged=True, judge_model="judge-m")
    assert "from run r1, the last run of this skill with this agent and model" in est.source
    assert est.judge_source == "judge tokens per trial from judged run r1"
    by = {c.condition: c for c in est.conditions}
    assert (by["with_skill"].tokens_in, by["baseline"].judge_tokens_in) == (1000, 3000)
    # one with_skill trial: 1,000 x $1 + 100 x $2 for the agent, 3,000 x $3 + 50 x $6 judge
    assert by["with_skill"].cost_usd == (1000 + 200 + 9000 + 300) / 1e6
    # another model's run is used, and said to be another model's
    other = estimate_run(spec(model="gpt-4.1"), 1, old, "csv-insights", PRICES)
    assert "model m: not the same as this run's" in other.source


def test_a_run_never_judged_still_counts_the_judge_by_assumption(tmp_path):
    old = store_with(tmp_path, [trial("a", c, tokens_in=1200, tokens_out=100, turns=3)
                                for c in ("with_skill", "baseline")])
    plain = estimate_run(spec(), 2, old, "csv-insights", PRICES)
    judged = estimate_run(spec(), 2, old, "csv-insights", PRICES, judged=True, judges=2)
    assert plain.judge_tokens is None and plain.judge_source == ""
    # two judges, each reading about the mean context per turn (1200 / 3) and the rubric
    per = 2 * (1200 / 3 + assumed.JUDGE_OVERHEAD_TOKENS) + 2 * assumed.JUDGE_OUTPUT_TOKENS
    assert judged.judge_tokens == round(8 * per)
    assert judged.cost_usd > plain.cost_usd
    assert "each of the 2 judges" in judged.judge_source


def test_reused_trials_count_zero():
    keys = [("monthly-revenue", "baseline", 1), ("monthly-revenue", "baseline", 2)]
    full = estimate_run(spec(), 3, None, "csv-insights", PRICES, judged=True)
    cached = estimate_run(spec(), 3, None, "csv-insights", PRICES, judged=True, reused=keys)
    by = {c.condition: c for c in cached.conditions}
    assert (by["baseline"].trials, by["baseline"].reused, by["with_skill"].trials) == (4, 2, 6)
    assert cached.reused == 2 and cached.trials == full.trials - 2
    per_trial = by["baseline"].cost_usd
    assert abs(full.cost_usd - cached.cost_usd - 2 * per_trial) < 1e-5
    by_count = estimate_run(spec(), 3, None, "csv-insights", PRICES, reused={"baseline": 2})
    assert by_count.trials == cached.trials


def test_trials_within_a_cap_follow_the_run_order():
    est = estimate_run(spec(), 3, None, "csv-insights", PRICES)
    one = est.per_trial_usd()["with_skill"]
    assert est.trials_within(one * 2.5) == 2 and est.trials_within(one * 100) == est.trials
    assert estimate_run(spec(model="unpriced"), 3, None, "x", PRICES).trials_within(1.0) is None


def test_max_cost_usd_is_a_trial_setting_with_a_checked_value(tmp_path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(CSV, skill)
    settings = Settings.model_validate({"trial": {"max_cost_usd": 2.5}})
    assert build_run_spec(skill, settings).max_cost_usd == 2.5
    assert build_run_spec(skill, settings, {"max_cost_usd": 0.75}).max_cost_usd == 0.75
    assert build_run_spec(skill, Settings()).max_cost_usd is None
    try:
        build_run_spec(skill, Settings(), {"max_cost_usd": -1})
    except TrialConfigError as exc:
        assert "max_cost_usd" in str(exc)
    else:
        raise AssertionError("a negative cap was accepted")


def test_a_cap_on_an_unpriced_model_refuses_to_start(tmp_path):
    store = RunStore(tmp_path / "state")
    try:
        cost_cap_for(spec(max_cost_usd=1.0), store, "new", "csv-insights", 1, "m",
                     ["no-price"], PRICES)
    except CostCapError as exc:
        assert "no price for no-price" in str(exc) and "[provider] prices" in str(exc)
    else:
        raise AssertionError("a cap without a price was accepted")


def test_the_cap_counts_the_judge_and_stops_for_good():
    cap = CostCap(cap=0.9, agent_model="m", judge_models=["m", "judge-m"], prices=PRICES,
                  estimate={"with_skill": 0.3, "baseline": 0.4})
    rec = trial("a", "with_skill", tokens_in=100_000, tokens_out=10_000,
                judge_tokens_in=50_000, judge_tokens_out=0)
    # agent 0.1 + 0.02, judge at the dearer judge model 50,000 x $3 = 0.15
    assert abs(cap.spend_of(rec) - 0.27) < 1e-9
    assert cap.admit(("a", "with_skill", 1)) and cap.admit(("a", "baseline", 1))
    assert not cap.admit(("b", "with_skill", 1))  # 0.3 + 0.4 held, + 0.3 would pass 0.9
    assert cap.stopped and not cap.admit(("b", "baseline", 1))  # once stopped, none starts
    assert cap.refused == 2 and "stopped at the cost cap" in cap.reason()


@settings(max_examples=examples(300), deadline=None)
@given(spends=st.lists(st.floats(0.0, 2.0), min_size=1, max_size=30),
       guess=st.floats(0.01, 2.0), limit=st.floats(0.01, 10.0))
def test_one_at_a_time_no_trial_starts_past_the_cap(spends, guess, limit):
    """Sequential trials: at every start, spend so far + that trial's estimate <= the cap;
    after the first refusal nothing starts."""
    cap = CostCap(cap=limit, agent_model="m", judge_models=[], prices=PRICES,
                  estimate={"with_skill": guess})
    refused = False
    for i, spend in enumerate(spends):
        key = (f"c{i}", "with_skill", 1)
        before, estimate = cap.spent, cap.next_estimate("with_skill")
        if cap.admit(key):
            assert not refused and before + estimate <= limit + 1e-9
            cap.settle(key, trial(f"c{i}", "with_skill", tokens_in=round(spend * 1e6)))
        else:
            refused = True
            assert cap.stopped


def test_a_resume_may_change_the_cap_and_nothing_else_of_it():
    stored = spec(max_cost_usd=1.0, concurrency=2)
    assert resumed_with(stored, {"max_cost_usd": 5.0}).max_cost_usd == 5.0
    assert resumed_with(stored, {"max_cost_usd": None}).max_cost_usd == 1.0
    assert resumed_with(stored, {"concurrency": 4}).concurrency == 4
