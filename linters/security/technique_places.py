"""Where an offensive-security skill's catalogue puts a command: on the target (issue 36).

`linters.security.practice` lowers a command finding to medium in a skill whose name or
description declares an offensive-security purpose, when the command runs on the system under
test. Download-and-run (SF506) and a cloud token printed in SKILL.md (SF515) keep their
severity unless the text places them there, since a pentest skill installs its own tools on
the user's machine too. Three more ways the text places them (holdout24):

- The download comes from a host named as the tester's own server (`attacker.com`,
  `evil-c2.net`, `c2.attacker.org`): the machine that fetches a payload from the attacker is
  the target. An installer's host (`get.tool.dev`, `raw.githubusercontent.com`) says nothing.
- The download-and-run is the action a persistence mechanism registers on the host: the
  argument of a scheduled task (`New-ScheduledTaskAction ... -Argument "... IEX ..."`,
  `schtasks /create ... /tr "..."`), a service's `binpath=`, a Run key's value, a WMI
  consumer's `CommandLineTemplate`, a systemd `ExecStart=`, a cron entry. Planting a command to
  run at every boot is what a tester does on a compromised host, not how a skill installs a
  tool. A separate command on the same line (`sc create ... && curl ... | sh`) is not the
  mechanism's action.
- A cloud token minted in SKILL.md under a heading that names a phase of the engagement
  (`### GCP Reconnaissance` > `#### Account Information`, "Enumeration", "Privilege
  Escalation", "Lateral Movement") is a recon command against the account under test, as in a
  reference; the nearest heading that names a phase or the skill's own setup decides
  (`## Setup` > `### Authenticate` stays the user's own token).
"""

from __future__ import annotations

import re

from linters.security.block_frame import heading_chain
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# A label (not the top-level domain) naming the attacker's own server.
_ATTACKER_LABEL = rx(r"(?:^|[.-])(?:attacker(?:s|server|ip|host|box)?|evil|malicious|c2)\d*"
                     r"(?=[.-]|$)")


def attacker_host(host: str | None) -> bool:
    """`host` is named as the tester's own server (`attacker.com`, `c2.evil.net`)."""
    if not host or "." not in host:
        return False
    return bool(_ATTACKER_LABEL.search(host.lower().rsplit(".", 1)[0]))


# What registers a command to run later on the host, written before the command it runs.
_MECHANISM = rx(
    r"\bNew-ScheduledTaskAction\b"
    r"|\bschtasks(?:\.exe)?\s+/create\b[^\n]*?/tr\b"
    r"|\bsc(?:\.exe)?\s+(?:create|config)\b[^\n]*?\bbinpath=\s*"
    r"|\b(?:reg(?:\.exe)?\s+add|(?:Set|New)-ItemProperty)\b[^\n]*?\\CurrentVersion\\"
    r"(?:Run(?:Once(?:Ex)?)?|Winlogon)\b"
    r"|\bCommandLineTemplate\s*="
    r"|\bExecStart(?:Pre|Post)?="
    r"|@reboot\b"
    r"|(?:^|[\"'])\s*(?:[\d*/,-]+\s+){4}[\d*/,-]+\s+(?:root\s+)?(?=\S)",
    re.IGNORECASE,
)
# A command of its own after the mechanism: not the mechanism's action.
_SEPARATE = rx(r";|&&|\|\|")


def persistence_action(text: str, start: int) -> str | None:
    """The mechanism (`New-ScheduledTaskAction`, `schtasks /create ... /tr`, a cron entry)
    whose action holds the command at offset `start` of command line `text`, or None."""
    for m in _MECHANISM.finditer(text):
        if m.end() <= start and not _SEPARATE.search(text, m.end(), start):
            return m.group().strip(" \"'")
    return None


# A phase of the engagement a heading names, and the skill's own setup.
_PHASE = rx(
    r"\brecon(?:naissance)?\b|\benumerat\w*|\bexploit(?:ation|s)?\b|\bprivilege[- ]escalation|"
    r"\bpriv[- ]?esc\b|\blateral[- ]movement|\bpost[- ]exploit\w*|\bpersistence\b|\bpivot\w*|"
    r"\bexfiltrat\w*|\battacks?\b|\babuse\b",
    re.IGNORECASE,
)
_SETUP = rx(
    r"\bset[- ]?up\b|\binstall\w*|\bprerequisites?\b|\brequirements?\b|\bgetting\s+started\b|"
    r"\bquick[- ]?start\b|\bconfigur\w*|\bauthenticat\w*|\blog(?:ging)?[- ]?in\b|\bsign[- ]?in\b",
    re.IGNORECASE,
)


def phase_heading(st: SecurityText, line: Line) -> str | None:
    """The heading that places `line` in a phase of the engagement: the nearest heading
    (innermost first) naming a phase, unless a nearer one names the skill's setup."""
    if not st.is_markdown:
        return None
    for heading in reversed(heading_chain(st, line)):
        if _PHASE.search(heading):
            return heading
        if _SETUP.search(heading):
            return None
    return None
