"""The grader's copy, member by member: hard links, special files, modes and owners, and the
memory the copy takes (issue 34). The property over random trees of links:
tests/sandbox/test_workspace_copy.py; sockets in a real container: test_hostile_grading.py.
"""

from __future__ import annotations

import io
import tarfile
import tempfile
import tracemalloc

from skillforge.sandbox.base import AGENT_GID, AGENT_UID
from skillforge.sandbox.workspace_copy import UNSAFE_MARKER, copy_workspace


def _tar(*members: tuple[tarfile.TarInfo, bytes | None]) -> io.BytesIO:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    buf.seek(0)
    return buf


def _member(name: str, kind: bytes = tarfile.REGTYPE, mode: int = 0o644,
            link: str = "", uid: int = 0) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname, info.uid, info.gid = kind, mode, link, uid, uid
    return info


def _copied(src: io.BytesIO) -> tuple[dict[str, tarfile.TarInfo], dict[str, bytes], object]:
    out = io.BytesIO()
    report = copy_workspace(src, out)
    members, data = {}, {}
    with tarfile.open(fileobj=io.BytesIO(out.getvalue())) as tar:
        for m in tar:
            members[m.name] = m
            if m.isfile():
                data[m.name] = tar.extractfile(m).read()
    return members, data, report


def test_a_hard_link_is_kept_when_its_file_is_and_dropped_otherwise():
    src = _tar((_member("workspace/answer.txt"), b"42\n"),
               (_member("workspace/copy.txt", tarfile.LNKTYPE, link="workspace/answer.txt"),
                None),
               # a hard link to a file outside the workspace (the grader's expected value)
               (_member("workspace/stolen.txt", tarfile.LNKTYPE,
                        link="grader/expected.txt"), None),
               (_member("workspace/up.txt", tarfile.LNKTYPE,
                        link="workspace/../grader/expected.txt"), None),
               # a hard link to a file that comes only later (tar never writes one so)
               (_member("workspace/early.txt", tarfile.LNKTYPE, link="workspace/late.txt"),
                None),
               (_member("workspace/late.txt"), b"late\n"))
    members, _, report = _copied(src)
    assert members["workspace/copy.txt"].islnk()
    assert members["workspace/copy.txt"].linkname == "workspace/answer.txt"
    for gone in ("stolen.txt", "up.txt", "early.txt"):
        assert f"workspace/{gone}" not in members
    assert sorted(report.dropped) == ["/workspace/early.txt", "/workspace/stolen.txt",
                                      "/workspace/up.txt"]
    # extracted, the kept hard link reads the kept file
    with tempfile.TemporaryDirectory() as tmp:
        out = io.BytesIO()
        copy_workspace(_tar((_member("workspace/a"), b"A"),
                            (_member("workspace/b", tarfile.LNKTYPE, link="workspace/a"),
                             None)), out)
        out.seek(0)
        with tarfile.open(fileobj=out) as tar:
            tar.extractall(tmp, numeric_owner=False)
        assert open(f"{tmp}/workspace/b", "rb").read() == b"A"


def test_special_files_are_dropped():
    src = _tar((_member("workspace/fifo", tarfile.FIFOTYPE), None),
               (_member("workspace/null", tarfile.CHRTYPE), None),
               (_member("workspace/disk", tarfile.BLKTYPE), None),
               (_member("workspace/answer.txt"), b"42\n"))
    members, _, report = _copied(src)
    assert set(members) == {"workspace/answer.txt"}
    assert report.dropped_count == 3


def test_set_id_bits_and_owners_are_normalised():
    src = _tar((_member("workspace", tarfile.DIRTYPE, mode=0o3777), None),
               (_member("workspace/suid", mode=0o6755, uid=0), b"#!/bin/sh\n"),
               (_member("workspace/sgid-plain", mode=0o2600, uid=0), b"x"),
               (_member("workspace/sticky", tarfile.DIRTYPE, mode=0o1777), None))
    members, _, _ = _copied(src)
    modes = {n: m.mode for n, m in members.items()}
    assert modes == {"workspace": 0o755, "workspace/suid": 0o755,
                     "workspace/sgid-plain": 0o644, "workspace/sticky": 0o755}
    assert {(m.uid, m.gid) for m in members.values()} == {(AGENT_UID, AGENT_GID)}


def test_a_link_through_a_link_that_comes_later_in_the_tar_is_judged_by_it():
    # `answer` is read before `s`: the judge must already know where `s` leads.
    src = _tar((_member("workspace/answer", tarfile.SYMTYPE,
                        link="s/../grader/expected.txt"), None),
               (_member("workspace/s", tarfile.SYMTYPE, link="."), None),
               (_member("workspace/ok", tarfile.SYMTYPE, link="t/f"), None),
               (_member("workspace/t", tarfile.SYMTYPE, link="d"), None),
               (_member("workspace/d", tarfile.DIRTYPE, mode=0o755), None),
               (_member("workspace/d/f"), b"f"))
    members, _, _ = _copied(src)
    assert members["workspace/answer"].linkname == UNSAFE_MARKER
    assert members["workspace/ok"].linkname == "t/f"


def test_copying_many_files_takes_memory_for_links_only():
    # 300,000 empty files once peaked at 419 MiB: every tar header was kept. 8,000 here
    # that (before: 8.5 MiB here), through tracemalloc: the copy itself stays under 2 MiB.
    count = 8_000
    with tempfile.TemporaryFile() as src, tempfile.TemporaryFile() as dst:
        with tarfile.open(fileobj=src, mode="w", format=tarfile.PAX_FORMAT) as tar:
            tar.addfile(_member("workspace", tarfile.DIRTYPE, mode=0o755))
            for i in range(count):
                tar.addfile(_member(f"workspace/m/f{i:07d}"), io.BytesIO(b""))
        src.seek(0)
        tracemalloc.start()
        try:
            report = copy_workspace(src, dst)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert report.files == count
    assert peak < 2 << 20, f"peak {peak / 2**20:.1f} MiB"


def test_the_marker_name_never_exists_in_the_copy():
    # An agent's own `.skillforge-unsafe-link` would be what every replaced link opens:
    # `answer.txt -> /grader/expected.txt` would read the agent's chosen bytes instead of
    # failing. Paths through that name are dropped, so a replaced link always dangles.
    src = _tar((_member(f"workspace/{UNSAFE_MARKER}"), b"42\n"),
               (_member(f"workspace/d/{UNSAFE_MARKER}", tarfile.DIRTYPE, mode=0o755), None),
               (_member(f"workspace/d/{UNSAFE_MARKER}/f"), b"42\n"),
               (_member("workspace/answer.txt", tarfile.SYMTYPE,
                        link="/grader/expected.txt"), None))
    members, _, report = _copied(src)
    assert set(members) == {"workspace/answer.txt"}
    assert members["workspace/answer.txt"].linkname == UNSAFE_MARKER
    assert report.dropped_count == 3
