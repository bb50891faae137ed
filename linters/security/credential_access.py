"""Credential access and exfiltration (SF508): a command that reads SSH keys, cloud
credentials, browser cookie stores, `.env` files or the cloud metadata service, and worse,
sends them over the network.

Reading a credential is reported by how the text presents it: a command in code, an
instruction in prose ("send the contents of ~/.aws/credentials"), not a mention. Using a
key (`ssh -i ~/.ssh/deploy_key`) or reading one variable from `.env` is normal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.anchor_index import declare
from linters.text.compiled_regex import rx
from linters.security.attack_talk import ATTACK_LINE, Verdict, downgraded
from linters.security.cloud_tokens import own_identity_audience
from linters.security.data_sentence import sentence_value
from linters.security.credential_use import (
    clipboard_step,
    handles_no_content,
    reads_no_secret,
    signs_own_service,
)
from linters.security.inert_code import weigh_command
from linters.security.probed_paths import probed_path
from linters.security.remote_request import in_request_body, on_a_remote_server
from linters.security.security_context import (
    shown_command,
    SPAN_REACH,
    Hit,
    Logical,
    SecurityText,
    command_lines,
    in_inline_code,
    inline_span,
    matches,
)
from skillforge.models.findings import Severity

_HOME_PATH = r"(?:~|\$HOME|\$\{HOME\})"
_CREDENTIAL = rx(
    rf"(?P<ssh>{_HOME_PATH}/\.ssh(?:/(?P<sshfile>[\w.*-]+))?)"
    rf"|(?P<aws>{_HOME_PATH}/\.aws(?:/(?:credentials|config))?)"
    rf"|(?P<dot>{_HOME_PATH}/(?:\.netrc|_netrc|\.pgpass|\.git-credentials|\.docker/config\.json|"
    r"\.kube/config|\.config/gh/hosts\.ya?ml|\.npmrc|\.pypirc|\.gnupg|\.config/gcloud|"
    r"\.azure|\.terraform\.d/credentials\.tfrc\.json|\.vault-token))"
    r"|(?P<keychain>security\s+(?:find-(?:generic|internet)-password|dump-keychain)\b)"
    r"|(?P<browser>(?:Google/Chrome|google-chrome|Chromium|chromium|BraveSoftware|"
    r"Microsoft/Edge|Microsoft\\Edge|Google\\Chrome)[^\s'\"`]*?(?:Cookies|Login Data)\b|"
    r"cookies\.sqlite|logins\.json)"
    r"|(?P<dotenv>\.env(?:\.(?:local|production|prod|development|dev|staging))?(?![\w.-]))"
    # The metadata service: AWS's, Azure's and GCP's link-local address, and GCP's names for
    # it (`metadata.google.internal`, the bare `metadata` host its VMs resolve).
    r"|(?P<metadata>169\.254\.169\.254|metadata\.google\.internal(?![\w-])|"
    r"(?<=//)metadata(?=(?::\d+)?/computeMetadata/))"
    # The whole environment, every secret in it: reported only when sent over the network.
    r"|(?P<envdump>\b(?:printenv|env)(?=\s*\||\s*\)))"
)
_CREDENTIAL_ANCHORS = declare(
    b"~/.", b"home/.", b"home}/.", b".env", b"security ", b"cookies", b"login data",
    b"169.254.169.254", b"metadata.google.internal", b"//metadata/computemetadata/",
    b"//metadata:80/computemetadata/", b"env |", b"env|", b"(env)", b"printenv",
)
# `security find-generic-password -s NAME` (or -a, -l): the keychain item it reads.
_KEYCHAIN_ITEM = rx(r"\s-[sal]\s+(?:'([^']+)'|\"([^\"]+)\"|([^\s'\"|;&)]+))")
_NOT_BEFORE_ENV = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_SSH_NOT_SECRET = rx(r"\.pub$|^(?:config|known_hosts\w*|authorized_keys\w*|environment)$")
# A client that sends something. Not a bare URL: `Path(".env").write_text("API=https://...")`
# writes a setting, and `tool --env-file .env --url https://...` lets a tool read its own
# configuration (issue 36: 27 of the wide corpus's 28 critical findings were such lines).
_NETWORK = rx(
    r"\b(?:curl|wget|nc|ncat|netcat|socat|telnet|ftp|sftp|scp|rsync|sendmail|mail|mutt|"
    r"invoke-webrequest|invoke-restmethod|iwr|irm)\b|/dev/(?:tcp|udp)/|"
    r"\brequests\.(?:post|put|get)\(|\burllib\b|\bhttp\.client\b|\bfetch\(|\baxios\b|"
    r"\bsmtplib\b",
    re.IGNORECASE,
)
_READ_CMD = rx(
    r"\b(?:cat|less|more|head|tail|cp|scp|rsync|tar|zip|7z|base64|xxd|od|strings|sqlite3|"
    r"open|read_text|read_bytes|readFile|readFileSync|get-content|gc|type|grep|awk|sed|"
    r"security|print|echo|printf)\b|<\s*$",
    re.IGNORECASE,
)
# Prose verbs that move a secret somewhere ("read" alone is how docs describe tools).
_PROSE_ACCESS = rx(
    r"\b(?:send|upload|post|e-?mail|forward|transmit|exfiltrate|steal|harvest|collect|paste|"
    r"include|attach|share|leak|dump|print|output|cat)\b",
    re.IGNORECASE,
)
_PROSE_SEND = rx(
    r"\b(?:send|upload|post|e-?mail|forward|transmit|exfiltrate|leak)\b", re.IGNORECASE
)
# Fetching the metadata service: a client in the command, or a verb in the sentence.
_FETCH_CMD = rx(r"\b(?:curl|wget|fetch|urlopen|requests\.\w+|httpx\.\w+|axios|http\.get|"
                r"invoke-webrequest|invoke-restmethod|iwr|irm)\b", re.IGNORECASE)
_FETCH_VERB = rx(r"\b(?:fetch|query|request|curl|wget|read|call|hit|access|open|grab|"
                 r"retrieve|download|get)\b", re.IGNORECASE)
# In a Markdown code block: the address as a URL, or a client, makes it a request; a report
# template ("target: what the attacker reaches (169.254.169.254, ...)") names it.
_URL_OR_FETCH = rx(r"://(?:[^/\s]*@)?(?:169\.254\.169\.254|metadata\.google\.internal|"
                   r"metadata(?=(?::\d+)?/computeMetadata/))|"
                   + _FETCH_CMD.pattern, re.IGNORECASE)
_AS_IDENTITY = rx(r"(?:\s-i|IdentityFile|--key(?:-file)?|--identity)[\s=]*[\"']?$")
# The file a command writes to: the target of an output redirection (`>`, `>>`, `>|`, `2>`,
# `&>`) or of `tee` (`| tee -a ~/.git-credentials`). Storing the user's own token there is how
# git's store helper is set up; nothing is read out. `< file` and `cat file` still read.
_WRITE_TARGET = rx(r"(?:(?<![<>\-=])(?:\d|&)?>>?\|?|\btee(?:\s+-{1,2}[\w-]+)*)\s*[\"']?$")
# An option that names a path in order to leave it out of what a tool reads or sends:
# `rsync --exclude='.env'`, `tar --exclude .env`, `--exclude-from`, `rg -g '!.env'`.
_EXCLUDED = rx(r"(?:--exclude(?:-dir)?|--filter[=\s]+['\"]?-|(?:\s-g|--glob|--iglob)[=\s]+['\"]?!)"
               r"[=\s]*['\"]?[^\s'\"]*$")
_WHOLE_FILE = rx(
    r"\b(?:cat|less|more|head|tail|type|get-content|gc|print)\s+\S*$", re.IGNORECASE
)
_LABEL = {
    "ssh": "SSH keys", "aws": "AWS credentials", "dot": "a credential file",
    "keychain": "the keychain",
    "browser": "a browser cookie or password store", "dotenv": "a `.env` file",
    "metadata": "the cloud metadata service (instance credentials)",
    "envdump": "every environment variable (and the secrets in them)",
}


def scan_sf508(st: SecurityText) -> Iterator[Hit]:
    # One hit a line, the first of the most severe: an info read (the IMDSv2 session token)
    # must not hide a credential read later on the same line.
    best: dict[int, Hit] = {}
    for log, spans in command_lines(st, _CREDENTIAL_ANCHORS):
        for m in matches(_CREDENTIAL, log, spans, word=False):
            no = log.where(m.start())[0].no
            if no in best and best[no].severity is not Severity.info:
                continue
            prev = log.text[m.start() - 1] if m.start() else ""
            if m.lastgroup in ("dotenv", "envdump") and prev and prev in _NOT_BEFORE_ENV:
                continue  # process.env, foo.env, $env; but ./.env and config/.env are files
            hit = _credential_hit(st, log, m)
            if hit is not None and (hit.line not in best or (
                    best[hit.line].severity is Severity.info
                    and hit.severity is not Severity.info)):
                best[hit.line] = hit
    yield from sorted(best.values(), key=lambda h: (h.line, h.column))


def _credential_hit(st: SecurityText, log: Logical, m: re.Match[str]) -> Hit | None:
    kind = m.lastgroup if m.lastgroup != "sshfile" else "ssh"
    # "Add a Host block to ~/.ssh/config." names the config file; the dot ends the sentence.
    if kind == "ssh" and m.group("sshfile") and _SSH_NOT_SECRET.search(
            m.group("sshfile").rstrip(".")):
        return None
    if on_a_remote_server(log.text, m.start()) or probed_path(log.text, m.start()):
        return None
    # Only the address: a path in a body may be a file curl reads (`-d @~/.aws/credentials`).
    if kind == "metadata" and in_request_body(log.text, m.start()):
        return None
    line, col = log.where(m.start())
    inline = in_inline_code(line, col)
    if inline:
        # `cat ~/.ssh/id_rsa` in backticks is a command; the clause that leads to it counts
        # too ("send the contents of `~/.aws/credentials`").
        start, cmd = inline_span(line, col)
        before, prose = cmd[: col - start], _clause_before(line.text, start - 1)
    else:
        # Bounded context: a command is short, and a long line must not cost per match.
        lo = max(0, m.start() - SPAN_REACH)
        cmd = log.text[lo : m.end() + SPAN_REACH]
        before = log.text[lo : m.start()]
        prose = _clause_before(line.text, col)
    if _AS_IDENTITY.search(before):
        return None  # `ssh -i ~/.ssh/deploy_key` uses the key, it does not read it out
    if _WRITE_TARGET.search(before):
        return None  # `echo "https://USER:TOKEN@host" >> ~/.git-credentials` stores, reads none
    if _EXCLUDED.search(before):
        return None  # `rsync --exclude='.env'`, `tar --exclude .env`: named to be left out
    if kind == "ssh" and handles_no_content(log.text, m.start()):
        return None  # `mkdir -p ~/.ssh`, `chmod 0600 ~/.ssh/id_rsa`: none of its content
    if kind == "dotenv" and signs_own_service(log.text, m.start()):
        return None  # one key of `.env` in the auth header of its own service's API
    if _EXCLUDED_PROSE.search(prose) or (inline and _heading(st, line)):
        # "the upload archive excludes `.env*`": named to be left out; "### Email (`.env`)":
        # a heading names its section's subject, it tells nothing to read or send.
        prose = ""
    risk = False
    as_code = _access(kind, cmd, before, code=True)
    as_prose = _access(kind, prose, before, code=False)
    if not as_code[0] and not as_prose[0]:
        return None
    # Only now ask whether the line is code (which may parse the Markdown).
    if kind == "metadata" and st.is_markdown and not inline and st.in_code(line) and (
            not _FETCH_CMD.search(cmd) or line.text.lstrip().startswith("#")):
        # In a code block, the address with no client to fetch it ("AWS: http://169.254...
        # /meta-data/" in a list of SSRF targets, "evil.com → 302 → http://169.254...") or in
        # a comment ("# 2. read the runner's metadata: curl ...") is a name, not a request.
        return None
    if kind == "metadata" and st.is_markdown and (
            inline or not st.in_code(line) or not _URL_OR_FETCH.search(cmd)):
        # The address named in a sentence or a table ("the client follows a redirect to
        # `http://169.254.169.254/`") reads nothing; a fetch of it does.
        clause = re.split(r"[.;:!?,\u2014]\s|\s[-\u2013]\s",
                          line.text[: start if inline else col])[-1]
        clause = re.sub(r"`[^`]*`", " ", clause)
        access = bool(_FETCH_CMD.search(cmd) or _FETCH_VERB.search(clause))
        net = False
        risk = _RISK_MODAL.search(clause) and _attack_sentence(st, line)
    elif inline:
        access, net = as_code[0] or as_prose[0], as_code[1] or as_prose[1]
    else:
        access, net = as_code if st.in_code(line) else as_prose
    if not access:
        return None
    default = Severity.critical if net else Severity.medium if kind == "dotenv" else Severity.high
    verdict = weigh_command(st, line, col, default, reads=True)
    if kind == "metadata" and risk:
        verdict = Verdict(Severity.info, "the sentence says what an attack could reach, a risk "
                                         "to guard against")
    said = sentence_value(st, line, col, col + len(m.group(0))) if kind == "metadata" else None
    if said and verdict.severity != Severity.info:
        verdict = Verdict(Severity.info, said)
    harmless = reads_no_secret(log.text, m.end()) if kind == "metadata" else None
    if harmless and verdict.severity != Severity.info:
        verdict = Verdict(Severity.info, "its path names no credential, user data or listing "
                                         "of the service", acted=True)
    audience = own_identity_audience(log.text, m.end()) if kind == "metadata" else None
    if audience and verdict.severity in (Severity.critical, Severity.high):
        verdict = Verdict(Severity.medium, f"it mints an identity token only {audience}, the "
                                           "user's own service, accepts: the documented way a "
                                           "workload calls it", acted=True)
    if not net and kind in ("dot", "aws") and verdict.severity in (
            Severity.critical, Severity.high) and _FILTERS_SECRETS.match(log.text, m.end()):
        verdict = Verdict(Severity.medium, "it filters the secret lines out (`grep -v`) "
                                           "before anything prints, so no credential is read "
                                           "out", acted=True)
    if kind == "keychain" and verdict.severity != Severity.info:
        item = _own_keychain_item(st, cmd)
        if item:
            verdict = Verdict(Severity.info, f"it reads the skill's own keychain item `{item}`, "
                                             "not another application's secret")
        elif _CERTIFICATE_KEYCHAIN.search(cmd):
            verdict = Verdict(Severity.info, "the keychain it lists holds public certificates, "
                                             "no passwords or keys")
    paste = clipboard_step(cmd, line.text[start + len(cmd):]) if inline else None
    if paste and verdict.severity.rank > Severity.warning.rank:
        verdict = Verdict(Severity.warning, "it is a manual step for the person, who copies "
                          f"their own key to the clipboard to \"{paste}\"; the agent has no "
                          "clipboard", acted=True)
    what = _LABEL.get(kind or "", "credentials")
    if harmless:
        msg = (f"`{shown_command(cmd)}` reads {harmless} from the cloud metadata service, not a "
               "credential.")
    elif net:
        msg = (f"`{shown_command(cmd)}` reads {what} and sends it over the network; remove it, "
               "since a skill must never move credentials off the machine.")
    else:
        msg = (f"`{shown_command(cmd)}` reads {what}; remove it, or have the user supply the one "
               "value the skill needs through an environment variable.")
    return Hit("SF508", line.no, col + 1, verdict.severity, downgraded(msg, default, verdict))


# "A server-side request forgery in any app can hit `169.254.169.254`": a modal of
# possibility right before the address, whose subject is not the reader, with an attack named
# on the line or the one before, describes a risk. "You can fetch ..." still instructs.
_RISK_MODAL = rx(r"(?<!\byou\s)(?<!\bwe\s)(?<!\bi\s)\b(?:can|could|may|might|would)\s+"
                 r"(?:\w+\s+){0,2}\w+[\s`]*$", re.IGNORECASE)
_FORGERY = rx(r"request\s+forgery|attackers?\b", re.IGNORECASE)


def _attack_sentence(st: SecurityText, line) -> bool:
    """An attack is named on `line` or on the line before (a sentence wrapped over two)."""
    prev = st.neighbour(line, -1)
    text = (prev.text + " " if prev is not None else "") + line.text
    return bool(ATTACK_LINE.search(text) or _FORGERY.search(text))


# A clause that leaves what it names out: "the archive excludes `.git`, `.env*`, caches".
_EXCLUDED_PROSE = rx(r"\b(?:exclud(?:e|es|ed|ing)|except|omit(?:s|ted|ting)?|leaves?\s+out|"
                     r"skip(?:s|ped|ping)?|never\s+(?:includes?|uploads?|sends?))\b", re.IGNORECASE)


def _heading(st: SecurityText, line) -> bool:
    """`line` is a Markdown heading (outside a code block)."""
    return (st.is_markdown and line.text.lstrip().startswith("#")
            and not st.in_code(line))


# The read piped straight into `grep -v` of its secret lines (`cat ~/.npmrc | grep -v
# authToken`): the config is shown without them.
_FILTERS_SECRETS = rx(r"['\"]?(?:\s+2>\s*/dev/null)?\s*\|\s*grep\s+(?:-[a-uw-z]*v[a-z]*|--invert-match)"
                      r"(?:\s+-[a-z]+)*\s+['\"]?[\w.:-]*(?:auth|token|password|passwd|secret|"
                      r"_key|apikey|credential)", re.IGNORECASE)


_CLAUSE_CUT = rx(r"[.;:!?]\s|\s[-\u2013\u2014]\s")


def _clause_before(text: str, col: int) -> str:
    """The end of the clause that leads to 0-based `col`: where a prose verb must be to act
    on what is there ("send the contents of ..."), not anywhere on the line ("set the
    contact email in `.env`" sends nothing)."""
    head = text[: max(col, 0)]
    cut = max((m.end() for m in _CLAUSE_CUT.finditer(head)), default=0)
    return " ".join(head[cut:].split()[-10:])


# macOS's certificate-only keychains: the system's trusted root authorities (public by
# design). `security dump-keychain` of one lists CAs; it reads no secret.
_CERTIFICATE_KEYCHAIN = rx(r"dump-keychain\s+(?:-\w+\s+)*['\"]?\S*/(?:SystemRootCertificates|"
                           r"X509Anchors|SystemCACertificates)\.keychain\b", re.IGNORECASE)


def _own_keychain_item(st: SecurityText, cmd: str) -> str | None:
    """The keychain item `cmd` reads, when it is the skill's own: the skill's name with a
    token-like word (`sales-summary-token`), or stored by the skill's own setup
    (`security add-generic-password ... -s NAME`). Never another application's item."""
    if "dump-keychain" in cmd:
        return None
    m = _KEYCHAIN_ITEM.search(cmd)
    if not m:
        return None
    item = next(g for g in m.groups() if g)
    low = item.lower()
    if _OTHER_APPS.search(low):
        return None
    owner = st.owner.lower()
    if owner and len(owner) >= 4 and low.startswith(owner):
        rest = low[len(owner):]
        if not rest or (rest[0] in "-_. :" and _TOKEN_WORD.search(rest)):
            return item
    for line in st.lines_with(b"add-generic-password"):
        if item in line.text:
            return item
    return None


# Items of browsers, chat apps, password managers, the system and cloud CLIs: never a
# skill's own, whatever the skill is called.
_OTHER_APPS = rx(
    r"chrom|safari|firefox|mozilla|brave|edge|opera|vivaldi|arc\b|slack|discord|teams|zoom|"
    r"1password|bitwarden|lastpass|keepass|icloud|apple|airport|wi-?fi|login|github|gitlab|"
    r"bitbucket|docker|aws|amazon|gcloud|google|azure|microsoft|ssh|gpg|openvpn"
)
_TOKEN_WORD = rx(r"token|key|secret|password|passwd|credential|api|auth|\bpat\b")


def _access(kind: str | None, text: str, before: str, code: bool) -> tuple[bool, bool]:
    """(reads the credential, sends it over the network), reading `text` as code or prose."""
    if kind == "metadata":
        return True, False
    if kind == "envdump":
        net = bool(_NETWORK.search(text)) if code else bool(_PROSE_SEND.search(text))
        return net, net
    if code:
        net = bool(_NETWORK.search(text))
        access = net or bool(_READ_CMD.search(before)) or kind == "keychain"
    else:
        net = bool(_PROSE_SEND.search(text))
        access = net or bool(_PROSE_ACCESS.search(text))
    if kind == "dotenv" and not net:
        # Reading one variable from .env is normal; dumping the whole file is not.
        access = bool(_WHOLE_FILE.search(before))
    return access, net
