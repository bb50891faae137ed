"""A judge with a known bias, against synthetic author labels (issue 19's "must show").

The loopback server plays a rubric judge that scores every criterion as the author would,
give or take one point, except `examples`, which it always scores 2 points too high. The
real judge (real SDK client, real parsing and caching) judges 40 skills; the author's labels
are the hidden truth. The agreement figures must recover the bias and the kappa within their
intervals, and the isotonic map fitted on some labels must remove the bias on the others.
"""

from __future__ import annotations

import json
import re

import numpy as np

from skillforge.authoring.judge.rubric import judge_skill
from sessions.store import RunStore
from skillforge.lift.calibration import heldout_errors, to_bins, weighted_kappa
from skillforge.lift.calibration_run import agreement_rows, rubric_judgments
from skillforge.models.judge import CRITERIA
from skillforge.models.labels import Label
from skillforge.models.skill import load_skill
from tests.judge.answers import rubric_answer
from tests.llm_server import structured

N_SKILLS = 40
BIASED = "examples"
BIAS = 2


def truth(variant: int, criterion: str) -> int:
    """The author's score: spread over 0-8 so the +2 never hits the ceiling."""
    return (variant * 7 + CRITERIA.index(criterion) * 3) % 9


def noise(variant: int, criterion: str) -> int:
    """The judge's own wobble: -1, 0 or +1, fixed per skill and criterion."""
    return (variant * 5 + CRITERIA.index(criterion)) % 3 - 1


def judged(variant: int, criterion: str) -> int:
    return min(10, max(0, truth(variant, criterion) + noise(variant, criterion)
                       + (BIAS if criterion == BIASED else 0)))


def _skill(root, i):
    d = root / f"variant-{i:02d}"
    d.mkdir()
    (d / "SKILL.md").write_text(
        f"---\nname: variant-{i:02d}\ndescription: Formats CSV files, variant marker "
        f"VARIANT-{i:02d}. Use when asked to tidy a CSV.\n---\n\n# Variant {i}\n\n1. Read it.\n")
    return d


async def test_biased_judge_is_recovered_and_calibrated_away(tmp_path, llm_server, make_client):
    def reply(req):
        i = int(re.search(r"VARIANT-(\d\d)", json.dumps(req.body)).group(1))
        return structured(rubric_answer({c: judged(i, c) for c in CRITERIA}))

    llm_server.handler = reply
    client = make_client("openai", model="biased-judge")
    skills = tmp_path / "skills"
    skills.mkdir()
    with RunStore(tmp_path / "state") as store:
        for i in range(N_SKILLS):
            result = await judge_skill(load_skill(_skill(skills, i)), [client],
                                       cache_dir=tmp_path / "cache")
            judgments = rubric_judgments(result)
            store.record_judgments(judgments)
            store.save_labels(Label.of(j, float(truth(i, j.metric)), source="judge_tab")
                              for j in judgments)
        labels = store.labels(kind="rubric")
        rows = {r.metric: r for r in agreement_rows([], labels, store.repeated_judgments())}
    assert len(labels) == N_SKILLS * len(CRITERIA)

    ex = rows[BIASED]
    assert ex.judge == "biased-judge" and ex.kind == "rubric" and ex.n == N_SKILLS
    true_bias = np.mean([judged(i, BIASED) - truth(i, BIASED) for i in range(N_SKILLS)])
    assert abs(true_bias - BIAS) < 0.2  # the noise averages out
    assert ex.bias_ci[0] <= BIAS <= ex.bias_ci[1]
    assert ex.bias_ci[0] > 1.0  # the interval is not so wide it says nothing
    # Kappa: the interval holds the population value of the same process (by simulation).
    rng = np.random.default_rng(7)
    t = rng.integers(0, 9, 200_000)
    j = np.clip(t + rng.integers(-1, 2, t.size) + BIAS, 0, 10)
    population = weighted_kappa(to_bins(j.tolist(), BIASED), to_bins(t.tolist(), BIASED))
    assert ex.kappa_ci[0] <= population <= ex.kappa_ci[1]
    # An unbiased criterion: bias near 0 with 0 inside its interval, and a higher kappa.
    fair = rows["clarity"]
    assert fair.bias_ci[0] <= 0 <= fair.bias_ci[1]
    assert fair.kappa > ex.kappa
    # Self-consistency: no content was judged twice (the cache answered nothing twice).
    assert ex.self_consistency.n_items == 0

    # The isotonic map: cross-validated, applied, and on held-out labels the bias is gone.
    assert ex.mapping is not None and ex.mapping.applied
    assert ex.mapping.heldout_mae_calibrated < ex.mapping.heldout_mae_raw
    train = range(0, N_SKILLS, 2)
    test = range(1, N_SKILLS, 2)
    errors = heldout_errors([judged(i, BIASED) for i in test], [truth(i, BIASED) for i in test],
                            [judged(i, BIASED) for i in train], [truth(i, BIASED) for i in train])
    assert errors["raw_bias"] > 1.5
    assert abs(errors["calibrated_bias"]) < 0.5
    assert errors["calibrated_mae"] < errors["raw_mae"]
