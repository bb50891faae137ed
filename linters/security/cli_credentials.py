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
from linters.security.cloud_tokens import own_service_call, stays_in_cloud
from linters.security.credential_use import header_of_own_service
from linters.security.token_variables import kept_for_own_service, named_for_own_api
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
from linters.security.profile_export import profile_export
from linters.security.revoked_check import revoked_check
from linters.security.technique_places import phase_heading
from linters.security.inert_code import weigh_command
from skillforge.models.findings import Severity
from skillforge.models.skill import Skill

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
                log.text, m) or _no_secret(log.text, m) or revoked_check(
                st, line, log.text, m) or weigh_command(st, line, col, Severity.high, reads=True)
            if verdict.severity in (Severity.critical, Severity.high):
                # A cloud token minted for a request to the cloud's or the user's own service.
                verdict = own_service_call(st, line, log.text, m) or kept_for_own_service(
                    st, line, log.text, m) or named_for_own_api(st, line, col, m) or verdict
            if verdict.severity in (Severity.critical, Severity.high):
                verdict = profile_export(st, line, log.text, m) or verdict
            # A read whose value goes to no other program or host: a skill about this CLI
            # lists it as the tool's reference (weighed in `security_scan`).
            cli = "" if _passed_on(log.text, m) else m.lastgroup or ""
            # A cloud's short-lived token minted in a reference (not SKILL.md's own steps)
            # and sent to no host but the cloud's own: in a skill for attacking or assessing
            # a cloud (linters.security.practice), a step of the technique against the cloud
            # under test ("impersonate the service account", "confirm a Graph token is issued").
            # In SKILL.md too when a heading names a phase of the engagement ("GCP
            # Reconnaissance"): a recon catalogue's command (linters.security.technique_places).
            minted = stays_in_cloud(m.lastgroup or "", log.text) and (
                st.path != "SKILL.md" or phase_heading(st, line) is not None)
            yield Hit(
                "SF515", line.no, col + 1, verdict.severity, downgraded(
                    f"`{shown_command(command_at(log.text, m.start(), m.end()))}` takes {what} out "
                    "of the CLI's store, so it lands in "
                    "variables, the transcript and logs; " + instead + ", or have the user "
                    "export a scoped token in an environment variable the skill reads.",
                    Severity.high, verdict),
                cli=cli, on_target=minted,
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


# `op read "op://vault/item/username"`: a field that names the account, not its secret.
_FIELD = r"(?:user(?:name)?|e-?mail|login|url|website|host(?:name)?|server|port|title|notes?)"
_PLAIN_FIELD = rx(rf"\bop\s+read\s+(?:\"op://[^\"\n]*/{_FIELD}\"|'op://[^'\n]*/{_FIELD}'|"
                  rf"op://[^\s\"')]*/{_FIELD}(?=[\s)]|$))", re.IGNORECASE)
# `op inject -i tpl -o .env`: the secrets go into the file it writes.
_INJECT_TO_FILE = rx(r"\bop\s+inject\b[^|;&\n]*?\s(?:-o|--out-file)[\s=]+\S",
                     re.IGNORECASE)


def _no_secret(text: str, m: re.Match[str]) -> Verdict | None:
    """What the command takes out is no secret in a variable or the transcript: a username
    field, or `op inject` rendering a template into a file (`-o .env`)."""
    if _PLAIN_FIELD.match(text, m.start()):
        return Verdict(Severity.info, "it reads a username field, which is not a secret")
    if _INJECT_TO_FILE.match(text, m.start()):
        return Verdict(Severity.info, "it renders the secrets into the file it writes, into "
                                      "no variable, transcript or log")
    if m.lastgroup == "az":
        q = _QUERY.search(re.split(r"[|;&]", text[m.end():], maxsplit=1)[0])
        expr = next((g for g in q.groups() if g is not None), "") if q else ""
        if expr and "token" not in expr.lower() and "@" not in expr and "*" not in expr:
            return Verdict(Severity.info, f"its `--query {expr[:40]}` prints only those fields, "
                                          "not the token")
    return None


# The JMESPath projection of an az command: `--query '{aud:resource,expires:expiresOn}'`.
_QUERY = rx(r"""--query[= ]\s*(?:'([^']*)'|"([^"]*)"|(\S+))""")


# What sends the value on: a network client or a remote shell anywhere on the command line.
_ONWARD = rx(r"\b(?:curl|wget|nc|ncat|netcat|socat|ssh|scp|sftp|rsync|mail|sendmail|"
             r"invoke-webrequest|invoke-restmethod|iwr|irm)\b|https?://|/dev/(?:tcp|udp)/",
             re.IGNORECASE)


def _passed_on(text: str, m: re.Match[str]) -> bool:
    """The command line that takes the credential out also sends something over the network
    (`curl -H "Authorization: $(op read ...)" https://...`, `op read ... | ssh host ...`):
    that is what the skill does with it, whatever the skill is about."""
    return bool(_ONWARD.search(text[: m.start()]) or _ONWARD.search(_after_reference(text, m)))


# The rest of an `op://vault/item/field` reference the read match stops inside: the item and
# field are names ("ssh key/private key?ssh-format=openssh"), not programs or hosts.
_REFERENCE_REST = rx(r"[^\s\"')]*")


def _after_reference(text: str, m: re.Match[str]) -> str:
    """The command line after the secret reference the match opened (`op read "op://...`)."""
    end = m.end()
    if m.group(0).lower().endswith("op://"):
        quote = m.group(0)[-6:-5]
        closing = text.find(quote, end) if quote and quote in "\"'" else -1
        rest = _REFERENCE_REST.match(text, end)
        end = closing + 1 if closing >= 0 else rest.end() if rest else end
    return text[end:]


# The words by which a skill's name or description makes a CLI its subject.
_SUBJECT = {
    "op": rx(r"1password|\bop\s+cli\b", re.IGNORECASE),
    "gh": rx(r"\bgh\b(?![-.]\w)|github[- ]cli", re.IGNORECASE),
    "gcloud": rx(r"\bgcloud\b|google[- ]cloud[- ](?:cli|sdk)", re.IGNORECASE),
    "aws": rx(r"\baws[- ](?:cli|vault)\b|\baws\s+configure\b", re.IGNORECASE),
    "az": rx(r"\baz(?:ure)?[- ]cli\b", re.IGNORECASE),
    "heroku": rx(r"\bheroku[- ]cli\b|\bheroku\b", re.IGNORECASE),
}


def cli_subject(skill: Skill) -> frozenset[str]:
    """The credential CLIs the skill's own name or description names as its subject (a
    1Password CLI skill, a gh reference): their documented read commands are the tool's
    reference there. Only the frontmatter counts, as for an offensive purpose."""
    fm = skill.frontmatter
    if fm is None:
        return frozenset()
    text = " ".join(str(v) for v in (fm.get("name"), fm.get("description")) if v)
    text = text.replace("_", " ")
    return frozenset(cli for cli, words in _SUBJECT.items() if words.search(text))
