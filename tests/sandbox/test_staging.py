"""Staging without Docker: what each condition and workspace policy puts in the archive."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from skillforge.models.evals import load_evals
from skillforge.models.trial import RunSpec
from skillforge.sandbox.grading import GraderError, grader_plan, parse_reward
from skillforge.sandbox.skill_tree import read_skill_tree, read_skill_version
from skillforge.trials.staging import (
    SELF_NOTES_PATH,
    StagingError,
    load_skill_set,
    sandbox_spec,
    stage_trial,
)
from tests.conftest import SAMPLE_SKILLS

CSV = SAMPLE_SKILLS / "csv-insights"
FIXTURES = Path(__file__).parent / "fixtures"
SUPPORT = str(FIXTURES / "table-format")
DECOY = str(FIXTURES / "log-triage")
LEAKY_DECOY = str(FIXTURES / "csv-cheatsheet")


def case(case_id: str = "monthly-revenue", root: Path = CSV):
    evals, issues = load_evals(root / "evals" / "evals.json")
    assert evals is not None and not issues
    found = evals.case(case_id)
    assert found is not None
    return found


def members(archive: bytes) -> dict[str, tarfile.TarInfo]:
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        return {m.name: m for m in tar.getmembers()}


def contents(archive: bytes) -> bytes:
    out = []
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for m in tar:
            out.append(m.name.encode())
            if m.isfile():
                out.append(tar.extractfile(m).read())
    return b"\n".join(out)


def test_with_skill_stages_the_skill_without_evals_and_the_case_files():
    spec = RunSpec(skill_path=str(CSV))
    stage = stage_trial(case(), "with_skill", spec)
    names = members(stage.archive)
    assert "skills/csv-insights/SKILL.md" in names
    assert "skills/csv-insights/scripts/summarize.py" in names
    assert names["skills/csv-insights/scripts/summarize.py"].mode == 0o755
    assert names["skills/csv-insights/SKILL.md"].uid == 0  # root-owned: read-only to the agent
    assert not [n for n in names if "evals" in n]
    assert names["workspace/sales.csv"].uid == 1000
    assert stage.workspace_files == ["/workspace/sales.csv"]
    [skill] = stage.skills
    assert (skill.name, skill.path, skill.role) == ("csv-insights",
                                                    "/skills/csv-insights/SKILL.md", "target")
    assert skill.description.startswith("Summarises CSV")
    assert stage.instruction is None


def test_baseline_has_no_trace_of_the_target():
    spec = RunSpec(skill_path=str(CSV))
    stage = stage_trial(case(), "baseline", spec)
    blob = contents(stage.archive)
    assert stage.skills == []
    assert b"csv-insights" not in blob.lower()
    assert b"Summarises CSV" not in blob
    assert (CSV / "scripts" / "summarize.py").read_bytes() not in blob
    assert "workspace/sales.csv" in members(stage.archive)  # the task's input is still there


def test_group_policy_shows_support_and_decoys_in_both_conditions():
    spec = RunSpec(skill_path=str(CSV), workspace="group", support_skills=[SUPPORT],
                   decoy_skills=[DECOY])
    with_skill = stage_trial(case(), "with_skill", spec)
    baseline = stage_trial(case(), "baseline", spec)
    assert [(s.name, s.role) for s in with_skill.skills] == [
        ("csv-insights", "target"), ("log-triage", "decoy"), ("table-format", "support")]
    assert [(s.name, s.role) for s in baseline.skills] == [
        ("log-triage", "decoy"), ("table-format", "support")]
    assert "skills/log-triage/SKILL.md" in members(baseline.archive)


def test_isolated_policy_ignores_support_and_decoys():
    spec = RunSpec(skill_path=str(CSV), workspace="isolated", support_skills=[SUPPORT],
                   decoy_skills=[DECOY])
    assert [s.name for s in stage_trial(case(), "with_skill", spec).skills] == ["csv-insights"]
    assert stage_trial(case(), "baseline", spec).skills == []


def test_a_decoy_that_names_the_target_makes_the_baseline_fail_to_stage():
    spec = RunSpec(skill_path=str(CSV), workspace="group", decoy_skills=[LEAKY_DECOY])
    stage_trial(case(), "with_skill", spec)  # leaking is only a problem without the skill
    with pytest.raises(StagingError, match="csv-cheatsheet file SKILL.md names it"):
        stage_trial(case(), "baseline", spec)


def test_self_generated_has_no_target_and_asks_for_notes():
    spec = RunSpec(skill_path=str(CSV), conditions=["with_skill", "self_generated"])
    stage = stage_trial(case(), "self_generated", spec)
    assert stage.skills == []
    assert SELF_NOTES_PATH in stage.instruction
    assert b"csv-insights" not in contents(stage.archive)


def test_case_without_files_stages_an_empty_workspace():
    stage = stage_trial(case("csv-field-limit"), "with_skill", RunSpec(skill_path=str(CSV)))
    assert stage.workspace_files == []
    assert not [n for n in members(stage.archive) if n.startswith("workspace/")]


def test_missing_or_escaping_case_files_are_reported(tmp_path):
    bad = case().model_copy(update={"files": ["evals/files/nope.csv"]})
    with pytest.raises(StagingError, match="nope.csv' does not exist"):
        stage_trial(bad, "with_skill", RunSpec(skill_path=str(CSV)))
    escaping = case().model_copy(update={"files": ["../lab-units/SKILL.md"]})
    with pytest.raises(StagingError, match="without '..'"):
        stage_trial(escaping, "with_skill", RunSpec(skill_path=str(CSV)))


def test_skill_tree_leaves_out_vcs_caches_and_evals_and_keeps_links(tmp_path):
    root = tmp_path / "csv-insights"
    shutil.copytree(CSV, root)
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    (root / "scripts" / "__pycache__").mkdir()
    (root / "scripts" / "__pycache__" / "summarize.cpython-311.pyc").write_bytes(b"\0")
    (root / ".skillforge").mkdir()
    (root / ".skillforge" / "skillforge.db").write_bytes(b"db")
    os.symlink("/etc/passwd", root / "references" / "passwd-link")
    tree = read_skill_tree(root)
    assert sorted(tree.files) == ["SKILL.md", "references/output-format.md",
                                  "references/passwd-link", "scripts/report_format.py",
                                  "scripts/summarize.py"]
    # Kept as a link: the host's /etc/passwd is never read into the archive.
    assert tree.files["references/passwd-link"].link == "/etc/passwd"
    assert tree.files["references/passwd-link"].data == b""


def test_baseline_version_from_git_stages_the_earlier_skill(tmp_path):
    repo = tmp_path / "repo"
    root = repo / "skills" / "csv-insights"
    shutil.copytree(CSV, root)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "v1"], check=True)
    subprocess.run([*git, "tag", "v1"], check=True)
    skill_md = root / "SKILL.md"
    skill_md.write_text(skill_md.read_text().replace("# CSV Insights", "# CSV Insights v2"))
    old = read_skill_version(root, "git:v1")
    assert "# CSV Insights\n" in old.skill_md_text()
    assert "evals/evals.json" not in old.files
    spec = RunSpec(skill_path=str(root), baseline_version="git:v1")
    base = stage_trial(case(root=root), "baseline", spec)
    assert [(s.name, s.role) for s in base.skills] == [("csv-insights", "previous_version")]
    assert b"# CSV Insights v2" not in contents(base.archive)
    with pytest.raises(StagingError, match="git cannot give"):
        load_skill_set(RunSpec(skill_path=str(root), baseline_version="git:no-such-tag"))


def test_sandbox_spec_adds_grading_time_to_the_agent_budget():
    spec = RunSpec(skill_path=str(CSV), network=True)
    sb = sandbox_spec(spec, run_id="r1")
    assert sb.network is True and sb.run_id == "r1"
    assert sb.timeout_sec > spec.limits.timeout_sec
    assert (sb.cpus, sb.memory_mb, sb.pids) == (1.0, 2048, 256)


def test_grader_plan_for_a_script_stages_its_folder_only():
    archive, cmd, workdir = grader_plan(CSV, "evals/graders/check_monthly_revenue.py")
    names = members(archive)
    # through skillforge's launcher, from /grader: never from the agent's /workspace
    assert cmd == ["python3", "/grader/.skillforge/launch.py", "/grader/check_monthly_revenue.py"]
    assert workdir == "/grader"
    assert "grader/check_jsonl.py" in names
    assert {"grader/.skillforge/launch.py", "grader/.skillforge/as-agent"} <= set(names)
    assert not [n for n in names if n.endswith("evals.json") or "files/" in n]


def test_grader_plan_for_a_command_runs_in_a_copy_of_evals():
    archive, cmd, workdir = grader_plan(CSV, "python3 evals/graders/check_jsonl.py --strict")
    assert cmd == "python3 evals/graders/check_jsonl.py --strict" and workdir == "/grader"
    assert "grader/evals/graders/check_jsonl.py" in members(archive)


@pytest.mark.parametrize(("files", "reward", "detail"), [
    ({"reward.txt": b"0.75\n"}, 0.75, None),
    ({"reward.json": b'{"reward": 0.5, "format": 1}'}, 0.5, {"reward": 0.5, "format": 1.0}),
    ({"reward.json": b'{"a": 1, "b": 0}'}, 0.5, {"a": 1.0, "b": 0.0}),
])
def test_rewards_are_read_from_txt_or_json(files, reward, detail):
    assert parse_reward(files, "g.py")[:2] == (reward, detail)


@pytest.mark.parametrize(("files", "message"), [
    ({}, "wrote neither"),
    ({"reward.txt": b"great"}, "must hold one number"),
    ({"reward.txt": b"1.5"}, "between 0 and 1"),
    ({"reward.json": b"[1]"}, "flat object"),
    ({"reward.json": b'{"reward": "high"}'}, "not a finite number"),
    ({"reward.json": b"{oops"}, "not JSON"),
])
def test_unusable_rewards_are_clear_errors(files, message):
    with pytest.raises(GraderError, match=message):
        parse_reward(files, "g.py")


def test_skills_can_go_to_an_external_harness_folder():
    stage = stage_trial(case(), "with_skill", RunSpec(skill_path=str(CSV)),
                        skills_dir="/home/agent/.claude/skills")
    names = members(stage.archive)
    assert stage.skills[0].path == "/home/agent/.claude/skills/csv-insights/SKILL.md"
    assert names["home/agent"].uid == 1000  # the agent keeps its home
    assert names["home/agent/.claude/skills/csv-insights/SKILL.md"].uid == 0
