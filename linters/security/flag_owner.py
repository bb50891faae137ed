"""Which program a shared bypass flag belongs to (SF512, issue 36).

Most of SF512's flags name an agent's own setting (`--dangerously-skip-permissions`,
`bypassPermissions`, `danger-full-access`), so the flag alone is enough. `--yolo` is not: other
tools use it for their own "don't ask me" switch (a mail CLI that sends without its "Send this
email?" prompt, a deploy script that skips its confirmation). Such a flag starts no agent and
turns off no agent's checks, so the command word decides: the flag counts when an agent CLI (or
its package, run through npx, bunx, uvx...) comes before it in the same pipeline stage, or when
the program cannot be told (a variable, a command array being built, the flag on its own); it
does not when the stage plainly runs another program. A sentence that names only the flag
("send with `--yolo`") belongs to the program the same file uses the flag with.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from linters.security.security_context import SecurityText

# Flags that agent CLIs share with other tools: only these are weighed by their command word.
SHARED_FLAG = rx(r"^--yolo$", re.IGNORECASE)

# The agent CLIs whose own name makes a flag theirs (agent_commands' SF512 scan matches these
# as words), and more agents that only own a shared flag here.
AGENT_CLIS = r"(?:claude|codex|gemini|qwen|copilot|cursor-agent|amp|aider|opencode|crush)"
_MORE_AGENTS = r"(?:goose|droid|agy|kiro|kimi|cline|auggie|openhands|plandex)"
# Agent CLIs and their packages (`@anthropic-ai/claude-code`, `@google/gemini-cli`,
# `cursor-agent`, a wrapper named `run-codex.sh`): the name as a word or a part of one.
_AGENT_NAME = rx(rf"(?<![a-z0-9])(?:{AGENT_CLIS}|{_MORE_AGENTS})(?![a-z0-9])", re.IGNORECASE)
# Words that run the next word as the program (`timeout 60 claude`, `exec codex`, `sudo -E`).
_PREFIX = frozenset({"sudo", "env", "time", "nohup", "exec", "command", "builtin", "nice",
                     "timeout", "gtimeout", "stdbuf", "xargs", "then", "do", "if", "while",
                     "!", "{", "("})
_ENV_ASSIGN = rx(r"^[A-Za-z_]\w*=")
_WORD = rx(r"\"[^\"]*\"?|'[^']*'?|[^\s\"']+")
_STAGE_END = rx(r"\|\|?|;|&&|`|\$\(|\n")


def _program(before: str) -> str | None:
    """The word naming the program of the last stage of `before`, or None when there is none
    (the flag comes first, or only prefixes and options precede it)."""
    stage = _STAGE_END.split(before)[-1]
    ws = _WORD.findall(stage)
    i = 0
    while i < len(ws):
        w = ws[i]
        if _ENV_ASSIGN.match(w) or w in _PREFIX or w.startswith("-") or (
                i > 0 and ws[i - 1] in ("timeout", "gtimeout") and w[:1].isdigit()):
            i += 1
            continue
        return w
    return None


def owner(before: str) -> str:
    """"agent", "other" or "unknown": what runs a shared flag that follows `before` (the text
    of its command up to the flag)."""
    stage = _STAGE_END.split(before)[-1]
    if _AGENT_NAME.search(stage):
        return "agent"  # `tmux new 'claude --yolo'`, `npx @openai/codex --yolo`
    prog = _program(before)
    if prog is None or "$" in prog or not re.match(r"^[\w./@+-]+$", prog.strip("\"'")):
        return "unknown"
    return "other"


def file_owner(st: SecurityText, flag: str) -> str:
    """The owner of `flag` across the commands of a file that carry it (code lines and inline
    code): "other" only when one of them names its program and each that does runs another
    program; "agent" or "unknown" otherwise."""
    found: set[str] = set()
    for line in st.lines_with(flag.lower().encode()):
        for m in re.finditer(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", line.text, re.IGNORECASE):
            before = line.text[:m.start()]
            if not st.in_code(line):
                if before.count("`") % 2 == 0:
                    continue  # the flag named in a sentence: no command
                before = before[before.rfind("`") + 1:]
            found.add(owner(before))
    found.discard("unknown")
    return "other" if found == {"other"} else "agent" if found else "unknown"
