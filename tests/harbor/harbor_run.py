"""Type what an exported dataset's README tells a user to type: its `harbor run` line (run
by the Harbor venv's `harbor`), then its `skillforge import harbor` and `skillforge report`
lines (run by this venv's `skillforge` console script), in the folder the export was made
from. Nothing is rewritten but the README's own placeholders (`<model>`, `<job name>`).

A failure says where it happened: the command's exit and output tail, Harbor's job log, and
each trial's exception.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.harbor.harbor_env import HarborEnv

ROOT = Path(__file__).resolve().parents[2]
SKILLFORGE = Path(sys.executable).parent / "skillforge"
HARBOR_RUN_TIMEOUT_S = 2400


def compose_version() -> str | None:
    """What `docker compose version --short` prints, or None when there is no compose v2."""
    try:
        done = subprocess.run(["docker", "compose", "version", "--short"], capture_output=True,
                              text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def ensure_compose() -> str:
    """docker compose v2 (Harbor's docker environment drives it), placed by
    tools/ensure-compose.sh when missing; the test fails with that script's reason."""
    version = compose_version()
    if version:
        return version
    done = subprocess.run(["bash", str(ROOT / "tools" / "ensure-compose.sh")],
                          capture_output=True, text=True, timeout=900, check=False,
                          env={**os.environ, "SKILLFORGE_PYTHON": sys.executable})
    version = compose_version()
    if not version:
        pytest.fail("Harbor's docker environment needs docker compose v2: `docker compose "
                    "version` fails, and tools/ensure-compose.sh could not place it "
                    f"(exit {done.returncode}):\n{(done.stderr or done.stdout)[-1500:]}",
                    pytrace=False)
    return version


def readme_lines(readme: str, prefix: str) -> list[str]:
    """The lines of the README's ```sh blocks that start with `prefix`."""
    out, inside = [], False
    for line in readme.splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside and line.startswith(prefix):
            out.append(line.strip())
    return out


def readme_line(readme: str, prefix: str, containing: str) -> str:
    found = [line for line in readme_lines(readme, prefix) if containing in line]
    assert len(found) == 1, f"the README has no single `{prefix}...{containing}` line: {found}"
    return found[0]


@dataclass
class HarborJob:
    folder: Path
    seconds: float
    output: str
    result: dict
    trials: dict[str, dict]  # trial folder name -> its result.json

    @property
    def exceptions(self) -> dict[str, str]:
        """Trial folder -> its exception (type: message), for the trials that have one."""
        out = {}
        for name, trial in self.trials.items():
            info = trial.get("exception_info")
            if info:
                out[name] = f"{info.get('exception_type')}: " \
                            f"{str(info.get('exception_message'))[:400]}"
        return out

    def trial_diagnosis(self, name: str, limit: int = 2500) -> str:
        """The tails of a trial's text logs (agent, verifier, trial), for a failed check."""
        parts = []
        for path in sorted((self.folder / name).rglob("*")):
            if path.is_file() and path.suffix in {".log", ".txt"} and path.stat().st_size:
                text = path.read_text(errors="replace")
                parts.append(f"--- {path.relative_to(self.folder)}:\n{text[-limit:]}")
        return "\n".join(parts) or f"(no text logs under {self.folder / name})"

    def diagnosis(self) -> str:
        log = self.folder / "job.log"
        tail = log.read_text(errors="replace")[-3000:] if log.exists() else "(no job.log)"
        return (f"harbor output:\n{self.output[-3000:]}\njob.log:\n{tail}\nexceptions: "
                f"{json.dumps(self.exceptions, indent=1)}")


def run_harbor(harbor_env: HarborEnv, line: str, cwd: Path, env: dict[str, str] | None = None,
               **placeholders: str) -> HarborJob:
    """Run a README `harbor run` line in `cwd` with the Harbor venv's `harbor`; the job."""
    for key, value in placeholders.items():
        line = line.replace(f"<{key}>", value)
    argv = shlex.split(line)
    assert argv[:2] == ["harbor", "run"] and "<" not in line, line
    jobs = cwd / "jobs"
    before = set(jobs.iterdir()) if jobs.is_dir() else set()
    started = time.monotonic()
    try:
        done = subprocess.run([str(harbor_env.harbor), *argv[1:]], cwd=cwd, text=True,
                              capture_output=True, timeout=HARBOR_RUN_TIMEOUT_S, check=False,
                              env={**harbor_env.env(), **(env or {})})
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"`{line}` did not finish within {HARBOR_RUN_TIMEOUT_S} s:\n"
                    f"{str(exc.stdout or '')[-3000:]}", pytrace=False)
    seconds = time.monotonic() - started
    output = done.stdout + done.stderr
    new = sorted(set(jobs.iterdir()) - before) if jobs.is_dir() else []
    if done.returncode != 0 or len(new) != 1 or not (new[0] / "result.json").exists():
        pytest.fail(f"`{line}` exited {done.returncode} with job folders {new}:\n"
                    f"{output[-4000:]}", pytrace=False)
    folder = new[0]
    trials = {p.name: json.loads((p / "result.json").read_text())
              for p in sorted(folder.iterdir()) if (p / "result.json").is_file()}
    return HarborJob(folder, seconds, output, json.loads((folder / "result.json").read_text()),
                     trials)


def skillforge(line: str, cwd: Path, **placeholders: str) -> subprocess.CompletedProcess[str]:
    """Run a README `skillforge ...` line in `cwd` with this venv's console script."""
    for key, value in placeholders.items():
        line = line.replace(f"<{key}>", value)
    argv = shlex.split(line)
    assert argv[0] == "skillforge" and "<" not in line, line
    return subprocess.run([str(SKILLFORGE), *argv[1:]], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False,
                          env={**os.environ, "COLUMNS": "200"})
