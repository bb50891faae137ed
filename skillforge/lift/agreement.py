"""Agreement between several judge models scoring the same trials, metric by metric.

Input: `scores[judge][item][metric] = value or None`, an item being one trial (any hashable
id). For each metric, over the items that two or more judges scored:

- `mean_abs_diff`: mean over items of the mean absolute difference over judge pairs;
- `max_abs_diff`: the largest max - min on one item;
- `percent_agreement`: for categorical metrics (every value in {0, 0.5, 1}, such as
  goal_accuracy): the share of judge pairs giving the same value, averaged over items;
- `alpha`: Krippendorff's alpha with the interval metric,
  alpha = 1 - D_o / D_e, D_o = (1/n) sum_u sum_{i != j in u} (v_i - v_j)^2 / (m_u - 1),
  D_e = (1/(n (n-1))) sum_{i != j over all pairable values} (v_i - v_j)^2, where u runs over
  items with m_u >= 2 values and n counts those values. None when D_e = 0 (every value
  equal: agreement is perfect but alpha is undefined).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from skillforge.lift.stats import mean
from skillforge.models.lift import AgreementReport, MetricAgreement

CATEGORICAL_VALUES = frozenset({0.0, 0.5, 1.0})


def _ordered_pair_sq_sum(values: Sequence[float]) -> float:
    """sum over ordered pairs i != j of (v_i - v_j)^2 = 2 (m * sum v^2 - (sum v)^2)."""
    m = len(values)
    s = sum(values)
    return 2.0 * (m * sum(v * v for v in values) - s * s)


def krippendorff_alpha_interval(units: Sequence[Sequence[float]]) -> float | None:
    """Krippendorff's alpha (interval metric) over units given as lists of coders' values."""
    pairable = [list(u) for u in units if len(u) >= 2]
    n = sum(len(u) for u in pairable)
    if n < 2:
        return None
    d_o = sum(_ordered_pair_sq_sum(u) / (len(u) - 1) for u in pairable) / n
    d_e = _ordered_pair_sq_sum([v for u in pairable for v in u]) / (n * (n - 1))
    if d_e <= 0:
        return None
    return 1.0 - d_o / d_e


def metric_agreement(units: Sequence[Sequence[float]], n_judges: int) -> MetricAgreement:
    """Agreement statistics for one metric; `units` holds each item's judges' values."""
    pairable = [list(u) for u in units if len(u) >= 2]
    if not pairable:
        return MetricAgreement(n_items=0, n_judges=n_judges)
    diffs = [mean([abs(x - y) for x, y in combinations(u, 2)]) or 0.0 for u in pairable]
    categorical = all(v in CATEGORICAL_VALUES for u in pairable for v in u)
    agree = None
    if categorical:
        agree = mean(
            [mean([1.0 if x == y else 0.0 for x, y in combinations(u, 2)]) or 0.0 for u in pairable]
        )
    return MetricAgreement(
        n_items=len(pairable),
        n_judges=n_judges,
        mean_abs_diff=mean(diffs),
        max_abs_diff=max(max(u) - min(u) for u in pairable),
        percent_agreement=agree,
        alpha=krippendorff_alpha_interval(pairable),
    )


def judge_agreement(
    scores: Mapping[str, Mapping[Hashable, Mapping[str, float | None]]],
) -> AgreementReport:
    """Per-metric agreement of several judges over the items they scored in common."""
    judges = sorted(scores)
    # dicts as ordered sets: first-seen order, constant-time membership
    metrics: dict[str, None] = {}
    items: dict[Hashable, None] = {}
    for judge in judges:
        for item, by_metric in scores[judge].items():
            items.setdefault(item)
            for m in by_metric:
                metrics.setdefault(m)
    report = AgreementReport(judges=judges)
    for m in metrics:
        units = []
        for item in items:
            vals = [scores[j].get(item, {}).get(m) for j in judges]
            units.append([float(v) for v in vals if v is not None])
        report.metrics[m] = metric_agreement(units, len(judges))
    return report


def scores_from_evidence(records: Iterable[Any]) -> dict[str, dict[Hashable, dict[str, float]]]:
    """`scores[judge][trial][metric]` from stored metric rows whose evidence carries each
    judge's own value (`{"per_judge": {label: value}}`, written by the judged metrics)."""
    scores: dict[str, dict[Hashable, dict[str, float]]] = {}
    for rec in records:
        per_judge = rec.evidence.get("per_judge") if isinstance(rec.evidence, dict) else None
        if not isinstance(per_judge, dict):
            continue
        item = (rec.case_id, rec.condition, rec.attempt)
        for judge, value in per_judge.items():
            if isinstance(value, (int, float)):
                scores.setdefault(str(judge), {}).setdefault(item, {})[rec.metric] = float(value)
    return scores


def run_agreement(records: Iterable[Any]) -> AgreementReport | None:
    """Judge agreement for a run, or None when fewer than two judges scored it."""
    scores = scores_from_evidence(records)
    return judge_agreement(scores) if len(scores) >= 2 else None
