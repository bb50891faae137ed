"""`skillforge report` of a small judged ablation run (issue 37): each part's rows show their
own metric's figures (n, planner), every metric lift.json holds for a part is in the report,
and a part whose lines another part already covers is measured once.

The run: two cases, with_skill and without:section:workflow. The judge gave no accuracy for
one trial, so accuracy is paired on one case and goal_accuracy (with 0.5, without 1.0: -0.5)
on two; goal_accuracy is the metric that needs the most cases.
"""

from __future__ import annotations

import json
import re
import shutil
from datetime import UTC, datetime

from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main
from skillforge.models.parts import SkillPart
from skillforge.models.trial import RunRecord, RunSpec
from tests.conftest import SAMPLE_SKILLS
from tests.lift.builders import scores, trial

PART = SkillPart(id="section:workflow", kind="section", title="Workflow", tokens=304)
WITHOUT = f"without:{PART.id}"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="skillforge")


def judged_run(state) -> None:
    trials = [
        trial("a", "with_skill", metrics=scores(0.5, accuracy=0.0, goal_accuracy=0.0)),
        trial("a", WITHOUT, metrics=scores(0.5, accuracy=0.0, goal_accuracy=1.0)),
        trial("b", "with_skill", metrics=scores(0.5, accuracy=None, goal_accuracy=1.0)),
        trial("b", WITHOUT, metrics=scores(0.5, accuracy=0.0, goal_accuracy=1.0)),
    ]
    with RunStore(state) as store:
        spec = RunSpec(skill_path=str(SAMPLE_SKILLS / "csv-insights"), attempts=1,
                       conditions=["with_skill", WITHOUT], parts=[PART])
        store.create_run(RunRecord(run_id="r1", created_at=datetime.now(UTC),
                                   skill_name="csv-insights", spec=spec, status="finished"))
        for t in trials:
            store.upsert_trial(t.model_copy(update={"run_id": "r1"}))


def md_rows(md: str) -> dict[str, dict[str, str]]:
    """{metric: {column: cell}} of the parts table in the Markdown report."""
    table = md.split("## Parts of the skill (ablation)")[1].split("### Routing")[0]
    lines = [line.strip().strip("|") for line in table.splitlines() if line.startswith("|")]
    head = [c.strip() for c in lines[0].split("|")]
    rows = [dict(zip(head, (c.strip() for c in line.split("|")))) for line in lines[2:]]
    return {r["metric"]: r for r in rows}


def test_each_metric_row_shows_its_own_n_and_planner_figure(tmp_path):
    state = tmp_path / "state"
    judged_run(state)
    out = tmp_path / "lift.json"
    assert invoke("report", "r1", "--state-dir", str(state), "--format", "json", "-o",
                  str(out)).exit_code == 0
    part = json.loads(out.read_text())["extra"]["ablation"]["parts"][0]
    goal, acc = part["metrics"]["goal_accuracy"], part["metrics"]["accuracy"]
    assert (goal["effect"], goal["n"], acc["n"]) == (-0.5, 2, 1)
    res = invoke("report", "r1", "--state-dir", str(state), "--format", "md")
    assert res.exit_code == 0, res.output
    rows = md_rows(res.output)
    # every metric lift.json holds for the part but routing's (shown apart) has a row
    shown = {m for m, r in part["metrics"].items() if r["n"] and m != "skill_execution"}
    assert shown <= set(rows), (shown, list(rows))
    # the part's row leads with the metric whose planner figure its verdict quotes
    lead = rows["goal_accuracy"]
    assert (lead["part"], lead["effect"], lead["n"]) == ("section:workflow", "-0.500", "2")
    assert lead["verdict"] == f"inconclusive (~{goal['cases_needed']} cases)"
    assert part["cases_needed"] == goal["cases_needed"]
    # accuracy: its own n (1 paired case) and its own figure, not goal_accuracy's
    acc_row = rows["accuracy"]
    assert acc_row["n"] == "1" and str(goal["cases_needed"]) not in acc_row["verdict"], acc_row
    # the text and the rows agree on each metric's paired cases
    why = lead["why"]
    assert "accuracy with 1 paired case" in why and "with 2 paired cases" in why, why
    assert re.search(r"goal_accuracy[^;]*with 2 paired cases", why), why


def test_the_html_report_has_a_row_per_metric(tmp_path):
    state = tmp_path / "state"
    judged_run(state)
    html = tmp_path / "r.html"
    assert invoke("report", "r1", "--state-dir", str(state), "--format", "html", "-o",
                  str(html)).exit_code == 0
    page = html.read_text()
    for metric in ("goal_accuracy", "accuracy", "behavior_check", "overall"):
        assert f'data-part="section:workflow" data-metric="{metric}"' in page, metric
    assert page.count('data-verdict="inconclusive"') == 1


def test_ablate_all_runs_one_condition_for_parts_covering_the_same_lines(tmp_path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    listed = invoke("parts", str(skill), "--format", "json")
    parts = {p["id"]: p for p in json.loads(listed.output)["parts"]}
    # csv-insights' examples are exactly its `## Example` section
    assert "examples" not in parts and parts["section:example"]["same_as"] == ["examples"]
    assert "also examples" in " ".join(invoke("parts", str(skill)).output.split())
    res = invoke("trial", str(skill), "--ablate", "all", "--dry-run", "--state-dir",
                 str(tmp_path / "state"), "--format", "json")
    assert res.exit_code == 0, res.output
    conds = [c["condition"] for c in json.loads(res.stdout)["conditions"]]
    assert "without:section:example" in conds and "without:examples" not in conds
    assert len(conds) == len(set(conds)) == 2 + len(parts)
    assert "examples is the same lines as section:example: measured once" in res.stderr
    # naming both, or the other id alone, is the one part
    both = invoke("trial", str(skill), "--ablate", "examples,section:example", "--dry-run",
                  "--state-dir", str(tmp_path / "state"), "--format", "json")
    conds = [c["condition"] for c in json.loads(both.stdout)["conditions"]]
    assert conds.count("without:section:example") == 1 and "without:examples" not in conds
