"""SF604 at trial time: every skill script answers --help in the real trial sandbox, or the
run warns before any agent turn."""

from __future__ import annotations

import pytest

from skillforge.models.trial import Limits, RunSpec
from skillforge.trials.script_smoke import smoke_run, smoke_targets
from skillforge.trials.staging import load_skill_set
from skillforge.trials.run import load_cases

pytestmark = [pytest.mark.docker, pytest.mark.timeout(180)]


def _spec(skill, image) -> RunSpec:
    return RunSpec(skill_path=str(skill), image=image, attempts=1,
                   limits=Limits(timeout_sec=60, memory_mb=512))


async def test_a_sample_skill_script_passes(csv_skill, trial_image, run_id):
    spec = _spec(csv_skill, trial_image)
    skills = load_skill_set(spec)
    assert [p for p, _ in smoke_targets(skills.target)] == ["scripts/report_format.py",
                                                            "scripts/summarize.py"]
    assert await smoke_run(spec, skills, load_cases(spec), run_id=run_id) == []


async def test_broken_and_hanging_scripts_are_reported(csv_skill, trial_image, run_id):
    scripts = csv_skill / "scripts"
    (scripts / "needs_pandas.py").write_text("import pandas\nprint('never')\n")
    (scripts / "asks.sh").write_text("#!/bin/sh\nread answer\nsleep 60\n")
    (scripts / "fine.sh").write_text("#!/bin/sh\necho 'usage: fine.sh FILE'\n")
    spec = _spec(csv_skill, trial_image)
    findings = await smoke_run(spec, load_skill_set(spec), load_cases(spec), run_id=run_id)
    by_path = {f.path: f for f in findings}
    assert set(by_path) == {"scripts/needs_pandas.py", "scripts/asks.sh"}
    assert all(f.rule == "SF604" for f in findings)
    assert "exited 1" in by_path["scripts/needs_pandas.py"].message
    assert "No module named 'pandas'" in by_path["scripts/needs_pandas.py"].message
    assert "did not finish" in by_path["scripts/asks.sh"].message


async def test_no_smoke_run_without_the_with_skill_condition(csv_skill, trial_image, run_id):
    (csv_skill / "scripts" / "bad.py").write_text("raise SystemExit(3)\n")
    spec = _spec(csv_skill, trial_image).model_copy(update={"conditions": ["baseline"]})
    assert await smoke_run(spec, load_skill_set(spec), load_cases(spec), run_id=run_id) == []




def test_trial_warns_about_a_failing_script_before_the_trials(cli, csv_skill, scripted, tmp_path):  # noqa: F811
    (csv_skill / "scripts" / "needs_pandas.py").write_text("import pandas\n")
    proc = cli(str(csv_skill), "--cases", "monthly-revenue", "--attempts", "1", "--no-judge",
               "--conditions", "with_skill", "--state-dir", str(tmp_path / "state"))
    assert "SF604 scripts/needs_pandas.py" in proc.stderr
    assert "exited 1: ModuleNotFoundError" in proc.stderr
