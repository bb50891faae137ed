"""Trigger evaluation statistics: pure functions over trigger queries and trial records.

- `split_queries`: a stratified split (positives and negatives shuffled apart with one seed,
  `holdout` of each class to the test set, at least one of each class on each side when
  the class has two or more queries), as in skill-creator's loop.
- `score_trials`: per query its trigger rate over its finished runs and its decision (rate
  >= threshold); over the set accuracy, precision and recall of the decisions, each a
  proportion of queries with a 95% Wilson score interval (skillforge.lift.proportions: the
  one scipy's `binomtest(...).proportion_ci(method="wilson")` gives, which holds its level
  at small n where the normal interval does not).
- `compare`: the best description against the current one on the same test queries,
  paired per query (the per-query score is the rate for a positive, 1 - rate for a
  negative); the interval and verdict are the lift's (skillforge.lift.intervals / stats),
  and the planner (skillforge.lift.planner) says how many test queries would decide a
  difference of the size seen.
- `flips`: queries whose decision changed between two descriptions.

A run counts as triggered when the agent read the target's SKILL.md or ran one of its
scripts: `TrialRecord.activated` or `script_runs > 0` (the activation facts).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from skillforge.lift.intervals import DEFAULT_CI, lift_interval
from skillforge.lift.planner import cases_needed
from skillforge.lift.proportions import wilson
from skillforge.lift.stats import MIN_VERDICT_CASES, mean, sample_sd, verdict
from skillforge.models.evals import EvalSet
from skillforge.models.lift import CiMethod
from skillforge.models.trial import TrialRecord
from skillforge.models.triggers import (
    DEFAULT_THRESHOLD,
    Attempt,
    Comparison,
    Flip,
    QueryResult,
    Split,
    TriggerQuery,
    TriggerScore,
)

PLANNER_DEFAULT_TARGET = 0.05


def trigger_queries(evalset: EvalSet | None) -> list[TriggerQuery]:
    """The trigger set of an eval set: its cases with `should_trigger` true or false."""
    if evalset is None:
        return []
    return [TriggerQuery(id=str(c.id), query=c.prompt, should_trigger=c.should_trigger)
            for c in evalset.cases if c.should_trigger is not None]


def split_queries(queries: Sequence[TriggerQuery], holdout: float,
                  seed: int = 0) -> tuple[list[TriggerQuery], list[TriggerQuery]]:
    """(train, test), stratified by should_trigger; each keeps the set's order."""
    if not 0.0 < holdout < 1.0:
        raise ValueError(f"holdout must be between 0 and 1 (exclusive), not {holdout}")
    rng = random.Random(seed)
    test_ids: set[str] = set()
    for cls in (True, False):
        ids = [q.id for q in queries if q.should_trigger is cls]
        rng.shuffle(ids)
        k = round(holdout * len(ids))
        if len(ids) >= 2:
            k = min(max(k, 1), len(ids) - 1)
        test_ids.update(ids[:k])
    return ([q for q in queries if q.id not in test_ids],
            [q for q in queries if q.id in test_ids])


def triggered(trial: TrialRecord) -> bool:
    """Whether the agent activated the target in this trial (read SKILL.md or ran a script)."""
    return bool(trial.activated) or trial.script_runs > 0


def score_trials(queries: Sequence[TriggerQuery], trials: Iterable[TrialRecord], *,
                 threshold: float = DEFAULT_THRESHOLD, run_id: str | None = None) -> TriggerScore:
    """The trigger evaluation of `queries` from the trials run on them (see module doc)."""
    by_case: dict[str, list[TrialRecord]] = {}
    all_trials = list(trials)
    for t in all_trials:
        by_case.setdefault(t.case_id, []).append(t)
    results: list[QueryResult] = []
    for q in queries:
        mine = sorted(by_case.get(q.id, []), key=lambda t: t.attempt)
        done = [t for t in mine if t.status == "ok"]
        hits = [t for t in done if triggered(t)]
        rate = len(hits) / len(done) if done else None
        decided = None if rate is None else rate >= threshold
        results.append(QueryResult(
            id=q.id, query=q.query, should_trigger=q.should_trigger, runs=len(done),
            triggered=len(hits), errors=len(mine) - len(done), rate=rate, decided=decided,
            correct=None if decided is None else decided == q.should_trigger,
            run_id=mine[0].run_id if mine else run_id,
            untriggered_attempts=[t.attempt for t in done if not triggered(t)]))
    decided = [r for r in results if r.decided is not None]
    tp = sum(1 for r in decided if r.decided and r.should_trigger)
    fp = sum(1 for r in decided if r.decided and not r.should_trigger)
    fn = sum(1 for r in decided if not r.decided and r.should_trigger)
    costs = [t.cost_usd for t in all_trials if t.cost_usd is not None]
    return TriggerScore(
        threshold=threshold, queries=results,
        accuracy=wilson(sum(1 for r in decided if r.correct), len(decided)),
        precision=wilson(tp, tp + fp), recall=wilson(tp, tp + fn),
        trials=len(all_trials), ok=sum(1 for t in all_trials if t.status == "ok"),
        tokens_in=sum(t.tokens_in for t in all_trials),
        tokens_out=sum(t.tokens_out for t in all_trials),
        cost_usd=round(sum(costs), 6) if costs else None)


def accuracy_of(score: TriggerScore | None) -> float | None:
    return score.accuracy.value if score is not None else None


def pick_best(attempts: Sequence[Attempt]) -> int:
    """The iteration with the highest test accuracy (ties: higher train accuracy, then the
    earlier iteration, so the current description wins a tie)."""
    tried = [a for a in attempts if a.status == "tried" and accuracy_of(a.test) is not None]
    if not tried:
        return 0
    best = max(tried, key=lambda a: (accuracy_of(a.test) or 0.0, accuracy_of(a.train) or 0.0,
                                     -a.iteration))
    return best.iteration


def compare(current: TriggerScore, best: TriggerScore, best_iteration: int, *,
            ci: CiMethod = DEFAULT_CI) -> Comparison:
    """Best vs current on the same test queries: accuracy difference, paired per-query
    score deltas with the lift's interval and verdict, and the planner's query count."""
    out = Comparison(best_iteration=best_iteration)
    before, after = accuracy_of(current), accuracy_of(best)
    out.diff = None if before is None or after is None else after - before
    deltas = []
    for q in current.queries:
        other = best.query(q.id)
        if other is not None and q.score is not None and other.score is not None:
            deltas.append(other.score - q.score)
    out.n = len(deltas)
    out.score_diff = mean(deltas)
    interval = lift_interval(deltas, ci) if len(deltas) >= 2 else None
    if interval is not None:
        out.ci_low, out.ci_high = interval
    out.verdict = verdict(interval, len(deltas))
    sd = sample_sd(deltas)
    size = abs(out.score_diff) if out.score_diff else 0.0
    needed = cases_needed(sd, target=size if size > 0 else PLANNER_DEFAULT_TARGET,
                          centre=out.score_diff or 0.0) if sd is not None else None
    # never fewer queries than the comparison already has: those did not decide it
    out.queries_needed = max(MIN_VERDICT_CASES, needed, out.n + 1) if needed is not None \
        else None
    out.within_noise = out.verdict == "inconclusive"
    if best_iteration == 0:
        out.warning = ("no proposed description scored higher than the current one on the "
                       "test queries; keep the current description")
    elif out.within_noise:
        lo = "-" if out.ci_low is None else f"{out.ci_low:+.3f}"
        hi = "-" if out.ci_high is None else f"{out.ci_high:+.3f}"
        need = (f"; about {out.queries_needed} test queries would tell a difference of this "
                "size from noise (planner)" if out.queries_needed else "")
        out.warning = (f"the test difference to the current description (accuracy "
                       f"{_signed(out.diff)}, per-query score {_signed(out.score_diff)}, 95% CI "
                       f"[{lo}, {hi}] over {out.n} test queries) is within noise{need}")
    return out


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def flips(before: Attempt, after: Attempt) -> list[Flip]:
    """Queries (train and test) whose decision differs between two attempts."""
    out: list[Flip] = []
    for split in ("train", "test"):
        old: TriggerScore | None = getattr(before, split)
        new: TriggerScore | None = getattr(after, split)
        if old is None or new is None:
            continue
        for q in old.queries:
            other = new.query(q.id)
            if other is None or q.decided is None or other.decided is None:
                continue
            if q.decided != other.decided:
                out.append(Flip(id=q.id, split=_split(split), query=q.query,
                                should_trigger=q.should_trigger, rate_before=q.rate,
                                rate_after=other.rate, now_correct=other.correct))
    return out


def _split(name: str) -> Split:
    return "train" if name == "train" else "test"


def failures(score: TriggerScore) -> list[QueryResult]:
    """The queries a description got wrong (or could not decide), for the proposer."""
    return [q for q in score.queries if q.correct is not True]
