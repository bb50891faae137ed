"""Harbor and the other case formats: a skill whose cases are plugin-eval folders exports as
a Harbor dataset, and a Harbor trial of a case with checks gets the same grader metric as a
local trial."""

from __future__ import annotations

import shutil

from skillforge.evalformats import registry
from skillforge.harbor.export import select_cases
from skillforge.harbor.trial_record import deterministic_scores
from skillforge.models.evals import EvalCase
from tests.conftest import SAMPLE_SKILLS
from tests.evalformats.test_checks_metric import TRAJ


def test_export_selects_cases_kept_as_plugin_eval_folders(tmp_path):
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    evalset = registry.read(skill / "evals" / "evals.json").evalset
    (skill / "evals" / "evals.json").unlink()
    registry.write(evalset, "cc-plugin-eval", skill / "evals")
    cases = select_cases(skill, ["monthly-revenue"])
    assert [c.id for c in cases] == ["monthly-revenue"]
    assert cases[0].expected_script == "scripts/summarize.py"
    assert cases[0].extra["judge_votes"] == 3


def test_harbor_trial_scores_checks_as_the_grader():
    case = EvalCase(id="c", prompt="p", checks=[{"type": "regex", "pattern": "350"},
                                                {"type": "file_exists", "path": "nope.md"}])
    metrics, evidence, *_ = deterministic_scores(TRAJ, case, target_skill="csv-insights",
                                                 condition="with_skill")
    assert metrics["grader"] == 0.5 and evidence["grader"].evidence["source"] == "checks"
