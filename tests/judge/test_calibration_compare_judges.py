"""`skillforge judge --compare-judges`: two scripted judge models, one off by 2 everywhere;
the one that agrees with the author's labels ranks first."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main
from skillforge.lift.calibration_run import rubric_judgments
from skillforge.models.judge import CRITERIA, JudgeResult
from skillforge.models.labels import Label
from tests.conftest import SAMPLE_SKILLS
from tests.judge.answers import rubric_answer
from tests.llm_server import error, structured

TRUTH = {c: 3 + i % 5 for i, c in enumerate(CRITERIA)}


def test_the_judge_that_agrees_with_the_author_ranks_first(tmp_path, llm_server, monkeypatch):
    def reply(req):
        off = 2 if req.model == "generous" else 0
        return structured(rubric_answer({c: s + off for c, s in TRUTH.items()}))

    llm_server.handler = reply
    skill = shutil.copytree(SAMPLE_SKILLS / "lab-units", tmp_path / "lab-units")
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    first = CliRunner().invoke(main, ["judge", str(skill), "--model", "faithful", "--format",
                                      "json"])
    result = JudgeResult.model_validate(json.loads(first.stdout)["skills"][0])
    with RunStore(tmp_path / "state") as store:  # the author agrees with the faithful judge
        store.save_labels(Label.of(j, float(TRUTH[j.metric]), source="judge_tab")
                          for j in rubric_judgments(result))
    r = CliRunner().invoke(main, ["judge", str(skill), "--model", "generous", "--model",
                                  "faithful", "--compare-judges", "--state-dir",
                                  str(tmp_path / "state"), "--format", "json"])
    assert r.exit_code == 0, r.output
    ranking = json.loads(r.stdout)["judges"]
    assert [d["judge"] for d in ranking] == ["faithful", "generous"]
    assert ranking[0]["mean_mae"] == 0 and abs(ranking[1]["mean_mae"] - 0.2) < 1e-9  # 2 of 10
    assert ranking[1]["labels"] == len(CRITERIA)


def _labelled_lab_units(tmp_path, llm_server, monkeypatch):
    """lab-units judged by `faithful`, the author agreeing with it on every criterion; the
    server answers `faithful` and `other` truly, and `broken` with an HTTP 400."""
    def reply(req):
        if req.model == "broken":
            return error(400, "The model `broken` does not exist or you do not have access to it")
        return structured(rubric_answer(TRUTH))

    llm_server.handler = reply
    skill = shutil.copytree(SAMPLE_SKILLS / "lab-units", tmp_path / "lab-units")
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    first = CliRunner().invoke(main, ["judge", str(skill), "--model", "faithful", "--format",
                                      "json", "--no-cache"])
    result = JudgeResult.model_validate(json.loads(first.stdout)["skills"][0])
    with RunStore(tmp_path / "state") as store:
        store.save_labels(Label.of(j, float(TRUTH[j.metric]), source="judge_tab")
                          for j in rubric_judgments(result))
    return skill


def compare(skill, state, *models, fmt="text"):
    args = ["judge", str(skill), "--compare-judges", "--state-dir", str(state), "--format",
            fmt]
    for m in models:
        args += ["--model", m]
    return CliRunner().invoke(main, args)


def test_a_failed_judge_is_reported_not_taken_for_missing_labels(tmp_path, llm_server,
                                                                  monkeypatch):
    skill = _labelled_lab_units(tmp_path, llm_server, monkeypatch)
    alone = compare(skill, tmp_path / "state", "broken")
    assert alone.exit_code == 2, alone.output
    assert "label some first" not in alone.output, alone.output
    assert "broken" in alone.stderr and "does not exist" in alone.stderr, alone.stderr
    # with a judge that answers: it is ranked, the failed one named with its error, exit 2
    both = compare(skill, tmp_path / "state", "faithful", "broken", fmt="json")
    assert both.exit_code == 2, both.output
    doc = json.loads(both.stdout)
    assert [d["judge"] for d in doc["judges"]] == ["faithful"]
    assert [(d["judge"], "does not exist" in d["error"]) for d in doc["not_compared"]] \
        == [("broken", True)]


def test_every_listed_judge_is_ranked_or_named_with_why(tmp_path, llm_server, monkeypatch):
    skill = _labelled_lab_units(tmp_path, llm_server, monkeypatch)
    # the skill changed since the labelling: `faithful` is compared through the scores the
    # author saw; `other` judged only the new version, which nobody labelled
    md = skill / "SKILL.md"
    md.write_text(md.read_text() + "\nOne more line.\n")
    r = compare(skill, tmp_path / "state", "faithful", "other")
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    assert "1. faithful" in text and "not compared: other" in text, text
    assert "no labelled judgment by other" in text, text
    doc = json.loads(compare(skill, tmp_path / "state", "faithful", "other",
                             fmt="json").stdout)
    assert [d["judge"] for d in doc["judges"]] == ["faithful"]
    assert [d["judge"] for d in doc["not_compared"]] == ["other"]
