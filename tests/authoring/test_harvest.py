"""Harvest: names, usage, description, the planned folder and its writing (issue 17)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from sessions.store import RunStore
from skillforge.authoring.harvest import (
    HarvestError,
    folder_names,
    harvest_skills,
    plan_run,
    read_run_source,
)
from skillforge.authoring.harvest_doc import description_for, skill_name_for
from skillforge.authoring.harvest_usage import chain_of, usage_of
from skillforge.authoring.scaffold import NAME_RE
from skillforge.models.skill_loader import load_skill
from skillforge.models.skill_mode import SkillCache, SkillEvent, SkillModeTrial
from tests.authoring.harvest_records import (
    HARVESTED,
    SKILL_NAME,
    cached_skill,
    chain,
    copy_csv_skill,
    store_run,
)

RUN = "run-harvest-1"


@pytest.fixture
def csv_skill(tmp_path: Path) -> Path:
    return copy_csv_skill(tmp_path)


@pytest.fixture
def store(tmp_path: Path):
    with RunStore(tmp_path / "state") as s:
        yield s


@pytest.mark.parametrize("raw, name", [
    ("summarize_salesCSV", "summarize-sales-csv"),
    ("Claude_Revenue  Report!!", "revenue-report"),
    ("résumé_parser", "resume-parser"),
    ("--a--b--", "a-b"),
    ("___", "harvested-skill"),
    ("x" * 70 + "_y", "x" * 64),
    ("word_" * 20, ("word-" * 13)[:64].strip("-")),
])
def test_names_follow_the_agent_skills_spec(raw, name):
    got = skill_name_for(raw)
    assert got == name
    assert NAME_RE.fullmatch(got) and len(got) <= 64
    assert "claude" not in got and "anthropic" not in got


def test_two_cache_names_that_clash_get_distinct_folders():
    assert folder_names(["sum_csv", "sum-csv", "SumCsv"]) == {
        "sum_csv": "sum-csv", "sum-csv": "sum-csv-2", "SumCsv": "sum-csv-3"}


def test_usage_follows_the_chain():
    usage = usage_of(cached_skill(RUN), chain_of(chain(RUN), None), RUN)
    assert usage.created_case == "monthly-revenue" and not usage.inherited
    assert usage.reused_cases == ["order-stats", "q4-top-region"]
    assert usage.cases == ["monthly-revenue", "order-stats", "q4-top-region"]
    assert (usage.successes, usage.runs) == (3, 4) and usage.exec_rate == 0.75
    # A successful execution from a case that reused it, not the failed one.
    assert usage.example.case_id == "order-stats"
    assert usage.example.args == {"csv_path": "sales.csv", "period": "year"}


def test_a_cache_entry_without_origin_is_traced_to_the_case_that_added_it():
    skill = cached_skill(RUN, created_by=None)
    usage = usage_of(skill, chain(RUN, skill), RUN)
    assert usage.created_case == "monthly-revenue" and usage.created_run == RUN


def test_only_the_last_attempts_chain_counts():
    second = [row.model_copy(update={"attempt": 2}) for row in chain(RUN)[:1]]
    picked = chain_of(chain(RUN) + second, None)
    assert [(t.attempt, t.case_id) for t in picked] == [(2, "monthly-revenue")]
    usage = usage_of(cached_skill(RUN), picked, RUN)
    assert usage.reused_cases == [] and usage.runs == 1


def test_description_meets_the_lint_limits_even_from_hostile_prompts():
    usage = usage_of(cached_skill(RUN, description="sums <b>revenue</b>\n**per** month"),
                     chain(RUN), RUN)
    prompts = {"monthly-revenue": "Total the revenue <now>.\nThen more " + "x " * 800,
               "order-stats": "# Heading [link](http://x) " + "word " * 400}
    text = description_for(usage, prompts)
    assert len(text) <= 1024 and "\n" not in text
    assert not re.search(r"[<>*#\[\]]", text)
    assert text.startswith("Sums b revenue /b per month.")
    assert "Use when a task repeats the work" in text
    assert "csv path, period and output path" in text


def test_description_says_what_and_when():
    usage = usage_of(cached_skill(RUN), chain(RUN), RUN)
    text = description_for(usage, {"monthly-revenue": "Report revenue by month. More text."})
    assert text == ("Totals the revenue column of a sales CSV by day, month or year of "
                    "order_date, optionally writing a Markdown table. Takes csv path, period and "
                    "output path as arguments and prints the result as JSON. Use when a task "
                    "repeats the work it was written and reused for, such as \"Report revenue "
                    "by month\".")


def test_tasks_that_name_the_old_skill_are_quoted_last():
    usage = usage_of(cached_skill(RUN), chain(RUN), RUN)
    prompts = {"monthly-revenue": "Use the CSV insights skill on sales.csv. More.",
               "order-stats": "What is the mean order value? More.",
               "q4-top-region": "Which region sold most in Q4? More."}
    text = description_for(usage, prompts, "csv-insights")
    assert text.endswith('such as "What is the mean order value?" and "Which region sold most '
                         'in Q4?".')
    assert "CSV insights" not in text


def test_plan_refuses_runs_without_skills(csv_skill):
    source = read_run_source(str(csv_skill))
    with pytest.raises(HarvestError, match="no skill_mode trials.*--conditions skill_mode"):
        plan_run(RUN, [], None, source)
    empty = [SkillModeTrial(run_id=RUN, case_id="monthly-revenue", attempt=1, seq=0)]
    with pytest.raises(HarvestError, match="saved no skill.*empty"):
        plan_run(RUN, empty, SkillCache(), source)
    cache = SkillCache(skills={SKILL_NAME: cached_skill(RUN)})
    with pytest.raises(HarvestError) as err:
        plan_run(RUN, chain(RUN), cache, source, ["monthly_totals"])
    assert str(err.value) == (f"run {RUN} has no skill named 'monthly_totals'; its skills are: "
                              f"{SKILL_NAME}")


def test_harvest_writes_the_folder(store, csv_skill, tmp_path):
    store_run(store, RUN, csv_skill)
    out = tmp_path / "harvested"
    result = harvest_skills(store, RUN, out)
    folder = out / HARVESTED
    assert result.folders == [folder]
    assert result.messages[0].startswith(f"wrote {folder} from the skill '{SKILL_NAME}'")
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert files == ["SKILL.md", "evals/evals.json", "evals/files/sales.csv",
                     "evals/graders/check_monthly_revenue.py", "evals/graders/check_order_stats.py",
                     "evals/graders/check_top_region.py", f"scripts/{HARVESTED}.py"]
    script = folder / "scripts" / f"{HARVESTED}.py"
    assert os.access(script, os.X_OK) and script.read_text().startswith("#!/usr/bin/env python3\n")
    assert (folder / "evals/files/sales.csv").read_bytes() == \
        (csv_skill / "evals/files/sales.csv").read_bytes()
    skill = load_skill(folder)
    assert skill.name == HARVESTED and len(skill.description) <= 1024
    assert dict(skill.frontmatter.get("metadata")) == {"harvested-from-run": RUN,
                                    "created-by-case": "monthly-revenue", "exec-rate": "0.75"}
    body = (folder / "SKILL.md").read_text()
    assert f"python3 scripts/{HARVESTED}.py --csv-path sales.csv --period year" in body
    assert "Reused in `order-stats` and `q4-top-region`." in body
    assert "3 of 4 recorded executions succeeded (exec rate 75%)" in body
    # Nothing but the folder: the temporary build folder was renamed, not left behind.
    assert [p.name for p in out.iterdir()] == [HARVESTED]


def test_evals_are_the_run_skills_cases_pointed_at_the_harvested_skill(store, csv_skill,
                                                                       tmp_path):
    store_run(store, RUN, csv_skill)
    folder = harvest_skills(store, RUN, tmp_path / "out").folders[0]
    doc = json.loads((folder / "evals/evals.json").read_text())
    source = {c["id"]: c for c in json.loads((csv_skill / "evals/evals.json").read_text())["evals"]}
    assert doc["skill_name"] == HARVESTED
    assert [c["id"] for c in doc["evals"]] == ["monthly-revenue", "order-stats", "q4-top-region"]
    for case in doc["evals"]:
        old = source[case["id"]]
        assert case["prompt"] == old["prompt"] and case["ground_truth"] == old["ground_truth"]
        assert case["files"] == old["files"] and case["grader"] == old["grader"]
        assert case["expected_skill"] == HARVESTED
        assert case["expected_script"] == f"scripts/{HARVESTED}.py"
        behaviours = case["expected_behavior"]
        assert behaviours[0] == f"Runs scripts/{HARVESTED}.py instead of writing the same code again"
        assert not any("summarize.py" in b for b in behaviours)
        assert set(behaviours[1:]) <= set(old["expected_behavior"])
        assert f"from run {RUN}" in case["notes"]
    monthly = doc["evals"][0]
    assert "Reports the overall total 7657.92" in monthly["expected_behavior"]
    assert "this case created the skill" in monthly["notes"]


def test_a_case_the_old_skill_had_as_negative_is_positive_here(store, csv_skill, tmp_path):
    rows = chain(RUN)
    rows[1] = rows[1].model_copy(update={"case_id": "convert-to-jsonl"})
    store_run(store, RUN, csv_skill, rows)
    folder = harvest_skills(store, RUN, tmp_path / "out").folders[0]
    case = json.loads((folder / "evals/evals.json").read_text())["evals"][1]
    assert case["id"] == "convert-to-jsonl"
    assert case["kind"] == "implicit" and case["expected_skill"] == HARVESTED


def test_refuses_an_existing_folder_and_changes_nothing(store, csv_skill, tmp_path):
    store_run(store, RUN, csv_skill)
    out = tmp_path / "out"
    (out / HARVESTED).mkdir(parents=True)
    (out / HARVESTED / "SKILL.md").write_text("the author's own\n")
    with pytest.raises(HarvestError) as err:
        harvest_skills(store, RUN, out)
    assert str(err.value) == (f"{out / HARVESTED} already exists; harvest never overwrites a "
                              "folder: choose another -o or remove it")
    assert (out / HARVESTED / "SKILL.md").read_text() == "the author's own\n"
    assert sorted(p.name for p in out.iterdir()) == [HARVESTED]


def test_unknown_run_and_unknown_skill(store, csv_skill, tmp_path):
    with pytest.raises(HarvestError, match="no run 'nope' in the run store"):
        harvest_skills(store, "nope", tmp_path / "out")
    store_run(store, RUN, csv_skill)
    with pytest.raises(HarvestError, match=f"its skills are: {SKILL_NAME}"):
        harvest_skills(store, RUN, tmp_path / "out", ["other"])
    assert not (tmp_path / "out").exists()


def test_chosen_skills_only(store, csv_skill, tmp_path):
    extra = cached_skill(RUN, name="countRows", description="Counts the rows of a CSV file",
                         parameters={"csv_path": "the file"},
                         script_code="result = {'rows': len(call_tool('read_file', "
                                     "path=args['csv_path']).splitlines()) - 1}\n")
    rows = chain(RUN)
    full = rows[-1].cache_after.model_copy(deep=True)
    full.skills["countRows"] = extra
    rows[-1] = rows[-1].model_copy(update={"cache_after": full})
    rows[-1].events.append(SkillEvent(tool="execute_skill", name="countRows",
                                      args={"csv_path": "sales.csv"}))
    store_run(store, RUN, csv_skill, rows)
    result = harvest_skills(store, RUN, tmp_path / "out", ["countRows"])
    assert [f.name for f in result.folders] == ["count-rows"]
    assert not (tmp_path / "out" / HARVESTED).exists()
    # Created in monthly-revenue (its created_by), executed only in q4-top-region.
    doc = json.loads((result.folders[0] / "evals/evals.json").read_text())
    assert [c["id"] for c in doc["evals"]] == ["monthly-revenue", "q4-top-region"]
    assert any("2 case(s)" in m and "add more" in m for m in result.messages)
    both = harvest_skills(store, RUN, tmp_path / "all")
    assert sorted(f.name for f in both.folders) == ["count-rows", HARVESTED]


def test_an_inherited_skill_names_the_run_it_came_from(store, csv_skill, tmp_path):
    skill = cached_skill(RUN, created_by={"run_id": "older-run", "case_id": "monthly-revenue",
                                          "attempt": 1})
    store_run(store, RUN, csv_skill, chain(RUN, skill))
    folder = harvest_skills(store, RUN, tmp_path / "out").folders[0]
    body = (folder / "SKILL.md").read_text()
    assert "of run `older-run` (an inherited cache)" in body
    doc = json.loads((folder / "evals/evals.json").read_text())
    # Every case of this run that executed it is a reuse, monthly-revenue included.
    assert [c["id"] for c in doc["evals"]] == ["monthly-revenue", "order-stats", "q4-top-region"]
    assert all("reused the skill" in c["notes"] for c in doc["evals"])


def test_a_run_skill_without_evals_still_gives_a_valid_folder(store, csv_skill, tmp_path):
    (csv_skill / "evals" / "evals.json").unlink()
    store_run(store, RUN, csv_skill)
    result = harvest_skills(store, RUN, tmp_path / "out")
    doc = json.loads((result.folders[0] / "evals/evals.json").read_text())
    assert doc == {"skill_name": HARVESTED, "evals": []}
    assert any("evals/evals.json has no cases" in m and "no such file" in m
               for m in result.messages)


ODD = cached_skill(
    RUN, name="Top N rows (by value)!", description="I return the top rows; you pass a file. "
    + "It sorts numbers. " * 120,
    parameters={"file path": {"type": "string", "description": "the CSV | TSV file"},
                "top-n": {"type": "integer"}, "options": "extra settings as an object"},
    script_code='"""Top rows."""\nimport json\nrows = call_tool("read_file", path=args["file path"])'
                '\nresult = {"rows": rows.splitlines()[: args.get("top-n", 3)], '
                '"opts": json.dumps(args.get("options"))}\n')


@pytest.mark.parametrize("skill, events", [
    # Never executed, no parameters, no description of its own.
    (cached_skill(RUN, name="count_lines", description="", parameters={},
                  script_code="result = {'n': 1}\n", created_by=None), []),
    # Odd parameter names, JSON-schema types, nested and quoted arguments, a long description
    # in the first and second person; one failed and one good execution.
    (ODD, [SkillEvent(tool="execute_skill", name=ODD.name, ok=False, failure="exception",
                      args={"file path": "a.csv"}),
           SkillEvent(tool="execute_skill", name=ODD.name,
                      args={"file path": "data/it's.csv", "top-n": 2,
                            "options": {"sep": ";", "note": "a\nb"}, "unplanned": True})]),
])
def test_odd_skills_still_lint_without_errors_or_warnings(store, csv_skill, tmp_path, skill,
                                                          events):
    from linters.engine import lint_skill

    rows = [SkillModeTrial(run_id=RUN, case_id="order-stats", attempt=1, seq=0,
                           cache_after=SkillCache(skills={skill.name: skill}), events=events)]
    store_run(store, RUN, csv_skill, rows)
    folder = harvest_skills(store, RUN, tmp_path / "out").folders[0]
    report = lint_skill(folder, external=True)
    loud = [(f.rule, f.message) for f in report.findings if f.severity not in ("info", "low")]
    assert loud == []
    assert len(load_skill(folder).description) <= 1024
