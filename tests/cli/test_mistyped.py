"""A mistyped command is an error naming the nearest command, not the help of `open`
(issue 16: `skillforge harvest --help` printed open's help and exited 0); a word that is an
existing path still opens the workbench there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXE = str(Path(sys.executable).with_name("skillforge"))


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], cwd=cwd, capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.parametrize("argv, nearest", [
    (["harvst", "--help"], "harvest"),
    (["lnt", "SKILL.md"], "lint"),
    (["tria"], "trial"),
    (["xyzzy"], None),
])
def test_an_unknown_word_is_no_such_command_with_the_nearest_one(tmp_path: Path, argv, nearest):
    proc = run(*argv, cwd=tmp_path)
    assert proc.returncode == 2
    assert f"No such command {argv[0]!r}." in proc.stderr
    assert "Usage: skillforge open" not in proc.stdout + proc.stderr
    if nearest:
        assert f"Did you mean {nearest!r}?" in proc.stderr
    else:
        assert "Did you mean" not in proc.stderr


def test_a_missing_path_says_no_such_file(tmp_path: Path):
    proc = run("./no-such-skill", cwd=tmp_path)
    assert proc.returncode == 2 and "./no-such-skill: no such file or folder" in proc.stderr


def test_an_existing_folder_named_like_a_word_still_opens(tmp_path: Path):
    (tmp_path / "reserve").mkdir()
    proc = run("reserve", "--help", cwd=tmp_path)
    assert proc.returncode == 0 and "Usage: skillforge open" in proc.stdout
