"""How often the lift's 95% intervals cover the true lift, on five shapes of paired deltas.

Issue 15's audit: the percentile bootstrap covered 79-85% at n = 5 and 86-91% at n = 10. This
simulation runs the product's own interval code (`t_interval` row by row, the vectorised
`studentized_bounds` behind `--ci bootstrap`) on many simulated runs per cell, fixed seed,
prints the table and writes it to tests/bench/out/coverage.json.

The families, as deltas D = with - base of one case:
- normal: N(0.1, 0.25);
- beta difference: Beta(5, 3) - Beta(3, 3), two scores in [0, 1];
- t3: 0.1 + 0.2 t(3), heavy tails;
- discrete: -1, -0.5, 0, 0.5, 1 with p = .1, .1, .4, .2, .2 (goal_accuracy-like steps);
- exponential: Exp(mean 0.2) - 0.1, skewness 2 (the skill helps a lot on a few cases).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from skillforge.lift.bootstrap import BOOTSTRAP_MIN_CASES, studentized_bounds
from skillforge.lift.stats import t_interval

pytestmark = pytest.mark.timeout(120)

SEED = 15
SIZES = (5, 10, 30)
T_RUNS = 10_000  # binomial sd of a 95% coverage: 0.22 points
BOOT_RUNS = 4_000  # 0.34 points; each run is 2,000 resamples
OUT = Path(__file__).resolve().parents[1] / "bench" / "out" / "coverage.json"
# The t interval's known weak spot: a strongly skewed sample mean converges slowly to
# normal, so on exponential deltas (skewness 2) it covers about 90% at n = 10 and 92.5% at
# n = 30. The contract fixes the default interval; this line records the shortfall (so a
# regression still fails) instead of hiding it with a milder family.
T_FLOOR = {"exponential": {10: 0.89, 30: 0.915}}


def _draw(family: str, rng: np.random.Generator,
          shape: tuple[int, int]) -> tuple[np.ndarray, float]:
    """(deltas, true lift) of one family."""
    if family == "normal":
        return rng.normal(0.1, 0.25, shape), 0.1
    if family == "beta difference":
        return rng.beta(5, 3, shape) - rng.beta(3, 3, shape), 5 / 8 - 1 / 2
    if family == "t3":
        return 0.1 + 0.2 * rng.standard_t(3, shape), 0.1
    if family == "discrete":
        values = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
        p = np.array([0.1, 0.1, 0.4, 0.2, 0.2])
        return rng.choice(values, size=shape, p=p), float(values @ p)
    if family == "exponential":
        return rng.exponential(0.2, shape) - 0.1, 0.1
    raise ValueError(family)


FAMILIES = ("normal", "beta difference", "t3", "discrete", "exponential")


def _t_coverage(deltas: np.ndarray, truth: float) -> float:
    hits = 0
    for row in deltas:
        low, high = t_interval(row.tolist())
        hits += low <= truth <= high
    return hits / len(deltas)


def _boot_coverage(deltas: np.ndarray, truth: float) -> float:
    low, high = studentized_bounds(deltas)
    return float(np.mean((low <= truth) & (truth <= high)))


@pytest.fixture(scope="module")
def table() -> list[dict]:
    rows = []
    for i, family in enumerate(FAMILIES):
        for n in SIZES:
            rng = np.random.default_rng([SEED, i, n])
            deltas, truth = _draw(family, rng, (T_RUNS, n))
            rows.append({
                "family": family, "n": n, "t": _t_coverage(deltas, truth),
                "bootstrap": _boot_coverage(deltas[:BOOT_RUNS], truth),
                "bootstrap_refused": n < BOOTSTRAP_MIN_CASES,
                "t_runs": T_RUNS, "bootstrap_runs": BOOT_RUNS,
            })
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"seed": SEED, "confidence": 0.95, "rows": rows}, indent=1))
    print("\n95% CI coverage of the true lift (bootstrap-t refused below "
          f"{BOOTSTRAP_MIN_CASES} cases; its would-be coverage in brackets)")
    print(f"{'family':<16}{'n':>4}{'t':>9}{'bootstrap':>12}")
    for r in rows:
        boot = f"{100 * r['bootstrap']:.1f}%"
        boot = f"({boot})" if r["bootstrap_refused"] else boot
        print(f"{r['family']:<16}{r['n']:>4}{100 * r['t']:>8.1f}%{boot:>12}")
    return rows


def test_the_t_interval_holds_93_percent_from_ten_cases(table):
    for row in table:
        if row["n"] >= 10:
            floor = T_FLOOR.get(row["family"], {}).get(row["n"], 0.93)
            assert row["t"] >= floor, row
            assert row["t"] <= 0.97, row  # not bought by a needlessly wide interval


def test_the_bootstrap_holds_its_level_where_it_is_offered(table):
    # From BOOTSTRAP_MIN_CASES on it stays within 3 points of 95% on every family (its
    # worst is t3: heavy tails make some resampled standard errors tiny, about 92.5%) ...
    for row in table:
        if not row["bootstrap_refused"]:
            assert 0.92 <= row["bootstrap"] <= 0.97, row
    # ... and below it, where it is refused, it would not have on discrete deltas.
    below = [r["bootstrap"] for r in table if r["bootstrap_refused"]]
    assert min(below) < 0.9


def test_the_table_is_written_for_the_record(table):
    doc = json.loads(OUT.read_text())
    assert len(doc["rows"]) == len(FAMILIES) * len(SIZES) and doc["seed"] == SEED
