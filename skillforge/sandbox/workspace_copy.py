"""The copy of the agent's workspace a grader sees: every path in it resolves inside it.

The rule (docs/graders.md). The agent's final /workspace comes out of its container as a
tar; the grader gets a copy in which

- regular files and folders are kept, owned by the agent's uid, readable by everyone and
  with no set-id bits (0644, or 0755 when any execute bit was set; folders 0755);
- a symbolic link is kept only when resolving it the way the kernel would, one component
  at a time, following every link on the way (chains, links to folders, `..` through a
  link, absolute targets), never leaves /workspace and meets no loop; every other link is
  replaced by a link to `.skillforge-unsafe-link`, a name that does not exist, so the
  grader sees that a link was there and cannot follow it anywhere;
- a hard link is kept when the file it names is kept;
- devices, pipes and sockets are dropped, as is anything named outside /workspace.

Judging each link on its own text is not enough: with `s -> .` in /workspace,
`answer.txt -> s/../grader/expected.txt` reads as a path inside /workspace but opens
/grader/expected.txt, because `..` applies to where `s` led, not to its name (the audit's
chain attack). So a link is judged by its full resolution, and a link it passes through
must be one that is kept itself; the kept links are then closed under resolution: none of
them leads, directly or through others, to a replaced one.

Streaming. `copy_workspace` reads the agent's tar from a seekable file (a spool on disk, not
memory) and writes the filtered tar to any writable stream, member by member, in small
chunks, so grading a workspace of a gigabyte costs the host a few MiB of memory.
"""

from __future__ import annotations

import copy
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import BinaryIO

from skillforge.sandbox.base import AGENT_GID, AGENT_UID, WORKSPACE

# The target every unsafe link is rewritten to: relative, so it stays in its own folder,
# and a name no real workspace uses.
UNSAFE_MARKER = ".skillforge-unsafe-link"
# Links followed in one resolution before it is called a loop (Linux's own limit is 40).
MAX_LINKS = 40
ROOT = PurePosixPath(WORKSPACE)
_TOP = PurePosixPath("/")


@dataclass
class CopyReport:
    """What the copy kept and changed, as paths under /workspace."""

    files: int = 0
    bytes: int = 0
    unsafe_links: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)

    def evidence(self) -> dict:
        return {"files": self.files, "bytes": self.bytes,
                "unsafe_links": self.unsafe_links[:50], "dropped": self.dropped[:50]}


def _abs(name: str) -> PurePosixPath:
    """A member's path as an absolute container path (tar names have no leading /)."""
    name = name[2:] if name.startswith("./") else name
    return PurePosixPath("/", name.strip("/")) if name.strip("/.") else _TOP


def _inside(path: PurePosixPath) -> bool:
    """Whether an absolute, `..`-free path is /workspace or below it."""
    return path == ROOT or ROOT in path.parents


def _named_inside(name: str) -> bool:
    """A member name tar would extract under /workspace (no `..` anywhere in it)."""
    path = _abs(name)
    return ".." not in path.parts and _inside(path)


class LinkJudge:
    """Decides which symbolic links of a workspace tar resolve inside /workspace."""

    def __init__(self, members: Iterable[tarfile.TarInfo]) -> None:
        self.links: dict[PurePosixPath, str] = {}
        for m in members:
            if m.issym():
                self.links[_abs(m.name)] = m.linkname
        self._safe: dict[PurePosixPath, bool] = {}
        self._judging: set[PurePosixPath] = set()

    def safe(self, link: PurePosixPath) -> bool:
        """Whether the link at `link` resolves inside /workspace through safe links only."""
        if link in self._safe:
            return self._safe[link]
        if link in self._judging:  # a cycle through this very link: a loop
            return False
        self._judging.add(link)
        try:
            verdict = _inside(link.parent) and self._resolve(link.parent,
                                                             self.links[link]) is not None
        finally:
            self._judging.discard(link)
        self._safe[link] = verdict
        return verdict

    def _resolve(self, base: PurePosixPath, target: str) -> PurePosixPath | None:
        """Where `target`, read from folder `base`, ends; None when it leaves /workspace,
        passes through an unsafe link or loops."""
        target_path = PurePosixPath(target)
        cur = _TOP if target_path.is_absolute() else base
        pending = [p for p in reversed(target_path.parts) if p != "/"]
        jumped = target_path.is_absolute()  # "/" itself is allowed only right after a jump
        followed = 0
        while pending:
            part = pending.pop()
            if part in ("", "."):
                continue
            if part == "..":
                cur = cur.parent
                jumped = False
            else:
                nxt = cur / part
                if nxt in self.links:
                    followed += 1
                    if followed > MAX_LINKS or not self.safe(nxt):
                        return None
                    hop = PurePosixPath(self.links[nxt])
                    if hop.is_absolute():
                        cur, jumped = _TOP, True
                    pending.extend(p for p in reversed(hop.parts) if p != "/")
                    continue
                cur, jumped = nxt, False
            if not _inside(cur) and not (jumped and cur == _TOP):
                return None
        return cur if _inside(cur) else None


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


def copy_workspace(src: BinaryIO, dst: BinaryIO) -> CopyReport:
    """Write to `dst` the grader's copy of the workspace tar read from `src` (seekable):
    see the module docstring for the rule. `dst` needs only `write`."""
    report = CopyReport()
    with tarfile.open(fileobj=src, mode="r:") as tar, \
            tarfile.open(fileobj=dst, mode="w|", format=tarfile.PAX_FORMAT) as out:
        members = tar.getmembers()
        judge = LinkJudge(members)
        kept_files: set[PurePosixPath] = set()
        for member in members:
            path = _abs(member.name)
            if not _named_inside(member.name):
                report.dropped.append(str(path))
                continue
            if member.issym():
                if judge.safe(path):
                    out.addfile(_normalised(member))
                else:
                    report.unsafe_links.append(str(path))
                    out.addfile(_normalised(member, linkname=UNSAFE_MARKER))
            elif member.islnk():
                if _abs(member.linkname) in kept_files:
                    out.addfile(_normalised(member))
                else:
                    report.dropped.append(str(path))
            elif member.isfile():
                fh = tar.extractfile(member)
                out.addfile(_normalised(member), fh)
                kept_files.add(path)
                report.files += 1
                report.bytes += member.size
            elif member.isdir():
                out.addfile(_normalised(member))
            else:  # devices, pipes: nothing a grade should read
                report.dropped.append(str(path))
    return report
