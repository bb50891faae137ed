"""shellcheck's SC1087 ("use braces when expanding arrays") on a name the script never makes an
array: bash expands `$name` and prints the `[...]` after it as written (`"$lib['\"]"` in a
grep pattern, `"$event[$i]"` in a message), which is what the author meant. That is a
warning, not a broken script; on a real array the error stands."""

from __future__ import annotations

import functools
import re

_NAME_AT = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)\[")


def not_an_array(text: str, line: object, column: object) -> str | None:
    """The name SC1087 points at when `text` never makes it an array, else None."""
    try:
        row = text.splitlines()[int(line) - 1]  # type: ignore[arg-type]
        col = max(int(column) - 1, 0)  # type: ignore[arg-type]
    except (TypeError, ValueError, IndexError):
        return None
    m = _NAME_AT.search(row, max(col - 1, 0)) or _NAME_AT.search(row)
    if m is None or m.group(1) in _arrays(text):
        return None
    return m.group(1)


@functools.lru_cache(maxsize=16)
def _arrays(text: str) -> frozenset[str]:
    """Names `text` makes arrays: `x=(...)`, `x+=(...)`, `x[i]=`, `declare/local/typeset -a x`,
    `read -a x`, `mapfile`/`readarray x` (and every positional-style name bash gives one)."""
    names = set(re.findall(r"(?<![\w$])([A-Za-z_]\w*)\+?=\(", text))
    names |= set(re.findall(r"(?<![\w$])([A-Za-z_]\w*)\[[^\]\n]*\]\+?=", text))
    names |= set(re.findall(r"\b(?:declare|local|typeset|readonly)\s+-\w*[aA]\w*\s+([A-Za-z_]\w*)",
                            text))
    names |= set(re.findall(r"\bread\b[^\n;|]*?-\w*a\s*([A-Za-z_]\w*)", text))
    names |= set(re.findall(r"\b(?:mapfile|readarray)\b(?:\s+-\w+(?:\s+\S+)?)*\s+([A-Za-z_]\w*)",
                            text))
    names |= {"BASH_REMATCH", "PIPESTATUS", "FUNCNAME", "BASH_SOURCE", "BASH_LINENO", "GROUPS",
              "COMP_WORDS", "COPROC", "DIRSTACK", "BASH_ARGV", "BASH_ARGC"}
    return frozenset(names)
