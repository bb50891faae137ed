"""How often the lift's 95% intervals cover the true lift, on five shapes of paired deltas.

Issue 15: the default interval must hold at least 93% from n = 10 on every family, with no
per-family exemption. This simulation runs the product's own interval code (the vectorised
`skew_t_bounds` behind the default `--ci skew-t`, the vectorised `studentized_bounds` behind
`--ci bootstrap`; the t interval of `--ci t` vectorised and checked against `t_interval` on
the first rows of every cell) on many simulated runs per cell,
fixed seed, prints the table (coverage and mean width per family, n and interval) and
writes it to tests/bench/out/coverage.json.

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
from skillforge.lift.skew_t import hall_offsets, sample_skewness, skew_t_bounds
from skillforge.lift.stats import t_interval, t_quantile

pytestmark = pytest.mark.timeout(120)

SEED = 15
SIZES = (5, 10, 30)
RUNS = 10_000  # binomial sd of a 95% coverage: 0.22 points
BOOT_RUNS = 4_000  # 0.34 points; each run is 2,000 resamples
FLOOR = 0.93  # issue 15: the default interval, every family, from n = 10
OUT = Path(__file__).resolve().parents[1] / "bench" / "out" / "coverage.json"
FAMILIES = ("normal", "beta difference", "t3", "discrete", "exponential")
SYMMETRIC_LIGHT = ("normal", "beta difference", "discrete")


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


def _cell(low: np.ndarray, high: np.ndarray, truth: float) -> dict:
    return {"coverage": float(np.mean((low <= truth) & (truth <= high))),
            "width": float(np.mean(high - low))}


def _t_bounds(deltas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The t interval of every row, vectorised; the first rows checked against the
    product's `t_interval` (row by row, 10,000 rows would take seconds per cell)."""
    n = deltas.shape[1]
    half = t_quantile(0.975, n - 1) * deltas.std(axis=1, ddof=1) / np.sqrt(n)
    low, high = deltas.mean(axis=1) - half, deltas.mean(axis=1) + half
    for row, lo, hi in zip(deltas[:200], low, high):
        assert t_interval(row.tolist()) == pytest.approx((lo, hi), abs=1e-12)
    return low, high


def _hall_alone(deltas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hall's interval without the t interval's bound on the short side (not offered)."""
    n = deltas.shape[1]
    mean = deltas.mean(axis=1)
    se = deltas.std(axis=1, ddof=1) / np.sqrt(n)
    upper, lower = hall_offsets(sample_skewness(deltas), n)
    return mean - se * upper, mean - se * lower


@pytest.fixture(scope="module")
def table() -> list[dict]:
    rows = []
    for i, family in enumerate(FAMILIES):
        for n in SIZES:
            rng = np.random.default_rng([SEED, i, n])
            deltas, truth = _draw(family, rng, (RUNS, n))
            t_low, t_high = _t_bounds(deltas)
            low, high = skew_t_bounds(deltas)
            rows.append({
                "family": family, "n": n,
                "skew-t": _cell(low, high, truth),
                "t": _cell(t_low, t_high, truth),
                "bootstrap": _cell(*studentized_bounds(deltas[:BOOT_RUNS]), truth),
                "hall alone": _cell(*_hall_alone(deltas), truth),
                "bootstrap_refused": n < BOOTSTRAP_MIN_CASES,
                "never_narrower_than_t": bool(np.all(low <= t_low + 1e-12)
                                              and np.all(high >= t_high - 1e-12)),
                "widest_vs_t": float(np.max((high - low) / np.maximum(t_high - t_low, 1e-300),
                                            where=t_high > t_low, initial=1.0)),
                "runs": RUNS, "bootstrap_runs": BOOT_RUNS,
            })
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"seed": SEED, "confidence": 0.95, "default": "skew-t",
                               "rows": rows}, indent=1))
    print(f"\n95% CI coverage of the true lift and mean width ({RUNS:,} runs per cell, "
          f"bootstrap {BOOT_RUNS:,}; bootstrap-t refused below {BOOTSTRAP_MIN_CASES} cases, "
          "its would-be coverage in brackets)")
    print(f"{'family':<16}{'n':>3}  {'skew-t (default)':>18}  {'t':>16}  {'bootstrap':>18}"
          f"  {'skew-t / t width':>16}")
    for r in rows:
        cells = []
        for name in ("skew-t", "t", "bootstrap"):
            text = f"{100 * r[name]['coverage']:.1f}% w {r[name]['width']:.3f}"
            cells.append(f"({text})" if name == "bootstrap" and r["bootstrap_refused"] else text)
        ratio = r["skew-t"]["width"] / r["t"]["width"]
        print(f"{r['family']:<16}{r['n']:>3}  {cells[0]:>18}  {cells[1]:>16}  {cells[2]:>18}"
              f"  {ratio:>16.2f}")
    return rows


def test_the_default_interval_holds_93_percent_from_ten_cases_on_every_family(table):
    for row in table:
        if row["n"] >= 10:
            assert row["skew-t"]["coverage"] >= FLOOR, row
            assert row["skew-t"]["coverage"] <= 0.97, row  # not bought by needless width


def test_the_default_interval_is_never_below_the_t_interval(table):
    # It is the t interval with the long side moved out, so it covers wherever t does ...
    for row in table:
        assert row["never_narrower_than_t"], row
        assert row["skew-t"]["coverage"] >= row["t"]["coverage"], row
    # ... and at 5 cases it lifts the skewed family from 88% to about 91%.
    exp5 = next(r for r in table if r["family"] == "exponential" and r["n"] == 5)
    assert exp5["skew-t"]["coverage"] >= exp5["t"]["coverage"] + 0.02


def test_the_default_interval_costs_little_width_on_light_tailed_symmetric_deltas(table):
    for row in table:
        ratio = row["skew-t"]["width"] / row["t"]["width"]
        assert ratio <= 1.25, row  # on average, even at 5 cases on skewed deltas
        # and in any one run: the capped correction puts the long side at most about 1.5
        # t half-widths from the mean
        assert row["widest_vs_t"] <= 1.3, row
        if row["family"] in SYMMETRIC_LIGHT and row["n"] >= 10:
            assert ratio <= 1.1, row
        if row["n"] == 30 and row["family"] in SYMMETRIC_LIGHT:
            assert ratio <= 1.05, row


def test_the_check_would_catch_a_too_narrow_interval(table):
    # The plain t interval misses the floor on skewed deltas (it is why it is not the
    # default), and Hall's interval alone loses about 3 points on heavy tails (why the
    # union; 92.9% on t3 at 30 cases): the simulation tells them apart, so a regression to
    # either would show in the test above.
    cell = {(r["family"], r["n"]): r for r in table}
    assert cell["exponential", 10]["t"]["coverage"] < FLOOR - 0.02
    t3 = cell["t3", 30]
    assert t3["hall alone"]["coverage"] < min(FLOOR, t3["skew-t"]["coverage"] - 0.02)
    for family in FAMILIES[:4]:  # the t interval is fine where the deltas are symmetric
        assert cell[family, 10]["t"]["coverage"] >= FLOOR


def test_the_bootstrap_holds_its_level_where_it_is_offered(table):
    # From BOOTSTRAP_MIN_CASES on it stays within 3 points of 95% on every family (its
    # worst is t3: heavy tails make some resampled standard errors tiny, about 92.5%) ...
    for row in table:
        if not row["bootstrap_refused"]:
            assert 0.92 <= row["bootstrap"]["coverage"] <= 0.97, row
    # ... and below it, where it is refused, it would not have on discrete deltas.
    below = [r["bootstrap"]["coverage"] for r in table if r["bootstrap_refused"]]
    assert min(below) < 0.9


def test_the_table_is_written_for_the_record(table):
    doc = json.loads(OUT.read_text())
    assert len(doc["rows"]) == len(FAMILIES) * len(SIZES) and doc["seed"] == SEED
    assert doc["default"] == "skew-t"
