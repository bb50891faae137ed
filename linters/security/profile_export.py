"""A credential read exported in the user's shell profile (SF515, issue 36).

A dotfiles recipe puts `export GITHUB_TOKEN=$(op read "op://Dev/GitHub/token")` into the
block it gives for `~/.zshrc`, `~/.bashrc` or a chezmoi template: the secret becomes an
environment variable of the user's own shell, which is how the user configures it, and
nothing prints it. That is a `medium` matter of taste (`op run` scopes it tighter), not an
agent step that pulls the secret into the transcript. It stays severe when the line does
more than assign (`export T=$(op read ...) && curl ...`), when the block prints the variable
or sends it to a host, or when nothing frames the block as a shell profile or dotfiles.
"""

from __future__ import annotations

import re

from linters.security.attack_talk import Verdict
from linters.security.block_frame import fence_of, heading_chain, lead_in
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx
from skillforge.models.findings import Severity

# The words by which a block, its lead-in or its headings name a shell profile or dotfiles.
_PROFILE = rx(
    r"(?:^|[\s/~\"'`(])\.(?:zshrc|bashrc|bash_profile|zprofile|zshenv|profile|kshrc)\b"
    r"|\bconfig\.fish\b|\bchezmoi\b|\byadm\b|\bdotfiles?\b|\bshell\s+(?:profile|rc|startup)\b",
    re.IGNORECASE,
)
# `export NAME=$(` or `export NAME="$(` opening the logical line, and only that.
_EXPORT_HEAD = rx(r"""^\s*export\s+([A-Za-z_]\w*)=["']?\$\(\s*$""")
_EXPORT_TAIL = rx(r"""^[^()|;&`$\n]*\)["']?\s*(?:#.*)?$""")
# What shows or sends the variable: printing it, or any network client or URL on its line.
_SHOWS = r"\b(?:echo|printf|print|cat|tee|curl|wget|nc|ssh|scp|rsync|http)\b|https?://"


def profile_export(st: SecurityText, line: Line, text: str, m: re.Match[str]) -> Verdict | None:
    """`medium` for a credential read assigned straight to an exported variable in a fenced
    block framed as the user's shell profile or dotfiles, which never prints or sends it."""
    if not st.is_markdown or not st.in_code(line):
        return None
    head = _EXPORT_HEAD.match(text[: m.start()])
    if head is None or not _EXPORT_TAIL.match(_rest(text, m)):
        return None
    fence = fence_of(st, line)
    if fence is None:
        return None
    frame = "\n".join([*fence.body, lead_in(st, fence) or "", *heading_chain(st, line)])
    if not _PROFILE.search(frame):
        return None
    name = re.escape(head.group(1))
    uses = rx(rf"(?:{_SHOWS})[^\n]*\$\{{?{name}\b|\$\{{?{name}\b[^\n]*(?:{_SHOWS})")
    if any(uses.search(body) for body in fence.body):
        return None
    return Verdict(Severity.medium, "it exports the secret as an environment variable of the "
                                    "user's own shell, in a shell profile or dotfiles block "
                                    "that never prints or sends it")


def _rest(text: str, m: re.Match[str]) -> str:
    """The line after the read's secret reference (`op read "op://a/b/c"`)."""
    end = m.end()
    if m.group(0).lower().endswith("op://"):
        quote = m.group(0)[-6:-5]
        closing = text.find(quote, end) if quote in "\"'" and quote else -1
        end = closing + 1 if closing >= 0 else end
    return text[end:]
