"""The copy of the agent's workspace a grader sees: every path in it resolves inside it.

The rule (docs/graders.md). The agent's final /workspace comes out of its container as a
tar; the grader gets a copy in which

- regular files and folders are kept, owned by the agent's uid, readable by everyone and
  with no set-id bits (0644, or 0755 when any execute bit was set; folders 0755);
- a symbolic link is kept only when resolving it the way the kernel would, one component
  at a time, following every link on the way (chains, links to folders, `..` through a
  link, absolute targets), never leaves /workspace and meets no loop; every other link is
  replaced by a link to `.skillforge-unsafe-link`, a name the copy never holds (a file or
  folder of the agent's by that name is dropped), so the grader sees that a link was there
  and opening it fails;
- a hard link is kept when the file it names is kept;
- devices, pipes and sockets are dropped, as is anything named outside /workspace.

Judging each link on its own text is not enough: with `s -> .` in /workspace,
`answer.txt -> s/../grader/expected.txt` reads as a path inside /workspace but opens
/grader/expected.txt, because `..` applies to where `s` led, not to its name (the audit's
chain attack). So a link is judged by its full resolution, and a link it passes through
must be one that is kept itself; the kept links are then closed under resolution: none of
them leads, directly or through others, to a replaced one. The judge is
skillforge.sandbox.link_rule's, which as-agent's broker also applies in the grading
container, in place, after agent code the grader ran.

Streaming. `copy_workspace` reads the agent's tar from a seekable file (a spool on disk, not
memory) twice: once for the headers of links only, then member by member into any writable
stream, in small chunks. No header is kept beyond its own turn (tarfile would keep them
all), so neither a gigabyte of bytes nor 300,000 empty files costs the host more than a
few MiB; only links (and the files hard links name) are held, to judge chains.
"""

from __future__ import annotations

import copy
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import BinaryIO

from skillforge.sandbox.base import AGENT_GID, AGENT_UID, WORKSPACE
from skillforge.sandbox.link_rule import MAX_LINKS, UNSAFE_MARKER, LinkJudge, inside

__all__ = ["MAX_LINKS", "UNSAFE_MARKER", "CopyReport", "LinkJudge", "copy_workspace"]

ROOT = PurePosixPath(WORKSPACE)
_TOP = PurePosixPath("/")


@dataclass
class CopyReport:
    """What the copy kept and changed, as paths under /workspace."""

    files: int = 0
    bytes: int = 0
    # The first SHOWN of each, and how many there were: a workspace of 300,000 sockets
    # must not cost 300,000 strings.
    unsafe_links: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    unsafe_count: int = 0
    dropped_count: int = 0

    SHOWN = 50

    def unsafe(self, path: PurePosixPath) -> None:
        self.unsafe_count += 1
        if len(self.unsafe_links) < self.SHOWN:
            self.unsafe_links.append(str(path))

    def drop(self, path: PurePosixPath) -> None:
        self.dropped_count += 1
        if len(self.dropped) < self.SHOWN:
            self.dropped.append(str(path))

    def evidence(self) -> dict:
        return {"files": self.files, "bytes": self.bytes,
                "unsafe_links": self.unsafe_links, "dropped": self.dropped,
                "unsafe_count": self.unsafe_count, "dropped_count": self.dropped_count}


def _abs(name: str) -> PurePosixPath:
    """A member's path as an absolute container path (tar names have no leading /)."""
    name = name[2:] if name.startswith("./") else name
    return PurePosixPath("/", name.strip("/")) if name.strip("/.") else _TOP


def _inside(path: PurePosixPath) -> bool:
    """Whether an absolute, `..`-free path is /workspace or below it."""
    return inside(path, ROOT)


def _named_inside(name: str) -> bool:
    """A member name tar would extract under /workspace (no `..` anywhere in it), and not
    through the marker's name (UNSAFE_MARKER).

    The same answer as `_inside(_abs(name))` with no `..` part, in plain strings: it runs
    for every member of both passes, and pathlib was most of the time 300,000 files took."""
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return bool(parts) and parts[0] == ROOT.name and ".." not in parts \
        and UNSAFE_MARKER not in parts


def _normalised(member: tarfile.TarInfo, linkname: str | None = None) -> tarfile.TarInfo:
    """The member as the grader gets it: the agent's, readable, no set-id bits."""
    out = copy.copy(member)  # TarInfo.replace is Python 3.12's
    out.uid, out.gid, out.uname, out.gname = AGENT_UID, AGENT_GID, "", ""
    out.pax_headers = {}
    if linkname is not None:
        out.linkname = linkname
    if member.isdir():
        out.mode = 0o755
    elif member.isfile():
        out.mode = 0o755 if member.mode & 0o111 else 0o644
    return out


def _members(tar: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    """The members of `tar` one at a time, none remembered (`TarFile.next` keeps every
    header it reads in `members`: 300,000 empty files cost 419 MiB that way)."""
    while (member := tar.next()) is not None:
        tar.members.clear()
        yield member


def _index(src: BinaryIO) -> tuple[dict[PurePosixPath, str], set[PurePosixPath]]:
    """First pass, headers only (file data is skipped by seeking): every symbolic link
    named inside /workspace with its target, and every path a hard link names. Only these
    are held in memory: a link may lead to one that comes later in the tar."""
    links: dict[PurePosixPath, str] = {}
    hard_targets: set[PurePosixPath] = set()
    with tarfile.open(fileobj=src, mode="r:") as tar:
        for member in _members(tar):
            if not _named_inside(member.name):
                continue
            if member.issym():
                links[_abs(member.name)] = member.linkname
            elif member.islnk():
                hard_targets.add(_abs(member.linkname))
    return links, hard_targets


def copy_workspace(src: BinaryIO, dst: BinaryIO) -> CopyReport:
    """Write to `dst` the grader's copy of the workspace tar read from `src` (seekable):
    see the module docstring for the rule. `dst` needs only `write`.

    Two passes over `src`: the first indexes the links (_index), the second streams every
    member through; memory grows with the number of links, never with files or bytes."""
    start = src.tell()
    links, hard_targets = _index(src)
    judge = LinkJudge(links, ROOT)
    src.seek(start)
    report = CopyReport()
    # Files that hard links name and that were kept (a hard link follows its file in a tar).
    kept_targets: set[PurePosixPath] = set()
    with tarfile.open(fileobj=src, mode="r:") as tar, \
            tarfile.open(fileobj=dst, mode="w|", format=tarfile.PAX_FORMAT) as out:
        for member in _members(tar):
            if member.isfile() and _named_inside(member.name):  # the common case, first
                out.addfile(_normalised(member), tar.extractfile(member))
                if hard_targets and _abs(member.name) in hard_targets:
                    kept_targets.add(_abs(member.name))
                report.files += 1
                report.bytes += member.size
                out.members.clear()  # the writer, too, keeps every header it wrote
                continue
            path = _abs(member.name)
            if not _named_inside(member.name):
                report.drop(path)
            elif member.issym():
                if judge.safe(path):
                    out.addfile(_normalised(member))
                else:
                    report.unsafe(path)
                    out.addfile(_normalised(member, linkname=UNSAFE_MARKER))
            elif member.islnk():
                if _abs(member.linkname) in kept_targets:
                    out.addfile(_normalised(member))
                else:
                    report.drop(path)
            elif member.isdir():
                out.addfile(_normalised(member))
            else:  # devices, pipes, sockets: nothing a grade should read
                report.drop(path)
            out.members.clear()
    return report
