"""The stopping simulation of `skillforge trial --until-decided` (issue 38), shared by the
suite (tests/lift/test_stopping_sim.py) and the benchmark (tests/bench/bench_stopping.py).

A simulated run has CASES cases; each round adds one paired delta per case, drawn from one
of issue 33's families (tests/lift/coverage_sim.py): the paired-delta families, read as the
headline metric's deltas, and the paired pass/fail tables, read as a graded run (grader
deltas in {-1, 0, 1}, overall half of them as with a security score of 1 on both sides,
and the pass/fail pairs) whose headline combines overall, the grader and the pass test as
the product does. After each round the product's own code (skillforge.lift.sequential)
gives the anytime-valid intervals and the sequential pass test; the run stops at the first
round whose headline is decided, whose interval is narrower than MARGIN, or at MAX_ROUNDS.

Reported per family: how often the verdict at the stop is wrong (at a true lift of 0: any
verdict), the chance of the right verdict (power), the mean number of trials, and the
trials a fixed-n design of equal power needs: the fewest rounds R whose fixed-n analysis
(the product's betting interval over all R x CASES deltas, and for pass/fail tables Tango's
interval with exact McNemar as well) decides the right way at least as often. Runs per
family: BENCH_RUNS in `make bench`, FULL_RUNS in `make test`, FAST_RUNS in `make test-fast`
(SKILLFORGE_TEST_TIER=fast), as the coverage simulation picks its own. `peek_rows` (bench
only) shows why: fixed-n intervals looked at after every round.
"""

from __future__ import annotations

import os

import numpy as np

from skillforge.lift.betting import bounded_bounds
from skillforge.lift.paired_pass import pass_verdict
from skillforge.lift.proportions import mcnemar_p, tango_bounds
from skillforge.lift.sequential import discordant_decision, sequence_bounds
from skillforge.lift.stats import MIN_VERDICT_CASES, TIE_EPS
from tests.lift import coverage_sim as C

CASES = 10
MAX_ROUNDS = 10
MARGIN = 0.05
SEED = 38
BENCH_RUNS = 4_000  # `make bench`: the figures the README quotes
FULL_RUNS = 2_000  # `make test`
FAST_RUNS = 400  # `make test-fast`
WRONG_MAX = 0.05

# Families with a lift, for power and trials (issue 33's, a spread of shapes and sizes).
POWER_FAMILIES = ("normal", "beta difference", "ternary -1/0/+1", "pass/fail paired",
                  "rare gains (1 in 10)", "judge steps", "uniform harm (all -1)")
POWER_PASS = ("independent .6 vs .4", "strong gain .9 vs .2", "harm .1 vs .9")


def runs_for_tier() -> int:
    return FAST_RUNS if os.environ.get("SKILLFORGE_TEST_TIER") == "fast" else FULL_RUNS


def _metric_verdict(low: np.ndarray, high: np.ndarray, n: np.ndarray | int) -> np.ndarray:
    """+1 helps, -1 hurts, 0: the product's rule (skillforge.lift.rounds._verdict)."""
    ok = np.asarray(n) >= MIN_VERDICT_CASES
    return np.where(ok & (low > TIE_EPS), 1, np.where(ok & (high < -TIE_EPS), -1, 0))


def _headline(*verdicts: np.ndarray) -> np.ndarray:
    """headline_verdict: the one verdict the decided measures agree on, else 0."""
    stack = np.stack(verdicts)
    up, down = (stack == 1).any(axis=0), (stack == -1).any(axis=0)
    return np.where(up & ~down, 1, np.where(down & ~up, -1, 0))


def _stop(verdict: np.ndarray, width: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(round index of the stop, verdict there) per run; verdict/width are (runs, R)."""
    stop = (verdict != 0) | (width < MARGIN)
    stop[:, -1] = True
    first = stop.argmax(axis=1)
    return first, verdict[np.arange(len(first)), first]


def sequential_metric(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rounds used, verdict at the stop) for delta runs d: (runs, R, CASES)."""
    low, high = sequence_bounds(d)
    n = CASES * np.arange(1, d.shape[1] + 1)[None, :]
    first, verdict = _stop(_metric_verdict(low, high, n), high - low)
    return first + 1, verdict


def _pairs(probs, runs: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """(with passes, base passes) per (run, round, case) from a 2x2 table's shares."""
    both, w_only, b_only = probs
    u = rng.random((runs, MAX_ROUNDS, CASES))
    w = (u < both + w_only)
    b = (u < both) | ((u >= both + w_only) & (u < both + w_only + b_only))
    return w.astype(float), b.astype(float)


def sequential_pass(w: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rounds used, headline verdict at the stop) for graded runs with these pass flags."""
    grader = w - b
    n = CASES * np.arange(1, w.shape[1] + 1)[None, :]
    g_low, g_high = sequence_bounds(grader)
    o_low, o_high = sequence_bounds(grader / 2)
    g, o = _metric_verdict(g_low, g_high, n), _metric_verdict(o_low, o_high, n)
    wo = np.cumsum(((w == 1) & (b == 0)).sum(axis=2), axis=1)
    bo = np.cumsum(((b == 1) & (w == 0)).sum(axis=2), axis=1)
    test = discordant_decision(wo, bo)
    p = np.where(test == g, g, 0)  # the pass-rate interval is the grader's here
    first, verdict = _stop(_headline(o, g, p), o_high - o_low)
    return first + 1, verdict


def _right(verdict: np.ndarray, truth: float) -> np.ndarray:
    return verdict == (1 if truth > 0 else -1)


def _wrong(verdict: np.ndarray, truth: float) -> np.ndarray:
    return (verdict != 0) if abs(truth) < 1e-12 else (verdict == (-1 if truth > 0 else 1))


def _fixed_metric_power(fam: C.Family, truth: float, rounds: int, runs: int) -> float:
    d = fam.draw(np.random.default_rng([SEED, 5, rounds]), (runs, rounds * CASES))
    low, high = bounded_bounds(d)
    return float(np.mean(_right(_metric_verdict(low, high, rounds * CASES), truth)))


def _fixed_pass_power(probs, truth: float, rounds: int, runs: int) -> float:
    n = rounds * CASES
    both, w_only, b_only = probs
    counts = np.random.default_rng([SEED, 6, rounds]).multinomial(
        n, [both, w_only, b_only, 1 - both - w_only - b_only], size=runs)
    b, c = counts[:, 1], counts[:, 2]
    low, high = tango_bounds(b, c, np.full(runs, n))
    p = np.vectorize(mcnemar_p, otypes=[float])(b, c)
    v = np.array([pass_verdict(lo, hi, pv, n) for lo, hi, pv in zip(low, high, p)])
    return float(np.mean(v == ("helps" if truth > 0 else "hurts")))


def _equal_power_rounds(power_of, target: float) -> int | None:
    """The fewest rounds whose fixed-n power reaches `target` (None: not within
    MAX_ROUNDS); power rises with the rounds, so bisection."""
    if power_of(MAX_ROUNDS) < target:
        return None
    lo, hi = 0, MAX_ROUNDS  # power_of(hi) >= target
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if power_of(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def _row(name: str, truth: float, used: np.ndarray, verdict: np.ndarray, runs: int) -> dict:
    return {"family": name, "truth": round(truth, 4), "runs": runs, "cases": CASES,
            "wrong_verdict": float(np.mean(_wrong(verdict, truth))),
            "power": None if abs(truth) < 1e-12 else float(np.mean(_right(verdict, truth))),
            "decided": float(np.mean(verdict != 0)),
            "mean_rounds": float(np.mean(used)),
            "mean_trials": float(np.mean(used)) * CASES * 2}


def null_rows(runs: int | None = None) -> list[dict]:
    """At a true lift of 0: every null family of issue 33, deltas and pass/fail tables."""
    runs = runs or runs_for_tier()
    rows = []
    for i, fam in enumerate(C.NULL_FAMILIES):
        d = fam.draw(np.random.default_rng([SEED, 1, i]), (runs, MAX_ROUNDS, CASES))
        rows.append(_row(fam.name, 0.0, *sequential_metric(d), runs))
    for i, (name, probs) in enumerate(C.PASS_FAMILIES.items()):
        if abs(probs[1] - probs[2]) > 1e-12:
            continue
        w, b = _pairs(probs, runs, np.random.default_rng([SEED, 2, i]))
        rows.append(_row(f"graded run: {name}", 0.0, *sequential_pass(w, b), runs))
    return rows


def power_rows(runs: int | None = None) -> list[dict]:
    """Families with a lift: power, mean trials, and the fixed-n design of equal power."""
    runs = runs or runs_for_tier()
    fams = {f.name: (i, f) for i, f in enumerate(C.FAMILIES)}
    rows = []
    for name in POWER_FAMILIES:
        i, fam = fams[name]
        truth = fam.true_lift()
        d = fam.draw(np.random.default_rng([SEED, 3, i]), (runs, MAX_ROUNDS, CASES))
        row = _row(name, truth, *sequential_metric(d), runs)
        fixed = _equal_power_rounds(
            lambda r, fam=fam, truth=truth: _fixed_metric_power(fam, truth, r, runs),
            row["power"])
        rows.append(_with_fixed(row, fixed))
    for j, name in enumerate(POWER_PASS):
        probs = C.PASS_FAMILIES[name]
        truth = probs[1] - probs[2]
        w, b = _pairs(probs, runs, np.random.default_rng([SEED, 4, j]))
        row = _row(f"graded run: {name}", truth, *sequential_pass(w, b), runs)
        fixed = _equal_power_rounds(
            lambda r, probs=probs, truth=truth: _fixed_pass_power(probs, truth, r, runs),
            row["power"])
        rows.append(_with_fixed(row, fixed))
    return rows


def _with_fixed(row: dict, rounds: int | None) -> dict:
    row["fixed_rounds"] = rounds
    row["fixed_trials"] = None if rounds is None else rounds * CASES * 2
    return row


def table(nulls: list[dict], powers: list[dict]) -> str:
    """The Markdown table for the closing note."""
    lines = [f"Stop when decided: {CASES} cases, at most {MAX_ROUNDS} rounds, margin "
             f"{MARGIN}, {nulls[0]['runs']:,} runs per family", "",
             "| family | true lift | wrong verdict | power | mean trials | fixed-n trials, "
             "equal power |", "|---|---|---|---|---|---|"]
    for r in nulls + powers:
        power = "-" if r["power"] is None else f"{100 * r['power']:.1f}%"
        fixed = "-" if r["power"] is None else (
            f"> {MAX_ROUNDS * CASES * 2}" if r["fixed_trials"] is None else
            str(r["fixed_trials"]))
        lines.append(f"| {r['family']} | {r['truth']:+.3f} | {100 * r['wrong_verdict']:.2f}% "
                     f"| {power} | {r['mean_trials']:.1f} | {fixed} |")
    return "\n".join(lines)


PEEK_RUNS = 1_000


def peek_rows(runs: int = PEEK_RUNS) -> list[dict]:
    """Why the sequence: fixed-n intervals looked at after every round, at a true lift of 0
    (how often some round gives a verdict): the t interval (withdrawn in issue 33), and the
    product's fixed-n betting interval, which is conservative but promises nothing across
    looks. For the bench only (ten fixed-n intervals per run are slow)."""
    from scipy.stats import t as student

    rows = []
    for i, fam in enumerate(C.NULL_FAMILIES):
        d = fam.draw(np.random.default_rng([SEED, 7, i]), (runs, MAX_ROUNDS * CASES))
        t_ever = np.zeros(runs, dtype=bool)
        b_ever = np.zeros(runs, dtype=bool)
        for r in range(1, MAX_ROUNDS + 1):
            x = d[:, : r * CASES]
            n = x.shape[1]
            half = student.ppf(0.975, n - 1) * x.std(axis=1, ddof=1) / np.sqrt(n)
            t_ever |= _metric_verdict(x.mean(1) - half, x.mean(1) + half, n) != 0
            low, high = bounded_bounds(x)
            b_ever |= _metric_verdict(low, high, n) != 0
        rows.append({"family": fam.name, "runs": runs, "t_peeking": float(t_ever.mean()),
                     "fixed_n_bounded_peeking": float(b_ever.mean())})
    return rows
