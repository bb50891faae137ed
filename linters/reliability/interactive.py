"""Scripts that wait for a person at the keyboard (SF306): an agent has none.

Python scripts are read with `ast` (a prompt behind `if sys.stdin.isatty():` is fine), shell
scripts by their `read`/`select` commands, JavaScript by its readline/prompt calls.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from functools import lru_cache

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding
from skillforge.models.skill import SkillFile

_PY_PROMPT_CALLS = {"input", "raw_input", "getpass"}
_PY_PROMPT_ATTRS = {("getpass", "getpass"), ("click", "prompt"), ("click", "confirm"),
                    ("typer", "prompt"), ("typer", "confirm"), ("Prompt", "ask"),
                    ("Confirm", "ask"), ("IntPrompt", "ask"), ("questionary", "text"),
                    ("questionary", "select"), ("questionary", "confirm"), ("inquirer", "prompt")}
# `read` where a command starts: line start, after `;` `&&` `|` `(` `{` `!`, or after a
# keyword; `IFS= read` assignments allowed in between. An assignment's value stops at a
# command substitution: in `TOKEN=$(op read op://vault/item)` the command is 1Password's
# `op read`, which prints a secret, not the shell's `read`, which waits for the keyboard.
# The value is read one character (or one quoted string) at a time: a `+` inside the `*`
# backtracked exponentially on a long unquoted value with no `read` after it.
_SH_READ = rx(
    r"(?:^|[;&|({!]|\b(?P<kw>then|do|else|if|while|until|elif)\b)[ \t]*"
    r"(?:\w+=(?:\$'[^'\n]*'|'[^'\n]*'|\"[^\"\n]*\"|[^\s$`'\"(])*[ \t]+)*"
    r"read\b(?P<args>[^\n;&|]*)",
    re.MULTILINE,
)
_READ_OPTS = rx(r"(?:^|\s)-[a-zA-Z]*[ut]\b")
_SH_SELECT = rx(r"^\s*select\s+\w+\s+in\b", re.MULTILINE)
_JS_PROMPT = rx(r"\.question\(|readlineSync\.\w+\(|inquirer\.prompt\(|\bprompts\(")
_SHELL_SUFFIXES = {".sh", ".bash", ".zsh", ".ksh"}
_TTY_GUARD = rx(r"-t\s+[01]\b|isatty")
_FED_DONE = rx(r"done\s*(?:<|\|)")
_SH_SHEBANG = rx(r"\b(?:ba|z|k|da)?sh\b")


def _language(f: SkillFile) -> str:
    first = f.text.split("\n", 1)[0] if f.text else ""
    if f.suffix == ".py" or (first.startswith("#!") and "python" in first):
        return "python"
    if f.suffix in _SHELL_SUFFIXES or (first.startswith("#!") and _SH_SHEBANG.search(first)):
        return "shell"
    if f.suffix in (".js", ".mjs", ".cjs", ".ts"):
        return "js"
    return ""


@lru_cache(maxsize=512)
def _python_prompts(text: str) -> tuple[tuple[int, str], ...]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _python_prompts_by_tokens(text)
    out: list[tuple[int, str]] = []
    guarded: set[int] = set()
    for node in ast.walk(tree):
        # A prompt behind `if sys.stdin.isatty():` does not block a non-interactive run.
        if isinstance(node, ast.If) and "isatty" in ast.dump(node.test):
            guarded.update(id(n) for child in node.body + node.orelse for n in ast.walk(child))
        if not isinstance(node, ast.Call) or id(node) in guarded:
            continue
        fn = node.func
        if isinstance(fn, ast.Name) and fn.id in _PY_PROMPT_CALLS:
            out.append((node.lineno, f"{fn.id}()"))
        elif (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name)
              and (fn.value.id, fn.attr) in _PY_PROMPT_ATTRS):
            out.append((node.lineno, f"{fn.value.id}.{fn.attr}()"))
    return tuple(sorted(out))


def _python_prompts_by_tokens(text: str) -> tuple[tuple[int, str], ...]:
    """Prompt calls of a file that does not parse: its tokens, so a docstring or comment
    that names input() is not a call (a regex over lines took them for one)."""
    out: list[tuple[int, str]] = []
    last: list[tokenize.TokenInfo] = []  # the last three significant tokens
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in skip:
                continue
            if tok.type == tokenize.OP and tok.string == "(" and last and \
                    last[-1].type == tokenize.NAME:
                name = last[-1]
                dotted = len(last) > 1 and last[-2].string == "."
                owner = last[-3].string if dotted and len(last) > 2 else None
                if not dotted and name.string in _PY_PROMPT_CALLS:
                    out.append((name.start[0], f"{name.string}()"))
                elif (owner, name.string) in _PY_PROMPT_ATTRS:
                    out.append((name.start[0], f"{owner}.{name.string}()"))
            last = (last + [tok])[-3:]
    except (tokenize.TokenError, SyntaxError):
        pass  # what was read before the tokens gave out still counts
    return tuple(sorted(out))


def _shell_prompts(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for m in _SH_READ.finditer(text):
        args = m.group("args")
        if m.group("kw") in ("while", "until") or m.group(0).startswith("|"):
            continue  # `while read line`, `cmd | read x`: reads piped data, not the keyboard
        if "/dev/tty" not in args and ("<" in args or _READ_OPTS.search(args)):
            continue  # `read x < file`, `read -u 3`, `read -t 5` (gives up on its own)
        line_start = text.rfind("\n", 0, m.start()) + 1
        pre = text[line_start:m.start()]
        if pre.count('"') % 2 or pre.count("'") % 2 or "#" in pre:
            continue  # inside a string or a comment
        window = text[text.rfind("\n", 0, max(0, line_start - 200)) + 1:m.start()]
        if _TTY_GUARD.search(window) or _in_fed_loop(text, m.start()):
            continue  # guarded by a terminal check, or inside `while ...; do ... done < file`
        out.append((text.count("\n", 0, m.start()) + 1, "read -p" if "-p" in args else "read"))
    out += [(text.count("\n", 0, m.start()) + 1, "select") for m in _SH_SELECT.finditer(text)]
    return sorted(out)


def _in_fed_loop(text: str, pos: int) -> bool:
    """`pos` is inside a `while`/`until` loop whose input is a pipe or a redirect."""
    start = max(text.rfind("while", 0, pos), text.rfind("until", 0, pos))
    end = text.find("done", pos)
    if start < 0 or end < 0 or "done" in text[start:pos]:
        return False
    head = text[text.rfind("\n", 0, start) + 1:start]
    return "|" in head or _FED_DONE.match(text[end:end + 12]) is not None


@check("SF306")
def interactive_scripts(ctx: LintContext) -> Iterator[Finding]:
    """Scripts must not block on a prompt: an agent has no keyboard."""
    for f in ctx.skill.scripts:
        if f.text is None:
            continue
        lang = _language(f)
        if lang == "python":
            hits = list(_python_prompts(f.text))
        elif lang == "shell":
            hits = _shell_prompts(f.text)
        elif lang == "js":
            hits = [(f.text.count("\n", 0, m.start()) + 1, m.group(0).rstrip("("))
                    for m in _JS_PROMPT.finditer(f.text)]
        else:
            continue
        if hits:
            line, what = hits[0]
            more = f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""
            yield ctx.finding(
                "SF306",
                f"{f.path} waits for keyboard input with {what} at line {line}{more}, which "
                "hangs an agent; take the value from an argument, an environment variable or "
                "a `--yes` flag instead.",
                path=f.path,
                line=line,
            )
