"""The judges of a skill ranked from the run store alone (issue 19): a model that judged the
skill after the author labelled it (its answers recorded, no label of its own) is compared
with the author's value of the same content, and repeated rubric answers count as
self-consistency."""

from __future__ import annotations

from sessions.store import RunStore
from skillforge.lift.calibration_rank import skill_agreement
from skillforge.models.judge import CRITERIA
from skillforge.models.labels import CalibrationBar, Judgment, Label

SKILL = "lab-units"
VERSIONS = 5


def _author(v: int, i: int) -> float:
    return float((v * 3 + i) % 9 + 1)


def test_a_judge_recorded_after_the_labelling_is_ranked_by_the_same_content(tmp_path):
    with RunStore(tmp_path) as store:
        store.save_labels(
            Label(kind="rubric", content_hash=f"v{v}", metric=c, judge_model="seen",
                  prompt_version="r1", author_value=_author(v, i),
                  judge_value=min(10.0, _author(v, i) + 3), skill=SKILL)
            for v in range(VERSIONS) for i, c in enumerate(CRITERIA))
        # "late" judged every version later, twice (the same answers both times).
        store.record_judgments(
            Judgment(kind="rubric", content_hash=f"v{v}", metric=c, judge_model="late",
                     prompt_version="r1", value=_author(v, i), skill=SKILL,
                     judged_at=f"2026-11-2{k}T10:00:00")
            for k in (1, 2) for v in range(VERSIONS) for i, c in enumerate(CRITERIA))
        data = skill_agreement(store, SKILL, CalibrationBar(min_kappa=0.5, min_labels=5),
                               configured=["openai:late", "absent"])
    assert [d["judge"] for d in data.ranking] == ["late", "seen"]
    late = data.rows_of("late")
    assert len(late) == len(CRITERIA) and all(r.n == VERSIONS for r in late)
    assert all(r.mae == 0 and r.kind == "rubric" for r in late)
    assert all(r.self_consistency.n_items == VERSIONS for r in late)
    assert all(r.self_consistency.exact_share == 1.0 for r in late)
    seen = data.rows_of("seen")
    assert all(r.bias is not None and r.bias > 0 for r in seen)
    assert data.unlabelled_configured == ["absent"]  # "openai:late" is late


def test_no_label_no_ranking(tmp_path):
    with RunStore(tmp_path) as store:
        data = skill_agreement(store, SKILL, CalibrationBar())
    assert data.labels == 0 and data.ranking == [] and data.rows == []
