"""External agent harnesses for local trials: `--agent claude-code` and `--agent codex`.

    harness = get_harness("claude-code")          # None for "builtin"
    check_agent(spec.agent, sandbox=..., network=...)   # HarnessError says what to fix

The real CLI runs inside the trial container (the trial image plus the CLI:
skillforge.harnesses.image), with the skills in its own skills folder. It reaches its model
only through skillforge's model proxy on the host (skillforge.harnesses.proxy), with a
per-trial token: the key never enters the container, and without --network the container
reaches nothing else. Its JSON stream becomes ATIF through sessions.importers and is scored
like the built-in agent's trajectory. docs/harnesses.md has the details.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skillforge.harnesses.base import Credentials, Harness, HarnessError, redact
from skillforge.harnesses.claude_code import ClaudeCodeHarness
from skillforge.harnesses.codex import CodexHarness

__all__ = [
    "AGENTS", "HARNESSES", "ClaudeCodeHarness", "CodexHarness", "Credentials", "Harness",
    "HarnessError", "check_agent", "get_harness", "redact",
]

HARNESSES: dict[str, type[Harness]] = {
    ClaudeCodeHarness.name: ClaudeCodeHarness,
    CodexHarness.name: CodexHarness,
}
BUILTIN = "builtin"
AGENTS = (BUILTIN, *HARNESSES)


def get_harness(agent: str, environ: Mapping[str, str] | None = None) -> Harness | None:
    """The harness for an --agent value (None for the built-in agent)."""
    if agent == BUILTIN:
        return None
    cls = HARNESSES.get(agent)
    if cls is None:
        raise HarnessError(f"unknown agent {agent!r}: use one of {', '.join(AGENTS)} (other "
                           "agents run through Harbor: `skillforge export harbor`)")
    return cls(environ)


def check_agent(agent: str, *, sandbox: str, network: bool,
                environ: Mapping[str, str] | None = None,
                conditions: Sequence[str] = ()) -> Harness | None:
    """The harness for `agent` once its requirements hold; HarnessError says which does not."""
    harness = get_harness(agent, environ)
    if harness is None:
        return None
    if "skill_mode" in conditions:
        raise HarnessError(f"the skill_mode condition runs only with skillforge's built-in "
                           f"agent (--agent builtin): the {harness.binary} CLI has no "
                           "save_skill / execute_skill tools; drop skill_mode from "
                           "--conditions or drop --agent")
    if sandbox != "docker":
        raise HarnessError(f"--agent {agent} runs the {harness.binary} CLI inside a Docker "
                           "container; use --sandbox docker (the local sandbox would run "
                           "your own installation with your own settings)")
    harness.credentials()  # the proxy's; the container never sees them
    return harness
