"""A table of the ways an author offers their own tool to its users (issue 36).

Guidance on distributing a tool lists the channels its users install from, one audience a
row: "| Node developers | npm | `npm install -g @org/tool` |", "| CI/Docker | curl pipe |
`curl -fsSL https://tool.dev/install.sh | bash` |". The command in such a row is what the
author's users will run to install the author's tool, not a step the agent takes. Both must
hold: the table pairs audiences with commands (a column named for them: "Audience",
"Persona", "User type"), and the text that introduces it, or a heading over it, talks about
offering or distributing the tool ("Offer installation via the package managers your
audience already uses"). A table of steps or of platforms the agent picks from ("| OS |
Install |") has no audience column and stays an instruction.
"""

from __future__ import annotations

import re

from linters.security.block_frame import heading_chain
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# A header cell naming who a row is for.
_AUDIENCE_CELL = rx(
    r"^\s*\**(?:(?:target\s+)?audiences?|personas?|user\s+(?:types?|groups?|segments?)|"
    r"target\s+users?)\**\s*$",
    re.IGNORECASE,
)
# The tool offered to others: offering, distributing or publishing it, to users or an
# audience that are not the agent.
_OFFERING = rx(
    r"\b(?:offer\w*|distribut\w*|publish\w*|ship\s+(?:your|the)\s+tool|"
    r"release\s+channels?|installation\s+channels?)\b",
    re.IGNORECASE,
)


def offered_to_users(st: SecurityText, line: Line, header: Line) -> str | None:
    """Why a table row is an option the author offers their users: its table (whose header
    row is `header`, found by the caller) has an audience column and is introduced, or
    headed, by text about offering the tool."""
    above = st.neighbour(header, -1)
    cells = header.text.strip().strip("|").split("|")
    if not any(_AUDIENCE_CELL.match(c) for c in cells):
        return None
    lead = None
    for _ in range(3):
        if above is None:
            break
        if above.text.strip():
            lead = above.text.strip()
            break
        above = st.neighbour(above, -1)
    chain = heading_chain(st, line)
    for text in (lead if lead and not lead.startswith("#") else None,
                 chain[-1] if chain else None, chain[0] if chain else None):
        m = _OFFERING.search(text or "")
        if m:
            return (f'it is a row of a table of the install options an author offers their '
                    f'users, by audience ("{m.group(0)}")')
    return None
