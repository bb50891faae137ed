"""tools/pick-python.sh, the Python `make` builds .venv with: a build not linked to a shared
libpython when there is one, else the first that works."""

from __future__ import annotations

import functools
import glob
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SCRIPT = ROOT / "tools" / "pick-python.sh"


def links_libpython(python: str) -> bool:
    code = "import sys; sys.exit(any('libpython' in l for l in open('/proc/self/maps')))"
    return subprocess.run([python, "-c", code], check=False).returncode == 1


def pick(path_dirs: list[Path]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": os.pathsep.join(map(str, path_dirs))}
    return subprocess.run(["/bin/bash", str(SCRIPT)], env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def bin_with(tmp_path: Path, name: str, target: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "python3.11").symlink_to(target)
    return folder


def test_the_pick_is_a_python_that_can_make_the_venv(tmp_path):
    proc = pick([bin_with(tmp_path, "a", sys.executable)])
    assert proc.returncode == 0, proc.stderr
    chosen = proc.stdout.strip()
    check = subprocess.run([chosen, "-c", "import sys, venv, ensurepip; "
                            "sys.exit(sys.version_info < (3, 11))"], check=False)
    assert check.returncode == 0, chosen


@functools.cache
def builds() -> tuple[list[str], list[str]]:
    """(shared-libpython builds, unshared builds) of Python >= 3.11 on this machine."""
    roots = {os.path.expanduser("~/.pyenv"), os.environ.get("PYENV_ROOT", "/root/.pyenv")}
    found = [p for root in roots for p in glob.glob(f"{root}/versions/3.1[1-9]*/bin/python3.1[1-9]")]
    found += [p for p in [os.environ.get("SKILLFORGE_HARBOR_PYTHON")] if p]  # CI sets it
    shared = sorted(p for p in set(found) if links_libpython(p))
    static = [p for p in (sys.executable, "/usr/bin/python3.11", "/usr/bin/python3")
              if Path(p).exists() and not links_libpython(p)]
    if not (shared and static):
        pytest.skip("needs a shared-libpython and an unshared Python >= 3.11")
    return shared, static


def test_a_shared_build_first_on_path_gives_way_to_an_unshared_one(tmp_path):
    (shared, *_), (static, *_) = builds()
    proc = pick([bin_with(tmp_path, "shared", shared), bin_with(tmp_path, "static", static)])
    assert proc.returncode == 0, proc.stderr
    chosen = proc.stdout.strip()
    assert not links_libpython(chosen), chosen
    assert "shared libpython" in proc.stderr and "PYTHON=" in proc.stderr


def test_an_unshared_build_first_on_path_is_taken_without_a_word(tmp_path):
    (shared, *_), (static, *_) = builds()
    proc = pick([bin_with(tmp_path, "static", static), bin_with(tmp_path, "shared", shared)])
    assert proc.returncode == 0 and proc.stdout.strip() == str(tmp_path / "static" / "python3.11")
    assert proc.stderr == ""
