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
from tests.llm_server import structured

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
