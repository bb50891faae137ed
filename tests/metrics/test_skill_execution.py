"""skill_execution on hand-built trajectories: each check true and false, for positive,
negative and baseline trials."""

from __future__ import annotations

import pytest

from skillforge.metrics.deterministic import deterministic_metrics
from skillforge.models.evals import load_evals
from tests.conftest import ROOT
from tests.metrics.builders import Call, activate, bash, case, read, run_script, trajectory, write

SCRIPT = "scripts/summarize.py"
# NVIDIA SkillEvaluator cases: a bare "summarize.py", negatives without a kind.
NVIDIA, _ = load_evals(ROOT / "tests" / "evals" / "fixtures" / "nvidia_skill_evaluator.json")


def execution(traj, kase, condition="with_skill"):
    r = deterministic_metrics(traj, kase, target_skill="csv-insights", condition=condition)
    return r.skill_execution, r


def holds(r):
    return [c["holds"] for c in r.details["skill_execution"]["checks"]]


# --- positive cases, with_skill -----------------------------------------------------------

def test_all_three_checks_hold():
    t = trajectory(activate("csv-insights"), run_script("csv-insights", SCRIPT),
                   write("report.md"))
    value, r = execution(t, case(expected_script=SCRIPT))
    assert value == 1.0 and holds(r) == [True, True, True]
    assert r.activated and (r.script_runs, r.script_runs_ok) == (1, 1)


def test_not_activated_fails_the_activation_and_the_order_checks():
    t = trajectory(run_script("csv-insights", SCRIPT))
    value, r = execution(t, case(expected_script=SCRIPT))
    assert holds(r) == [False, True, False] and value == pytest.approx(1 / 3)
    assert r.details["skill_execution"]["checks"][2]["why"].startswith("never activated")


def test_expected_script_not_run():
    t = trajectory(activate("csv-insights"), bash("python3 my_own_summary.py"))
    value, r = execution(t, case(expected_script=SCRIPT))
    assert holds(r) == [True, False, True] and value == pytest.approx(2 / 3)


def test_a_failing_run_of_the_expected_script_still_counts_as_run():
    t = trajectory(activate("csv-insights"), run_script("csv-insights", SCRIPT, code=2))
    value, r = execution(t, case(expected_script=SCRIPT))
    assert value == 1.0 and (r.script_runs, r.script_runs_ok) == (1, 0)
    assert "exit codes 2" in r.details["skill_execution"]["checks"][1]["why"]


def test_the_same_script_name_of_another_skill_is_not_the_expected_script():
    t = trajectory(activate("csv-insights"), run_script("other-skill", SCRIPT))
    _, r = execution(t, case(expected_script=SCRIPT))
    assert holds(r)[1] is False


@pytest.mark.parametrize("declared", [
    "./scripts/summarize.py", "csv-insights/scripts/summarize.py",
    "/skills/csv-insights/scripts/summarize.py"])
def test_expected_script_spellings(declared):
    t = trajectory(activate("csv-insights"), run_script("csv-insights", SCRIPT))
    assert execution(t, case(expected_script=declared))[0] == 1.0


def test_a_bare_script_name_matches_the_skills_scripts_folder():
    t = trajectory(activate("csv-insights"), run_script("csv-insights", SCRIPT))
    value, r = execution(t, NVIDIA.case("revenue-by-region"))
    assert value == 1.0 and r.details["skill_execution"]["checks"][1]["holds"]


def test_a_bare_script_name_is_not_another_script():
    t = trajectory(activate("csv-insights"), run_script("csv-insights", "scripts/report_format.py"))
    _, r = execution(t, NVIDIA.case("revenue-by-region"))
    assert holds(r) == [True, False, True]
    assert r.details["skill_execution"]["checks"][1]["why"] == (
        "no command ran csv-insights/summarize.py or csv-insights/scripts/summarize.py")


def test_activated_after_writing_a_file_fails_the_order_check():
    t = trajectory(write("notes.md"), activate("csv-insights"))
    value, r = execution(t, case())  # no expected_script: two checks
    assert holds(r) == [True, False] and value == 0.5
    assert "first file write notes.md at step 2" in r.details["skill_execution"]["checks"][1]["why"]


def test_activated_after_running_a_skill_script_fails_the_order_check():
    t = trajectory(run_script("csv-insights", SCRIPT), activate("csv-insights"))
    _, r = execution(t, case(expected_script=SCRIPT))
    assert holds(r) == [True, True, False]


def test_reading_and_running_in_one_command_counts_as_activated_first():
    t = trajectory(bash("cat /skills/csv-insights/SKILL.md && python3 "
                        "/skills/csv-insights/scripts/summarize.py sales.csv"))
    assert execution(t, case(expected_script=SCRIPT))[0] == 1.0


def test_activated_with_nothing_run_or_written_holds():
    _, r = execution(trajectory(activate("csv-insights")), case())
    assert holds(r) == [True, True]


def test_a_harness_skill_tool_is_an_activation():
    t = trajectory(Call("Skill", {"skill": "csv-insights"}, "Launching skill"),
                   write("out.md"))
    assert execution(t, case())[0] == 1.0


def test_without_expected_skill_the_target_is_expected():
    t = trajectory(activate("csv-insights"))
    kase = case(expected_skill=None, kind=None)  # a skill-creator case: no kind, no skill
    value, r = execution(t, kase)
    assert value == 1.0 and r.details["skill_execution"]["expected_skill"] == "csv-insights"


# --- baseline -------------------------------------------------------------------------------

def test_baseline_positive_scores_zero_on_activation_and_order():
    t = trajectory(bash("python3 -c 'import csv'"), write("report.md"))
    value, r = execution(t, case(expected_script=SCRIPT), condition="baseline")
    assert holds(r) == [False, False, False] and value == 0.0
    assert "baseline" in r.details["skill_execution"]["checks"][0]["why"]


def test_baseline_positive_without_expected_script():
    value, r = execution(trajectory(write("report.md")), case(), condition="baseline")
    assert holds(r) == [False, False] and value == 0.0


# --- negative cases -------------------------------------------------------------------------

def test_negative_case_not_activated_scores_one():
    value, r = execution(trajectory(bash("wc -l sales.csv")), case("negative"))
    assert value == 1.0 and holds(r) == [True]


def test_negative_case_activated_scores_zero():
    value, r = execution(trajectory(activate("csv-insights")), case("negative"))
    assert value == 0.0 and r.activated


def test_negative_case_activating_another_skill_is_fine_here():
    assert execution(trajectory(activate("pdf-tools")), case("negative"))[0] == 1.0


@pytest.mark.parametrize("case_id", ["regex-help", "xlsx-chart"])
def test_nvidia_negatives_without_a_kind_score_as_negative(case_id):
    # regex-help writes "expected_skill": null, xlsx-chart "should_trigger": false.
    kase = NVIDIA.case(case_id)
    quiet, r = execution(trajectory(bash("wc -l budget.xlsx")), kase)
    used, _ = execution(trajectory(activate("csv-insights")), kase)
    assert (quiet, used) == (1.0, 0.0)
    assert r.details["skill_execution"]["case_kind"] == "negative"
    assert r.details["skill_efficiency"]["routing_precision"]["expected_skill"] is None


def test_negative_case_in_baseline_scores_one():
    assert execution(trajectory(bash("ls")), case("negative"), condition="baseline")[0] == 1.0


def test_self_generated_withholds_the_target_like_baseline():
    # The agent wrote its own notes as a skill of the same name and read them.
    t = trajectory(write("/workspace/skills/csv-insights/SKILL.md", "# my notes"),
                   read("/workspace/skills/csv-insights/SKILL.md"))
    value, r = execution(t, case(), condition="self_generated")
    assert value == 0.0
    assert r.details["skill_execution"]["checks"][0]["why"].startswith("self_generated:")


def test_a_version_delta_baseline_stages_the_target():
    t = trajectory(activate("csv-insights"), write("report.md"))
    r = deterministic_metrics(t, case(), target_skill="csv-insights", condition="baseline",
                              target_staged=True)
    assert r.skill_execution == 1.0
