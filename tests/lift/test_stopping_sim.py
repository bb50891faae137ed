"""Stopping when decided keeps the verdict's promise (issue 38).

The simulation (tests/lift/stopping_sim.py) runs the product's anytime-valid code after
every round of simulated runs (10 cases, at most 10 rounds, margin 0.05) on issue 33's
families: at a true lift of 0 a verdict comes out at most 5% of the time, whatever round
it would come out in; and on families with a lift it reports power, mean trials and the
trials a fixed-n design of equal power needs. 2,000 runs per family in `make test` (4,000
in `make bench`, tests/bench/bench_stopping.py), 400 in `make test-fast`. The table is printed and written to
tests/bench/out/stopping.json and stopping.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lift import stopping_sim as S

# 400 runs per family took 20-27 s with the machine to itself; 4,000 took 773 s on a loaded
# machine (niced), so 2,000 gets about 400 s there: 1,800 leaves room.
pytestmark = pytest.mark.timeout(1800)

OUT = Path(__file__).resolve().parents[1] / "bench" / "out"


@pytest.fixture(scope="module")
def sim() -> dict:
    nulls, powers = S.null_rows(), S.power_rows()
    doc = {"seed": S.SEED, "cases": S.CASES, "max_rounds": S.MAX_ROUNDS, "margin": S.MARGIN,
           "null": nulls, "power": powers}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "stopping.json").write_text(json.dumps(doc, indent=1))
    table = S.table(nulls, powers)
    (OUT / "stopping.md").write_text(table + "\n")
    print("\n" + table)
    return doc


def test_at_a_true_lift_of_zero_stopping_when_decided_gives_a_verdict_at_most_5_percent(sim):
    assert len(sim["null"]) >= 10  # every null family of issue 33, and the graded ones
    for row in sim["null"]:
        assert row["wrong_verdict"] <= S.WRONG_MAX, row


def test_where_there_is_a_lift_a_verdict_is_never_the_wrong_way(sim):
    for row in sim["power"]:
        assert row["wrong_verdict"] <= S.WRONG_MAX, row


def test_a_clear_effect_stops_early_and_a_null_runs_to_the_end(sim):
    rows = {r["family"]: r for r in sim["power"]}
    full = S.MAX_ROUNDS * S.CASES * 2
    harm = rows["uniform harm (all -1)"]
    assert harm["power"] == 1.0 and harm["mean_trials"] == S.CASES * 2  # round 1
    strong = rows["graded run: strong gain .9 vs .2"]
    assert strong["power"] > 0.99 and strong["mean_trials"] < 0.3 * full
    # where a verdict is reached, it costs fewer trials on average than always running all
    for row in sim["power"]:
        assert row["mean_trials"] < full, row
    # at a lift of 0 almost every run uses all its rounds (the interval stays wider than
    # the margin): the rule stops on evidence, not on luck
    assert all(r["mean_trials"] > 0.9 * full for r in sim["null"]
               if r["family"] != "graded run: null, all fail")


def test_the_sequential_design_needs_fewer_trials_than_fixed_n_at_equal_power_mostly(sim):
    compared = [r for r in sim["power"] if r["power"] and r["power"] > 0.5]
    cheaper = [r for r in compared
               if r["fixed_trials"] is None or r["mean_trials"] <= r["fixed_trials"]]
    assert len(cheaper) >= len(compared) - 2, compared
