"""Routing stress: decoy skills in both conditions, and a sweep over how many.

Unit part: which decoys are chosen (deterministic, nested, never the target, never one
staging would refuse). Docker part: `skillforge trial --sweep-decoys 0,2` over csv-insights
with the two other sample skills as decoys, driven by a scripted agent that routes from the
skill list in its system prompt, so every number in the table can be checked.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from skillforge.trials.decoys import (
    DecoyError,
    SweepReport,
    check_decoys,
    choose_decoys,
    parse_counts,
    sweep_table,
)
from skillforge.models.config import Settings
from skillforge.models.trial import RunSpec
from skillforge.trials.config import TrialConfigError, build_run_spec
from tests.conftest import SAMPLE_SKILLS
from tests.trials.scripted_agent import (
    BASELINE,
    EXTRACT_MISSING,
    SCRIPT,
    answer,
    bash,
    case_of,
    is_agent_request,
    read,
    turn_of,
)

SKILLFORGE = str(Path(sys.executable).with_name("skillforge"))
SKILL_RE = re.compile(r"<name>([^<]+)</name>\s*<description>.*?</description>\s*"
                      r"<location>([^<]+)</location>", re.DOTALL)


def _leaky(folder: Path, name: str = "sheet-helper") -> Path:
    """A skill whose SKILL.md points at the target: staging must refuse it as a decoy."""
    path = folder / name
    shutil.copytree(SAMPLE_SKILLS / "lab-units", path)
    md = path / "SKILL.md"
    md.write_text(md.read_text().replace("name: lab-units", f"name: {name}")
                  + "\nFor spreadsheets, prefer the csv-insights skill.\n")
    return path


# --- choosing decoys ------------------------------------------------------------------------

def test_decoys_come_from_the_skills_next_to_the_target_never_the_target(skills):
    two = choose_decoys(skills / "csv-insights", 2)
    assert sorted(Path(p).name for p in two) == ["lab-units", "release-notes"]
    assert choose_decoys(skills / "csv-insights", 2) == two  # deterministic
    assert choose_decoys(skills / "csv-insights", 1) == two[:1]  # nested: 1 is part of 2
    assert choose_decoys(skills / "csv-insights", 0) == []
    firsts = {Path(choose_decoys(skills / "csv-insights", 1, seed=s)[0]).name for s in range(8)}
    assert firsts == {"lab-units", "release-notes"}  # the seed decides which one


def test_asking_for_more_decoys_than_there_are_says_how_many_there_are(skills):
    with pytest.raises(DecoyError, match=r"only 2 usable decoy skill\(s\) in .*skills besides "
                                         r"csv-insights, 3 asked for"):
        choose_decoys(skills / "csv-insights", 3)


def test_a_candidate_that_names_the_target_is_skipped_with_the_reason(skills, tmp_path):
    pool = tmp_path / "pool"
    pool.mkdir()
    _leaky(pool)
    shutil.copytree(skills / "csv-insights", pool / "csv-insights-old")  # the target's name
    shutil.copytree(skills / "lab-units", pool / "lab-units")
    notes: list[str] = []
    chosen = choose_decoys(skills / "csv-insights", 1, source=pool, seed=3, warn=notes.append)
    assert [Path(p).name for p in chosen] == ["lab-units"]
    notes = []
    with pytest.raises(DecoyError, match=r"only 1 usable decoy skill\(s\) in .*pool besides "
                                         r"csv-insights, 2 asked for \(2 skipped, see the "
                                         r"warnings\)"):
        choose_decoys(skills / "csv-insights", 2, source=pool, warn=notes.append)
    assert sorted(notes) == [
        ("decoy candidate skipped: csv-insights-old: it is named 'csv-insights' like the skill "
         "under test"),
        ("decoy candidate skipped: sheet-helper: staging refuses it, the baseline would show "
         "csv-insights (decoy skill sheet-helper file SKILL.md names it)")]


def test_a_named_decoy_that_leaks_the_target_is_refused_before_the_run(skills):
    leaky = _leaky(skills)
    spec = RunSpec(skill_path=str(skills / "csv-insights"), workspace="group",
                   decoy_skills=[str(skills / "lab-units"), str(leaky)])
    with pytest.raises(DecoyError) as err:
        check_decoys(spec)
    message = str(err.value)
    assert "staging refuses these skills" in message
    assert f"decoy skill sheet-helper ({leaky})" in message and "SKILL.md names it" in message
    assert "lab-units" not in message.split("staging refuses")[1].split("|")[0].split("(")[0]
    check_decoys(spec.model_copy(update={"decoy_skills": [str(skills / "lab-units")]}))


def test_the_run_spec_takes_decoys_from_the_options(skills):
    root = skills / "csv-insights"
    spec = build_run_spec(root, Settings(), {"decoys": 1, "decoy_seed": 0})
    assert spec.workspace == "group"
    assert spec.decoy_skills == choose_decoys(root, 1, seed=0)
    spec = build_run_spec(root, Settings(), {"decoys": 2, "decoys_from": str(skills)})
    assert sorted(Path(p).name for p in spec.decoy_skills) == ["lab-units", "release-notes"]
    with pytest.raises(TrialConfigError, match=r"options: only 2 usable decoy skill\(s\)"):
        build_run_spec(root, Settings(), {"decoys": 4})


def test_sweep_counts_are_parsed_strictly():
    assert parse_counts("0, 5,10,5") == [0, 5, 10]
    for bad in ("", "1,x", "-1"):
        with pytest.raises(DecoyError):
            parse_counts(bad)


# --- the sweep, for real --------------------------------------------------------------------

def listed_skills(req) -> dict[str, str]:
    """{name: SKILL.md location} from the <available_skills> block of the system prompt."""
    return dict(SKILL_RE.findall(req.system_text()))


def router(req):
    """Route from the skill list: the target when listed; monthly-revenue tries the first
    listed skill when the target is not there, missing-values always opens the LAST listed
    skill first (a decoy whenever decoys are listed), then the target if it is there."""
    if not is_agent_request(req):
        return answer("not an agent request")(req)
    case, listed = case_of(req), listed_skills(req)
    names = list(listed)
    target = "csv-insights" in listed
    if case == "monthly-revenue":
        if target:
            plan = [read(listed["csv-insights"]),
                    bash(f"python3 {SCRIPT} sales.csv --group-by order_date --period month "
                         "--sum revenue --output /workspace/summary.md"),
                    answer("Monthly revenue is in /workspace/summary.md.")]
        else:
            plan = ([read(listed[names[0]])] if names else []) + BASELINE[case]
    else:
        plan = [read(listed[names[-1]])] if names else []
        if target:
            if names[-1] != "csv-insights":
                plan.append(read(listed["csv-insights"]))
            plan += [bash(f"python3 {SCRIPT} customers.csv --format json --output "
                          "/tmp/profile.json"), bash(EXTRACT_MISSING),
                     answer("Missing counts are in /workspace/missing.json.")]
        else:
            plan += BASELINE[case]
    turn = turn_of(req)
    return plan[turn](req) if turn < len(plan) else answer("done")(req)


@pytest.mark.docker
@pytest.mark.timeout(600)
def test_a_decoy_sweep_reports_lift_routing_and_wall_time_per_count(
        skills, llm_server, trial_image, tmp_path):
    llm_server.handler = router
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "COLUMNS": "160",
           "OPENAI_BASE_URL": llm_server.openai_base_url,
           "SKILLFORGE_PROVIDER__MODEL": "scripted-agent"}
    if "DOCKER_HOST" in os.environ:
        env["DOCKER_HOST"] = os.environ["DOCKER_HOST"]
    proc = subprocess.run(
        [SKILLFORGE, "trial", str(skills / "csv-insights"), "--cases",
         "monthly-revenue,missing-values", "--attempts", "1", "--no-judge", "--sweep-decoys",
         "0,2", "--image", trial_image, "--state-dir", str(tmp_path / "state"), "--format",
         "json"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=540,
        check=False)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["counts"] == [0, 2] and doc["skill"] == "csv-insights"
    assert doc["decoys_from"] == str(skills.resolve())
    none, two = doc["points"]
    assert (none["decoys"], none["decoy_skills"]) == (0, [])
    assert two["decoys"] == 2 and sorted(two["decoy_skills"]) == ["lab-units", "release-notes"]
    for point in (none, two):
        assert (point["trials"], point["ok"], point["status"]) == (4, 4, "finished")
        assert point["wall_s"] > 0 and point["mean_trial_wall_s"] > 0
        assert point["skill_execution_with"] == 1.0  # the target is always found in with
        assert point["used"] == "2/2"
        assert point["routing_base"] == 0.0  # the baseline never has the right skill
        assert point["lift_overall"] is not None and point["ci_overall"] is not None
    # missing-values opens a decoy first when decoys are listed: precision 1/2 there
    assert (none["routing_with"], none["routing_base"]) == (1.0, 0.0)
    assert (two["routing_with"], two["routing_base"]) == (0.75, 0.0)
    # routing stress shows in routing precision (above); overall is the task's outcome,
    # which the decoys did not change here
    assert two["lift_overall"] == pytest.approx(none["lift_overall"])
    assert none["run_id"] != two["run_id"]

    # What the agent was shown: the decoys in BOTH conditions, the target only with it.
    first_turns = [req for req in llm_server.requests
                   if is_agent_request(req) and turn_of(req) == 0]
    shown = sorted(tuple(sorted(listed_skills(req))) for req in first_turns)
    assert shown == sorted([(), (), ("csv-insights",), ("csv-insights",),
                            ("lab-units", "release-notes"), ("lab-units", "release-notes"),
                            ("csv-insights", "lab-units", "release-notes"),
                            ("csv-insights", "lab-units", "release-notes")])
    for req in first_turns:
        if "csv-insights" not in listed_skills(req):
            assert "csv-insights" not in req.all_text().lower()

    # The same report as the terminal table.
    console = Console(record=True, width=160)
    console.print(sweep_table(SweepReport.model_validate(doc)))
    table = console.export_text()
    assert "Routing stress: csv-insights" in table
    rows = [line.split() for line in table.splitlines() if line.strip()[:1].isdigit()]
    assert [r[0] for r in rows] == ["0", "2"]
    # the CI takes two columns; then used, skill_exec with, routing with / base, trials ok
    assert rows[1][4:9] == ["2/2", "1.000", "0.750", "0.000", "4/4"]
