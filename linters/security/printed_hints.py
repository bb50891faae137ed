"""A command a shipped script only prints on its way out, in a skill that tells the agent to
stop when that script fails (issue 36).

`echo "  curl -L https://get.tool.sh | bash"` before `exit 1` runs nothing: it is the
remedy the script prints when a tool is missing. Whether it is an instruction depends on
who acts on the output. When SKILL.md says what the agent does on that script's failure
("If it fails, stop and report the error"), the agent stops and the printed text is a
message to the user: info. A command the script prints as an optional or extra suggestion
("Consider installing Nix:", "For deeper coverage, also run:") with no failing exit after it
is no remedy its run needs: info too (`printed_suggestion`). When SKILL.md says nothing, or tells the agent to use the
output's instructions, the printed command is what the agent is led to run next, and it
stays severe, as does text piped to a shell or printed on the way to success.

A credential's path in a message (`print("Check that ~/.pgpass exists")`, `logger.error`,
`echo "..." >&2`) names the file; it reads nothing (`message_mention`). A print of the
file's contents, or a message telling to `cat` it, stays a read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from linters.security.code_reading import (
    bare,
    closing_quote,
    code_kind,
    open_parens,
    spot_state,
    statement_start,
)
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# SKILL.md: on this script's failure the agent stops ("If it fails, stop and report the
# error", "if `check.sh` exits non-zero, abort").
_HALT = rx(
    r"\bif\s+(?:it|this|that|the\s+(?:script|check|command)|`[^`]+`|[\w./{}$-]+)\s+"
    r"(?:fails|errors|exits\s+(?:with\s+an?\s+error|non-?zero))\b[^.;]{0,40}?"
    r"\b(?:stop|abort|halt|do\s+not\s+(?:continue|proceed)|don't\s+(?:continue|proceed))\b",
    re.IGNORECASE,
)


def halted_scripts(skill_md: str, paths: Iterable[str]) -> frozenset[str]:
    """The scripts of `paths` on whose failure SKILL.md tells the agent to stop: the
    sentence names the script on its line or the line before."""
    lines = skill_md.split("\n")
    halting = [i for i, text in enumerate(lines) if _HALT.search(text)]
    if not halting:
        return frozenset()
    out = set()
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        if "." not in name:
            continue
        if any(name in lines[i] or (i and name in lines[i - 1]) for i in halting):
            out.add(path)
    return frozenset(out)


# A line that only prints: `echo "..."`, `printf '...'`, `print("...")`, `console.error(`.
_PRINTS = rx(r"^\s*(?:>&2\s+)?(?:echo|printf|print|puts|console\.(?:error|log|warn)|"
             r"(?:sys\.)?std(?:err|out)\.write|Write-Host|Write-Error)\b")
# A way out with a failure status.
_FAILS = rx(r"^\s*(?:exit\s+[1-9]\d*|return\s+[1-9]\d*|(?:sys\.)?exit\s*\(\s*[1-9]\d*\s*\)|"
            r"process\.exit\s*\(\s*[1-9]\d*\s*\)|raise\s+SystemExit\s*\(\s*[1-9]\d*\s*\)|"
            r"die\b|fail\b)\s*;?\s*(?:#.*)?$")
_REACH = 12


def _only_prints(st: SecurityText, line: Line, col: int) -> bool:
    """Whether `line` of a script only prints the command at 0-based `col`: a printing
    statement whose string holds it, with nothing substituted or piped on (which may run)."""
    if st.is_markdown or not _PRINTS.match(line.text):
        return False
    kind = code_kind(st, line)[0]
    if kind not in ("shell", "code") or spot_state(line.text, col, kind)[0] != "string":
        return False
    return not (re.search(r"[\"')]\s*\|", line.text) or "$(" in line.text or "`" in line.text)


def printed_on_failure(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the command at 0-based `col` of `line` is a message of a failing exit, when the
    skill tells the agent to stop on this script's failure; else None."""
    if not st.halts or not _only_prints(st, line, col):
        return None
    lines = st.text.split("\n")
    for text in lines[line.no : line.no + _REACH]:
        if _FAILS.match(text):
            return ("the script only prints it before it exits with an error, and SKILL.md "
                    "tells the agent to stop when the script fails")
        if text.strip() and not text.lstrip().startswith("#") and not _PRINTS.match(text):
            return None
    return None


# Words that offer the printed command as optional or extra, not as the remedy the run needs:
# "Consider installing Nix:", "For deeper coverage, also run:", "Run a fuller tool for broader
# coverage:", "Optionally:".
_OPTIONAL = rx(
    r"\b(?:consider(?:ing)?|optional(?:ly)?|also\s+(?:run|try|use)|"
    r"for\s+(?:deeper|broader|wider|fuller|more|further|extra|additional)\s+"
    r"(?:coverage|checks?|analysis|enumeration|results?|detail)|"
    r"(?:a\s+)?(?:fuller|deeper|broader)\s+(?:tool|scan|check|pass))\b",
    re.IGNORECASE,
)
_LEAD_REACH = 6


def printed_suggestion(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the command at 0-based `col` of `line` is an optional suggestion a script prints:
    the line only prints it (a string of `echo`, `printf`, `print`: nothing substituted or
    piped on), the printed text just before offers it as optional or extra ("Consider
    installing", "For deeper coverage, also run:"), and no failing exit follows, so the
    script's run does not need it and it is no remedy the agent is led to run. A remedy
    printed before `exit 1` ("Install uv first: ...") stays severe (`printed_on_failure`)."""
    if not _only_prints(st, line, col):
        return None
    lines = st.text.split("\n")
    idx = line.no - 1
    said = [line.text[:col]]
    for text in reversed(lines[max(0, idx - _LEAD_REACH) : idx]):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if not _PRINTS.match(text) or "$(" in text or "`" in text:
            break
        said.append(text)
    if not any(_OPTIONAL.search(t) for t in said):
        return None
    for text in lines[idx + 1 : idx + 1 + _REACH]:
        if _FAILS.match(text):
            return None
    return ("the script only prints it as an optional suggestion, and its run goes on without "
            "it; nothing runs it")


# --- a credential's path named in a message -------------------------------------------------

# A call whose argument is a message for whoever reads the output or the log.
_MESSAGE_CALL = rx(
    r"(?:^|[^\w.])(?:print|println|printf|eprint(?:ln)?|puts|echo|warn|"
    r"console\.(?:log|error|warn|info|debug)|(?:sys\.)?std(?:out|err)\.write|"
    r"(?:self\.)?(?:logger|logging|log|LOG|_log|_logger)\.(?:debug|info|warning|warn|error|"
    r"critical|exception|fatal)|warnings\.warn|(?:click|typer)\.echo|(?:rich|console)\.print|"
    r"fmt\.(?:Print|Fprint|Sprint)\w*|System\.(?:out|err)\.print\w*|Write-(?:Host|Output|Error)|"
    r"\w*(?:Error|Exception))$"
)
_SHELL_MESSAGE = rx(r"^\s*(?:>&2\s+)?(?:echo|printf)(?:\s+-[a-zA-Z]+)*\s+(?:\S+\s+)*$")
# Inside the message, before the path: a command that reads or sends it ("Run: cat ...").
_COMMAND_IN_MESSAGE = rx(
    r"\b(?:cat|less|more|head|tail|cp|scp|rsync|tar|zip|base64|xxd|strings|sqlite3|"
    r"get-content|grep|awk|sed|curl|wget|source|open|read\w*)\b|\$\(|`|\$\{|<\s*$",
    re.IGNORECASE,
)
# A path or an address, not a command (`gh auth token` printed is still a command to run).
_PATH_START = rx(r"[~$/.\\]|\d|metadata\b")


def message_mention(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the credential path at 0-based `col` is only named: it sits in a string literal
    that is a message (the argument of `print`, `console.error`, a logger, `echo`), and the
    message neither reads it (`$(cat ...)`, an f-string's `{open(...)}`) nor tells to run a
    command on it. `print(open(...).read())` and `echo "$(cat ~/.pgpass)"` stay reads."""
    if not _PATH_START.match(line.text, col):
        return None
    kind, lines, idx = code_kind(st, line)
    if kind not in ("shell", "code"):
        return None
    state, opened = spot_state(line.text, col, kind)
    if state != "string":
        return None
    said = line.text[opened + 1 : col]
    if _COMMAND_IN_MESSAGE.search(said) or said.count("{") > said.count("}"):
        return None
    close = closing_quote(line.text, opened)
    after = line.text[close + 1 :] if close is not None else ""
    if kind == "shell":
        if not _SHELL_MESSAGE.match(bare(line.text[:opened])) or re.search(r"[|`]|\$\(", after):
            return None
    else:
        # The call on the spot's own line, else the statement the line continues.
        head = bare(line.text[:opened])
        paren = next(open_parens(head), None)
        if paren is None:
            head = bare("\n".join([*lines[statement_start(lines, idx) : idx], line.text[:opened]]))
            paren = next(open_parens(head), None)
        if paren is None or re.search(r"[\[{]", head[paren + 1 :]) or re.search(
                r"[^\s\"+,%]", re.sub(r"[fFrRbBuU]+$", "", head[paren + 1 :])):
            return None  # not a direct argument of the innermost call
        if not _MESSAGE_CALL.search(head[:paren].rstrip()):
            return None
    return "it names the path in a message the code prints, it does not read the file"
