"""A Python >= 3.12 with Harbor installed, for the tests that check skillforge's files with
Harbor's own models.

Harbor needs Python >= 3.12 and about 380 MB of packages, so it lives in its own venv, made
once and reused: `$SKILLFORGE_HARBOR_VENV`, else `$XDG_CACHE_HOME/skillforge/harbor-venv`
(default `~/.cache/skillforge/harbor-venv`), outside the repository. The interpreter is
`$SKILLFORGE_HARBOR_PYTHON`, else the first python3.12+ on PATH, else one of pyenv's.
What goes in is pinned: `constraints/harbor.txt` (written by `make lock`) holds the exact
closure, Harbor's own version included, and the venv is installed from it with `-c`. The venv
remembers the file's digest, so a changed pin rebuilds it. Telemetry is off for every call.

Run this file to set the venv up ahead of the tests: `python tests/harbor/harbor_env.py`
(`--python` prints the interpreter it would use, for tools/lock.sh).
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

INSTALL_TIMEOUT_S = 1800
CHECKS = Path(__file__).resolve().parent / "harbor_checks.py"
PINS = Path(__file__).resolve().parents[2] / "constraints"
CONSTRAINTS = PINS / "harbor.txt"  # the Harbor venv's exact closure (Python 3.12)
BUILD_CONSTRAINTS = PINS / "build.txt"  # build backends, should a pin ever be an sdist
STAMP = ".skillforge-constraints"  # in the venv: the digest of CONSTRAINTS it was made from
QUIET_ENV = {
    "HARBOR_TELEMETRY": "0",
    # litellm (imported by Harbor's CLI) would otherwise fetch its price list from the web.
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
}


class NoPython312(RuntimeError):
    """No Python >= 3.12 on this machine: Harbor cannot be installed here."""


class HarborSetupError(RuntimeError):
    """A Python >= 3.12 exists but Harbor could not be installed into the venv."""


@dataclass(frozen=True)
class HarborEnv:
    python: Path
    harbor: Path  # the `harbor` command of the venv
    version: str

    def env(self) -> dict[str, str]:
        return {**os.environ, **QUIET_ENV}

    def run(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """python harbor_checks.py ARGS in the Harbor venv."""
        return subprocess.run([str(self.python), str(CHECKS), *args], capture_output=True,
                              text=True, timeout=timeout, env=self.env(), check=False)


def _version_of(python: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = out.stdout.split()
    return (int(parts[0]), int(parts[1])) if out.returncode == 0 and len(parts) == 2 else None


def find_python312() -> str | None:
    """A Python >= 3.12 interpreter, or None."""
    candidates: list[str] = []
    if os.environ.get("SKILLFORGE_HARBOR_PYTHON"):
        candidates.append(os.environ["SKILLFORGE_HARBOR_PYTHON"])
    for name in ("python3.12", "python3.13", "python3.14", "python3"):
        found = shutil.which(name)
        if found:
            candidates.append(found)
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates += sorted(glob.glob(str(pyenv / "3.1[2-9]*" / "bin" / "python3.1[2-9]")))
    for python in dict.fromkeys(candidates):
        version = _version_of(python)
        if version and version >= (3, 12):
            return python
    return None


def pinned_version() -> str:
    """The Harbor version `constraints/harbor.txt` pins: the one every Harbor test targets."""
    for line in CONSTRAINTS.read_text().splitlines():
        name, sep, version = line.partition("==")
        if sep and name.strip().lower() == "harbor":
            return version.strip()
    raise HarborSetupError(f"{CONSTRAINTS} pins no harbor version (run `make lock`)")


def _digest() -> str:
    return hashlib.sha256(CONSTRAINTS.read_bytes()).hexdigest()


def venv_dir() -> Path:
    if os.environ.get("SKILLFORGE_HARBOR_VENV"):
        return Path(os.environ["SKILLFORGE_HARBOR_VENV"]).expanduser()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "skillforge" / "harbor-venv"


def _installed(venv: Path) -> str | None:
    """Harbor's version in `venv`, or None when the venv is missing, broken or was made from
    other pins than today's constraints/harbor.txt."""
    python = venv / "bin" / "python"
    stamp = venv / STAMP
    if not python.exists() or not stamp.exists() or stamp.read_text().strip() != _digest():
        return None
    out = subprocess.run([str(python), "-c", ("import importlib.metadata as m; "
                          "import harbor.models.task.config; print(m.version('harbor'))")],
                         capture_output=True, text=True, timeout=120, check=False,
                         env={**os.environ, **QUIET_ENV})
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def ensure_harbor() -> HarborEnv:
    """The Harbor venv, created and installed on first use (under a lock)."""
    venv = venv_dir()
    version = _installed(venv)
    if version is None:
        python = find_python312()
        if python is None:
            raise NoPython312("no Python >= 3.12 found (looked at $SKILLFORGE_HARBOR_PYTHON, "
                              "python3.12+ on PATH and pyenv's versions); Harbor needs 3.12")
        venv.parent.mkdir(parents=True, exist_ok=True)
        with open(venv.parent / "harbor-venv.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                version = _installed(venv) or _install(python, venv)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    return HarborEnv(python=venv / "bin" / "python", harbor=venv / "bin" / "harbor",
                     version=version)


def _install(python: str, venv: Path) -> str:
    if venv.exists():
        shutil.rmtree(venv)
    made = subprocess.run([python, "-m", "venv", str(venv)], capture_output=True, text=True,
                          timeout=300, check=False)
    if made.returncode != 0:
        raise HarborSetupError(f"`{python} -m venv {venv}` failed: {made.stderr.strip()}")
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
           "--disable-pip-version-check", "-c", str(CONSTRAINTS)]
    # The pinned pip first: the interpreter's bundled one may predate --build-constraint.
    pinned = pinned_version()
    for args in (["pip"], ["--build-constraint", str(BUILD_CONSTRAINTS), f"harbor=={pinned}"]):
        done = subprocess.run(pip + args, capture_output=True, text=True,
                              timeout=INSTALL_TIMEOUT_S, check=False,
                              env={**os.environ, **QUIET_ENV})
        if done.returncode != 0:
            raise HarborSetupError(
                f"could not install into {venv}: `pip install -c {CONSTRAINTS} "
                f"{' '.join(args)}` failed:\n{(done.stderr or done.stdout).strip()[-800:]}")
    (venv / STAMP).write_text(_digest() + "\n")
    version = _installed(venv)
    if version != pinned:
        raise HarborSetupError(f"{venv} has harbor {version}, not the pinned {pinned}")
    return version


if __name__ == "__main__":
    if sys.argv[1:] == ["--python"]:
        print(find_python312() or "")
        sys.exit(0)
    env = ensure_harbor()
    print(f"harbor {env.version} at {env.python}")
    sys.exit(0)
