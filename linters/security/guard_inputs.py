"""A dangerous command as the input of a guard under test (issue 36, SF505 and kin).

A test of a hook or a validator feeds it the command it must stop: `echo '{"tool_input":
{"command": "rm -rf /"}}' | bash validate-bash.sh` then `[ $? -eq 2 ]`, or a heredoc
`./hooks/guard.sh <<'EOF' ... EOF`. The command is data on the script's standard input, not
something the shell runs. It reads so only when all of it holds:

- the spot is inside the quoted argument of `echo`/`printf` (or a here-string `<<<`), or on a
  line of a heredoc body;
- what reads it is a script file (`bash validate.sh`, `./hook.sh`, `python3 check.py`), never
  a bare shell (`| bash`, `| sh -s`, `bash <<EOF`), which would run it;
- the test says so twice: two of the script's name (validate, hook, guard, check, policy,
  ...), a comment just above naming a test or what it blocks, and a check of the exit status
  in the lines after.
"""

from __future__ import annotations

import re

from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# A script file run with what comes in on its standard input.
_INTERP = r"(?:bash|sh|zsh|python3?|node|bun|deno|ruby|perl|uv\s+run)"
_SCRIPT_PATH = r"[\"']?(?:\$\{?\w+\}?/|\.{1,2}/|~/|/)?[\w${}./-]*[\w}]\.(?:sh|bash|py|js|mjs|cjs|ts|rb|pl)\b[\"']?"
_SCRIPT = rx(
    rf"^\s*(?:{_INTERP}\s+(?!-)(?:{_SCRIPT_PATH}|[\"']?\$\{{?\w+\}}?[\"']?)"
    rf"|[\"']?(?:\$\{{?\w+\}}?/|\.{{1,2}}/)[\w${{}}./-]+[\"']?)",
)
_ECHO = rx(r"(?:^|[\s;&|(`$])(?:echo|printf)(?:\s+-[neE]+)*\s+$")
_HERESTRING = rx(r"<<<\s*$")
_HEREDOC = rx(r"<<-?\s*['\"]?(\w+)['\"]?")
# The script judges commands, by its name.
_JUDGE_NAME = rx(r"valid|hook|guard|check|filter|polic|block|lint|scan|detect|gate|deny|allow|"
                 r"sanitiz|firewall|safe", re.IGNORECASE)
_TEST_COMMENT = rx(r"^\s*(?:#|//)\s*.*\b(?:tests?|should|expect\w*|must|blocks?|blocked|deny|"
                   r"denied|rejects?|rejected|refuses?|dangerous|malicious)\b", re.IGNORECASE)
_STATUS_CHECK = rx(r"\$\?|\bexit_?code\b|\bstatus\b|\|\|\s*echo\b|&&\s*echo\b|\bassert",
                   re.IGNORECASE)


def guard_input(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the text at 0-based `col` is the input of a guard under test, or None."""
    script = _piped_string(line.text, col) or _heredoc_into(st, line)
    if script is None or not _tested(st, line, script):
        return None
    return f"it is test input fed to `{script.strip()[:40]}`, which judges it, not a command"


def _piped_string(text: str, col: int) -> str | None:
    """The script that reads the echoed or here-string quotation holding `col`, or None."""
    before = text[:col]
    for quote in ("'", '"'):
        if before.count(quote) % 2 == 1:
            opened = before.rfind(quote)
            close = text.find(quote, col)
            break
    else:
        return None
    if close < 0:
        return None
    head = text[:opened]
    if _HERESTRING.search(head):
        return _script_of(text[:opened - 3] if head.rstrip().endswith("<<<") else head)
    if not _ECHO.search(head):
        return None
    rest = text[close + 1:]
    pipe = re.match(r"\s*\|(?!\|)\s*(.*)", rest)
    return _script_of(pipe.group(1)) if pipe else None


def _script_of(command: str) -> str | None:
    """`command` (up to the next `)`, `;`, `&&`) when it runs a script file."""
    command = re.split(r"\)|;|&&|\|\|", command)[0]
    m = _SCRIPT.match(command)
    return m.group(0) if m else None


def _heredoc_into(st: SecurityText, line: Line) -> str | None:
    """The script a heredoc holding `line` is fed to, or None."""
    cur: Line | None = line
    between: list[str] = []  # the lines walked past, between the heredoc's start and `line`
    for _ in range(30):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is None:
            return None
        m = _HEREDOC.search(cur.text)
        if m is None or "<<<" in cur.text:
            between.append(cur.text.strip())
            continue
        # Still inside: the terminator has not come between.
        if m.group(1) in between:
            return None
        head = cur.text[: m.start()]
        after = cur.text[m.end():]
        pipe = re.match(r"\s*\|(?!\|)\s*(.*)", after)
        if pipe:
            return _script_of(pipe.group(1))
        stage = re.split(r"\||;|&&|\$\(", head)[-1]
        return _script_of(stage)
    return None


def _tested(st: SecurityText, line: Line, script: str) -> bool:
    """The test says it feeds a judge, twice over: two of the script's name, a comment above
    naming a test or what it blocks, and a check of the exit status after (a name alone is
    words a hostile `echo ... | bash check.sh` could borrow)."""
    signs = 1 if _JUDGE_NAME.search(script) else 0
    cur: Line | None = line
    for _ in range(3):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is not None and _TEST_COMMENT.match(cur.text):
            signs += 1
            break
    cur = line
    for _ in range(4):
        cur = st.neighbour(cur, 1) if cur is not None else None
        if cur is not None and _STATUS_CHECK.search(cur.text):
            signs += 1
            break
    return signs >= 2
