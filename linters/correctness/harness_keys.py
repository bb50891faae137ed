"""Frontmatter keys outside the Agent Skills spec that a harness documents for skills.

Such a key does something real in one harness, so SF112 reports it as a warning naming the
harness instead of the error an unknown key gets; its fix (moving the key under `metadata:`)
is offered for errors only, so a harness's key is never moved. Each table says where the
harness documents its keys.
"""

from __future__ import annotations

# Keys Claude Code documents for skills (code.claude.com/docs/en/skills, frontmatter
# reference). `arguments`: named positional arguments for `$name` substitution;
# `disallowed-tools`: tools removed while the skill is active (Claude Code 2.1.152 changelog:
# "skills and slash commands can set disallowed-tools in frontmatter").
CLAUDE_CODE_KEYS = (
    "argument-hint", "disable-model-invocation", "user-invocable", "model", "effort",
    "context", "agent", "hooks", "paths", "shell", "when_to_use", "version",
    "arguments", "disallowed-tools",
)
# Keys OpenClaw documents as optional skill frontmatter (openclaw/openclaw docs/tools/skills.md,
# "Optional frontmatter keys"): `homepage` is the "Website" link of its macOS Skills UI, the
# `command-*` keys dispatch a slash command straight to a tool. It also reads
# `user-invocable` and `disable-model-invocation`, listed above.
OPENCLAW_KEYS = ("homepage", "command-dispatch", "command-tool", "command-arg-mode")
OPENCLAW_SHARED = ("user-invocable", "disable-model-invocation")
# Keys DeepSeek Harness (deepseek-ai/deepseek-harness, `dsh`) documents for SKILL.md: its
# skill format is name, description and an optional `whenToUse` (more text on when to use the
# skill, kept out of the model's catalogue), beside Claude Code's `disable-model-invocation`
# and `user-invocable`. Claude Code spells the same idea `when_to_use`.
DSH_KEYS = ("whenToUse",)

# Keys Hermes Agent (NousResearch/hermes-agent, website/docs/developer-guide/creating-skills.md)
# documents as top-level SKILL.md frontmatter beside the spec's: `author`, `platforms` (the
# operating systems a skill is offered on), `required_environment_variables` (asked for
# when the skill loads) and the older `prerequisites` it still reads. Hermes keeps the rest
# under its own `metadata.hermes` map, which is how a skill shows it is written for Hermes;
# `author` on its own is read as an unknown key, as in any other skill.
HERMES_KEYS = ("author", "platforms", "required_environment_variables", "prerequisites")

KNOWN_KEYS = (*CLAUDE_CODE_KEYS, *OPENCLAW_KEYS, *DSH_KEYS)

# Keys whose meaning a harness documents in a form the spec allows, though not as a top-level
# key (holdout31). OpenCode's v2 skills page (opencode.ai/v2/docs/skills) makes a skill a typed
# `/<name>` command with `opencode/slash: "true"` under `metadata`; its v2 skill parser took a
# top-level boolean `slash` as well for a while (anomalyco/opencode,
# packages/core/src/config/plugin/skill-file.ts at c35f3a6) and later dropped it, so `slash`
# is no key a harness documents, only one its documented spelling can replace.
DOCUMENTED_UNDER_METADATA = {"slash": ("OpenCode", 'opencode/slash: "true"')}


def for_hermes(frontmatter: dict | None) -> bool:
    """The frontmatter carries Hermes Agent's own `metadata.hermes` map."""
    meta = (frontmatter or {}).get("metadata")
    return isinstance(meta, dict) and isinstance(meta.get("hermes"), dict)


def harness_of(key: str, frontmatter: dict | None = None) -> str | None:
    """The harness (or harnesses) that documents `key` for skills, or None. Hermes Agent's
    keys count only in a skill written for Hermes (`for_hermes`)."""
    if key in HERMES_KEYS and for_hermes(frontmatter):
        return "Hermes Agent"
    if key in DSH_KEYS:
        return "DeepSeek Harness"
    if key in OPENCLAW_KEYS:
        return "OpenClaw"
    if key in OPENCLAW_SHARED:
        return "Claude Code and OpenClaw"
    if key in CLAUDE_CODE_KEYS:
        return "Claude Code"
    return None


def spelled_elsewhere(key: str) -> str:
    """How another harness spells the same key, said after the harness's name ('' if none)."""
    return " (Claude Code spells it `when_to_use`)" if key == "whenToUse" else ""


def documented_under_metadata(key: str) -> str:
    """A sentence saying how a harness documents `key`'s meaning under `metadata` ('' if none)."""
    if key not in DOCUMENTED_UNDER_METADATA:
        return ""
    harness, entry = DOCUMENTED_UNDER_METADATA[key]
    return f" {harness} documents this setting under `metadata:` as `{entry}`."
