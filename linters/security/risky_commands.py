"""Commands an agent should not run on a skill's say-so: destructive commands (SF505),
download-and-execute (SF506), privilege escalation (SF509) and obfuscated payloads (SF510).
Credential access and exfiltration (SF508) live in `linters.security.credential_access`.

Each rule finds its candidate lines by literal anchors, joins shell continuations (a command
split with trailing backslashes or a trailing pipe is one line), and runs its regexes there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.anchor_index import declare
from linters.text.compiled_regex import rx
from linters.security.attack_talk import Verdict, downgraded
from linters.security.markup_value import closes_markup_tag
from linters.security.own_encoding import encodes_own_command
from linters.security.placeholder_device import placeholder_device
from linters.security.practice import host_step, on_target
from linters.security.technique_places import attacker_host, persistence_action
from linters.security.printed_hints import printed_on_failure, printed_suggestion
from linters.security.risky_urls import is_placeholder_host, url_host
from linters.security.inert_code import weigh_command
from linters.security.security_context import (
    shown_command,
    SPAN_REACH,
    Hit,
    SecurityText,
    command_lines,
    in_inline_code,
    matches,
)
from skillforge.models.findings import Severity

# The end of a command word, and the ways to write the home folder.
_END = r"(?=[\s;&|)'\"`]|$)"
_HOME = r"(?:~|\$HOME|\$\{HOME\}|\"\$HOME\"|\"\$\{HOME\}\")"


# --- SF505 ------------------------------------------------------------------------------

_RM_FLAGS = (
    r"(?:-[a-zA-Z]*[rR][a-zA-Z]*f[a-zA-Z]*|-[a-zA-Z]*f[a-zA-Z]*[rR][a-zA-Z]*|"
    r"-[rR]\s+-f|-f\s+-[rR]|--recursive\s+--force|--force\s+--recursive)"
)
_DESTRUCTIVE = rx(
    rf"rm\s+(?:--no-preserve-root\s+)?{_RM_FLAGS}\s+(?:--no-preserve-root\s+)?"
    rf"(?:/\*?|{_HOME}/?\*?|/(?:home|Users|etc|usr|var|boot|bin|lib)/?\*?){_END}"
    r"|mkfs(?:\.\w+)?\s[^|;&]*/dev/"
    r"|dd\s[^|;&]*\bof=/dev/(?:sd|hd|nvme|xvd|vd|disk|mmcblk|rdisk)"
    r"|wipefs\s+(?:-\S+\s+)*/dev/"
    rf"|chmod\s+(?:-R|--recursive)\s+(?:0?777|a\+rwx|ugo\+rwx)\s+(?:/|{_HOME}/?){_END}"
    rf"|chmod\s+(?:0?777|a\+rwx|ugo\+rwx)\s+(?:-R|--recursive)\s+(?:/|{_HOME}/?){_END}"
)
_DISK_WRITE = rx(r">\s*/dev/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcblk\d)")
_FORK_BOMB = rx(r"(:|\w{1,40})\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}")


# `mkfs`, `dd`, `wipefs` and raw writes all name a device under /dev/.
_SF505_ANCHORS = declare(b"rm -", b"/dev/", b"chmod", b":|:")


def scan_sf505(st: SecurityText) -> Iterator[Hit]:
    seen: set[int] = set()
    for log, spans in command_lines(st, _SF505_ANCHORS):
        # `<root>/dev/sda3</root>` is an element of sample XML, not `>/dev/sda`.
        writes = [m for m in matches(_DISK_WRITE, log, spans, False)
                  if not closes_markup_tag(log.text, m.start())]
        found = [*matches(_DESTRUCTIVE, log, spans), *writes, *matches(_FORK_BOMB, log, spans)]
        # One finding a line, the worst of its commands: `mkfs /dev/sdXn && mkfs /dev/sda`
        # formats a real disk after the placeholder.
        best: dict[int, tuple[int, re.Match[str], Verdict]] = {}
        for m in found:
            line, col = log.where(m.start())
            verdict = weigh_command(st, line, col, Severity.critical)
            device = placeholder_device(log.text, m.start(), m.end())
            if device and verdict.severity is Severity.critical:
                verdict = Verdict(Severity.warning, f"`{device}` is a placeholder the reader "
                                  "replaces with the device they choose; have the skill ask the "
                                  "user to confirm the device (`lsblk`) before writing", acted=True)
            if line.no in seen:
                continue
            if line.no not in best or verdict.severity.rank > best[line.no][2].severity.rank:
                best[line.no] = (col, m, verdict)
        for no, (col, m, verdict) in best.items():
            seen.add(no)
            yield Hit(
                "SF505", no, col + 1, verdict.severity, downgraded(
                    f"`{shown_command(m.group())}` can wipe a disk, a home folder or the whole system; "
                    "remove it, or delete only a path the skill itself created (for example "
                    '`rm -rf "$WORKDIR/build"`).', Severity.critical, verdict),
            )


# --- SF506 ------------------------------------------------------------------------------

_SHELLS = r"(?:ba|z|k|da|fi|c|tc)?sh|python[23]?(?:\.\d+)?|perl|ruby|node|php|pwsh|powershell"
_PIPE_EXEC = rx(
    rf"(?:curl|wget|aria2c)\b(?P<args>[^|]*)(?:\|(?!\s*(?:sudo\b|{_SHELLS}){_END})[^|]*){{0,8}}?\|\s*"
    rf"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\w+=\S*\s+)*)?(?P<sh>{_SHELLS}){_END}"
    r"(?P<rest>[^|;&`]*)"
)
_SUBST_EXEC = rx(
    r"(?:(?:ba|z|k)?sh|source|\.)\s+<\(\s*(?:curl|wget)\b"
    r"|(?:eval|(?:ba|z|k)?sh\s+-c|python[23]?\s+-c|perl\s+-e|ruby\s+-e|node\s+-e)\s+"
    r"[\"']?(?:\$\(|`)\s*(?:curl|wget)\b"
    r"|(?:exec|eval)\s*\(\s*(?:requests\.get|httpx\.get|urllib\.request\.urlopen|urlopen|"
    r"(?:await\s+)?\(?\s*(?:await\s+)?fetch)\s*\("
)
_PS_EXEC = rx(
    r"(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)\b[^\n]*\|\s*"
    r"(?:iex|invoke-expression)\b"
    r"|(?:iex|invoke-expression)\s*[\s(]\s*\(?\s*(?:iwr|irm|invoke-webrequest|"
    r"invoke-restmethod|\(?\s*new-object\s+(?:system\.)?net\.webclient\s*\)?\s*\.\s*"
    r"downloadstring)\b",
    re.IGNORECASE,
)
# After the interpreter: nothing, options that still read the program from stdin, or what
# does not change that: a redirection (`> log`, `2>&1`), a comment (`# note`), the end of
# the string or substitution holding the command (`os.system("curl ... | sh")`).
# `curl ... | python -m json.tool` or `| python script.py` read data, not code.
_RUNS_STDIN = rx(
    r"\s*(?:$|#|[\"')]|\d?>|&>|<|-(?:s|x|e|u|eu|ex|ux|xe|-|)(?:\s|$)|-\s)"
)


_SOURCE = rx(r"\w|\.\.\.|\u2026")  # a word, a variable, or an elided source
_SF506_ANCHORS = declare(b"curl", b"wget", b"iex", b"invoke-expression", b"exec(", b"eval(")


def scan_sf506(st: SecurityText) -> Iterator[Hit]:
    seen: set[int] = set()
    for log, spans in command_lines(st, _SF506_ANCHORS):
        t = log.text
        low = t.lower()
        # Cheap literal checks first: each regex is ~20 ns a character on a long line.
        found: list[re.Match[str]] = []
        if "|" in t and ("curl" in t or "wget" in t):
            # `curl | bash` with nothing to fetch names the pattern (a checklist's "No `curl
            # | bash`", the alternation in `rg "curl|wget|bash"`, a table's escaped `curl\|bash`,
            # the regex `curl.*\|.*bash`); a download has a source, a word or a variable.
            found += [m for m in matches(_PIPE_EXEC, log, spans)
                      if _RUNS_STDIN.match(m.group("rest")) and _SOURCE.search(m.group("args"))]
        if "<(" in t or "$(" in t or "`" in t or "exec" in t or "eval" in t:
            found += matches(_SUBST_EXEC, log, spans)
        if "iex" in low or "invoke-expression" in low:
            found += matches(_PS_EXEC, log, spans)
        for m in found:
            host = url_host(t[max(0, m.start() - SPAN_REACH) : m.end() + SPAN_REACH])
            if host and is_placeholder_host(host):
                continue  # `curl https://example.com/install.sh | bash` illustrates syntax
            line, col = log.where(m.start())
            verdict = weigh_command(st, line, col, Severity.high)
            if verdict.severity is not Severity.info and (
                    why := printed_on_failure(st, line, col) or printed_suggestion(st, line, col)):
                verdict = Verdict(Severity.info, why)
            if line.no in seen:
                continue
            seen.add(line.no)
            yield Hit(
                "SF506", line.no, col + 1, verdict.severity, downgraded(
                    f"`{shown_command(m.group())}` runs code fetched from the network without review; "
                    "download it to a file, check its checksum or signature, then run it (or "
                    "install a pinned package).", Severity.high, verdict),
                # linters.security.technique_places: a payload fetched from the attacker's
                # server, or planted as a persistence mechanism's action, runs on the target.
                on_target=on_target(st, line) or attacker_host(host)
                or persistence_action(t, m.start()) is not None,
                host_step=host_step(st, line),
            )


# --- SF509 ------------------------------------------------------------------------------

_PRIV = rx(
    r"sudo(?:\s+(?:-[ugCDhprtUT]\s+(?!-)\S+|--?[\w-]+(?:=\S+)?))*\s+(?P<cmd>(?!-)[\w./+-]+)"
    rf"|sudo\s+-[is]{_END}"
    r"|su\s+(?:-c\b|-l?\s*(?:root\b)?\s*$|-\s|-l\b)"
    r"|doas\s+\S"
    r"|chmod\s+(?:-\S+\s+)*(?:[ugoa]*\+[rwxt]*s[rwxt]*|0?[2467][0-7]{3})\s"
)
_PACKAGE_MANAGERS = {
    "apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman", "apk", "port", "snap",
    "dpkg", "rpm", "emerge", "flatpak", "xbps-install", "eopkg", "pkg", "installer",
}


_SF509_ANCHORS = declare(b"sudo", b"su -", b"doas ", b"chmod")


def scan_sf509(st: SecurityText) -> Iterator[Hit]:
    found: dict[Severity, list[tuple[int, int, str, Severity, str]]] = {}
    for log, spans in command_lines(st, _SF509_ANCHORS):
        for m in matches(_PRIV, log, spans):
            line, col = log.where(m.start())
            # Prose that says "requires sudo" names the tool; only code runs it.
            if st.is_markdown and not (st.in_code(line) or in_inline_code(line, col)):
                continue
            cmd = m.groupdict().get("cmd")
            default = Severity.low if cmd in _PACKAGE_MANAGERS else Severity.medium
            verdict = weigh_command(st, line, col, default)
            found.setdefault(verdict.severity, []).append(
                (line.no, col + 1, m.group(), default, verdict.why))
    # One finding per file and severity: an install guide with ten `sudo apt` lines is one
    # decision for the author, not ten.
    for sev, spots in found.items():
        no, col, cmd, default, why = spots[0]
        others = sorted({s[0] for s in spots[1:]} - {no})
        more = ""
        if others:
            more = f" (also on line{'s' if len(others) > 1 else ''} "
            more += ", ".join(map(str, others[:6])) + (", ..." if len(others) > 6 else "") + ")"
        kind = "installs packages as root" if default == Severity.low else "runs with root rights"
        yield Hit(
            "SF509", no, col, sev, downgraded(
                f"`{shown_command(cmd)}` {kind}{more}; tell the user to run privileged steps "
                "themselves, or prefer a user-level install (`pip install --user`, `uv`, a "
                "venv).", default, Verdict(sev, why)),
        )


# --- SF510 ------------------------------------------------------------------------------

_B64_EXEC = rx(
    r"(?:base64|openssl\s+(?:base64|enc\s+-base64))\s+(?:-\S+\s+)*?(?:-d|--decode|-D)\b"
    rf"[^|]*(?:\|[^|]*){{0,8}}?\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:{_SHELLS}){_END}"
    # ... but `| python3 -m json.tool` only pretty-prints the decoded JSON (a JWT's payload).
    r"(?!\s+-m\s+json\.tool\b)"
    r"|(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.b64decode|b64decode|"
    r"base64\.decodebytes|base64\.b32decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|"
    r"marshal\.loads|__import__\(\s*['\"](?:base64|zlib|codecs|marshal)['\"]\s*\))"
    r"|(?:eval|Function|setTimeout|setInterval)\s*\(\s*(?:atob|unescape|"
    r"Buffer\.from|decodeURIComponent\s*\(\s*escape)\s*\("
    r"|(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}"
    r"|(?:iex|invoke-expression)\b[^\n]*frombase64string"
    r"|frombase64string[^\n]*\|\s*(?:iex|invoke-expression)\b",
    re.IGNORECASE,
)
_BLOB = rx(r"[A-Za-z0-9+/]{40,}={0,2}")


# `eval(Buffer.from(x, 'base64'))` names base64; `eval(atob(...))` has eval(.
_SF510_ANCHORS = declare(b"base64", b"exec(", b"eval(", b"atob(", b"-enc")


def scan_sf510(st: SecurityText) -> Iterator[Hit]:
    seen: set[int] = set()
    for log, spans in command_lines(st, _SF510_ANCHORS):
        for m in matches(_B64_EXEC, log, spans):
            line, col = log.where(m.start())
            verdict = weigh_command(st, line, col, Severity.high)
            if "`" in m.group() and st.is_markdown and not st.in_code(line):
                # A sentence that names the steps in turn ("a script does `Reverse(...)`
                # then `FromBase64String(...)`"): the match runs across prose and inline
                # code, so no one command written there decodes and runs anything.
                verdict = Verdict(Severity.info, "the match runs across a sentence and its "
                                  "inline code: the text describes the steps, no one command "
                                  "runs them")
            if verdict.severity is Severity.high and encodes_own_command(
                    st, log, m.start(), m.end()):
                verdict = Verdict(Severity.info, "the text encodes its own visible command "
                                  "for transport and decodes it where it runs; nothing is "
                                  "hidden", acted=True)
            if line.no in seen:
                continue
            seen.add(line.no)
            blob = _BLOB.search(log.text, max(0, m.start() - SPAN_REACH), m.end() + SPAN_REACH)
            detail = f" a {len(blob.group())}-character encoded blob" if blob else " encoded data"
            yield Hit(
                "SF510", line.no, col + 1, verdict.severity, downgraded(
                    f"`{shown_command(m.group())}` decodes{detail} and executes it, hiding what runs "
                    "from the user and the agent; put the plain code in `scripts/` where it "
                    "can be read.", Severity.high, verdict),
            )
