"""The test image's debootstrap finds chroot whatever PATH CI gives the suite."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.docker_image import sbin_env


def test_debootstrap_gets_the_sbin_folders_on_a_minimal_path(monkeypatch):
    # `env -i PATH=/usr/bin:/bin bash .ci/run`: debootstrap's `arch-test -c` runs chroot
    # (/usr/sbin/chroot) and, not finding it, stopped with "Unable to execute target
    # architecture" (a fresh-clone run on 5 December 2026).
    monkeypatch.setenv("PATH", "/usr/local/bin:/usr/bin:/bin")
    path = sbin_env()["PATH"].split(":")
    assert path[:3] == ["/usr/local/bin", "/usr/bin", "/bin"]
    assert {"/usr/sbin", "/sbin"} <= set(path)
    if not Path("/usr/sbin/chroot").exists():
        pytest.skip("no /usr/sbin/chroot on this machine to look for")
    assert shutil.which("chroot", path=":".join(path)) == "/usr/sbin/chroot"
