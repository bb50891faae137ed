"""A skill whose declared purpose is offensive security (issue 36).

A penetration-testing, red-team or exploit-research skill is *about* attacks: its commands
(SSRF probes of a target's metadata address, `rm -rf /` in a list of what a red team tries,
an encoded payload to try against a filter, "ignore previous instructions" to send to the
model under test) are run against the system under test, by a tester who chose the skill
for that. Reported at the rule's severity they fail the gate of every such skill, for
commands that are the skill's subject. So when the skill's own name or description says it
is for offensive security, these command and payload findings are `medium`: still reported,
named in the security score, never a gate failure on their own. Findings that would hurt
the skill's own user whatever its purpose (download-and-run, which installs on the user's
machine as often as it runs on a target; a leaked secret, hidden text, an agent started with
its permission checks off, an unconsented upload, shipped executables, a credential read from
the user's own store) keep their severity. One read is the technique instead: a cloud's
short-lived token (`gcloud auth print-access-token --impersonate-service-account=...`, `az
account get-access-token`) minted in a reference, not SKILL.md's own steps, and sent to no host
but the cloud's own (`linters.security.cli_credentials`): a guide to attacking or assessing
that cloud mints it as the identity under test.

Only the frontmatter counts: a line in the body cannot talk a skill into this. A
download-and-run is target-side too when the text places it on the target: under a heading,
after a lead-in or (in prose) in the sentence naming a phase that happens on the compromised
host (privilege escalation, post-exploitation, lateral movement), the host itself ("on the
target"), or tradecraft that only a host the tester does not own calls for (run "from
memory", "to avoid writing to disk"), or (`linters.security.technique_places`) fetches it
from a host named as the attacker's server or plants it as a persistence mechanism's action.
In a skill whose own name or description is such a phase ("Linux privilege escalation
techniques"), a step of that work (a block under "### Enumeration Scripts") is on the host too,
unless its text names the tester's own setup.

Two more places the text gives (holdout29). The comment that labels the command in its block
(the comment lines just above it, else the comments opening the block): "# Or run without
writing to disk", "# Transfer and run". And a heading further out than the nearest: a block
under "### LinPEAS" in "## Automated Enumeration" of a reference titled "Linux Privilege
Escalation" is still in that phase; the nearest heading (innermost first) that names a phase or
the tester's own setup decides, so "## Privilege Escalation" > "### Install the tools" keeps the
install on the user's machine. A lead-in or label comment naming that setup does the same.
"""

from __future__ import annotations

import re

from linters.security.block_frame import fence_of, heading_chain, lead_in
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx
from skillforge.models.skill import Skill

# Commands and payloads aimed at a target: destructive commands, credential and metadata
# reads, obfuscated execution, injection phrases. Not download-and-run (SF506): a pentest
# skill's installers (`curl .../install.sh | sh`) run on the user's own machine.
TARGET_RULES = frozenset({"SF501", "SF505", "SF508", "SF510"})

_OFFENSIVE = rx(
    r"\b(?:pen(?:etration)?[- ]?test\w*|pentest\w*|red[- ]?team\w*|offensive[- ]security|"
    r"post[- ]exploit\w*|exploit(?:ation|s|ing)?|privilege[- ]escalation|"
    r"escalat(?:e|es|ing)\s+privileges?|ctf|capture[- ]the[- ]flag|"
    r"bug[- ]bount\w*|vulnerability[- ](?:assessment|research|scanning|testing)|ssrf|xss|sqli|"
    r"sql[- ]injection|prompt[- ]injection[- ]testing|attack[- ]simulation|adversary[- ]emulation|"
    r"threat[- ]emulation|malware[- ]analysis|reverse[- ]shell|c2\b|command[- ]and[- ]control|"
    r"jailbreak(?:ing)?[- ]testing|guardrail[- ]testing|"
    # "Use when attacking or auditing a CI/CD pipeline", "breaking out of a container",
    # "recon/weaponize": the activity itself, not a defence against it.
    r"attacking|weaponi[sz]\w*|container[- ]escapes?|"
    r"break(?:ing|s)?\s+out\s+of\s+(?:an?\s+|the\s+)?containers?|"
    r"authori[sz]ed\s+(?:security\s+)?(?:testing|engagements?|assessments?)|"
    # "Execute and analyze AI data poisoning attacks": the skill carries the attack out.
    r"(?:execute|perform|conduct|simulate|launch)\w*\s+(?:[\w-]+\s+){0,5}attacks)\b"
    r"|渗透|红队|漏洞利用|攻防|ペネトレーション|脆弱性診断",
    re.IGNORECASE,
)


def offensive_purpose(skill: Skill) -> str | None:
    """The words of the skill's name or description that declare an offensive-security
    purpose, or None."""
    fm = skill.frontmatter
    if fm is None:
        return None
    text = " ".join(str(v) for v in (fm.get("name"), fm.get("description")) if v)
    m = _OFFENSIVE.search(text.replace("_", " "))
    return m.group(0) if m else None


# A phase that happens on the compromised host, or the host named as the place.
_ON_TARGET = rx(
    r"\bprivilege[- ]escalation|\bpriv[- ]?esc\b|\bpost[- ]exploit\w*|\blateral[- ]movement|"
    r"\bpersistence\b|\bpivot\w*|\bfoothold\b|\b(?:elevat|escalat)(?:e|es|ing)\s+privileges?\b|"
    r"\b(?:on|onto)\s+(?:the\s+)?(?:target|victim|compromised)\b"
    # Copying a tool onto another host and starting it there: "Transfer and run".
    r"|\btransfer(?:red|ring)?\s+(?:it\s+|and\s+|then\s+|&\s+){1,2}(?:run|execut\w*)\b"
    # Tradecraft that keeps a tool off the disk of a host the tester does not own: run
    # "from memory", "to avoid writing to disk", "fileless".
    r"|\b(?:pip(?:e|ing)|run(?:ning)?|execut(?:e|ing)|load(?:ing)?)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:directly\s+)?(?:from|in)\s+memory\b"
    r"|\b(?:avoid(?:ing)?|without)\s+(?:writing|touching|dropping)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:to\s+|on\s+)?(?:the\s+)?disk\b|\bfileless\b"
    # Chinese and Japanese: privilege escalation, post-exploitation, lateral movement,
    # persistence, the target machine.
    r"|提权|提權|后渗透|後滲透|横向移动|橫向移動|持久化|靶机|靶機|目标主机|目標主機|"
    r"権限昇格|特権昇格|ポストエクスプロイト|横展開",
    re.IGNORECASE,
)


def on_target(st: SecurityText, line: Line) -> bool:
    """The text places the command at `line` on the system under test: its block's lead-in,
    the sentence holding it (for a command in prose, with the paragraph's line before) or
    the nearest heading names a phase on the compromised host, the target itself, or
    tradecraft for a host the tester does not own (an installer under "## Setup" stays on
    the user's machine); or the comment labelling it in its block does, or a heading further
    out does with no nearer one naming the tester's own setup (`_placed`)."""
    if not st.is_markdown:
        return False
    fence = fence_of(st, line)
    lead = lead_in(st, fence) if fence is not None else None
    chain = heading_chain(st, line)
    texts = [lead, chain[-1] if chain else None]
    if fence is None:
        texts += [line.text, *(prev.text for prev in st.run_from(line, -1, limit=1))]
    if any(t and _ON_TARGET.search(t) for t in texts):
        return True
    comment = command_comment(st, fence, line) if fence is not None else None
    return _placed(lead, comment, chain, _ON_TARGET)


# A comment line of a block: `# ...` (not a shebang) or `// ...`.
_COMMENT_LINE = rx(r"^(?:#(?!!)|//)\s*(.*)$")


def command_comment(st: SecurityText, fence, line: Line) -> str | None:
    """The comment that labels the command at `line` in its fenced block: the comment lines
    just above it, else the comments that open the block before its first command."""
    doc = st.doc
    if doc is None:
        return None
    texts = [doc.lines[no - doc.first_line].strip() for no in range(fence.start + 1, line.no)]
    above: list[str] = []
    for text in reversed(texts):
        m = _COMMENT_LINE.match(text)
        if m is None:
            break
        above.insert(0, m.group(1))
    if above:
        return " ".join(above)
    opening: list[str] = []
    for text in texts:
        m = _COMMENT_LINE.match(text) if text else None
        if text and m is None:
            break
        if m is not None:
            opening.append(m.group(1))
    return " ".join(opening) or None


def _placed(lead: str | None, comment: str | None, chain: list[str], phase: re.Pattern) -> bool:
    """The block's own words (its lead-in, the command's comment) or, failing them, the
    nearest heading (innermost first) naming `phase` or the tester's own setup put the command
    in `phase`: own setup in any of them keeps it on the user's machine."""
    for text in (lead, comment, *reversed(chain)):
        if not text:
            continue
        if _OWN_SETUP.search(text):
            return False
        if phase.search(text):
            return True
    return False


# A step of the host-side work itself: enumerating the host, exploiting or escalating on it.
# Not the tester's own setup ("## Install the enumeration tools", "Prerequisites").
_HOST_STEP = rx(r"\benumerat\w*|\bexploit(?:ation|ing)?\b|\bescalat\w*", re.IGNORECASE)
_OWN_SETUP = rx(
    r"\binstall\w*|\bset\s*up\b|\bsetup\b|\bprerequisites?\b|\brequirements?\b|"
    r"\bdependenc\w*|\bgetting\s+started\b|\bquick\s*start\b|\b(?:attack(?:er|ing)?|your)\s+"
    r"(?:own\s+)?(?:machine|box|host|workstation)\b",
    re.IGNORECASE,
)


def host_step(st: SecurityText, line: Line) -> bool:
    """The Markdown text puts the command at `line` in a step of the host-side work: its
    block's lead-in or the nearest heading names enumeration, exploitation or escalation,
    and neither names the tester's own setup. In a skill whose purpose is a phase on the
    compromised host (`target_phase`), such a step runs on that host: privilege escalation's
    enumeration enumerates the host being escalated on. The command's comment and the
    headings further out count too (`_placed`): "## Enumeration" > "### LinPEAS"."""
    if not st.is_markdown:
        return False
    fence = fence_of(st, line)
    lead = lead_in(st, fence) if fence is not None else None
    chain = heading_chain(st, line)
    texts = [t for t in (lead, chain[-1] if chain else None) if t]
    if any(_OWN_SETUP.search(t) for t in texts):
        return False
    if any(_HOST_STEP.search(t) for t in texts):
        return True
    comment = command_comment(st, fence, line) if fence is not None else None
    return _placed(lead, comment, chain, _HOST_STEP)


def target_phase(skill: Skill) -> str | None:
    """The words of the skill's name or description that make its purpose a phase on the
    compromised host ("Linux privilege escalation techniques", "post-exploitation"), or None."""
    fm = skill.frontmatter
    if fm is None:
        return None
    text = " ".join(str(v) for v in (fm.get("name"), fm.get("description")) if v)
    m = _ON_TARGET.search(text.replace("_", " ").replace("-", " "))
    return m.group(0) if m else None
