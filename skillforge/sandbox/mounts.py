"""Where a trial container may write, and how much: size-limited tmpfs mounts.

The container's root filesystem is read-only; every path a process may write is a tmpfs
mount with a size limit, so a skill that fills the disk ends with "No space left on
device" inside its container and the host loses nothing (tmpfs lives in the container's
memory cgroup, which `memory_mb` also caps). The engine here (fuse-overlayfs) cannot cap
the container layer itself, which is why the layer is not writable at all.

The trial's disk budget (`[trial] disk_mb`, 1 GiB by default) is shared out by what each
path is for: the agent's work goes to /workspace, so it gets the largest share.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import PurePosixPath

from skillforge.sandbox.base import (
    AGENT_GID,
    AGENT_UID,
    GRADER_DIR,
    GRADER_GID,
    GRADER_UID,
    LOGS_DIR,
    SKILLS_DIR,
    WORKSPACE,
    SandboxError,
)

HOME = "/home/agent"
# Programs skillforge adds to a trial (a harness's wrapper, a test stand-in): root-owned,
# read-only to the agent, and first on the container's PATH.
TOOLS_DIR = "/opt/skillforge"
TOOLS_BIN = f"{TOOLS_DIR}/bin"
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# (path, share of the budget, owner uid, mode). Shares add up to 1.
MOUNTS: tuple[tuple[str, float, int, int], ...] = (
    (WORKSPACE, 0.48, AGENT_UID, 0o755),
    (HOME, 0.15, AGENT_UID, 0o755),
    ("/tmp", 0.15, 0, 0o1777),
    ("/var/tmp", 0.05, 0, 0o1777),
    (LOGS_DIR, 0.05, AGENT_UID, 0o755),
    # Staged skills and the grader are written by root, read-only to the agent.
    (SKILLS_DIR, 0.05, 0, 0o755),
    (TOOLS_DIR, 0.02, 0, 0o755),
    # Only in a grading sandbox: the agent's sandbox has no /grader to look into. The
    # grader's uid alone may enter it (docs/graders.md).
    (GRADER_DIR, 0.05, GRADER_UID, 0o700),
)
MIN_MOUNT_MB = 4


def mount_sizes(disk_mb: int) -> dict[str, int]:
    """Size in MiB of each writable mount for a trial budget of `disk_mb` MiB."""
    return {path: max(MIN_MOUNT_MB, int(disk_mb * share)) for path, share, _u, _m in MOUNTS}


def path_with_tools(image_env: list[str] | None) -> str:
    """The image's PATH with TOOLS_BIN first."""
    for item in image_env or []:
        if item.startswith("PATH="):
            return f"{TOOLS_BIN}:{item[5:]}"
    return f"{TOOLS_BIN}:{DEFAULT_PATH}"


def tmpfs_options(disk_mb: int, grading: bool = False) -> dict[str, str]:
    """Docker's `tmpfs` host-config mapping: path -> mount options."""
    sizes = mount_sizes(disk_mb)
    out: dict[str, str] = {}
    for path, _share, uid, mode in MOUNTS:
        if path == GRADER_DIR and not grading:
            continue
        gid = {AGENT_UID: AGENT_GID, GRADER_UID: GRADER_GID}.get(uid, 0)
        # Docker mounts tmpfs noexec by default; scripts in /skills and /workspace must run.
        out[path] = f"rw,exec,nosuid,nodev,size={sizes[path]}m,mode={mode:o},uid={uid},gid={gid}"
    return out


def writable_root(path: str) -> str | None:
    """The mount that holds absolute `path`, or None when it is on the read-only root."""
    for root, _share, _uid, _mode in MOUNTS:
        if path == root or path.startswith(root + "/"):
            return root
    return None


def for_mounts(archive: bytes, dest: str = "/") -> bytes:
    """`archive` without the folders above the mounts (/, /home), which are read-only.

    A file outside every mount is an error that names it and the writable paths.
    """
    kept = io.BytesIO()
    base = PurePosixPath(dest)
    with tarfile.open(fileobj=io.BytesIO(archive)) as src, \
            tarfile.open(fileobj=kept, mode="w", format=tarfile.PAX_FORMAT) as dst:
        for member in src:
            name = member.name[2:] if member.name.startswith("./") else member.name
            target = str(base / name.strip("/")) if name.strip("/.") else str(base)
            if writable_root(target) is None:
                if member.isdir():
                    continue
                writable = ", ".join(root for root, *_ in MOUNTS)
                raise SandboxError(f"cannot write {target}: a trial's root filesystem is "
                                   f"read-only; only {writable} are writable")
            dst.addfile(member, src.extractfile(member) if member.isfile() else None)
    return kept.getvalue()
