"""Negative-lift triage: one hand-built case per class, and the order of precedence."""

from __future__ import annotations

import pytest

from skillforge.lift.compute import compute_lift
from tests.lift.builders import scores, trial

W, B = "with_skill", "baseline"
GOOD = scores(0.8)


def _case(case, with_metrics, base_metrics=GOOD, *, attempts=2, activated=True, kind=None,
          with_status="ok"):
    """A case whose attempts are identical within a side unless lists are given."""
    out = []
    for i in range(attempts):
        wm = with_metrics[i] if isinstance(with_metrics, list) else with_metrics
        bm = base_metrics[i] if isinstance(base_metrics, list) else base_metrics
        status = with_status if i == 0 else "ok"
        out.append(trial(case, W, i, metrics=wm, activated=activated, case_kind=kind,
                         status=status))
        out.append(trial(case, B, i, metrics=bm, case_kind=kind))
    return out


def _classes(trials):
    report = compute_lift(trials)
    return {n.case_id: n.class_ for n in report.negative_cases}, report


def test_one_case_per_class():
    trials = (
        # a with-skill attempt timed out (its scores still count): unstable
        _case("timed-out", scores(0.6), with_status="timeout")
        # with-skill attempts differ by 0.5, the loss is 0.8 - 0.55 = 0.25 < 0.5: unstable
        + _case("noisy", [scores(0.3), scores(0.8)], GOOD)
        # never opened the skill and did worse: never_discovered
        + _case("hidden", scores(0.6), activated=False)
        # opened it and got the answer wrong: misused
        + _case("wrong-use", scores(0.8, accuracy=0.2, goal_accuracy=0.0))
        # answer as good, more wasted calls (and a small security slip that makes overall
        # fall: efficiency alone is a process metric, never in overall): overhead
        + _case("slow", scores(0.8, skill_efficiency=0.3, security=0.7))
        # only the efficiency fell: overall held, so the case is not negative at all
        + _case("only-slower", scores(0.8, skill_efficiency=0.3))
        # only the security score fell: no class fits
        + _case("leaky", scores(0.8, security=0.5))
        # the skill helped here: not triaged at all
        + _case("helped", scores(0.9))
    )
    classes, report = _classes(trials)
    assert classes == {
        "timed-out": "unstable",
        "noisy": "unstable",
        "hidden": "never_discovered",
        "wrong-use": "misused",
        "slow": "overhead",
        "leaky": "unexplained",
    }
    # worst first, with the delta of overall
    deltas = [n.delta for n in report.negative_cases]
    assert deltas == sorted(deltas)
    # wrong-use: (0.2 + 0 + 0.8 + 0.8) / 4 - 0.8 = -0.35 (overall is the outcome
    # metrics'); noisy: 0.55 - 0.8 = -0.25
    assert [n.case_id for n in report.negative_cases[:2]] == ["wrong-use", "noisy"]
    evidence = {e.case_id: e for e in report.extra.triage}
    assert evidence["wrong-use"].fell == ["accuracy", "goal_accuracy"]
    assert evidence["timed-out"].failed_attempts == {"with": 1, "base": 0}
    assert evidence["noisy"].spread["with"] == pytest.approx(0.5)


def test_unstable_comes_first():
    # never activated AND errored: errors make the comparison unreliable, so unstable wins
    trials = _case("x", scores(0.5), activated=False, with_status="error")
    assert _classes(trials)[0] == {"x": "unstable"}


def test_spread_equal_to_the_loss_is_not_unstable():
    # with attempts 0.5 and 0.7 (mean 0.6), base 0.8: |D| = 0.2 = spread, not "larger"
    trials = _case("edge", [scores(0.5), scores(0.7)], activated=False)
    assert _classes(trials)[0] == {"edge": "never_discovered"}


def test_never_discovered_before_overhead():
    # not activated, correctness held, efficiency (and security) fell: both could fit, the
    # first wins
    trials = _case("x", scores(0.8, skill_efficiency=0.2, security=0.6), activated=False)
    assert _classes(trials)[0] == {"x": "never_discovered"}


def test_misused_before_overhead():
    # activated, behaviour check fell and efficiency fell: misused wins
    trials = _case("x", scores(0.8, behavior_check=0.4, skill_efficiency=0.2))
    assert _classes(trials)[0] == {"x": "misused"}


def test_negative_case_that_stays_away_from_the_skill_is_not_never_discovered():
    # a `negative` eval case must not use the skill; not activating it is right
    trials = _case("neg", scores(0.8, security=0.4), activated=False, kind="negative")
    assert _classes(trials)[0] == {"neg": "unexplained"}


def test_unknown_activation_is_neither_never_discovered_nor_misused():
    trials = _case("x", scores(0.8, accuracy=0.3), activated=None)
    classes, report = _classes(trials)
    assert classes == {"x": "unexplained"}
    assert "not recorded" in report.extra.triage[0].reason


def test_partial_activation_counts_as_activated():
    # activated in one attempt of two: the rate is 0.5, not 0, so misuse is possible
    trials = [
        trial("x", W, 0, metrics=scores(0.8, accuracy=0.2), activated=True),
        trial("x", W, 1, metrics=scores(0.8, accuracy=0.2), activated=False),
        trial("x", B, 0, metrics=GOOD),
        trial("x", B, 1, metrics=GOOD),
    ]
    classes, report = _classes(trials)
    assert classes == {"x": "misused"}
    assert report.extra.triage[0].activation_rate == 0.5


def test_overhead_needs_correctness_to_hold():
    # efficiency fell, but so did accuracy, and activation is unknown: not overhead
    trials = _case("x", scores(0.8, accuracy=0.5, skill_efficiency=0.3), activated=None)
    assert _classes(trials)[0] == {"x": "unexplained"}
