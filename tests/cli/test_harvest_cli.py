"""`skillforge harvest RUN_ID -o DIR` as a user types it: the folder it writes lints with no
finding and its evals.json validates (both through the CLI), and every refusal exits 2 with
a message saying what to do, writing nothing (issue 17)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main
from skillforge.models.skill_mode import SkillCache, SkillModeTrial
from skillforge.models.trial import RunRecord, RunSpec
from tests.authoring.harvest_records import (
    HARVESTED,
    SKILL_NAME,
    cached_skill,
    chain,
    copy_csv_skill,
    store_run,
)

EXE = str(Path(sys.executable).with_name("skillforge"))
RUN = "run-cli-1"


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          check=False)


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A state dir holding RUN: csv-insights' cases in skill_mode, the sales skill cached."""
    skill = copy_csv_skill(tmp_path)
    with RunStore(tmp_path / "state") as store:
        store_run(store, RUN, skill)
    return tmp_path / "state"


def invoke(*args: str):
    return CliRunner().invoke(main, ["harvest", *args], prog_name="skillforge")


def test_harvested_folder_lints_clean_and_its_evals_validate(tmp_path, stored):
    proc = cli("harvest", RUN, "-o", "harvested", "--state-dir", str(stored), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    folder = f"harvested/{HARVESTED}"
    assert proc.stdout.splitlines() == [
        f"wrote {folder} from the skill '{SKILL_NAME}' (SKILL.md, scripts/{HARVESTED}.py, "
        "evals/evals.json with 3 case(s))",
        f"{HARVESTED}: '{SKILL_NAME}' is named '{HARVESTED}' (the Agent Skills spec allows "
        "lowercase letters, digits and hyphens, at most 64 characters)",
        "next:",
        f"  skillforge lint {folder}",
        f"  skillforge trial {folder} --conditions with_skill,baseline",
    ]
    lint = cli("lint", folder, "--format", "json", cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    report = json.loads(lint.stdout)["skills"][0]
    # No finding at all: no error, no warning, not even an info (ruff ran on the script).
    assert report["findings"] == [] and report["score"] == 100.0 and report["passed_gate"]
    assert report["name"] == HARVESTED
    # The reference validator of the Agent Skills spec (PyPI skills-ref) agrees.
    ref = subprocess.run([str(Path(sys.executable).with_name("agentskills")), "validate",
                          folder], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         check=False)
    assert ref.returncode == 0 and "Valid skill" in ref.stdout, ref.stdout + ref.stderr
    valid = cli("evals", "validate", f"{folder}/evals/evals.json", cwd=tmp_path)
    assert valid.returncode == 0, valid.stdout + valid.stderr
    assert "valid — 3 case(s) (explicit 1, implicit 1, contextual 1)" in valid.stdout


def test_the_lint_really_reads_the_harvested_script(tmp_path):
    """Code with a bug the agent's verifier could not see (an undefined name in a branch)
    is reported by the lint of the harvested folder: the script is linted, not skipped."""
    skill = copy_csv_skill(tmp_path)
    buggy = cached_skill(RUN, script_code="if args.get('csv_path'):\n    result = totl\n"
                                          "else:\n    result = {}\n")
    with RunStore(tmp_path / "state") as store:
        store_run(store, RUN, skill, chain(RUN, buggy))
    assert invoke(RUN, "-o", str(tmp_path / "out"), "--state-dir",
                  str(tmp_path / "state")).exit_code == 0
    lint = cli("lint", f"out/{HARVESTED}", "--format", "json", cwd=tmp_path)
    findings = json.loads(lint.stdout)["skills"][0]["findings"]
    assert lint.returncode == 1
    assert [(f["rule"], f["code"], f["path"]) for f in findings] == [
        ("SF602", "F821", f"scripts/{HARVESTED}.py")]


def test_only_the_named_skill(tmp_path, stored):
    result = invoke(RUN, "--skill", SKILL_NAME, "-o", str(tmp_path / "out"), "--state-dir",
                    str(stored))
    assert result.exit_code == 0, result.output
    assert [p.name for p in (tmp_path / "out").iterdir()] == [HARVESTED]


def test_latest_is_the_newest_run(tmp_path, stored):
    result = invoke("latest", "-o", str(tmp_path / "out"), "--state-dir", str(stored))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / HARVESTED / "SKILL.md").is_file()


def _run_without_rows(state: Path, run_id: str, rows: list[SkillModeTrial]) -> None:
    from datetime import UTC, datetime

    with RunStore(state) as store:
        store.create_run(RunRecord(run_id=run_id, created_at=datetime.now(UTC),
                                   spec=RunSpec(skill_path=str(state), attempts=1)))
        for row in rows:
            store.save_skill_mode_trial(row)


def test_refusals_exit_2_and_write_nothing(tmp_path, stored):
    out = tmp_path / "out"
    state = ["--state-dir", str(stored)]
    _run_without_rows(stored, "plain-run", [])
    _run_without_rows(stored, "empty-run", [SkillModeTrial(
        run_id="empty-run", case_id="monthly-revenue", attempt=1, seq=0,
        cache_after=SkillCache())])
    cases = {
        "unknown run": (["nope", "-o", str(out), *state],
                        f"no run 'nope' in the run store {stored}"),
        "no skill-mode rows": (["plain-run", "-o", str(out), *state],
                               "run plain-run has no skill_mode trials, so no skills to "
                               "harvest; harvest a run made with `--conditions skill_mode,...`"),
        "empty cache": (["empty-run", "-o", str(out), *state],
                        "the agent saved no skill in run empty-run (its final skill cache is "
                        "empty); nothing to harvest"),
        "unknown skill": ([RUN, "--skill", "totals", "-o", str(out), *state],
                          f"run {RUN} has no skill named 'totals'; its skills are: "
                          f"{SKILL_NAME}"),
        "no store": ([RUN, "-o", str(out), "--state-dir", str(tmp_path / "none")],
                     f"no run store at {tmp_path / 'none'}"),
    }
    for what, (argv, message) in cases.items():
        result = invoke(*argv)
        assert result.exit_code == 2, (what, result.output)
        assert f"skillforge harvest: {message}" in result.stderr, (what, result.stderr)
        assert not out.exists(), what
    assert not (tmp_path / "none").exists()


def test_an_existing_folder_is_refused_and_kept(tmp_path, stored):
    mine = tmp_path / "out" / HARVESTED
    mine.mkdir(parents=True)
    (mine / "SKILL.md").write_text("mine\n")
    result = invoke(RUN, "-o", str(tmp_path / "out"), "--state-dir", str(stored))
    assert result.exit_code == 2
    assert result.stderr == (f"skillforge harvest: {mine} already exists; harvest never "
                             "overwrites a folder: choose another -o or remove it\n")
    assert (mine / "SKILL.md").read_text() == "mine\n"
    assert [p.name for p in mine.iterdir()] == ["SKILL.md"]


def test_o_is_required():
    result = invoke(RUN)
    assert result.exit_code == 2 and "Missing option '-o' / '--output'" in result.output
