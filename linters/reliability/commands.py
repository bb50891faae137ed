"""Shell commands a skill tells the agent to run, taken apart for the rules that read them.

`commands(ctx)` collects them from SKILL.md: every line of a shell-ish fenced block (`bash`,
`sh`, `console`, no language, ...) and every inline code span that reads like a command;
a fence that lists files (`linters.text.file_listing`: a layout drawn as a tree) has none.
Prompts (`$ `) are stripped, `\\` continuations joined, comments and heredoc bodies dropped.
`segments`, `words` and `script_runs` take one command apart for rules that need to know
which program runs and which script it is given. The rules themselves live in
`script_commands` (SF301, SF305) and `installs` (SF307).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from linters.text.compiled_regex import rx
from linters.text.file_listing import is_file_listing
from linters.text.markdown import MarkdownDoc

if TYPE_CHECKING:
    from linters.context import LintContext

# Fence languages whose lines are commands. "" (no language) is included because most
# skills write their commands in bare fences; the rules only act on recognisable commands.
SHELL_LANGS = frozenset({
    "", "bash", "sh", "shell", "zsh", "ksh", "fish", "console", "terminal", "shell-session",
    "shellsession", "sh-session", "bash-session", "cmd", "powershell", "pwsh", "ps1",
})
_PROMPTED_LANGS = frozenset({"console", "terminal", "shell-session", "shellsession",
                             "sh-session", "bash-session"})
# `$ cmd`, `% cmd`, `user@host:~/dir$ cmd`, `(venv) $ cmd`, `PS C:\> cmd`.
_PROMPT = rx(
    r"^\s*(?:\([\w.-]+\)\s*)?(?:[\w.-]+@[\w.-]+(?::\S*)?)?[$%]\s+|^\s*PS\s[^>]*>\s*"
)
# A quoted string (unterminated: to the end), a command separator, or a run of other text.
_SEGMENT_TOKEN = rx(r"\"[^\"]*\"?|'[^']*'?|\$\(|[;|&()`]|[^\"';|&()`$]+|\$")
_SEPARATORS = frozenset(("$(", ";", "|", "&", "(", ")", "`"))
_COMMENT_TOKEN = rx(r"\"[^\"]*\"?|'[^']*'?|[^\"'#]+|#")
_HEREDOC = rx(r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1")
_TOKEN = rx(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|\S+")
_ENV_ASSIGN = rx(r"^[A-Za-z_]\w*=")
# Words that run the next word as the command (`sudo python x.py`, `time ./run`).
_PREFIX_WORDS = frozenset({"sudo", "env", "time", "nohup", "exec", "command", "builtin", "nice"})


class Command(NamedTuple):
    """One command line: file, 1-based line (and column for inline code), text."""

    path: str
    line: int
    text: str
    column: int = 1
    inline: bool = False
    lang: str = ""
    block: int = 0  # line of the opening fence (0 for inline code): commands that share a shell

    @property
    def fenced_shell(self) -> bool:
        """In a fence explicitly marked as shell (not a bare fence, not inline code)."""
        return not self.inline and self.lang != ""


_CACHE: dict[tuple[str, str, int], tuple[Command, ...]] = {}


def commands(ctx: LintContext, path: str = "SKILL.md") -> list[Command]:
    """Commands in one Markdown file of the skill (SKILL.md's body by default).

    Cached by the document's text, so every rule (and the security linter) can ask again.
    """
    doc = ctx.doc(path)
    if doc is None:
        return []
    key = (path, doc.text, doc.first_line)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        found = _CACHE[key] = tuple(commands_in_doc(doc, path))
    return list(found)


def commands_in_doc(doc: MarkdownDoc, path: str) -> list[Command]:
    """Commands of a parsed Markdown document, in line order."""
    out: list[Command] = []
    for fence in doc.fences:
        # A layout drawn in a fence (`scripts/x ← setup wrapper` under `roles/`): no commands.
        if fence.lang in SHELL_LANGS and not is_file_listing(fence.body):
            out.extend(_fence_commands(fence.body, fence.start + 1, fence.lang, path))
    for span in doc.inline_code:
        text = (_PROMPT.sub("", span.text, count=1) if _may_prompt(span.text) else span.text).strip()
        if text and (" " in text or text.startswith("./")):
            out.append(Command(path, span.line, text, span.column, inline=True))
    out.sort(key=lambda c: (c.line, c.column))
    return out


def _fence_commands(body: tuple[str, ...], first: int, lang: str, path: str) -> list[Command]:
    prompted = lang in _PROMPTED_LANGS and any(_may_prompt(ln) and _PROMPT.match(ln) for ln in body)
    out: list[Command] = []
    heredoc_end: str | None = None
    pending: tuple[int, str] | None = None
    for i, raw in enumerate(body):
        no = first + i
        if heredoc_end is not None:
            if raw.strip() == heredoc_end:
                heredoc_end = None
            continue
        line = raw.rstrip()
        if pending is not None:
            start, buf = pending
            text = buf + " " + line.strip()
        else:
            m = _PROMPT.match(line) if _may_prompt(line) else None
            if prompted and not m:
                continue  # console output, not a command
            start, text = no, (line[m.end():] if m else line).strip()
            if not text or text.startswith(("#", "//")):
                continue
        if text.endswith("\\"):
            pending = (start, text[:-1].rstrip())
            continue
        pending = None
        h = _HEREDOC.search(text)
        if h:
            heredoc_end = h.group(2)
        out.append(Command(path, start, _strip_comment(text), lang=lang, block=first - 1))
    if pending is not None:
        out.append(Command(path, pending[0], pending[1], lang=lang, block=first - 1))
    return out


def _may_prompt(line: str) -> bool:
    # Every prompt `_PROMPT` strips has a `$`, a `%` or a `PS`: most lines have none.
    return "$" in line or "%" in line or "PS" in line


def _strip_comment(text: str) -> str:
    """Drop a trailing ` # comment` (outside quotes)."""
    if "#" not in text:
        return text
    for m in _COMMENT_TOKEN.finditer(text):
        i = m.start()
        if m.group() == "#" and i > 0 and text[i - 1] in " \t":
            return text[:i].rstrip()
    return text


def segments(text: str) -> list[str]:
    """Split a command line into simple commands at `&&`, `||`, `;`, `|`, `$(` and `(`."""
    out: list[str] = []
    buf: list[str] = []
    # Quoted strings (to their closing quote, or the end) are kept whole; backslashes do not
    # escape, as in the shell's single quotes.
    for m in _SEGMENT_TOKEN.finditer(text):
        tok = m.group()
        if tok in _SEPARATORS:
            out.append("".join(buf).strip())
            buf = []
        else:
            buf.append(tok)
    out.append("".join(buf).strip())
    return [s for s in out if s]


def words(segment: str) -> list[str]:
    """Shell words of one simple command, quotes removed (no expansion)."""
    out = []
    for tok in _TOKEN.findall(segment):
        if len(tok) >= 2 and tok[0] == tok[-1] and tok[0] in "\"'":
            tok = tok[1:-1]
        out.append(tok)
    return out


def program(ws: list[str]) -> int:
    """Index of the word that names the program, past `VAR=x`, `sudo`, `env`, `time`."""
    i = 0
    while i < len(ws):
        w = ws[i]
        if _ENV_ASSIGN.match(w) or w in _PREFIX_WORDS:
            i += 1
        elif i > 0 and ws[i - 1] in _PREFIX_WORDS and w.startswith("-"):
            i += 1  # `sudo -E python x.py`
        else:
            return i
    return len(ws)


# --- which script a command runs ------------------------------------------------------

PYTHON_PROGRAM = rx(r"^(?:python|pypy)(?:\d+(?:\.\d+)?)?(?:\.exe)?$")
_SIMPLE_INTERPRETERS = frozenset({
    "bash", "sh", "zsh", "dash", "ksh", "fish", "node", "nodejs", "ruby", "perl", "php", "lua",
    "Rscript", "tsx", "ts-node", "osascript", "source", ".", "py", "bun", "deno", "pwsh",
    "powershell",
})
# Options of interpreters and runners that take a value (`uv run --with rich x.py`).
_VALUE_OPTIONS = frozenset({
    "-X", "-W", "--with", "--python", "-p", "--project", "--directory", "--extra",
    "--group", "--env-file", "--index", "--from", "-r", "--require", "-I", "--import",
    "--loader", "--config", "-File", "-ExecutionPolicy", "-n", "--name",
})
# `uv run`, `poetry run`, `pipenv run`, `conda run -n env`, `npx tsx`, `bun run`, `deno run`.
_RUNNERS = {"uv": "run", "poetry": "run", "pipenv": "run", "conda": "run", "hatch": "run",
            "pdm": "run", "rye": "run", "bun": "run", "deno": "run"}
_TS_RUNNERS = ("tsx", "ts-node")
_SCRIPT_FILE = rx(r"\.(?:py|sh|bash|zsh|js|mjs|cjs|ts|rb|pl|php|lua|r|ps1)$", re.IGNORECASE)


class ScriptRun(NamedTuple):
    """A script path a command runs; `direct` when run as `./x` with no interpreter."""

    path: str
    direct: bool
    interpreter: str = ""


def script_runs(text: str) -> list[ScriptRun]:
    """Scripts a command line runs, by interpreter (`python x.py`) or directly (`./x`)."""
    out: list[ScriptRun] = []
    for seg in segments(text):
        run = segment_run(words(seg))
        if run is not None:
            out.append(run)
    return out


def segment_run(ws: list[str]) -> ScriptRun | None:
    """The script one simple command (its shell `words`) runs, if any. A segment is its own
    only segment, so `script_runs(seg)` is this of `words(seg)`."""
    i = program(ws)
    if i >= len(ws):
        return None
    prog = ws[i]
    if "/" in prog and not prog.startswith("-"):
        return ScriptRun(prog, direct=True)
    name = prog.rsplit("/", 1)[-1]
    j = i + 1
    after = ws[j] if j < len(ws) else ""
    if _RUNNERS.get(name) == after or name in ("npx", "bunx", "pnpx") and after in _TS_RUNNERS:
        j += 1
    elif not (PYTHON_PROGRAM.match(name) or name in _SIMPLE_INTERPRETERS):
        return None
    j = _skip_options(ws, j)
    # `uv run python x.py`, `poetry run python x.py`
    if j < len(ws) and (PYTHON_PROGRAM.match(ws[j]) or ws[j] in _SIMPLE_INTERPRETERS):
        j = _skip_options(ws, j + 1)
    if j < len(ws) and _looks_like_script(ws[j]):
        return ScriptRun(ws[j], direct=False, interpreter=name)
    return None


def _skip_options(ws: list[str], j: int) -> int:
    while j < len(ws) and ws[j].startswith("-") and ws[j] != "-":
        if ws[j] in ("-m", "-c", "-e"):
            return len(ws)  # a module or inline code, not a script file
        j += 2 if ws[j] in _VALUE_OPTIONS and "=" not in ws[j] else 1
    return j


def _looks_like_script(word: str) -> bool:
    return "/" in word or bool(_SCRIPT_FILE.search(word))
