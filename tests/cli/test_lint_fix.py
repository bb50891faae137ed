"""`skillforge lint --fix / --unsafe / --diff` through the real console script."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import RULE_FIXTURES, SAMPLE_SKILLS

EXE = str(Path(sys.executable).with_name("skillforge"))
BOM = b"\xef\xbb\xbf"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """csv-insights (which passes its gate) with a BOM, an unknown key and a .DS_Store."""
    skill = tmp_path / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    md = skill / "SKILL.md"
    text = md.read_text("utf-8").replace("license: MIT\n", "license: MIT\ncategory: data  # for the catalogue\n", 1)
    md.write_bytes(BOM + text.encode("utf-8"))
    (skill / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    return skill


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_diff_prints_a_patch_and_writes_nothing(broken: Path):
    before = snapshot(broken)
    proc = run("lint", "csv-insights", "--diff", "--no-scripts", cwd=broken.parent)
    assert proc.returncode == 1, proc.stderr  # something to fix
    assert "# csv-insights/SKILL.md: re-encoded from UTF-8 with a byte-order mark" in proc.stdout
    assert "--- a/csv-insights/SKILL.md\n+++ b/csv-insights/SKILL.md" in proc.stdout
    assert "-category: data  # for the catalogue\n" in proc.stdout
    assert "+  category: data  # for the catalogue\n" in proc.stdout  # the comment goes along
    assert ".DS_Store" not in proc.stdout  # unsafe: listed, not in the diff
    assert "unsafe    SF405  Delete .DS_Store (add --unsafe to apply)" in proc.stderr
    assert snapshot(broken) == before
    # --dry-run is the same option.
    again = run("lint", "csv-insights", "--dry-run", "--no-scripts", cwd=broken.parent)
    assert again.stdout == proc.stdout and snapshot(broken) == before


def test_fix_applies_safe_fixes_then_reports_what_remains(broken: Path):
    proc = run("lint", "csv-insights", "--fix", "--no-scripts", cwd=broken.parent)
    assert "fixed     SF118  Remove the byte-order mark from SKILL.md" in proc.stdout
    assert "fixed     SF112  Move `category` under `metadata:`" in proc.stdout
    data = (broken / "SKILL.md").read_bytes()
    assert not data.startswith(BOM)
    text = data.decode("utf-8")
    assert "\n  category: data  # for the catalogue\n" in text and "\ncategory:" not in text
    assert (broken / ".DS_Store").exists()  # unsafe: not without --unsafe
    # The report is of what remains: the junk file only (a warning), so the gate passes.
    assert "SF405" in proc.stdout and "SF118" not in proc.stdout.split("skill")[-1]
    assert proc.returncode == 0, proc.stdout
    assert run("lint", "csv-insights", "--diff", "--no-scripts", cwd=broken.parent).returncode == 0


def test_fix_unsafe_also_deletes_junk(broken: Path):
    proc = run("lint", "csv-insights", "--fix", "--unsafe", "--no-scripts", "--format", "json",
               cwd=broken.parent)
    assert proc.returncode == 0, proc.stderr
    assert "fixed     SF405  Delete .DS_Store" in proc.stderr  # stdout holds the JSON only
    import json

    doc = json.loads(proc.stdout)
    assert not [f for f in doc["skills"][0]["findings"] if f["rule"] in ("SF112", "SF118", "SF405")]
    assert not (broken / ".DS_Store").exists()


def test_a_fix_that_would_not_parse_is_refused(tmp_path: Path):
    skill = tmp_path / "invoice-totals"
    shutil.copytree(RULE_FIXTURES / "SF104" / "fail" / "invoice-totals", skill)
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace("---\n\n# Invoice", "tags: [unclosed\n---\n\n# Invoice", 1))
    before = md.read_bytes()
    proc = run("lint", "invoice-totals", "--fix", "--no-scripts", cwd=tmp_path)
    assert proc.returncode == 1
    assert "refused   SF104  Quote the value of `description`: SKILL.md would not parse after this fix" \
        in proc.stdout
    assert md.read_bytes() == before
    assert "SF104" in proc.stdout.split("refused")[-1]  # still reported


def test_unsafe_alone_is_a_usage_error(broken: Path):
    proc = run("lint", "csv-insights", "--unsafe", cwd=broken.parent)
    assert proc.returncode == 2 and "--unsafe goes with --fix or --diff" in proc.stderr


def test_help_and_list_rules_tell_about_fixes(tmp_path: Path):
    helptext = run("lint", "--help", cwd=tmp_path).stdout
    for option in ("--fix", "--unsafe", "--diff", "--dry-run"):
        assert option in helptext
    rules = run("lint", "--list-rules", cwd=tmp_path).stdout
    line = next(ln for ln in rules.splitlines() if ln.startswith("SF405"))
    assert line.rstrip().endswith("unsafe")
    explain = run("lint", "--explain", "SF403", cwd=tmp_path).stdout
    assert "Fix (safe, `skillforge lint --fix`)" in explain and "## Contents" in explain


def test_findings_with_no_fix_are_counted_not_called_nothing_to_fix(tmp_path: Path):
    """Issue 37: an error no fixer can mend got "nothing to fix". Now --fix says how many
    findings remain with no automatic fix, and which rules."""
    skill = tmp_path / "csv-insights"
    shutil.copytree(RULE_FIXTURES / "SF301" / "fail" / "csv-insights", skill)
    proc = run("lint", "csv-insights", "--fix", "--no-scripts", cwd=tmp_path)
    assert proc.returncode == 1  # the error (SF301) is still there, and fails the gate
    first = proc.stdout.splitlines()[0]
    assert "nothing to fix" not in proc.stdout
    assert first == ("csv-insights: nothing fixed: 4 findings have no automatic fix (SF209, "
                     "SF301, SF302, SF313); fix them by hand")
    # With fixes applied too, what they leave is named after them.
    md = skill / "SKILL.md"
    md.write_bytes(BOM + md.read_bytes())
    mixed = run("lint", "csv-insights", "--fix", "--no-scripts", cwd=tmp_path)
    lines = mixed.stdout.splitlines()
    assert lines[:3] == ["csv-insights: fixed 1, refused 0, unsafe not applied 0",
                         "  fixed     SF118  Remove the byte-order mark from SKILL.md",
                         "  4 findings have no automatic fix (SF209, SF301, SF302, SF313); "
                         "fix them by hand"]
    # --diff says it too (on stderr: stdout is the patch).
    md.write_bytes(BOM + md.read_bytes())
    diff = run("lint", "csv-insights", "--diff", "--no-scripts", cwd=tmp_path)
    assert "4 findings have no automatic fix (SF209, SF301, SF302, SF313)" in diff.stderr


def test_a_skill_without_findings_still_has_nothing_to_fix(tmp_path: Path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    proc = run("lint", "csv-insights", "--fix", "--no-scripts", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "nothing to fix"
    assert "no findings" in proc.stdout
