"""What an external agent harness is: a CLI installed in the trial image, run by skillforge.

The built-in agent's loop runs in skillforge and only its tool commands reach the container.
An external harness (Claude Code, the Codex CLI) is the whole agent: it runs INSIDE the
trial container, so it needs:

- an image that has the CLI (skillforge.harnesses.image layers the pinned Claude Code onto
  the trial image; docs/harnesses.md says how to bring your own);
- its model, through skillforge's model proxy on the host (skillforge.harnesses.proxy): the
  CLI gets a per-trial token and the proxy's address in its usual variables; the proxy holds
  the real key. The key never enters a container, an environment, a command line or a file;
  the token is scrubbed from what is stored anyway;
- the skills in the harness's own skills folder (`~/.claude/skills`, `~/.agents/skills`),
  staged by `skillforge.trials.staging.stage_trial(skills_dir=...)` with the same leakage checks.

A `Harness` says how to do that for one CLI: its command line, its environment, where its
skills go, where its provider is, and how its JSON stream becomes ATIF (through
sessions.importers). `skillforge.harnesses.run.HarnessRun` runs it in a sandbox.
"""

from __future__ import annotations

import abc
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from sessions.importers.base import ImportResult
from skillforge.harnesses.proxy import Upstream
from skillforge.sandbox.archive import TarBuilder, concat_tars
from skillforge.sandbox.base import AGENT_GID, AGENT_UID, ExecResult

HOME = "/home/agent"
REDACTED = "[REDACTED:{name}]"
# Values shorter than this are not scrubbed from output: they would match ordinary text.
MIN_SECRET_CHARS = 8


class HarnessError(ValueError):
    """A harness cannot run with these settings; the message says what to set or build."""


@dataclass(frozen=True)
class Credentials:
    """Provider variables: the host's real ones (for the proxy), or the per-trial token and
    proxy address a CLI gets. `secrets` are scrubbed from its output."""

    env: Mapping[str, str]
    secrets: Mapping[str, str]  # env var name -> value to scrub

    def __repr__(self) -> str:  # never print a key
        return f"Credentials(vars={sorted(self.env)})"


def redact(text: str, secrets: Mapping[str, str]) -> str:
    """`text` with every secret value replaced by a marker naming its variable."""
    for name, value in secrets.items():
        if value and len(value) >= MIN_SECRET_CHARS and value in text:
            text = text.replace(value, REDACTED.format(name=name))
    return text


@dataclass(frozen=True)
class Outcome:
    """How the CLI run ended: a stop reason of the built-in agent's kind, and why."""

    stop: str  # final_answer | max_turns | timeout | error
    error: str | None = None


class Harness(abc.ABC):
    """One external CLI: its command line, environment, skills folder and stream format."""

    name: ClassVar[str]  # the --agent value
    binary: ClassVar[str]  # the executable looked up on the image's PATH
    provider: ClassVar[str]  # "anthropic" | "openai": the provider its key belongs to
    key_vars: ClassVar[tuple[str, ...]]  # host variables that may hold the key, first wins
    url_var: ClassVar[str | None] = None  # host variable for a custom API endpoint
    skills_subdir: ClassVar[str]  # the harness's skills folder, relative to HOME
    # Folders under HOME the CLI writes its state to: created owned by the agent user, so
    # the root-owned skills folder inside them does not make them read-only.
    state_dirs: ClassVar[tuple[str, ...]] = ()
    # Non-secret settings for the CLI process (telemetry off, key scrubbing on...).
    fixed_env: ClassVar[Mapping[str, str]] = {}
    # Where the CLI writes its own session logs, relative to HOME: copied out after the run
    # and kept beside the trajectory (they hold what the stream leaves out: subagents' turns,
    # the CLI's cost ledger).
    session_dir: ClassVar[str | None] = None

    def __init__(self, environ: Mapping[str, str] | None = None,
                 extra_files: Mapping[str, bytes | tuple[bytes, int]] | None = None) -> None:
        """`environ`: where keys come from (default os.environ). `extra_files`: absolute
        path -> bytes (or (bytes, mode)) added to every trial container, e.g. a wrapper in
        /opt/skillforge/bin (first on PATH). The root filesystem is read-only, so a path
        outside the writable mounts (skillforge.sandbox.mounts) is refused when staged."""
        self.environ = dict(os.environ if environ is None else environ)
        self.extra_files = dict(extra_files or {})

    # --- what goes into the container ---------------------------------------------------
    @property
    def skills_dir(self) -> str:
        """Where this harness loads skills from, for the container's agent user."""
        return f"{HOME}/{self.skills_subdir}"

    def initial_archive(self, staged: bytes) -> bytes:
        """The staged trial's tar followed by the harness's own folders and extra files."""
        builder = TarBuilder()
        for rel in self.state_dirs:
            builder.add_dir(f"{HOME}/{rel}", AGENT_UID, AGENT_GID, 0o755)
        for path, value in sorted(self.extra_files.items()):
            data, mode = value if isinstance(value, tuple) else (value, 0o755)
            builder.add_file(path, data, 0, 0, mode)
        return concat_tars(staged, builder.getvalue())

    # --- credentials and the command ------------------------------------------------------
    def credentials(self) -> Credentials:
        """The key (and endpoint) from the host environment; HarnessError when missing."""
        for var in self.key_vars:
            value = self.environ.get(var, "").strip()
            if value:
                env = {name: value for name in self.key_env_names(var)}
                url = self.environ.get(self.url_var, "").strip() if self.url_var else ""
                if url:
                    env[self.url_var] = url  # type: ignore[index]
                return Credentials(env=env, secrets={var: value})
        names = " or ".join(self.key_vars)
        raise HarnessError(f"--agent {self.name} needs {names} in the environment (the "
                           f"{self.binary} CLI calls the API from inside the container); "
                           f"set it, or use --agent builtin")

    def key_env_names(self, var: str) -> tuple[str, ...]:
        """The variable name(s) the CLI reads the key from (default: the host's name)."""
        return (var,)

    @property
    def install_hint(self) -> str:
        """How to get the CLI into the trial container (said when it is missing)."""
        return (f"use an image with the {self.name} CLI installed (docs/harnesses.md shows a "
                "Dockerfile), via --image or [trial] image")

    # --- the model proxy ------------------------------------------------------------------
    default_base_url: ClassVar[str]  # the provider's API when the host sets no base URL

    def upstream(self) -> Upstream:
        """Where the proxy forwards this CLI's calls, with the host's credentials."""
        creds = self.credentials()
        base = (creds.env.get(self.url_var, "") if self.url_var else "") or \
            self.default_base_url
        var, key = next(iter(creds.secrets.items()))
        return Upstream(base_url=base.rstrip("/"), headers=self.auth_headers(var, key))

    def auth_headers(self, var: str, key: str) -> dict[str, str]:
        """The headers that carry the host's key `var` upstream."""
        return {"authorization": f"Bearer {key}"}

    def proxy_credentials(self, token: str, base_url: str) -> Credentials:
        """What the CLI gets instead of the key: its trial's token, the proxy's address."""
        env = {name: token for name in self.key_env_names(self.key_vars[0])}
        if self.url_var:
            env[self.url_var] = base_url
        return Credentials(env=env, secrets={"SKILLFORGE_TRIAL_TOKEN": token})

    def exec_env(self, creds: Credentials) -> dict[str, str]:
        """The environment of the CLI process: HOME, fixed settings and the credentials."""
        return {"HOME": HOME, **self.fixed_env, **creds.env}

    @abc.abstractmethod
    def argv(self, prompt: str, model: str | None, max_turns: int,
             creds: Credentials) -> list[str]:
        """The non-interactive command line that runs `prompt` and prints a JSON stream."""

    @abc.abstractmethod
    def import_stream(self, path: Path) -> ImportResult:
        """The stream the CLI printed (a .jsonl file) as an imported ATIF trajectory."""

    def outcome(self, result: ImportResult | None, run: ExecResult) -> Outcome:
        """How the run ended, from the exit status and what the stream said."""
        if run.timed_out:
            return Outcome("timeout", "the harness did not finish within the trial timeout")
        if run.exit_code != 0:
            return Outcome("error", f"{self.binary} exited with code {run.exit_code}"
                           + _tail(run.stderr or run.stdout))
        return Outcome("final_answer")


def _tail(text: str, chars: int = 400) -> str:
    text = " ".join(text.split())
    return f": {text[-chars:]}" if text else ""
