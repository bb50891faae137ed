"""SF515: a credential taken out of a CLI's store (issue 36): `$(gh auth token)`, `op read
op://...`, `gcloud auth print-access-token`, `aws configure get aws_secret_access_key`.

The token then sits in a shell variable, the environment of every later command, the agent's
transcript and any log, where the CLI itself would have kept it. Used as a credential only:
a command whose output is thrown away in a test (`gh auth token >/dev/null || gh auth
login`) checks that the user is signed in (`linters.security.text_role.existence_check`). The macOS
keychain (`security find-generic-password`) is SF508's, with the other credential stores.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.anchor_index import declare
from linters.security.attack_talk import Verdict, downgraded
from linters.security.credential_use import header_of_own_service
from linters.text.compiled_regex import rx
from linters.security.security_context import (
    shown_command,
    Hit,
    SecurityText,
    command_at,
    command_lines,
    Line,
    in_inline_code,
    inline_span,
    matches,
)
from linters.security.imperative import imperative
from linters.security.inert_code import weigh_command
from skillforge.models.findings import Severity

# (group name, what it reads, what to do instead)
_READS = {
    "gh": ("the user's GitHub token", "let gh make the call itself (`gh api ...`)"),
    "op": ("a secret from 1Password",
           "run the one command that needs it under `op run -- <command>`, which injects it "
           "into that command's environment without printing it"),
    "gcloud": ("the user's Google Cloud access token",
               "let gcloud or a client library with Application Default Credentials make the "
               "call"),
    "aws": ("the user's AWS secret key", "let the AWS CLI or SDK read the profile itself "
            "(`AWS_PROFILE=name aws ...`)"),
    "az": ("the user's Azure access token", "let az make the call itself (`az rest ...`)"),
    "heroku": ("the user's Heroku token", "let the heroku CLI make the call itself"),
}
_CLI_READ = rx(
    r"(?P<gh>\bgh\s+auth\s+token\b)"
    r"|(?P<op>\bop\s+(?:read\s+[\"']?op://|item\s+get\b[^|;&\n]*?(?:--reveal\b|"
    r"--fields?[= ][^|;&\n]*?(?:password|credential|token|secret|key)))|\bop\s+inject\b)"
    r"|(?P<gcloud>\bgcloud\s+auth\s+(?:application-default\s+)?print-(?:access|identity)-token\b)"
    r"|(?P<aws>\baws\s+configure\s+(?:get\s+(?:[\w.-]+\.)?aws_(?:secret_access_key|"
    r"session_token)\b|export-credentials\b))"
    r"|(?P<az>\baz\s+account\s+get-access-token\b)"
    r"|(?P<heroku>\bheroku\s+auth:token\b)",
    re.IGNORECASE,
)
_SF515_ANCHORS = declare(b"auth token", b"op read", b"op item get", b"op inject",
                         b"print-access-token", b"print-identity-token", b"configure get",
                         b"export-credentials", b"get-access-token", b"auth:token")


def scan_sf515(st: SecurityText) -> Iterator[Hit]:
    seen: set[int] = set()
    for log, spans in command_lines(st, _SF515_ANCHORS):
        for m in matches(_CLI_READ, log, spans):
            line, col = log.where(m.start())
            if line.no in seen:
                continue
            # A sentence that names the command ("`op read` fetches one field") runs nothing;
            # code, a script and inline code do.
            if st.is_markdown and not (st.in_code(line) or in_inline_code(line, col)):
                continue
            seen.add(line.no)
            what, instead = _READS[m.lastgroup or "gh"]
            verdict = _named(st, line, col) or _piped_home(log.text, m) or _sent_home(
                log.text, m) or weigh_command(
                st, line, col, Severity.high, reads=True)
            yield Hit(
                "SF515", line.no, col + 1, verdict.severity, downgraded(
                    f"`{shown_command(command_at(log.text, m.start(), m.end()))}` takes {what} out "
                    "of the CLI's store, so it lands in "
                    "variables, the transcript and logs; " + instead + ", or have the user "
                    "export a scoped token in an environment variable the skill reads.",
                    Severity.high, verdict),
            )


# What keeps the value: a substitution, an assignment, a pipe, a redirect.
_KEEPS = rx(r"\$\(|`|=|\||>")


def _named(st: SecurityText, line: Line, col: int) -> Verdict | None:
    """Inline code in a sentence that names the command without telling anyone to run it
    ("Env precedence: `GH_TOKEN` > keychain > `gh auth token`"): nothing reads the token."""
    if not st.is_markdown or st.in_code(line) or not in_inline_code(line, col):
        return None
    if _KEEPS.search(inline_span(line, col)[1]) or imperative(line, col):
        return None
    return Verdict(Severity.info, "it names the command in a sentence that does not tell "
                                  "anyone to run it")


def _piped_home(text: str, m: re.Match[str]) -> Verdict | None:
    """The token piped straight into the CLI it came from (`gh auth token | gh api ...`):
    it goes back to its owner, into no variable, transcript or log."""
    program = m.lastgroup or "gh"
    stage = re.match(r"[^|;&\n)]*\|\s*(?:sudo\s+)?([\w.-]+)", text[m.end():])
    if stage is None or stage.group(0).rstrip().endswith("||") or stage.group(1) != program:
        return None
    return Verdict(Severity.info, f"it pipes the token straight back into `{program}`, "
                                  "into no variable, transcript or log")


# The service a CLI's token belongs to, by the host it is registered under.
_SERVICE = {"gh": "github"}


def _sent_home(text: str, m: re.Match[str]) -> Verdict | None:
    """The token substituted straight into the auth header of a request to its own service
    (`curl -H "Authorization: token $(gh auth token)" https://api.github.com/user`): it signs
    that request, into no variable, and no other host on the command receives it."""
    service = _SERVICE.get(m.lastgroup or "")
    opened = text.rfind("$(", 0, m.start())
    if service is None or opened < 0 or text[opened + 2 : m.start()].strip():
        return None
    closed = text.find(")", m.end())
    if closed < 0 or not header_of_own_service(text, opened, closed, service):
        return None
    return Verdict(Severity.info, f"it sends the token only to {service}'s own API, in the "
                                  "request's auth header")
