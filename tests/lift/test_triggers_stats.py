"""Trigger statistics: the stratified split, Wilson intervals, per-query rates and
decisions, the comparison's noise warning with the planner's count, and flips."""

from __future__ import annotations

import pytest

from skillforge.lift.triggers import compare, flips, pick_best, score_trials, split_queries, wilson
from skillforge.models.trial import TrialRecord
from skillforge.models.triggers import Attempt, TriggerQuery


def queries(pos: int, neg: int) -> list[TriggerQuery]:
    return ([TriggerQuery(id=f"p{i}", query=f"pos {i}", should_trigger=True) for i in range(pos)]
            + [TriggerQuery(id=f"n{i}", query=f"neg {i}", should_trigger=False)
               for i in range(neg)])


def trial(case: str, attempt: int, hit: bool, status: str = "ok", scripts: int = 0):
    return TrialRecord(run_id="r", case_id=case, condition="with_skill", attempt=attempt,
                       status=status, activated=hit, script_runs=scripts)


@pytest.mark.parametrize("pos,neg,holdout", [(10, 10, 0.4), (9, 11, 0.4), (3, 3, 0.5),
                                             (2, 2, 0.4), (8, 9, 0.25)])
def test_split_is_stratified_disjoint_and_seeded(pos, neg, holdout):
    qs = queries(pos, neg)
    train, test = split_queries(qs, holdout, seed=7)
    assert {q.id for q in train} | {q.id for q in test} == {q.id for q in qs}
    assert not {q.id for q in train} & {q.id for q in test}
    for cls, n in ((True, pos), (False, neg)):
        k = sum(1 for q in test if q.should_trigger is cls)
        assert 1 <= k <= n - 1 and abs(k - holdout * n) <= 1
    assert split_queries(qs, holdout, seed=7) == (train, test)
    assert split_queries(qs, holdout, seed=8) != (train, test) or pos + neg < 6


def test_wilson_is_the_continuity_corrected_interval():
    p = wilson(8, 10)
    assert p.value == 0.8
    # The plain Wilson interval of 8/10 is 0.490 to 0.943 (Newcombe 1998); the corrected one
    # is wider on both sides: it holds 95% near 0 and 1, where the plain one fell to 83%.
    assert p.ci_low < 0.4902 and p.ci_high > 0.9433
    assert wilson(0, 0).value is None and wilson(0, 4).ci_low == 0.0
    assert wilson(4, 4).ci_high == 1.0


@pytest.mark.parametrize("confidence", [0.95, 0.9, 0.99])
def test_wilson_is_scipys_wilsoncc_interval(confidence):
    from scipy.stats import binomtest

    for n in (1, 2, 3, 5, 10, 17, 40, 100, 1000):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilsoncc")
            p = wilson(k, n, confidence)
            assert (p.k, p.n, p.value) == (k, n, k / n)
            assert p.ci_low == pytest.approx(ci.low, abs=1e-12), (k, n)
            assert p.ci_high == pytest.approx(ci.high, abs=1e-12), (k, n)


def test_rates_decisions_and_the_confusion_counts():
    qs = queries(2, 2)
    trials = [trial("p0", 1, True), trial("p0", 2, True), trial("p0", 3, False),
              trial("p1", 1, False), trial("p1", 2, False, scripts=1),  # a script run counts
              trial("p1", 3, False, status="error"),
              trial("n0", 1, True), trial("n0", 2, True),
              trial("n1", 1, False)]
    s = score_trials(qs, trials)
    rates = {q.id: (q.triggered, q.runs, q.errors) for q in s.queries}
    assert rates == {"p0": (2, 3, 0), "p1": (1, 2, 1), "n0": (2, 2, 0), "n1": (0, 1, 0)}
    # p0 2/3 and p1 1/2 both trigger at 0.5; n0 triggers (wrong); n1 does not.
    assert (s.accuracy.k, s.accuracy.n) == (3, 4)
    assert (s.precision.k, s.precision.n) == (2, 3)
    assert (s.recall.k, s.recall.n) == (2, 2)
    assert s.query("p0").untriggered_attempts == [3]


def test_comparison_warns_within_noise_and_plans_queries():
    qs = queries(8, 8)
    cur = score_trials(qs, [trial(q.id, 1, False) for q in qs])
    best = score_trials(qs, [trial(q.id, 1, q.should_trigger) for q in qs])
    comp = compare(cur, best, 2)
    assert comp.diff == pytest.approx(0.5) and comp.n == 16
    # +1 on 8 queries, 0 on 8: the bounded interval [+0.12, +0.82] clears 0 (with 4 and 4
    # its lower bound is -0.12: no distribution on [-1, 1] is ruled out that soon)
    assert comp.verdict == "helps" and not comp.within_noise and comp.warning is None
    sub = qs[:2] + qs[8:10]
    small = compare(score_trials(sub, [trial(q.id, 1, False) for q in sub]),
                    score_trials(sub, [trial(q.id, 1, q.should_trigger) for q in sub]), 1)
    assert small.within_noise and small.n == 4 and small.queries_needed >= 5
    assert "within noise" in small.warning and "planner" in small.warning
    same = compare(cur, cur, 0)
    assert "keep the current description" in same.warning


def test_best_is_by_test_accuracy_and_a_tie_keeps_the_current_one():
    qs = queries(2, 2)
    good = score_trials(qs, [trial(q.id, 1, q.should_trigger) for q in qs])
    bad = score_trials(qs, [trial(q.id, 1, False) for q in qs])
    a0 = Attempt(iteration=0, description="a", train=bad, test=good)
    a1 = Attempt(iteration=1, description="b", train=good, test=good)
    a2 = Attempt(iteration=2, description="c", train=good, test=bad)
    assert pick_best([a0, a2]) == 0
    assert pick_best([a0, a1, a2]) == 1  # same test accuracy, better train
    assert {f.id for f in flips(Attempt(iteration=0, description="x", train=bad, test=bad),
                                a1)} == {"p0", "p1"}
