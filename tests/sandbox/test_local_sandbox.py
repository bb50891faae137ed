"""`--sandbox local`: same API over a temp folder, with a warning and honest limits."""

from __future__ import annotations

import time

import pytest

from skillforge.models.trial import RunSpec
from skillforge.sandbox import SandboxError, SandboxSpec, local_backend, open_sandbox
from skillforge.sandbox.grading import run_grader
from skillforge.trials.staging import stage_trial
from tests.conftest import SAMPLE_SKILLS
from tests.sandbox.test_staging import case

pytestmark = pytest.mark.timeout(60)
CSV = SAMPLE_SKILLS / "csv-insights"


def local(**kw) -> SandboxSpec:
    return SandboxSpec(timeout_sec=60, **kw)


async def test_warns_and_maps_the_contract_paths(monkeypatch):
    monkeypatch.setattr(local_backend, "_warned", False)
    warnings: list[str] = []
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-never-reach-a-command")
    async with open_sandbox("local", local(), warn=warnings.append) as sb:
        root = sb.root
        assert warnings and "no isolation" in warnings[0]
        result = await sb.exec("pwd; echo hi > /workspace/a.txt; cat /workspace/a.txt; env")
        lines = result.stdout.splitlines()
        assert lines[:2] == [f"{root}/workspace", "hi"]
        assert "sk-should-never-reach-a-command" not in result.stdout
        assert (root / "workspace" / "a.txt").read_text() == "hi\n"
        assert await sb.get_file("/workspace/a.txt") == b"hi\n"
        with pytest.raises(SandboxError, match="outside what --sandbox local maps"):
            await sb.get_file("/etc/passwd")
    assert not root.exists()


async def test_staged_trial_and_grader_run_locally():
    stage = stage_trial(case(), "with_skill", RunSpec(skill_path=str(CSV)))
    async with open_sandbox("local", local(), stage.archive, warn=lambda m: None) as sb:
        run = await sb.exec("python3 /skills/csv-insights/scripts/summarize.py sales.csv "
                            "--group-by order_date --period month --sum revenue > summary.md")
        assert run.exit_code == 0, run.stderr
        skill_md = sb.root / "skills" / "csv-insights" / "SKILL.md"
        assert not skill_md.stat().st_mode & 0o222  # read-only by mode (not a boundary)
        graded = await run_grader(sb, CSV, "evals/graders/check_monthly_revenue.py")
        assert graded.reward == 1.0


async def test_timeout_kills_the_process_group_and_output_is_capped():
    async with open_sandbox("local", local(), warn=lambda m: None) as sb:
        started = time.monotonic()
        result = await sb.exec("sleep 30 & sleep 31; echo never", timeout_s=1)
        assert result.timed_out and result.exit_code is None
        assert time.monotonic() - started < 5
        flood = await sb.exec("head -c 5000000 /dev/zero", max_output=1024)
        assert flood.truncated and flood.stdout_bytes == 5_000_000 and len(flood.stdout) < 1200
