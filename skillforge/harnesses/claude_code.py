"""`--agent claude-code`: Anthropic's Claude Code CLI, run in print mode inside the container.

    claude -p "<prompt>" --output-format stream-json --verbose \
        --dangerously-skip-permissions --max-turns N --tools Bash,Read,... [--model M]

- The CLI: by default the Claude Code binary PyPI's claude-agent-sdk wheel bundles (pinned
  in constraints/claude-code.txt), layered onto the trial image by
  skillforge.harnesses.image; `[trial] harness_cli = "image"` uses the image's own `claude`.
- Skills: `~/.claude/skills/<name>/SKILL.md` for the container's user (Claude Code's
  user-level skills folder; Harbor copies skills to `$CLAUDE_CONFIG_DIR/skills`, whose
  default is `~/.claude`). `~/.claude` itself belongs to the agent user (Claude Code writes
  its projects, todos and settings there); the skills inside it are root-owned, read-only.
- Permissions: `--dangerously-skip-permissions` (no prompt can be answered in print mode;
  the container is the sandbox: non-root, capabilities dropped, removed afterwards).
  `IS_SANDBOX=1`: as root (an image whose user is root) Claude Code refuses the
  permission-skipping flags without it.
- Model: through skillforge's model proxy. `ANTHROPIC_API_KEY` holds the trial's token and
  `ANTHROPIC_BASE_URL` the proxy's address; the proxy adds your `ANTHROPIC_API_KEY` (or
  `CLAUDE_CODE_OAUTH_TOKEN`) upstream. So Claude Code's env scrub
  (CLAUDE_CODE_SUBPROCESS_ENV_SCRUB), which needs bubblewrap namespaces a container without
  capabilities cannot make, is not needed: there is no key to hide.
- Tools: `--tools` DEFAULT_TOOLS (no web tools: the container has no internet by default).
- Turns: `--max-turns`, and the proxy refuses the model call past the limit, which also
  bounds subagents and background tasks that restart the loop (skillforge.harnesses.run).
- Telemetry, error reporting and the auto-updater are off.
- Stream: stream-json events, read by sessions.importers.claude_code (the session-log reader,
  which also takes the stream's `init` and `result` events).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from sessions.importers.base import ImportResult
from sessions.importers.claude_code import import_claude_code
from skillforge.harnesses.base import Credentials, Harness, Outcome
from skillforge.sandbox.base import ExecResult


# The built-in tools a trial's Claude Code may use: files, shell, skills and subagents; no
# web tools (no internet without --network), no scheduling or worktree tools.
DEFAULT_TOOLS = "Bash,Read,Write,Edit,Glob,Grep,Skill,Agent"


class ClaudeCodeHarness(Harness):
    name = "claude-code"
    binary = "claude"
    provider = "anthropic"
    key_vars = ("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN")
    url_var = "ANTHROPIC_BASE_URL"
    skills_subdir = ".claude/skills"
    state_dirs = (".claude",)
    session_dir = ".claude/projects"
    default_base_url = "https://api.anthropic.com"
    fixed_env: ClassVar[dict[str, str]] = {
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_AUTOUPDATER": "1",
        # Only consulted when running as root (skipping permissions is refused there
        # otherwise); trials run as uid 1000, so this is belt and braces for odd images.
        "IS_SANDBOX": "1",
    }

    @property
    def install_hint(self) -> str:
        return ("with [trial] harness_cli = \"auto\" (the default) skillforge layers the pinned "
                "Claude Code onto the trial image when claude-agent-sdk is installed (`pip "
                "install 'skillforge[claude-code]'`); or set harness_cli to a claude binary, or "
                "use an image with the CLI on its PATH (docs/harnesses.md)")

    def auth_headers(self, var: str, key: str) -> dict[str, str]:
        if var == "CLAUDE_CODE_OAUTH_TOKEN":  # `claude setup-token`: a bearer token
            return {"authorization": f"Bearer {key}", "anthropic-beta": "oauth-2025-04-20"}
        return {"x-api-key": key}

    def argv(self, prompt: str, model: str | None, max_turns: int,
             creds: Credentials) -> list[str]:
        # A prompt starting with "-" would be read as an option; a leading space is not.
        text = f" {prompt}" if prompt.startswith("-") else prompt
        argv = [self.binary, "-p", text, "--output-format", "stream-json", "--verbose",
                "--dangerously-skip-permissions", "--max-turns", str(max_turns),
                "--tools", DEFAULT_TOOLS]
        if model:
            argv += ["--model", model]
        return argv

    def import_stream(self, path: Path) -> ImportResult:
        return import_claude_code(path)

    def outcome(self, result: ImportResult | None, run: ExecResult) -> Outcome:
        """The `result` event decides when there is one: success, max turns or an error."""
        if run.timed_out:
            return super().outcome(result, run)
        final = ((result.trajectory.extra or {}).get("result") if result else None) or {}
        subtype = str(final.get("subtype") or "")
        if subtype == "error_max_turns":
            return Outcome("max_turns")
        if final and (final.get("is_error") or subtype.startswith("error")):
            return Outcome("error", f"claude reported {subtype or 'an error'}"
                           + _last_text(result))
        if not final and run.exit_code == 0:
            return Outcome("error", "claude exited without its final `result` event; the "
                           "stream is incomplete (is the CLI version current?)")
        return super().outcome(result, run)


def _last_text(result: ImportResult | None) -> str:
    if result is None:
        return ""
    for step in reversed(result.trajectory.steps):
        if step.source == "agent" and isinstance(step.message, str) and step.message.strip():
            return ": " + " ".join(step.message.split())[:300]
    return ""
