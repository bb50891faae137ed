"""`--agent codex`: OpenAI's Codex CLI, run non-interactively inside the container.

    codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox \
        -c shell_environment_policy.ignore_default_excludes=false \
        [--model M] [-c openai_base_url="..."] -- "<prompt>"

- Skills: `~/.agents/skills/<name>/SKILL.md` for the container's user (the user-level skills
  folder Codex reads; Harbor copies skills there too). `~/.agents` belongs to the agent
  user, the skills inside it are root-owned and read-only; Codex keeps its own state in
  `~/.codex` (CODEX_HOME's default), which it creates.
- Sandbox and approvals: `--dangerously-bypass-approvals-and-sandbox`. Codex's own sandbox
  (Landlock/seccomp) cannot be set up in a container without capabilities, and no approval
  can be answered non-interactively; the trial container is the sandbox.
- Model: through skillforge's model proxy (skillforge.harnesses.proxy). The trial's token
  goes to the exec as `CODEX_API_KEY` (what `codex exec` reads) and `OPENAI_API_KEY` (older
  versions), the proxy's address as `OPENAI_BASE_URL` and `-c openai_base_url=...` (newer
  versions read only the config value); the proxy adds your `OPENAI_API_KEY` upstream. The
  shell environment policy leaves variables named like *KEY*, *SECRET*, *TOKEN* out of the
  commands Codex runs (`ignore_default_excludes=false`), so the token stays with Codex.
- The CLI: the image's own `codex` (no registry reachable here ships one to pin).
- Max turns: Codex has no such option; the trial timeout bounds the run.
- Stream: `codex exec --json` events (thread/turn/item), read by sessions.importers.codex.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

from sessions.importers.base import ImportResult
from sessions.importers.codex import import_codex
from skillforge.harnesses.base import Credentials, Harness, Outcome
from skillforge.sandbox.base import ExecResult


class CodexHarness(Harness):
    name = "codex"
    binary = "codex"
    provider = "openai"
    key_vars = ("OPENAI_API_KEY",)
    url_var = "OPENAI_BASE_URL"
    skills_subdir = ".agents/skills"
    state_dirs = (".agents",)
    session_dir = ".codex/sessions"
    default_base_url = "https://api.openai.com/v1"
    fixed_env: ClassVar[dict[str, str]] = {"NO_COLOR": "1"}

    def key_env_names(self, var: str) -> tuple[str, ...]:
        return ("CODEX_API_KEY", "OPENAI_API_KEY")

    def argv(self, prompt: str, model: str | None, max_turns: int,
             creds: Credentials) -> list[str]:
        argv = [self.binary, "exec", "--json", "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                # keep *KEY*/*SECRET*/*TOKEN* variables out of the commands codex runs
                "-c", "shell_environment_policy.ignore_default_excludes=false"]
        if model:
            argv += ["--model", model]
        url = creds.env.get("OPENAI_BASE_URL")
        if url:
            argv += ["-c", f"openai_base_url={json.dumps(url)}"]
        return [*argv, "--", prompt]

    def import_stream(self, path: Path) -> ImportResult:
        return import_codex(path)

    def outcome(self, result: ImportResult | None, run: ExecResult) -> Outcome:
        """A `turn.failed` or `error` event is an error even when codex exits 0."""
        errors = ((result.trajectory.extra or {}).get("errors") if result else None) or []
        if not run.timed_out and errors:
            return Outcome("error", "codex reported: " + "; ".join(map(str, errors[:3])))
        return super().outcome(result, run)
