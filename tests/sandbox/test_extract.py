"""Copying an archive into the local sandbox: tarfile's "data" filter where Python has it
(3.11.4 and later), the same checks by hand where it does not (Debian 12's python3 is
3.11.2). Both paths run here on whatever Python runs the tests."""

from __future__ import annotations

import io
import os
import stat
import sys
import tarfile
from pathlib import Path

import pytest

from skillforge.sandbox.local_backend import extract_data

FILTERS = [False, True] if hasattr(tarfile, "data_filter") else [False]


def archive(*members: tuple[tarfile.TarInfo, bytes | None]) -> tarfile.TarFile:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    buf.seek(0)
    return tarfile.open(fileobj=buf)


def member(name: str, kind: bytes = tarfile.REGTYPE, mode: int = 0o644, link: str = "",
           data: bytes | None = b"x") -> tuple[tarfile.TarInfo, bytes | None]:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname = kind, mode, link
    return info, data if kind == tarfile.REGTYPE else None


def extract(tmp_path: Path, has_filters: bool, *members) -> Path:
    target = tmp_path / "box"
    target.mkdir(exist_ok=True)
    with archive(*members) as tar:
        extract_data(tar, target, tar.getmembers(), has_filters=has_filters)
    return target


@pytest.mark.parametrize("has_filters", FILTERS)
def test_files_folders_and_inner_links_are_copied_without_set_id_bits(tmp_path, has_filters):
    target = extract(tmp_path, has_filters,
                     member("skills/demo", tarfile.DIRTYPE, 0o755),
                     member("skills/demo/SKILL.md", data=b"# demo"),
                     member("skills/demo/run.sh", mode=0o6777, data=b"#!/bin/sh\n"),
                     member("skills/demo/again.md", tarfile.SYMTYPE, link="SKILL.md"))
    assert (target / "skills/demo/SKILL.md").read_bytes() == b"# demo"
    assert (target / "skills/demo/again.md").read_bytes() == b"# demo"
    mode = stat.S_IMODE((target / "skills/demo/run.sh").stat().st_mode)
    assert mode & 0o111 and not mode & (stat.S_ISUID | stat.S_ISGID | 0o022)
    assert (target / "skills/demo/run.sh").stat().st_uid == os.getuid()


HOSTILE = {
    "dot-dot": [member("../escaped.txt")],
    "symlink-out": [member("skills/evil", tarfile.SYMTYPE, link="../../outside")],
    "absolute-symlink": [member("skills/passwd", tarfile.SYMTYPE, link="/etc/passwd")],
    "hardlink-out": [member("skills/hard", tarfile.LNKTYPE, link="../escaped.txt")],
    "device": [member("skills/dev", tarfile.CHRTYPE)],
    "fifo": [member("skills/pipe", tarfile.FIFOTYPE)],
}


@pytest.mark.parametrize("has_filters", FILTERS)
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_member_that_would_leave_the_folder_is_refused(tmp_path, has_filters, case):
    with pytest.raises(Exception) as caught:
        extract(tmp_path, has_filters, *HOSTILE[case])
    assert isinstance(caught.value, tarfile.TarError) or "cannot copy" in str(caught.value)
    assert [p.name for p in tmp_path.iterdir()] == ["box"]
    assert not any((tmp_path / "box").rglob("*"))


@pytest.mark.parametrize("has_filters", FILTERS)
def test_an_absolute_name_never_lands_at_its_absolute_path(tmp_path, has_filters):
    outside = tmp_path / "outside.txt"
    try:  # the filter copies it under the folder, the checks by hand refuse it
        target = extract(tmp_path, has_filters, member(str(outside)))
    except Exception as error:  # noqa: BLE001
        assert "cannot copy" in str(error)
    else:
        assert (target / str(outside).lstrip("/")).exists()
    assert not outside.exists()


def test_this_python_says_which_path_it_takes():
    assert hasattr(tarfile, "data_filter") == (sys.version_info >= (3, 11, 4))
