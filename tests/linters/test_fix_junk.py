"""SF405's fix deletes the junk (unsafe): files and whole junk folders, nothing else."""

from __future__ import annotations

from pathlib import Path

from skillforge.models.lint_config import LintConfig
from skillforge.workspace.fixing import fix_skill, write_plan
from tests.linters.fix_helpers import failing_fixture, fired, fix_rule, fixes_of


def test_sf405_deletes_junk_files_and_folders(tmp_path: Path):
    skill = failing_fixture("SF405", tmp_path)
    cache = skill / "scripts" / "__pycache__"
    cache.mkdir(parents=True)
    (cache / "x.cpython-311.pyc").write_bytes(b"\0\0")
    kept = {p.relative_to(skill) for p in skill.rglob("*")} - {
        Path(".DS_Store"), Path("notes.md~"), Path("scripts/__pycache__"),
        Path("scripts/__pycache__/x.cpython-311.pyc")}
    fixes = fixes_of(skill, "SF405")
    assert {f.safety for f in fixes} == {"unsafe"}
    assert "Delete scripts/__pycache__/ and everything in it" in {f.title for f in fixes}
    plan = fix_rule(skill, "SF405")
    diff = plan.diff()
    assert "# delete folder scripts/__pycache__/" in diff
    assert "--- a/notes.md~\n+++ /dev/null" in diff and "# .DS_Store: binary file deleted" in diff
    assert not fired(skill, "SF405")
    assert {p.relative_to(skill) for p in skill.rglob("*")} == kept


def test_safe_only_run_leaves_junk_and_lists_it(tmp_path: Path):
    skill = failing_fixture("SF405", tmp_path)
    outcome = fix_skill(skill, LintConfig(scripts=False), unsafe=False)
    assert not outcome.applied and {f.rule for f in outcome.unsafe_left} == {"SF405"}
    write_plan(skill, outcome.plan, "nothing")
    assert (skill / ".DS_Store").exists()
