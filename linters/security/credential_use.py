"""What a command does with a credential it touches, for SF508 (issue 36): reads that move
no secret off the machine.

- A key used with its own service: one named variable read from `.env` into the auth
  header of a request to the service the variable is named for (`ORBIT_API_KEY` to
  `api.orbit.io`) signs the request, as `ssh -i key` does. The whole file, the body of a
  request, another host on the same command, or a name that says nothing about its
  service (`API_KEY`, `TOKEN`) stays exfiltration. A short name a service's own tools use
  counts as the service's (`GH_TOKEN` is GitHub's), and SF515 asks the same of a token
  taken from a CLI's store (`$(gh auth token)` in the auth header of api.github.com).
- The metadata service read for what is not a credential: the instance's own address,
  name, id, region, type or zone at the path AWS, GCP, Azure or DigitalOcean documents for
  it, and the IMDSv2 session token that only opens the service to itself. User data, IAM
  roles, service-account and managed-identity tokens, a bare listing or dump and a path
  held in a variable stay credential reads.
- A command that handles a key file or `~/.ssh` without reading any content: `mkdir`,
  `chmod 0600 ~/.ssh/id_rsa`, `touch`, `test -f` (a CI job's setup after it writes a key
  from a secret). A YAML list marker (`- chmod ...`) is no command word.
- A person's manual step: the key goes to their clipboard (`pbcopy < ~/.ssh/id_rsa`) and the
  same sentence names where they paste it, a secret, a deploy key or a settings page of their
  own ("paste a GitHub secret named DEPLOY_KEY on your repository"). A warning: the agent
  has no clipboard to paste from, and the user keeps the key. Without such a destination,
  or with a network client or a URL in it, the read stays severe.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx

# --- a key signing a request to its own service -----------------------------------------------

_SUBST_OPEN = "$("
_ENV_NAME = rx(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b")
_AUTH_HEADER = rx(
    r"(?:-H|--header)[\s=]*[\"']?\s*(?:Authorization|Proxy-Authorization|Private-Token|"
    r"Api-Key|X-[\w-]*(?:Key|Token|Auth)[\w-]*)\s*:[^\"'\n]*$",
    re.IGNORECASE,
)
# A URL's host (after any user:password@), shared with cloud_tokens.
URL_HOST = rx(r"\b[a-z][a-z0-9+.-]*://(?:[^/\s@'\"`]*@)?([^/\s:'\"`?#)]+)", re.IGNORECASE)
_STAGE_END = rx(r"\s(?:\||;|&&|\|\|)\s")
# The first word of a variable that names no service: whose key it is stays unknown.
_GENERIC = frozenset({
    "api", "app", "auth", "token", "secret", "key", "access", "bot", "my", "the", "service",
    "client", "user", "prod", "dev", "test", "local", "default", "private", "public", "bearer",
    "oauth", "session", "password", "pass", "admin", "root", "web", "http", "https", "server",
})

# Services whose own tools name their key with a short prefix: `GH_TOKEN` is the GitHub
# CLI's name for a GitHub token, so its service is github (api.github.com, github.com,
# uploads.github.com), not a host registered as `gh`.
_SHORT_NAMES = {"gh": "github"}


def signs_own_service(text: str, start: int) -> bool:
    """The `.env` path at `start` of command `text` is read inside a `$(...)` that takes one
    named variable from it, in an auth header, of a request whose every host is named by
    that variable's first word."""
    opened = text.rfind(_SUBST_OPEN, 0, start)
    if opened < 0:
        return False
    closed = text.find(")", start)
    if closed < 0:
        return False
    names = set(_ENV_NAME.findall(text[opened + 2 : closed]))
    if len(names) != 1:
        return False
    owner = next(iter(names)).split("_", 1)[0].lower()
    return header_of_own_service(text, opened, closed, _SHORT_NAMES.get(owner, owner))


def header_of_own_service(text: str, opened: int, closed: int, owner: str) -> bool:
    """The substitution `text[opened:closed]` sits in an auth header of a request whose every
    host is registered under `owner` (`github` for api.github.com and uploads.github.com)."""
    if len(owner) < 3 or owner in _GENERIC or not _AUTH_HEADER.search(text[:opened]):
        return False
    # The command the header belongs to: from the last separator before it to the next one.
    begin = max(text.rfind(s, 0, opened) for s in ("\n", ";", "&&", "|| ", "| "))
    stop = _STAGE_END.search(text, closed)
    stage = text[max(begin, 0) : stop.start() if stop else len(text)]
    hosts = [m.group(1).lower() for m in URL_HOST.finditer(stage)]
    return bool(hosts) and all(_registered(h) == owner for h in hosts)


_SECOND_LEVEL = frozenset({"co", "com", "net", "org", "ac", "gov", "edu"})


def _registered(host: str) -> str:
    """The label a host is registered under: `discord` of `discord.com` and `api.discord.com`,
    `orbit` of `orbit.co.uk`; never a subdomain label (`discord.com.sink.net` is `sink`)."""
    labels = host.split(".")
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2:
        return labels[-3]
    return labels[-2] if len(labels) >= 2 else ""


# --- the metadata service read for what is not a credential ------------------------------

# After the address, a path that names one attribute of the instance, by each provider's
# documented names: AWS's IMDSv2 session token and instance facts, GCP's, Azure's and
# DigitalOcean's instance facts (id, name, region or zone, type, addresses). Anything else
# may hold a credential or a secret and stays a credential read: AWS iam/,
# identity-credentials/, user-data; GCP service-accounts/.../token; Azure's
# identity/oauth2/token and userData; DigitalOcean's user-data, vendor-data and auth-token;
# a bare root or listing (`/latest/meta-data/`, `/metadata/v1/`, `/metadata/v1.json`); a path
# that is a variable (`/metadata/v1/$KEY`).
_ATTR_END = r"(?=$|[\s'\"`)|;&])"
_NOT_SECRET = rx(
    r"(?::\d+)?(?P<aws_token>/latest/api/token\b)"
    r"|(?::\d+)?/latest/meta-data/(?P<aws>local-ipv4|public-ipv4|ipv6|local-hostname|"
    r"public-hostname|hostname|instance-id|instance-type|instance-life-cycle|ami-id|"
    r"ami-launch-index|mac|placement/[\w-]+|availability-zone|reservation-id|"
    r"network/interfaces/macs/[^\s'\"`/]+/(?:local-ipv4s|public-ipv4s|subnet-id|vpc-id|"
    r"vpc-ipv4-cidr-blocks?|device-number|interface-id)|services/domain|tags/instance/[\w-]+)"
    + _ATTR_END +
    r"|(?::\d+)?/computeMetadata/v1/(?P<gcp>instance/(?:hostname|id|name|zone|machine-type|"
    r"image|cpu-platform|tags|network-interfaces/\d+/(?:ip|mac|network|gateway|subnetmask|"
    r"access-configs/\d+/external-ip))|"
    r"project/(?:project-id|numeric-project-id)|"
    r"instance/service-accounts/[\w@.-]+/(?:email|scopes|aliases))(?=$|[\s'\"`)|;&?])"
    r"|(?::\d+)?/metadata/instance/(?P<azure>compute/(?:location|name|vmId|vmSize|zone|"
    r"resourceGroupName|subscriptionId|resourceId|osType|vmScaleSetName|"
    r"platform(?:Fault|Update)Domain)|network(?:/[\w/]*)?)"
    r"(?=$|[\s'\"`)|;&?])"
    r"|(?::\d+)?/metadata/v1/(?P<do>id|hostname|region|tags/?|dns/nameservers|"
    r"features/dhcp_enabled|(?:floating|reserved)_ip/ipv4/(?:active|ip_address)|"
    r"interfaces/(?:public|private)/\d+/(?:mac|type|(?:ipv4|anchor_ipv4)/(?:address|netmask|"
    r"gateway)|ipv6/(?:address|cidr|gateway)))" + _ATTR_END,
)


def reads_no_secret(text: str, end: int) -> str | None:
    """What the metadata request whose address ends at `end` of `text` reads, when that is
    no credential (`local-ipv4`, the droplet's `id`, the session token), or None."""
    m = _NOT_SECRET.match(text, end)
    if m is None:
        return None
    if m.group("aws_token"):
        return "the IMDSv2 session token, which only opens the metadata service to this host"
    attr = next(g for g in (m.group(k) for k in ("aws", "gcp", "azure", "do")) if g)
    return f"the instance's own `{attr.rstrip('/')}`"


# --- commands that touch a key file and read none of it -----------------------------------

_NO_CONTENT_STAGE = rx(r"\s*(?:-\s+)?['\"]?\s*(?:sudo\s+)?(?:mkdir|chmod|chown|chgrp|touch|cd|ls|"
                       r"stat|test|\[)\b")
# A flattened YAML sequence (`commands: - mkdir -p ~/.ssh - chmod 0600 ~/.ssh/id_rsa`): a
# ` - ` before a word starts the next item, the next command.
_YAML_ITEM = rx(r"(?:^|\s)-\s+(?=[a-z])")


def _stage(text: str, start: int) -> str:
    """The command the match at `start` is an argument of: the text after the last pipe,
    `;`, `&&`, substitution, quote or YAML list item before it."""
    ends = [at + len(sep) for sep in ("|", ";", "&&", "$(", "`", "'", '"')
            if (at := text.rfind(sep, 0, start)) >= 0]
    stage = text[max(ends, default=0):start]
    items = [m.start() for m in _YAML_ITEM.finditer(stage)]
    return stage[items[-1]:] if items else stage


def handles_no_content(text: str, start: int) -> bool:
    """The path at `start` of command `text` is an argument of a command that creates,
    lists, tests or sets the mode of it, reading none of its content."""
    return _NO_CONTENT_STAGE.match(_stage(text, start)) is not None


# --- a person's clipboard step --------------------------------------------------------------

_CLIPBOARD = rx(r"\b(?:pbcopy|xclip|xsel|wl-copy|clip(?:\.exe)?|set-clipboard|scb)\b",
                re.IGNORECASE)
_SENDS = rx(r"\b(?:curl|wget|nc|ncat|netcat|socat|scp|rsync|sftp|ftp|mail|sendmail|"
            r"invoke-webrequest|invoke-restmethod|iwr|irm)\b|://", re.IGNORECASE)
# Where the person pastes it: a secret, a deploy key, their account's or repository's key or
# settings page ("paste it as a deploy key", "paste a GitHub secret named X").
_PASTE_INTO = rx(
    r"\bpaste\b[^.!?]{0,80}?\b(?:secrets?|deploy\s+keys?|ssh\s+(?:and\s+gpg\s+)?keys?\s+"
    r"(?:page|settings|section)|(?:repository|account|project)\s+settings|settings\s+page|"
    r"(?:ci(?:/cd)?|pipeline|environment)\s+variables?|key\s+field)\b",
    re.IGNORECASE,
)
_SENTENCE_STOP = rx(r"[.!?](?:\s|$)")


def clipboard_step(code: str, after: str) -> str | None:
    """What a person pastes the credential as, when `code` (an inline command) only puts it on
    the clipboard and `after` (the rest of its sentence) names where it goes; else None."""
    if not _CLIPBOARD.search(code) or _SENDS.search(code):
        return None
    stop = _SENTENCE_STOP.search(after)
    sentence = after[: stop.start() if stop else len(after)]
    dest = _PASTE_INTO.search(sentence)
    if dest is None or _SENDS.search(sentence):
        return None
    return " ".join(dest.group(0).split())
