"""An address named in a sentence that a data file holds: text about it (issue 36, SF508).

A YAML or JSON file describes things in string values as often as it configures them: a
fault scenario's `attackScenarios: - "Reach cloud metadata endpoint (169.254.169.254)"`, a
finding's `impact: Pods can reach 169.254.169.254 and steal node credentials`. Such a value
is a sentence about the address; nothing fetches it. It reads so only when all of it holds:

- the value is prose: three words or more besides the address, no client (`curl`, `wget`,
  `Invoke-WebRequest`, `fetch(`), no shell syntax (`|`, `$(`, `&&`, a `-flag`);
- the address is named, not used: no scheme before it (`http://`), no path or port after
  it (`/latest/meta-data/`, `:80`);
- the key that holds the value (on its line, or the key of the list or block it is an item
  or a line of) names no command or address: not `command:`, `args:`, `run:`, `script:`,
  `url:`, `endpoint:`, `host:`, whose values a tool runs or connects to.

`linters.security.credential_access` asks, for the metadata service; a fetch of it in a
value (`command: ["curl", "http://169.254.169.254/latest/meta-data/"]`) stays severe.
"""

from __future__ import annotations

from linters.security.code_reading import code_kind, closing_quote, name_words, spot_state
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

_CLIENT = rx(r"\b(?:curl|wget|nc|ncat|socat|telnet|http(?:ie)?\s+(?:GET|get)|"
             r"invoke-webrequest|invoke-restmethod|iwr|irm|urlopen|requests\.\w+|httpx\.\w+|"
             r"axios|fetch\s*\()")
_SHELL = rx(r"\||\$\(|`|&&|;\s|(?:^|\s)--?[A-Za-z]|[<>]\s*\S")
# A path or a port right after the address: it is used (`169.254.169.254/latest/...`).
_USED_AFTER = rx(r"[/:]\w")
_WORD = rx(r"[A-Za-z]{2,}")
_MIN_WORDS = 3
_KEY = rx(r"""^(\s*)(?:-\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*[:=]""")
# The key right before a value on its line: `impact: `, `"attackScenarios": [`.
_KEY_BEFORE = rx(r"""["']?([A-Za-z_][\w.-]*)["']?\s*[:=]\s*\[?\s*$""")
# Words of a key whose value a tool runs or connects to.
_ACTING_KEYS = frozenset({
    "command", "commands", "cmd", "cmds", "args", "arg", "argv", "arguments", "run", "script",
    "scripts", "exec", "entrypoint", "shell", "url", "urls", "uri", "uris", "endpoint",
    "endpoints", "host", "hosts", "hostname", "address", "addr", "ip", "server", "href",
    "link", "request", "curl", "probe", "healthcheck", "test",
})


def sentence_value(st: SecurityText, line: Line, start: int, end: int) -> str | None:
    """Why the address at 0-based `start`..`end` of `line` is named in a sentence a data
    file holds (see the module's docstring), or None."""
    kind, _lines, _idx = code_kind(st, line)
    if kind != "data":
        return None
    text = line.text
    if text[max(0, start - 3) : start] == "://" or text[start - 1 : start] in ("/", "@") or \
            _USED_AFTER.match(text, end):
        return None
    at, value = _value(text, start)
    if value is None or _CLIENT.search(value) or _SHELL.search(value):
        return None
    if len(_WORD.findall(value.replace(text[start:end], " "))) < _MIN_WORDS:
        return None
    key = _owning_key(st, line, text[:at])
    if key is not None and _acting(key):
        return None
    held = f" under `{key[:40]}`" if key else ""
    return f"it is named in a sentence, a string value{held} of a data file, which fetches nothing"


def _acting(key: str) -> bool:
    """A word of the key, or the key run together (`healthCheck`), names a command or an
    address."""
    joined = key.lower().replace("_", "").replace("-", "")
    return joined in _ACTING_KEYS or any(w in _ACTING_KEYS for w in name_words(key))


def _value(text: str, start: int) -> tuple[int, str | None]:
    """(where it starts, the string value holding 0-based `start`): a quoted string, else
    the plain scalar after the line's key or list dash (a line of a block scalar: the whole
    line)."""
    state, opened = spot_state(text, start, "data")
    if state == "string":
        close = closing_quote(text, opened)
        return opened, text[opened + 1 : close] if close is not None else None
    m = _KEY.match(text)
    if m is not None and m.end() <= start:
        return m.end(), text[m.end() :].strip()
    at = len(text) - len(text.lstrip())
    return at, text[at:].removeprefix("- ").strip()


def _owning_key(st: SecurityText, line: Line, before: str) -> str | None:
    """The key whose value holds the spot: on its line before it (`before`), or the
    nearest key above indented less (the key of the list, map or block scalar the line
    belongs to; a list's items may stand at its key's indent)."""
    m = _KEY_BEFORE.search(before)
    if m is not None:
        return m.group(1)
    m = _KEY.match(line.text)
    if m is not None and m.end() <= len(before):
        return m.group(2)  # `command: ["sh", "-c", "..."]`: the key of the list it is in
    indent = len(line.text) - len(line.text.lstrip())
    item = line.text.lstrip().startswith("- ")
    cur: Line | None = line
    for _ in range(200):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is None:
            return None
        stripped = cur.text.strip()
        own = len(cur.text) - len(cur.text.lstrip())
        if not stripped or own > indent or (own == indent and not (
                item and stripped.endswith(":"))):
            continue
        m = _KEY.match(cur.text)
        if m is not None:
            return m.group(2)
        indent, item = own, stripped.startswith("- ")
    return None
