"""The fixed folders of every trial sandbox (CONTRACTS.md section 6), as one tar archive."""

from __future__ import annotations

import io
import tarfile
import time
from functools import lru_cache

from skillforge.sandbox.base import AGENT_GID, AGENT_UID

# (path, uid, mode): the agent owns its workspace, its logs and its home; /skills is
# root's and read-only to the agent.
LAYOUT: tuple[tuple[str, int, int], ...] = (
    ("workspace", AGENT_UID, 0o755),
    ("logs", AGENT_UID, 0o755),
    ("skills", 0, 0o755),
    ("home/agent", AGENT_UID, 0o755),
)


@lru_cache(maxsize=1)
def base_layout_tar() -> bytes:
    """/workspace, /logs, /skills and /home/agent with their owners and modes."""
    buf = io.BytesIO()
    now = time.time()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path, uid, mode in LAYOUT:
            info = tarfile.TarInfo(path)
            info.type = tarfile.DIRTYPE
            info.mode, info.uid, info.mtime = mode, uid, now
            info.gid = AGENT_GID if uid == AGENT_UID else 0
            tar.addfile(info)
    return buf.getvalue()


def with_layout(archive: bytes | None) -> bytes:
    """One tar holding the base layout followed by `archive`'s members (one copy-in)."""
    if not archive:
        return base_layout_tar()
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as dst:
        for source in (base_layout_tar(), archive):
            with tarfile.open(fileobj=io.BytesIO(source)) as src:
                for member in src:
                    dst.addfile(member, src.extractfile(member) if member.isfile() else None)
    return out.getvalue()
