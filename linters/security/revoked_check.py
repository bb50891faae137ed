"""SF515: a token command run to prove a revoked credential no longer works (issue 36).

After rotating a leaked key, a remediation guide has the user authenticate deliberately with
the OLD key and expect the call to fail:

    GOOGLE_APPLICATION_CREDENTIALS=/path/to/old-key.json \\
      gcloud auth application-default print-access-token
    # expect: ERROR: ... invalid_grant ... Key has been deleted

The command reads the credential the line hands it (an environment assignment or a
credential-file flag), not the user's own store, and the text says that credential is
revoked, old or deleted and that the command must fail: it is a check that the revocation
took. Info, when all of it holds:

- the command is a statement of its own whose output nothing keeps (no substitution around
  it, no pipe, no redirect of its output, no assignment of it);
- the line supplies the credential (`VAR=value` before the command naming a credential,
  key, token or profile variable; or a `--cred-file` / `--key-file` / `--profile` flag);
- the supplied value or the text around it (the comments after the command, the lead-in
  sentence before its code block) calls the credential old, revoked, deleted, disabled,
  leaked, compromised or expired;
- that text expects a failure ("expect `401 invalid_grant`", "# expect: ERROR", "should
  fail", "confirm it is rejected").

A token command whose output the text uses (assigned, piped, printed for use), or one run
against a credential nobody calls revoked, stays severe.
"""

from __future__ import annotations

import re

from linters.security.attack_talk import Verdict
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx
from skillforge.models.findings import Severity

_VALUE = r"(?:\"(?:[^\"\n$]|\$(?!\())*\"|'[^'\n]*'|[^\s;&|<>`()]+)"
# Only environment assignments before the command: `env A=b C=d cmd`, `A=b cmd`.
_ENV_PREFIX = rx(rf"^\s*(?:env\s+)?(?:[A-Za-z_]\w*={_VALUE}\s+)*$")
_ENV_ASSIGN = rx(rf"\b([A-Za-z_]\w*)=({_VALUE})")
_CREDENTIAL_VAR = rx(r"CRED|KEY|TOKEN|SECRET|PROFILE|CONFIG|AUTH|PASSWORD", re.IGNORECASE)
_CREDENTIAL_FLAG = rx(
    rf"--(?:cred(?:ential)?s?[-_]?file[\w-]*|key[-_]?file|credentials?|profile|"
    rf"(?:access[-_])?token[-_]?file|with-token)(?:=|\s+)({_VALUE})", re.IGNORECASE)
# What keeps or sends the output on: a pipe, a redirect of stdout, a chained command, a
# substitution. A redirect of stderr alone (`2>&1` joins it to the terminal, `2>/dev/null`)
# keeps nothing.
_KEEPS = rx(r"\||(?<!2)>|;|&&|`|\$\(")
_STDERR = rx(r"\s2>(?:&1|\s*/dev/null)")

_REVOKED_WORD = (r"(?:old|revoked|deleted|disabled|leaked|compromised|expired|invalidated|"
                 r"retired|deactivated|previous)")
_CREDENTIAL_NOUN = (r"(?:keys?|json|credentials?|tokens?|secrets?|key\s*files?|"
                    r"service\s+account)")
_REVOKED_VALUE = rx(rf"(?:^|[^a-z]){_REVOKED_WORD}(?:[^a-z]|$)", re.IGNORECASE)
_REVOKED_TEXT = rx(
    rf"\b{_REVOKED_WORD}\b[\w\s.-]{{0,20}}?\b{_CREDENTIAL_NOUN}\b"
    rf"|\b{_CREDENTIAL_NOUN}\b[\w\s]{{0,20}}?\b(?:has\s+been|is|was)\s+(?:now\s+)?"
    rf"(?:revoked|deleted|disabled|invalidated|deactivated)\b", re.IGNORECASE)
_FAILS = rx(
    r"\b(?:expect\w*|should|must|will|confirm\w*|verify|ensure|check\s+that)\b[^.\n]{0,80}?"
    r"(?:\bfail\w*|\berror\w*|invalid_grant|\b40[13]\b|\bdenied\b|\breject\w*|\brefused\b|"
    r"\bunauthori[sz]ed\b|no\s+longer\s+(?:works?|valid))", re.IGNORECASE)
_FENCE = rx(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:```|~~~)")


def revoked_check(st: SecurityText, line: Line, text: str, m: re.Match[str]) -> Verdict | None:
    """Info when the token command matched by `m` on the command line `text` (whose first
    physical line is `line`) runs against a credential the text calls revoked and expects
    to fail, keeping none of its output."""
    prefix = text[: m.start()]
    body, _, comment = text[m.end():].partition(" #")
    if not _ENV_PREFIX.match(prefix) or _KEEPS.search(_STDERR.sub(" ", body)):
        return None
    supplied = [v for k, v in _ENV_ASSIGN.findall(prefix) if _CREDENTIAL_VAR.search(k)]
    supplied += _CREDENTIAL_FLAG.findall(body)
    if not supplied:
        return None
    log = st.logical(line)
    context = [comment, *_comments_after(st, log.parts[-1][1]), *_lead_in(st, log.parts[0][1])]
    named = next((v for v in supplied if _REVOKED_VALUE.search(v)), "")
    said = any(_REVOKED_TEXT.search(c) for c in context)
    if not (named or said) or not any(_FAILS.search(c) for c in context):
        return None
    which = f"`{named.strip(chr(34) + chr(39))[:50]}`" if named else "the credential"
    return Verdict(Severity.info, f"it runs the command against {which}, which the text calls "
                                  "revoked or old, and expects it to fail: a check that the "
                                  "revocation took, not a read of the user's credential store",
                   acted=True)


def _comments_after(st: SecurityText, line: Line) -> list[str]:
    """The comment lines right after the command's last line `line`."""
    cur: Line | None = line
    out: list[str] = []
    for _ in range(4):
        cur = st.neighbour(cur, 1) if cur is not None else None
        if cur is None or not cur.text.lstrip().startswith(("#", "//")):
            break
        out.append(cur.text)
    return out


def _lead_in(st: SecurityText, line: Line) -> list[str]:
    """The sentence before the code block, when the command (first line `line`) is the
    block's first: up to three non-blank lines above its fence (past up to two blank
    lines)."""
    if not st.is_markdown:
        return []
    cur: Line | None = line
    for _ in range(8):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is None:
            return []
        if _FENCE.match(cur.text):
            break
        if cur.text.strip() and not cur.text.lstrip().startswith("#"):
            return []  # another command comes first: the lead-in is about that one
    else:
        return []
    out: list[str] = []
    blanks = 0
    while cur is not None and len(out) < 3:
        cur = st.neighbour(cur, -1)
        if cur is None or _FENCE.match(cur.text):
            break
        if not cur.text.strip():
            blanks += 1
            if out or blanks > 2:
                break
            continue
        if _HEADING.match(cur.text):
            break
        out.append(cur.text)
        if _ITEM.match(cur.text):
            break  # the list item the block belongs to starts here
    return out


_HEADING = rx(r"^\s*#{1,6}\s")
_ITEM = rx(r"^\s*(?:[-*+]|\d+[.)])\s")
