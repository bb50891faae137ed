"""Credential file names that a shell loop asks a server for, not files of this machine.

`for key in ".env" "id_rsa"; do curl -s -o /dev/null -w '%{http_code}' "$(PUBLIC_URL)/$$key"`
checks that the user's own bucket does not serve such files: each name is the path of a URL,
not a read of the local file. The loop reads the file only if its body uses the name
otherwise (`curl -F "f=@$key"`, `cat "$key"`)."""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from linters.security.security_context import SPAN_REACH

__all__ = ["probed_path"]

_FOR_LIST = rx(r"\bfor\s+(\w+)\s+in\s+([^;]*)$")
_URL_BASE = rx(r"(?:://[^\s'\"`]*|\b\w*(?:URL|URI|HOST|ENDPOINT|DOMAIN|ORIGIN)\w*\)?\}?)/?$",
               re.IGNORECASE)


_PRINTS = rx(r"[\s\\@]*(?:echo|printf)\b")


def _command_start(text: str, at: int) -> str:
    """The text of the shell command that `at` is in, from its start (quotes kept)."""
    cut = max((i + len(sep) for sep in (";", "|", "&&", "$(", "`", "\n", " do ")
               if (i := text.rfind(sep, 0, at)) >= 0), default=0)
    return text[cut:at]


def probed_path(text: str, start: int) -> bool:
    """The match at `start` is an item of a shell `for` loop's list whose body uses the loop
    variable as the path of a URL on a server, or prints it."""
    head = text[max(0, start - SPAN_REACH):start]
    m = _FOR_LIST.search(head)
    if m is None:
        return False
    body = text[start:start + 2 * SPAN_REACH]
    end = re.search(r"\bdone\b", body)
    body = body[: end.start()] if end else body
    uses = list(re.finditer(rf"\$\$?\{{?{re.escape(m.group(1))}\b\}}?", body))
    return bool(uses) and all(
        (body[u.start() - 1: u.start()] == "/" and _URL_BASE.search(body[:u.start() - 1]))
        or _PRINTS.match(_command_start(body, u.start())) for u in uses)
