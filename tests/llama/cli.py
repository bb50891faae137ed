"""Running `skillforge` against the llama.cpp test server as a user types it: the installed
console script in a subprocess, pointed at the server by OPENAI_BASE_URL, `--model` the
server's model name, and budgets sized for a 135M model on a shared CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.llama_server import LlamaServer, llama_env

SKILLFORGE = str(Path(sys.executable).with_name("skillforge"))
# Every structured answer is bounded by its schema (maxLength, maxItems), and 2048 tokens
# hold the largest of them (a cut-off answer is asked again with twice as many).
MAX_TOKENS = "2048"
# The server answers one request at a time and the others queue; a slow shared CPU must
# not turn a queued request into a timeout.
TIMEOUT_SEC = "1800"


@dataclass
class Ran:
    """One finished command: its exit code, output and how long it took."""

    argv: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    def json(self) -> Any:
        return json.loads(self.stdout)

    def explain(self) -> str:
        return (f"`{' '.join(self.argv[1:])}` exited {self.returncode} after "
                f"{self.seconds:.0f}s\n--- stderr ---\n{self.stderr[-3000:]}")


def skillforge(server: LlamaServer, home: Path, *args: str, cwd: Path, timeout: float = 3000,
               **env: str) -> Ran:
    """Run `skillforge ARGS --model <server model>` with only the server configured."""
    full_env = llama_env(server, home, SKILLFORGE_PROVIDER__MAX_TOKENS=MAX_TOKENS,
                         SKILLFORGE_PROVIDER__TIMEOUT_SEC=TIMEOUT_SEC,
                         SKILLFORGE_CACHE_DIR=str(home / "cache"), **env)
    argv = [SKILLFORGE, *args, "--model", server.model]
    t0 = time.monotonic()
    proc = subprocess.run(argv, cwd=cwd, env=full_env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    ran = Ran(argv, proc.returncode, proc.stdout, proc.stderr, time.monotonic() - t0)
    print(f"[llama] {' '.join(args[:2])}: exit {ran.returncode} in {ran.seconds:.0f}s")
    return ran


def no_model(*args: str, home: Path, cwd: Path) -> Ran:
    """A command that needs no model (validate, report), in the same clean environment."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache")}
    argv = [SKILLFORGE, *args]
    t0 = time.monotonic()
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    return Ran(argv, proc.returncode, proc.stdout, proc.stderr, time.monotonic() - t0)
