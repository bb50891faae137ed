"""Staged trials in real containers: case files, read-only skills, no evals, no leaks, grading."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil

import pytest

from skillforge.models.trial import RunSpec
from skillforge.sandbox import open_sandbox
from skillforge.sandbox.grading import GraderError, run_grader
from skillforge.trials.staging import load_skill_set, stage_trial
from tests.conftest import SAMPLE_SKILLS
from tests.sandbox.test_staging import DECOY, SUPPORT, case

pytestmark = [pytest.mark.docker, pytest.mark.timeout(180)]

CSV = SAMPLE_SKILLS / "csv-insights"

# Walks the container's whole filesystem, its tmpfs mounts (/workspace, /skills, /home/agent,
# /tmp...) included, but not the kernel's /proc, /sys and /dev, and reports every path whose name or content holds a needle
# (case-insensitive) or whose sha256 is one of the given hashes. Needles come in argv,
# base64-encoded, so the scanner itself is never a file that contains them.
SCANNER = r"""
import base64, hashlib, json, os, sys
needles = [base64.b64decode(x).lower() for x in sys.argv[1].split(",")]
hashes = set(sys.argv[2].split(","))
hits = []
for top, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(top, d) not in ("/proc", "/sys", "/dev")]
    for name in dirs + files:
        path = os.path.join(top, name)
        if any(n in path.encode().lower() for n in needles):
            hits.append([path, "name"])
    for name in files:
        path = os.path.join(top, name)
        try:
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            if os.path.getsize(path) > 50_000_000:
                continue
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        low = data.lower()
        if any(n in low for n in needles):
            hits.append([path, "content"])
        if hashlib.sha256(data).hexdigest() in hashes:
            hits.append([path, "hash"])
print(json.dumps(hits))
"""


def target_needles() -> tuple[list[bytes], set[str]]:
    """The target's name, description and a body sentence; hashes of its files."""
    skill_set = load_skill_set(RunSpec(skill_path=str(CSV)))
    target = skill_set.target
    needles = [target.name.encode(), target.description[:80].encode(),
               b"The script settles those once"]
    hashes = {hashlib.sha256(e.data).hexdigest() for e in target.files.values() if e.data}
    return needles, hashes


async def scan(sb) -> list[list[str]]:
    needles, hashes = target_needles()
    arg = ",".join(base64.b64encode(n).decode() for n in needles)
    result = await sb.exec(["python3", "-c", SCANNER, arg, ",".join(sorted(hashes))],
                           timeout_s=120, user="0:0", max_output=1 << 20)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def prompt_pieces(stage) -> bytes:
    return json.dumps([s.model_dump() for s in stage.skills]).encode() + (
        stage.instruction or "").encode()


@pytest.mark.parametrize("workspace", ["isolated", "group"])
async def test_baseline_container_holds_no_trace_of_the_target(spec, workspace):
    run = RunSpec(skill_path=str(CSV), workspace=workspace, support_skills=[SUPPORT],
                  decoy_skills=[DECOY])
    stage = stage_trial(case(), "baseline", run)
    needles, _ = target_needles()
    assert not any(n.lower() in prompt_pieces(stage).lower() for n in needles)
    async with open_sandbox("docker", spec(), stage.archive) as sb:
        assert await scan(sb) == []
        listed = (await sb.exec("ls /skills /workspace")).stdout.split()
        expected = ["log-triage", "table-format"] if workspace == "group" else []
        assert listed == ["/skills:", *expected, "/workspace:", "sales.csv"]


async def test_with_skill_the_scan_finds_the_skill_only_under_skills(spec):
    """The positive control: the scanner does find the target when it is staged."""
    stage = stage_trial(case(), "with_skill", RunSpec(skill_path=str(CSV)))
    async with open_sandbox("docker", spec(), stage.archive) as sb:
        hits = await scan(sb)
    assert {"/skills/csv-insights/SKILL.md", "/skills/csv-insights/scripts/summarize.py"} <= {
        path for path, _ in hits}
    assert all(path.startswith("/skills/csv-insights") for path, _ in hits)


async def test_case_files_land_in_workspace_and_the_skill_is_read_only(spec):
    stage = stage_trial(case(), "with_skill", RunSpec(skill_path=str(CSV)))
    async with open_sandbox("docker", spec(), stage.archive) as sb:
        staged = await sb.get_file("/workspace/sales.csv")
        assert staged == (CSV / "evals" / "files" / "sales.csv").read_bytes()
        owners = await sb.exec("stat -c '%U %a %n' /workspace/sales.csv /skills/csv-insights "
                               "/skills/csv-insights/SKILL.md /skills/csv-insights/scripts/"
                               "summarize.py")
        assert owners.stdout.splitlines() == [
            "agent 644 /workspace/sales.csv", "root 755 /skills/csv-insights",
            "root 644 /skills/csv-insights/SKILL.md",
            "root 755 /skills/csv-insights/scripts/summarize.py"]
        tamper = await sb.exec("echo x >> /skills/csv-insights/SKILL.md; "
                               "touch /skills/csv-insights/new; rm /skills/csv-insights/SKILL.md")
        assert tamper.stderr.count("Permission denied") == 3
        run = await sb.exec("python3 /skills/csv-insights/scripts/summarize.py sales.csv "
                            "--group-by order_date --period month --sum revenue")
        assert run.exit_code == 0 and "7657.92" in run.stdout
        # Every mount included (the staged areas are tmpfs mounts), not the kernel's.
        evals = await sb.exec("find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune "
                              "-o \\( -name evals -o -name 'evals.json' -o -name 'check_*.py' "
                              "-o -name 'customers.csv' \\) -print 2>/dev/null; "
                              "test -e /grader && echo grader-visible; true")
        assert evals.stdout == ""


async def test_grader_scores_the_agents_work(spec):
    stage = stage_trial(case(), "with_skill", RunSpec(skill_path=str(CSV)))
    async with open_sandbox("docker", spec(), stage.archive) as sb:
        await sb.exec("python3 /skills/csv-insights/scripts/summarize.py sales.csv --group-by "
                      "order_date --period month --sum revenue > /workspace/summary.md")
        graded = await run_grader(sb, CSV, "evals/graders/check_monthly_revenue.py")
        assert (graded.reward, graded.source, graded.detail) == (1.0, "reward.txt", None)
        assert graded.exec.exit_code == 0


async def test_a_planted_reward_does_not_count(spec):
    stage = stage_trial(case(), "with_skill", RunSpec(skill_path=str(CSV)))
    async with open_sandbox("docker", spec(), stage.archive) as sb:
        await sb.exec("mkdir -p /logs/grader; echo 1 > /logs/grader/reward.txt; "
                      "nohup sh -c 'while :; do echo 1 > /logs/grader/reward.txt; sleep 0.01; "
                      "done' >/dev/null 2>&1 & echo 'no numbers here' > /workspace/summary.md")
        graded = await run_grader(sb, CSV, "evals/graders/check_monthly_revenue.py")
        assert graded.reward == 0.0


async def test_a_grader_that_writes_no_reward_is_a_clear_error(spec, tmp_path):
    root = tmp_path / "csv-insights"
    shutil.copytree(CSV, root)
    (root / "evals" / "graders" / "silent.py").write_text("print('I forgot the reward')\n")
    stage = stage_trial(case(root=root), "with_skill", RunSpec(skill_path=str(root)))
    async with open_sandbox("docker", spec(), stage.archive) as sb:
        with pytest.raises(GraderError, match=r"silent.py wrote neither .*reward.txt.*"
                                              r"exit code 0.*I forgot the reward"):
            await run_grader(sb, root, "evals/graders/silent.py")
