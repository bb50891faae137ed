"""Building the tar archives copied into sandboxes, with the owners the layout needs."""

from __future__ import annotations

import io
import tarfile
import time
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from skillforge.sandbox.base import AGENT_GID, AGENT_UID, GRADER_GID, GRADER_UID, SandboxError
from skillforge.sandbox.layout import LAYOUT

if TYPE_CHECKING:
    from skillforge.sandbox.skill_tree import SkillTree

# /grader is the grader uid's alone (docs/graders.md): the agent's code it runs cannot read it.
_LAYOUT_OWNERS = {path: (uid, mode) for path, uid, mode in LAYOUT} | {
    "grader": (GRADER_UID, 0o700)}
_GROUPS = {AGENT_UID: AGENT_GID, GRADER_UID: GRADER_GID}


class TarBuilder:
    """Builds the one tar extracted at "/" in a trial sandbox."""

    def __init__(self, base: str = "/") -> None:
        # The fixed layout folders keep their owners only in archives extracted at "/".
        self.fixed = _LAYOUT_OWNERS if base.rstrip("/") == "" else {}
        self.buf = io.BytesIO()
        self.tar = tarfile.open(fileobj=self.buf, mode="w",  # noqa: SIM115 - closed in getvalue
                                format=tarfile.PAX_FORMAT)
        self.now = time.time()
        self.dirs: set[str] = set()
        self.paths: list[str] = []

    def _info(self, path: str, uid: int, gid: int) -> tarfile.TarInfo:
        info = tarfile.TarInfo(path)
        info.uid, info.gid, info.mtime = uid, gid, self.now
        return info

    def add_dir(self, path: str, uid: int = 0, gid: int = 0, mode: int = 0o755) -> None:
        """A folder; the fixed layout folders (/workspace, /skills...) keep their owners."""
        path = path.strip("/")
        if not path or path == "." or path in self.dirs:
            return
        fixed = self.fixed.get(path)
        if fixed is not None:
            uid, mode = fixed
            gid = _GROUPS.get(uid, 0)
        parent = str(PurePosixPath(path).parent)
        self.add_dir(parent, uid, gid, mode)
        self.dirs.add(path)
        info = self._info(path, uid, gid)
        info.type, info.mode = tarfile.DIRTYPE, mode
        self.tar.addfile(info)

    def add_file(self, path: str, data: bytes, uid: int = 0, gid: int = 0,
                 mode: int = 0o644) -> None:
        path = path.strip("/")
        self.add_dir(str(PurePosixPath(path).parent), uid, gid)
        info = self._info(path, uid, gid)
        info.size, info.mode = len(data), mode
        self.tar.addfile(info, io.BytesIO(data))
        self.paths.append("/" + path)

    def add_link(self, path: str, target: str, uid: int = 0, gid: int = 0) -> None:
        path = path.strip("/")
        self.add_dir(str(PurePosixPath(path).parent), uid, gid)
        info = self._info(path, uid, gid)
        info.type, info.linkname, info.mode = tarfile.SYMTYPE, target, 0o777
        self.tar.addfile(info)
        self.paths.append("/" + path)

    def add_tree(self, dest: str, tree: SkillTree, uid: int = 0, gid: int = 0) -> None:
        """A skill tree under `dest`, read-only to anyone but `uid` (root by default)."""
        self.add_dir(dest, uid, gid)
        for rel, entry in sorted(tree.files.items()):
            path = f"{dest.rstrip('/')}/{rel}"
            if entry.link is not None:
                self.add_link(path, entry.link, uid, gid)
            else:
                self.add_file(path, entry.data, uid, gid, 0o755 if entry.executable else 0o644)

    def getvalue(self) -> bytes:
        self.tar.close()
        return self.buf.getvalue()


def tar_from_mapping(files: Mapping[str, bytes | str], uid: int = AGENT_UID,
                     gid: int = AGENT_GID, mode: int = 0o644, base: str = "/") -> bytes:
    """A tar of {relative path: content} owned by uid/gid, for extraction at `base`."""
    builder = TarBuilder(base)
    for rel, content in files.items():
        path = PurePosixPath(rel.lstrip("/"))
        if ".." in path.parts or not path.parts:
            raise SandboxError(f"refusing to stage {rel!r}: give a relative path without '..'")
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        builder.add_file(str(path), data, uid, gid, mode)
    return builder.getvalue()


def concat_tars(*archives: bytes) -> bytes:
    """One tar holding every member of `archives` in order (later entries win)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as dst:
        for data in archives:
            if not data:
                continue
            with tarfile.open(fileobj=io.BytesIO(data)) as src:
                for member in src:
                    dst.addfile(member, src.extractfile(member) if member.isfile() else None)
    return out.getvalue()
