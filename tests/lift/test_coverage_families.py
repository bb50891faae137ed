"""Every interval the lift prints keeps its promise on any bounded data (issue 33).

The simulation (tests/lift/coverage_sim.py) runs the product's own code over 25 families of
paired deltas and 9 of pass/fail tables at 5, 10 and 30 cases: 10,000 runs per cell in `make
test` (and `make bench`), 1,000 in `make test-fast`. The table is printed and written to
tests/bench/out/coverage.json; skillforge/lift/coverage_record.py holds the figures the
report and the README quote, checked here against what the simulation measures.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillforge.lift import coverage_record as R
from tests.lift import coverage_sim as C

# The module's fixture runs the whole simulation inside its first test: 10,000 runs per cell
# took 491 s on a loaded 2-core machine (`make test` runs 2 workers per core), 41 s at 1,000
# with the machine to itself; nearly all of it in the product's betting interval, which the
# figures depend on, so it is not cut down. 1,800 s leaves that worst case 3.7x headroom.
pytestmark = pytest.mark.timeout(1800)

OUT = Path(__file__).resolve().parents[1] / "bench" / "out" / "coverage.json"
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(scope="module")
def sim() -> dict:
    lifts, nulls, passes = C.lift_rows(), C.lift_rows(C.NULL_FAMILIES), C.pass_rows()
    doc = {"seed": C.SEED, "confidence": 0.95, "lift": lifts, "null": nulls, "pass": passes,
           "summary": C.summary(lifts, nulls, passes)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=1))
    print(f"\nbounded interval vs the withdrawn t interval ({lifts[0]['runs']:,} runs per cell):"
          "\nfamily                          n   cover  width wrong |     t  width wrong")
    for r in lifts + nulls:
        b, t = r["bounded"], r["t"]
        print(f"{r['family']:<30}{r['n']:>3} {100 * b['coverage']:6.1f}% {b['width']:6.3f} "
              f"{100 * b['wrong_verdict']:4.1f}% | {100 * t['coverage']:5.1f}% {t['width']:6.3f} "
              f"{100 * t['wrong_verdict']:4.1f}%")
    print("pass/fail family                n   Tango  wrong decided headline wrong  Wilson "
          "with/base")
    for r in passes:
        print(f"{r['family']:<30}{r['n']:>3} {100 * r['tango']['coverage']:6.1f}% "
              f"{100 * r['wrong_verdict']:5.1f}% {100 * r['decided']:6.1f}% "
              f"{100 * r['headline_wrong']:13.1f}%  "
              f"{100 * r['wilson_with']:5.1f}/{100 * r['wilson_base']:.1f}%")
    return doc


def test_the_bounded_interval_covers_93_percent_on_every_family_and_n(sim):
    for row in sim["lift"] + sim["null"]:
        assert row["bounded"]["coverage"] >= C.FLOOR, row


def test_at_a_true_lift_of_zero_a_verdict_comes_out_at_most_5_percent_of_the_time(sim):
    for row in sim["null"]:
        assert row["bounded"]["wrong_verdict"] <= C.WRONG_MAX, row
    # and never in the wrong direction where there is a lift
    for row in sim["lift"]:
        assert row["bounded"]["wrong_verdict"] <= C.WRONG_MAX, row


def test_the_pass_fail_intervals_and_verdicts_keep_their_promise(sim):
    for row in sim["pass"]:
        assert row["tango"]["coverage"] >= C.FLOOR, row
        assert min(row["wilson_with"], row["wilson_base"]) >= C.FLOOR, row
        assert row["wrong_verdict"] <= C.WRONG_MAX, row
        assert row["headline_wrong"] <= C.WRONG_MAX, row


def test_uniform_harm_is_decided_from_ten_cases(sim):
    harm = {r["n"]: r for r in sim["lift"] if r["family"] == "uniform harm (all -1)"}
    # every delta -1: covered, and the interval no longer reaches 0 from 10 cases (eight
    # already decide: tests/lift/test_verdict_rules.py) ...
    assert all(r["bounded"]["coverage"] == 1.0 for r in harm.values())
    assert harm[10]["bounded"]["width"] < 1.0
    # ... and when 8 cases in 10 pass only without the skill, the pass/fail verdict says
    # "hurts" in over 90% of runs
    assert next(r for r in sim["pass"] if r["family"] == "harm .1 vs .9" and r["n"] == 10)[
        "decided"] > 0.9


def test_the_check_would_catch_the_interval_it_replaced(sim):
    # The t interval misses the floor on the families issue 33 named (rare gains, skewed,
    # pass/fail): the same simulation tells a too-narrow interval apart.
    cell = {(r["family"], r["n"]): r for r in sim["lift"]}
    assert cell["rare gains (1 in 10)", 5]["t"]["coverage"] < 0.5
    assert cell["lognormal (skewed)", 30]["t"]["coverage"] < C.FLOOR
    assert cell["pass/fail paired", 10]["t"]["coverage"] < C.FLOOR


def test_the_figures_the_report_quotes_are_the_simulations(sim):
    got = sim["summary"]
    full = sim["lift"][0]["runs"] == R.RUNS
    # the full tier reproduces the record exactly (fixed seed); the fast tier's 1,000 runs
    # agree within their noise (binomial sd under 0.7 points at these levels)
    tol = 1e-9 if full else 0.03
    assert got["bounded_min_coverage"] == pytest.approx(R.BOUNDED_MIN_COVERAGE, abs=tol)
    assert got["bounded_wrong_at_zero"] == pytest.approx(R.BOUNDED_WRONG_AT_ZERO, abs=tol)
    assert got["tango_min_coverage"] == pytest.approx(R.TANGO_MIN_COVERAGE, abs=tol)
    assert got["wilson_min_coverage"] == pytest.approx(R.WILSON_MIN_COVERAGE, abs=tol)
    assert got["pass_wrong_verdict"] == pytest.approx(R.PASS_WRONG_VERDICT, abs=tol)
    assert got["headline_wrong"] == pytest.approx(R.HEADLINE_WRONG, abs=tol)
    for n, value in R.T_MIN_COVERAGE.items():
        assert got["t_min_coverage"][n] == pytest.approx(value, abs=tol if full else 0.05)
    assert got["width_vs_t_normal_30"] == pytest.approx(R.WIDTH_VS_T_NORMAL_30, abs=0.01)
    assert (got["families"], got["pass_families"]) == (R.FAMILIES, R.PASS_FAMILIES)


def test_the_readme_quotes_the_record():
    text = " ".join(README.read_text("utf-8").split())
    assert R.coverage_sentence() in text
    assert R.pass_sentence() in text
