"""Root folders a skill names once and then writes without their `$` (SF116, SF301; issue 36).

A skill that works from its plugin's root often gives that root a name in its steps:
"Set `PLUGIN_ROOT = ${CLAUDE_PLUGIN_ROOT}`", `export TOOLS="$TOOLS_HOME"`, "set OUT to
$PWD", and from then on writes `PLUGIN_ROOT/assets/theme.css`, as it writes
`OUTPUT_DIR/ledger.json`: the bare name stands for the folder, as `$PLUGIN_ROOT/...` would.
Such a path is a rooted path (`linters.text.paths.path_owner.rooted_paths`), and a bare
`assets/theme.css` elsewhere in the document is its short form.

Only an UPPER_CASE name the same document sets from a `$` variable counts: not a word that
is only written in capitals (`README/`, `API/v2`), nor a name set from a command
(`SKILL_DIR=$(dirname "$0")`), nor one whose name or value is the skill's own folder
(`SKILL_DIR`, `${CLAUDE_SKILL_DIR}`): a path under those is the skill's.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx

_NAME = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"
# The value: a variable alone (quoted or not), ending the assignment: `${X}`, `"$X"`.
_VALUE = r"[\"']?\$\{?([A-Za-z_]\w*)\}?[\"']?(?=[\s`),.;:]|$)"
# `NAME = ${X}`, `NAME=$X`, `export NAME="${X}"` (also in code spans or blocks) ...
_ASSIGNED = rx(rf"(?<![\w$/{{.-])(?:export\s+)?({_NAME})\s*=\s*{_VALUE}", re.MULTILINE)
# ... or in words: "set NAME to $X", "set `NAME` to `${X}`".
_SET_TO = rx(rf"\bset\s+`?({_NAME})`?\s+to\s+`?{_VALUE}", re.IGNORECASE | re.MULTILINE)


def named_roots(text: str, own: re.Pattern[str]) -> set[str]:
    """The UPPER_CASE names `text` sets from a `$` variable, but for those whose name or
    variable matches `own` (the skill's own folder)."""
    names = set()
    for pattern in (_ASSIGNED, _SET_TO):
        for m in pattern.finditer(text):
            name, var = m.group(1), m.group(2)
            if name.isupper() and not (own.search(name) or own.search(var)):
                names.add(name)
    return names


def bare_rooted(text: str, own: re.Pattern[str]) -> list[tuple[str, str]]:
    """(as written, path after the name) of each `NAME/path` of `text` whose NAME the text
    sets from a `$` variable (`named_roots`), written without its `$`."""
    names = named_roots(text, own)
    if not names:
        return []
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    used = re.compile(rf"(?<![\w$/{{.<-])({alts})/([\w./*-]+)")
    return [(m.group(0).rstrip("."), m.group(2).rstrip(".")) for m in used.finditer(text)]
