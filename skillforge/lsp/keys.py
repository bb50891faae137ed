"""What each SKILL.md frontmatter key means, for hovers: the Agent Skills spec's keys
(CONTRACTS.md section 1) and the keys a harness documents for skills
(`linters.correctness.harness_keys`: Claude Code's, OpenClaw's and DeepSeek Harness's, which
SF112 warns about rather than rejects).

tests/lsp checks that every key the linter knows has an entry here.
"""

from __future__ import annotations

SPEC = "Agent Skills spec"
CLAUDE_CODE = "Claude Code only (not in the Agent Skills spec; SF112 warns)"
OPENCLAW = "OpenClaw only (not in the Agent Skills spec; SF112 warns)"
DSH = "DeepSeek Harness only (not in the Agent Skills spec; SF112 warns)"

# key -> (where it comes from, what it means)
KEYS: dict[str, tuple[str, str]] = {
    "name": (SPEC + ", required",
             "The skill's identifier: 1-64 characters, lowercase letters, digits and `-` (no "
             "leading, trailing or doubled `-`), equal to the folder's name. Claude Code also "
             "uses it as the `/name` command."),
    "description": (SPEC + ", required",
                    "What the skill does and when to use it, in 1-1024 characters. It is the "
                    "only text an agent reads before deciding to open the skill, so it carries "
                    "the words a user's request would contain."),
    "license": (SPEC, "The license the skill is shared under: a name such as `MIT`, or the "
                "name of a license file in the skill."),
    "compatibility": (SPEC, "A string of at most 500 characters naming what the skill needs "
                      "to run: products, system packages, network access."),
    "metadata": (SPEC, "A map of string keys to string values for anything else (author, "
                 "version, category). Keys the spec does not define belong here."),
    "allowed-tools": (SPEC + " (experimental)",
                      "Space-separated tools the agent may use without asking while the skill "
                      "is active, e.g. `Read Bash(git:*)`."),
    "argument-hint": (CLAUDE_CODE, "The hint shown next to `/name` in the command menu for "
                      "the arguments it takes, e.g. `[issue-number]`."),
    "disable-model-invocation": (CLAUDE_CODE, "`true`: Claude never loads the skill on its "
                                 "own; only the user's `/name` runs it."),
    "user-invocable": (CLAUDE_CODE, "`false`: the skill is hidden from the `/` menu and only "
                       "the model loads it, as background knowledge."),
    "model": (CLAUDE_CODE, "The model to use while the skill runs (e.g. `sonnet`, `haiku`)."),
    "effort": (CLAUDE_CODE, "The effort level the model uses while the skill runs (e.g. "
               "`low`, `medium`, `high`)."),
    "context": (CLAUDE_CODE, "`fork`: run the skill in a separate subagent context instead of "
                "the current conversation."),
    "agent": (CLAUDE_CODE, "The subagent type that runs the skill when `context: fork` is set."),
    "hooks": (CLAUDE_CODE, "Hooks that run at points of the skill's lifecycle, scoped to it."),
    "paths": (CLAUDE_CODE, "Glob patterns (a list, or a comma-separated string) of the files "
              "that make the skill load on its own: it is offered only when matching files "
              "are being worked on."),
    "shell": (CLAUDE_CODE, "The shell for the skill's inline `!` command blocks: `bash` (the "
              "default) or `powershell`."),
    "when_to_use": (CLAUDE_CODE, "More text on when to use the skill (trigger phrases, example "
                    "requests), appended to the description in the skill listing."),
    "arguments": (CLAUDE_CODE, "Names for the positional arguments of `/name` (a space-"
                  "separated string or a list), so the body can use `$name` instead of `$1`."),
    "disallowed-tools": (CLAUDE_CODE, "Tools removed from the model while the skill is "
                         "active, e.g. `Write Edit` for a read-only skill."),
    "homepage": (OPENCLAW, "A web page about the skill, which OpenClaw shows as its website "
                 "link; other harnesses ignore it (`metadata: {homepage: ...}` is portable)."),
    "command-dispatch": (OPENCLAW, "`tool`: OpenClaw's `/name` command calls a tool directly "
                         "instead of going through the model."),
    "command-tool": (OPENCLAW, "The tool OpenClaw calls when `command-dispatch: tool` is set."),
    "command-arg-mode": (OPENCLAW, "How OpenClaw hands the command's arguments to that tool "
                         "(`raw`: the text as typed)."),
    "whenToUse": (DSH, "More text on when to use the skill, which DeepSeek Harness keeps out of "
                  "the model's skill catalogue; Claude Code's key for the same is `when_to_use`, "
                  "and other harnesses ignore both."),
    "version": (CLAUDE_CODE, "A version label for the skill. Other harnesses ignore it; "
                "`metadata: {version: \"1.2\"}` is the portable place."),
}


def key_markdown(key: str) -> str:
    """The hover text for a frontmatter key; an unknown key says what to do with it."""
    entry = KEYS.get(key)
    if entry is None:
        return (f"**`{key}`**: not a key of the Agent Skills spec, nor one Claude Code "
                "documents (SF112). Harnesses ignore it and strict validators reject the "
                "skill: put it under `metadata:` as a string, or delete it.")
    origin, meaning = entry
    return f"**`{key}`** ({origin})\n\n{meaning}"
