"""Files skillforge creates get the mode any editor would give them (0666 less the umask),
and a file it rewrites keeps its own. Issue 37: `skillforge new`, `report -o` and `export
harbor` wrote 0600 files (the temp file's mode survived the rename), so a skill made with
`new` could not be read by a teammate, a web server or a container running as another user.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from skillforge.models.lift import save_lift_report
from tests.conftest import SAMPLE_SKILLS
from tests.report.synthetic import realistic_report

EXE = str(Path(sys.executable).with_name("skillforge"))


def run(*args: str, cwd: Path, umask: int) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, cwd=cwd, timeout=120,
                          preexec_fn=lambda: os.umask(umask), check=False)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o002], ids=oct)
def test_new_makes_files_as_an_editor_would(tmp_path, umask):
    proc = run("new", "invoice-totals", cwd=tmp_path, umask=umask)
    assert proc.returncode == 0, proc.stderr
    skill = tmp_path / "invoice-totals"
    for path in (skill / "SKILL.md", skill / "evals" / "evals.json"):
        assert mode(path) == 0o666 & ~umask, f"{path.name}: {oct(mode(path))}"
    assert not list(skill.rglob(".*.tmp"))


def test_report_output_file_is_readable_by_others(tmp_path):
    save_lift_report(realistic_report(), tmp_path / "lift.json")
    proc = run("report", "lift.json", "-o", "report.md", cwd=tmp_path, umask=0o022)
    assert proc.returncode == 0, proc.stderr
    assert mode(tmp_path / "report.md") == 0o644
    html = run("report", "lift.json", "--format", "html", "-o", "report.html", cwd=tmp_path,
               umask=0o022)
    assert html.returncode == 0, html.stderr
    assert mode(tmp_path / "report.html") == 0o644


def test_exported_harbor_dataset_is_readable_by_others(tmp_path):
    skill = tmp_path / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    proc = run("export", "harbor", "csv-insights", "-o", "ds", "--cases", "order-stats",
               cwd=tmp_path, umask=0o022)
    assert proc.returncode == 0, proc.stderr
    files = [p for p in (tmp_path / "ds").rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"README.md", "task.toml", "instruction.md",
                                       "Dockerfile", "test.sh"}
    for path in files:  # test.sh and the skill's own scripts are executable
        want = 0o755 if path.name == "test.sh" or mode(path) & 0o100 else 0o644
        assert mode(path) == want, f"{path.relative_to(tmp_path)}: {oct(mode(path))}"


def test_a_rewritten_file_keeps_its_own_mode(tmp_path):
    """`lint --fix` rewrites SKILL.md: a file the author made 0640 stays 0640."""
    skill = tmp_path / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", skill)
    md = skill / "SKILL.md"
    md.write_bytes(b"\xef\xbb\xbf" + md.read_bytes())  # a BOM: SF118 has a safe fix
    md.chmod(0o640)
    proc = run("lint", "csv-insights", "--fix", "--no-scripts", cwd=tmp_path, umask=0o022)
    assert "fixed     SF118" in proc.stdout, proc.stdout + proc.stderr
    assert not md.read_bytes().startswith(b"\xef\xbb\xbf")
    assert mode(md) == 0o640
