"""`skillforge export harbor` without Harbor: the dataset's layout, files and refusals."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from pathlib import Path

import pytest

from skillforge.harbor.export import ExportError, case_slug, export_harbor, task_identity
from skillforge.harbor.manifest import load_manifest
from skillforge.harbor.task_model import load_task_toml
from skillforge.models.evals import load_evals
from skillforge.models.skill import load_skill
from skillforge.models.trial import Limits
from skillforge.trials.staging import SELF_GENERATED_INSTRUCTION
from tests.harbor.conftest import CSV

SANDBOX_FIXTURES = Path(__file__).resolve().parents[1] / "sandbox" / "fixtures"
SUPPORT = str(SANDBOX_FIXTURES / "table-format")
DECOY = str(SANDBOX_FIXTURES / "log-triage")
LEAKY_DECOY = str(SANDBOX_FIXTURES / "csv-cheatsheet")


def cases():
    evals, issues = load_evals(CSV / "evals" / "evals.json")
    assert evals is not None and not issues
    return evals.cases


def test_one_task_folder_per_case_and_condition(export_csv):
    result = export_csv(attempts=3)
    ds = Path(result.dataset_dir)
    expected = {f"csv-insights__{c.id}__{cond}" for c in cases()
                for cond in ("with_skill", "baseline")}
    folders = {p.name for p in ds.iterdir() if p.is_dir()}
    assert folders == expected and len(folders) == 12
    assert {p.name for p in ds.iterdir() if p.is_file()} == {"README.md",
                                                             "skillforge-dataset.json"}
    for name in folders:
        task = ds / name
        assert (task / "instruction.md").is_file() and (task / "task.toml").is_file()
        assert (task / "environment" / "Dockerfile").is_file()
        assert os.access(task / "tests" / "test.sh", os.X_OK)
    manifest = load_manifest(ds)
    assert {t.folder for t in manifest.tasks} == expected
    assert manifest.spec.case_ids == [str(c.id) for c in cases()]
    assert manifest.skill_hash == load_skill(CSV).content_hash()
    assert manifest.case("monthly-revenue").ground_truth.startswith("2024-07 1236.80")


def test_instruction_md_is_the_prompt_and_nothing_else(export_csv):
    result = export_csv(conditions=["with_skill", "baseline", "self_generated"],
                        case_ids=["monthly-revenue", "q4-top-region"])
    ds = Path(result.dataset_dir)
    for case in cases():
        if str(case.id) not in ("monthly-revenue", "q4-top-region"):
            continue
        for cond in ("with_skill", "baseline"):
            text = (ds / f"csv-insights__{case.id}__{cond}" / "instruction.md").read_text()
            assert text == case.prompt + "\n"
        own = (ds / f"csv-insights__{case.id}__self_generated" / "instruction.md").read_text()
        # self_generated: the notes instruction first, then the task, as the built-in agent
        # is told it.
        assert own == f"{SELF_GENERATED_INSTRUCTION}\n\nThe task:\n{case.prompt}\n"


def test_task_toml_says_which_trial_it_is_and_its_limits(export_csv):
    result = export_csv(case_ids=["missing-values"],
                        limits=Limits(cpus=1.5, memory_mb=3072, timeout_sec=420))
    ds = Path(result.dataset_dir)
    toml = load_task_toml(ds / "csv-insights__missing-values__baseline" / "task.toml")
    assert toml.schema_version == "1.4"
    assert toml.task.name == "csv-insights/missing-values__baseline"
    meta = toml.metadata.skillforge
    assert (meta.case_id, meta.condition, meta.skill) == ("missing-values", "baseline",
                                                          "csv-insights")
    assert meta.skill_hash == load_skill(CSV).content_hash() and meta.graded
    assert meta.export_id == result.manifest.export_id
    assert toml.agent.timeout_sec == 420 and toml.verifier.timeout_sec == 120
    # Network off on docker, which cannot enforce it: public, and said (test_export_network).
    assert (toml.environment.network_mode, toml.agent.network_mode,
            toml.verifier.network_mode) == ("public", None, None)
    assert meta.harbor_environment == "docker"
    env = toml.environment
    assert (env.cpus, meta.cpus) == (2, 1.5)  # Harbor takes whole CPUs
    assert (env.memory_mb, env.skills_dir, env.workdir) == (3072, "/skills", "/workspace")
    raw = tomllib.loads((ds / "csv-insights__missing-values__baseline" / "task.toml")
                        .read_text())
    # No docker_image: Harbor would run the bare image and skip the Dockerfile.
    assert "docker_image" not in raw["environment"]
    assert list(raw) == ["schema_version", "task", "metadata", "verifier", "agent",
                         "environment"]


def test_network_on_leaves_every_phase_public(export_csv):
    result = export_csv(case_ids=["missing-values"], network=True)
    toml = load_task_toml(Path(result.dataset_dir) / "csv-insights__missing-values__with_skill"
                          / "task.toml")
    assert toml.environment.network_mode == "public"
    assert toml.agent.network_mode is None and toml.verifier.network_mode is None


def test_the_dockerfile_copies_the_case_files_and_only_the_visible_skills(export_csv):
    result = export_csv(case_ids=["monthly-revenue", "csv-field-limit"],
                        image="debian-py:12")
    ds = Path(result.dataset_dir)
    with_skill = ds / "csv-insights__monthly-revenue__with_skill" / "environment"
    lines = (with_skill / "Dockerfile").read_text().splitlines()
    body = [line for line in lines if not line.startswith("#")]
    assert body[0] == "FROM debian-py:12"
    assert "COPY workspace/ /workspace/" in body and "COPY skills/ /skills/" in body
    assert body[-1] == "WORKDIR /workspace"
    assert (with_skill / "workspace" / "sales.csv").read_bytes() == (
        CSV / "evals" / "files" / "sales.csv").read_bytes()
    skill_files = sorted(str(p.relative_to(with_skill / "skills")) for p in
                         (with_skill / "skills").rglob("*") if p.is_file())
    assert skill_files == ["csv-insights/SKILL.md", "csv-insights/references/output-format.md",
                           "csv-insights/scripts/report_format.py",
                           "csv-insights/scripts/summarize.py"]
    assert os.access(with_skill / "skills" / "csv-insights" / "scripts" / "summarize.py",
                     os.X_OK) == os.access(CSV / "scripts" / "summarize.py", os.X_OK)
    baseline = ds / "csv-insights__monthly-revenue__baseline" / "environment"
    assert "COPY skills/" not in (baseline / "Dockerfile").read_text()
    assert not (baseline / "skills").exists()
    # A case without files: no workspace/ folder, the Dockerfile still makes /workspace.
    empty = ds / "csv-insights__csv-field-limit__with_skill" / "environment"
    assert not (empty / "workspace").exists()
    assert "COPY workspace/" not in (empty / "Dockerfile").read_text()
    assert "mkdir -p /workspace /skills" in (empty / "Dockerfile").read_text()


def test_tests_folder_holds_the_grader_and_a_script_that_runs_it(export_csv):
    result = export_csv(case_ids=["monthly-revenue"])
    tests = Path(result.dataset_dir) / "csv-insights__monthly-revenue__baseline" / "tests"
    grader = tests / "grader" / "check_monthly_revenue.py"
    assert grader.read_bytes() == (CSV / "evals" / "graders" /
                                   "check_monthly_revenue.py").read_bytes()
    script = (tests / "test.sh").read_text()
    assert script.startswith("#!/bin/sh\n")
    # run as the local runner runs it: the launcher, from the grader's folder, clean env
    assert ("python3 /tests/grader/.skillforge/launch.py /tests/grader/check_monthly_revenue.py"
            in script)
    assert "cd /tests/grader" in script
    assert "GRADER_LOG_DIR=/logs/grader" in script and "PYTHONSAFEPATH=1" in script
    assert "HOME=/tests/grader/.skillforge/home" in script
    assert (tests / "grader" / ".skillforge" / "launch.py").is_file()
    assert "rm -f /logs/verifier/reward.txt /logs/verifier/reward.json" in script


def test_case_ids_become_safe_distinct_names():
    assert case_slug("monthly-revenue") == "monthly-revenue"
    odd = ["Case 3: totals/by month", "a__b", "a-b", "7", "ünïcode", "..", "x" * 80]
    slugs = [case_slug(c) for c in odd]
    assert len(set(slugs)) == len(odd)
    for slug in slugs:
        assert slug and "__" not in slug and "/" not in slug and ".." not in slug
        folder, name = task_identity("csv-insights", slug, "baseline")
        assert name.count("/") == 1 and len(folder) < 120
    assert case_slug("a__b") != case_slug("a-b")


def test_an_earlier_export_is_replaced_only_with_force(export_csv, tmp_path):
    first = export_csv(case_ids=["monthly-revenue"])
    with pytest.raises(ExportError, match="--force"):
        export_csv(case_ids=["order-stats"])
    spec = first.manifest.spec.model_copy(update={"case_ids": ["order-stats"]})
    again = export_harbor(spec, Path(first.dataset_dir), force=True)
    assert again.replaced
    folders = sorted(p.name for p in Path(first.dataset_dir).iterdir() if p.is_dir())
    assert folders == ["csv-insights__order-stats__baseline",
                       "csv-insights__order-stats__with_skill"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".dataset")]


def test_a_folder_that_is_not_an_export_is_never_overwritten(export_csv, tmp_path):
    (tmp_path / "dataset").mkdir()
    (tmp_path / "dataset" / "notes.txt").write_text("mine")
    with pytest.raises(ExportError, match="not an earlier"):
        export_csv(case_ids=["monthly-revenue"])
    assert (tmp_path / "dataset" / "notes.txt").read_text() == "mine"


def test_unknown_cases_and_broken_evals_are_named(export_csv, tmp_path):
    with pytest.raises(ExportError, match="no case 'nope'.*monthly-revenue"):
        export_csv(case_ids=["nope"])
    broken = tmp_path / "broken" / "csv-insights"
    shutil.copytree(CSV, broken)
    (broken / "evals" / "evals.json").write_text('{"evals": [\n  {"id": 1}\n]}\n')
    with pytest.raises(ExportError, match=r"evals.json \(line 2\).*prompt"):
        export_csv(out="other", skill=broken)


def test_group_workspace_stages_support_and_decoys_in_both_conditions(export_csv):
    result = export_csv(case_ids=["order-stats"], workspace="group",
                        support_skills=[SUPPORT], decoy_skills=[DECOY])
    by_cond = {t.condition: t for t in result.tasks}
    assert by_cond["with_skill"].skills == ["csv-insights", "log-triage", "table-format"]
    assert by_cond["baseline"].skills == ["log-triage", "table-format"]
    skills = Path(result.dataset_dir) / by_cond["baseline"].folder / "environment" / "skills"
    assert sorted(p.name for p in skills.iterdir()) == ["log-triage", "table-format"]


def test_a_decoy_that_names_the_skill_is_refused_and_nothing_is_written(export_csv, tmp_path):
    with pytest.raises(ExportError, match="baseline condition.*csv-cheatsheet"):
        export_csv(case_ids=["order-stats"], workspace="group", decoy_skills=[LEAKY_DECOY])
    assert not (tmp_path / "dataset").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".dataset")]


def test_the_readme_gives_the_harbor_commands_and_the_way_back(export_csv):
    result = export_csv(case_ids=["monthly-revenue"], attempts=5)
    readme = (Path(result.dataset_dir) / "README.md").read_text()
    ds = result.dataset_dir
    assert f"harbor run -p {ds} -e docker -a nop -k 1 -n 4\n" in readme
    assert f"harbor run -p {ds} -e docker -a <agent> -m <model> -k 5 -n 4\n" in readme
    assert (f"harbor run -p {ds} -e docker -a terminus-2 -m <model> -k 5 -n 4 "
            "--ak max_turns=30\n") in readme
    assert "export again with `skillforge export harbor --environment NAME`" in readme
    assert "export HARBOR_TELEMETRY=0" in readme
    assert "**Do not add `--skill`**" in readme and "skills_dir" in readme
    assert f"skillforge import harbor jobs/<job name> --dataset {ds}" in readme
    cloud = export_csv("cloud", case_ids=["monthly-revenue"], attempts=5,
                       environment="daytona")
    readme = (Path(cloud.dataset_dir) / "README.md").read_text()
    assert (f"harbor run -p {cloud.dataset_dir} -e daytona -a <agent> -m <model> -k 5 "
            "-n 64\n") in readme
    assert "needs its key and Harbor's extra for `daytona`" in readme
    assert "--allow-agent-host" in readme  # exported with the network off, enforced


def test_json_manifest_keeps_case_fields_for_scoring(export_csv):
    result = export_csv(case_ids=["convert-to-jsonl"])
    doc = json.loads((Path(result.dataset_dir) / "skillforge-dataset.json").read_text())
    (case,) = doc["cases"]
    assert case["kind"] == "negative" and case["expected_skill"] is None
    assert case["grader"] == "evals/graders/check_jsonl.py"
    assert [t["condition"] for t in doc["tasks"]] == ["with_skill", "baseline"]
