"""The trial image the docker tests run in, built locally because no registry is reachable.

`ensure_test_image()` returns the tag `skillforge-test/debian-python:bookworm-1`. When the
tag exists it is reused; otherwise it is built once from a Debian mirror:

    debootstrap --variant=minbase --include=python3,ca-certificates bookworm DIR MIRROR
    (TMUX_IMAGE, `skillforge-test/debian-python-tmux:bookworm-1`: --include=...,tmux)
    tar -C DIR -c . | docker import - TAG

plus a user `agent` (uid 1000) with a home folder. Concurrent pytest processes take a lock
file first, so only one of them builds. Run this file directly to build (or rebuild with
`--force`; `--tmux` for the tmux variant) and see how long it takes.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TEST_IMAGE = "skillforge-test/debian-python:bookworm-1"
# The same, with tmux: Harbor's terminus-2 agent types into a tmux session in the container.
TMUX_IMAGE = "skillforge-test/debian-python-tmux:bookworm-1"
PACKAGES = {TEST_IMAGE: "python3,ca-certificates", TMUX_IMAGE: "python3,ca-certificates,tmux"}
SUITE = "bookworm"
MIRROR = os.environ.get("SKILLFORGE_DEBIAN_MIRROR", "http://deb.debian.org/debian")
ROOT = Path(__file__).resolve().parent.parent
ENSURE_DEBOOTSTRAP = ROOT / "tools" / "ensure-debootstrap.sh"
LOCK_PATH = Path(tempfile.gettempdir()) / "skillforge-test-image.lock"
AGENT_UID = 1000


class ImageBuildError(RuntimeError):
    """The test image could not be built; the message says what to do."""


def _client():
    from skillforge.sandbox.docker_client import get_client

    return get_client()


def image_exists(tag: str = TEST_IMAGE) -> bool:
    import docker.errors

    try:
        _client().api.inspect_image(tag)
        return True
    except docker.errors.ImageNotFound:
        return False


def ensure_test_image(tag: str = TEST_IMAGE, force: bool = False) -> str:
    """Return `tag`, building the image first (once, under a lock) when it is missing."""
    if not force and image_exists(tag):
        return tag
    LOCK_PATH.parent.mkdir(parents=True, exist_ok=True)
    with open(LOCK_PATH, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            # Another process may have built it while we waited for the lock.
            if not force and image_exists(tag):
                return tag
            started = time.monotonic()
            build_image(tag)
            elapsed = time.monotonic() - started
            print(f"built {tag} in {elapsed:.1f} s", file=sys.stderr)
            return tag
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _debootstrap() -> str:
    found = shutil.which("debootstrap") or (
        "/usr/sbin/debootstrap" if Path("/usr/sbin/debootstrap").exists() else None
    )
    if found:
        return found
    done = subprocess.run(["bash", str(ENSURE_DEBOOTSTRAP)], capture_output=True, text=True,
                          check=False)
    found = shutil.which("debootstrap") or (
        "/usr/sbin/debootstrap" if Path("/usr/sbin/debootstrap").exists() else None
    )
    if done.returncode != 0 or not found:
        raise ImageBuildError(
            "debootstrap is needed to build the docker test image and could not be installed "
            f"({done.stderr.strip() or 'unknown error'}); run `sudo apt-get install -y "
            "debootstrap` (or `bash tools/ensure-debootstrap.sh`) and re-run the tests"
        )
    return found


def _as_root(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return cmd
    if shutil.which("sudo"):
        return ["sudo", "-n", *cmd]
    raise ImageBuildError(
        "building the docker test image needs root (debootstrap creates device files and "
        f"root-owned files); run `sudo {sys.executable} tests/docker_image.py` once"
    )


def sbin_env() -> dict[str, str]:
    """The environment for debootstrap: ours, with the sbin folders on PATH. debootstrap runs
    `arch-test -c`, which runs `chroot` (in /usr/sbin): with a PATH of /usr/bin:/bin only
    (CI's, cron's) it reported "Unable to execute target architecture" and stopped."""
    path = os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
    path += [d for d in ("/usr/local/sbin", "/usr/sbin", "/sbin") if d not in path]
    return {**os.environ, "PATH": os.pathsep.join(path)}


def _add_agent_user(rootfs: Path) -> None:
    """Add user `agent` (uid/gid 1000) with a home folder, the way useradd would."""
    def append(rel: str, line: str) -> None:
        with open(rootfs / rel, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")

    append("etc/passwd", f"agent:x:{AGENT_UID}:{AGENT_UID}:skillforge agent:/home/agent:/bin/sh")
    append("etc/group", f"agent:x:{AGENT_UID}:")
    append("etc/shadow", "agent:!:19000:0:99999:7:::")
    home = rootfs / "home" / "agent"
    home.mkdir(parents=True, exist_ok=True)
    os.chown(home, AGENT_UID, AGENT_UID)
    home.chmod(0o755)


def build_image(tag: str = TEST_IMAGE) -> None:
    """Debootstrap a minimal Debian with python3 (and tmux for TMUX_IMAGE) and import it
    into Docker as `tag`."""
    debootstrap = _debootstrap()
    # Not under /tmp: some hosts mount it noexec/nodev, which breaks debootstrap.
    base = Path(os.environ.get("SKILLFORGE_IMAGE_BUILD_DIR", "/var/tmp"))
    workdir = Path(tempfile.mkdtemp(prefix="skillforge-rootfs-", dir=base))
    rootfs = workdir / "rootfs"
    try:
        done = subprocess.run(
            _as_root([debootstrap, "--variant=minbase",
                      f"--include={PACKAGES.get(tag, PACKAGES[TEST_IMAGE])}",
                      SUITE, str(rootfs), MIRROR]),
            capture_output=True, text=True, check=False, env=sbin_env(),
        )
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise ImageBuildError(
                f"debootstrap of Debian {SUITE} from {MIRROR} failed (exit {done.returncode}); "
                f"check that the mirror is reachable or set SKILLFORGE_DEBIAN_MIRROR.\n{tail}"
            )
        if os.geteuid() == 0:
            _add_agent_user(rootfs)
            # Package caches only make the image bigger.
            for rel in ("var/cache/apt/archives", "var/lib/apt/lists"):
                for p in (rootfs / rel).glob("*"):
                    if p.is_file():
                        p.unlink()
        else:
            raise ImageBuildError("building the test image needs root to finish the rootfs")
        _import(rootfs, tag)
    finally:
        subprocess.run(_as_root(["rm", "-rf", "--one-file-system", str(workdir)]),
                       capture_output=True, check=False)


def _import(rootfs: Path, tag: str) -> None:
    repo, _, version = tag.rpartition(":")
    tar = subprocess.Popen(_as_root(["tar", "-C", str(rootfs), "--numeric-owner", "-c", "."]),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert tar.stdout is not None
        _client().api.import_image_from_stream(
            tar.stdout, repository=repo, tag=version,
            changes=['CMD ["/bin/sh"]', "ENV LANG=C.UTF-8",
                     'LABEL skillforge.test-image="1"'],
        )
    finally:
        err = tar.stderr.read().decode(errors="replace") if tar.stderr else ""
        if tar.wait() != 0:
            raise ImageBuildError(f"tar of the rootfs failed: {err.strip()}")
    if not image_exists(tag):
        raise ImageBuildError(f"docker import finished but {tag} is not in the image list")


if __name__ == "__main__":
    force = "--force" in sys.argv
    t0 = time.monotonic()
    print(ensure_test_image(TMUX_IMAGE if "--tmux" in sys.argv else TEST_IMAGE, force=force))
    print(f"{time.monotonic() - t0:.1f} s", file=sys.stderr)
