"""Atomic file writes: author files are precious (temp file, fsync, rename).

The one writer for every file skillforge saves (evals.json, ATIF trajectories, reports,
caches). It lives with the models because every file format's save goes through it, and
linters and sessions may import only skillforge.models.

A file keeps the mode it had; a new one gets the mode any editor would give it (0666 less
the umask, so 0644 under the usual 022). `tempfile.mkstemp` creates 0600, and that mode
used to survive the rename: `skillforge new` made skills no one else could read (issue 37).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

# A new file is opened with this mode and the kernel takes the umask (and a folder's
# default ACL) off it, as for any program's new file. Reading the umask instead would
# mean setting it (os.umask has no getter), racing every other thread that creates files.
NEW_FILE_MODE = 0o666
_TEMP_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    atomic_write_bytes(path, text.encode(encoding))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so a crash leaves either the old file or the new one, whole.

    An existing file keeps its mode; a new one gets 0666 less the umask."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = None
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        pass
    fd, tmp = _temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass  # some filesystems cannot fsync a directory; the rename is still atomic


def _temp_beside(path: Path) -> tuple[int, str]:
    """A new, empty file `.NAME.XXXXXXXX.tmp` in the target's folder (the rename must not
    cross filesystems), opened for writing with NEW_FILE_MODE."""
    for _attempt in range(100):
        tmp = os.path.join(path.parent, f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, _TEMP_FLAGS, NEW_FILE_MODE), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"{path.parent}: no free temporary file name for {path.name}")
