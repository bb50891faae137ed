"""Where shipped code may run a string it holds: the soundness fallback of `inert_code`.

`inert_code` calls a command-shaped string in code `info` when it is data the code never
runs. It follows a variable by name through a few lines, which misses most real flows: a
class attribute (`Step.cmd`), a parameter, a return value, a container, a format string, a
constant imported from a sibling module, a value of a JSON file a script loads. So the
"never runs" readings hold only where no such flow can exist:

- a file of code with an execution sink whose argument is not a literal (`os.system(cmd)`,
  `subprocess.run(x, shell=True)`, `["sh", "-c", x]`, `eval(x)`, `pty.spawn(x)`; in a shell
  script `eval "$x"`, `sh -c "$x"`, `$CMD` as a command) may run any string it holds;
  a template whose command word is a fixed program that is no shell and whose values sit
  in quoted arguments (`exec(`${opener} "${url}"`)`) runs that program, as an argv list does;
- so may a file such a file reads: a module it imports (by name), a data file it names,
  or any data file of a format it reads under a computed name (`f"{step}.json"`), and so
  on through the files those read (`exposed_files`).

Comments, docstrings and strings the code only compares stay inert whatever the file runs.
"""

from __future__ import annotations

import re
from functools import lru_cache

from linters.text.compiled_regex import rx

SHELL_EXT = (".sh", ".bash", ".zsh", ".ksh", ".command")
CODE_EXT = (".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".rb", ".go", ".rs",
            ".java", ".kt", ".swift", ".php", ".cs", ".lua", ".pl")
DATA_EXT = (".json", ".jsonl", ".ndjson", ".yaml", ".yml", ".toml")


def file_kind(path: str, text: str) -> str | None:
    """"shell" | "code" | "data" | None for a shipped file (not Markdown)."""
    low = path.lower()
    if low.endswith(SHELL_EXT) or text.startswith(
        ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash", "#!/usr/bin/env sh")
    ):
        return "shell"
    if low.endswith(CODE_EXT) or text.startswith("#!/usr/bin/env python"):
        return "code"
    return "data" if low.endswith(DATA_EXT) else None


# --- a sink with a computed argument in code --------------------------------------------------

# Calls that run their argument whatever object they are called on.
_ANY_RECEIVER = (
    r"system|popen|Popen|check_output|check_call|getoutput|getstatusoutput|spawn\w*|"
    r"exec[lv]p?e?|posix_spawnp?|create_subprocess_shell|create_subprocess_exec|"
    r"execSync|execFile(?:Sync)?|spawnSync|shell_exec|passthru|proc_open"
)
_CALL = rx(
    rf"(?<![\w$])(?:(?P<recv>[A-Za-z_]\w*)\s*\.\s*)?(?P<fn>{_ANY_RECEIVER}|run|call|exec|eval)"
    r"\s*\("
)
_DEF_BEFORE = rx(r"(?:\bdef|\bfunction|\bfn|\bfunc)\s*$")
_GETATTR_SINK = rx(r"\bgetattr\s*\(\s*(?:os|subprocess|pty|builtins|__builtins__|asyncio)\b")
_SUBPROCESS_ALIAS = rx(r"\bimport\s+subprocess\s+as\s+(\w+)")
_FROM_SUBPROCESS = rx(r"\bfrom\s+subprocess\s+import\b")
# A runner taken as a value (`sink = os.system`, `from os import system as sh`): what the
# name is later called with cannot be told apart from any other call.
_SINK_VALUE = rx(
    r"\b(?:os|subprocess|pty|asyncio)\s*\.\s*(?:system|popen|run|call|Popen|check_output|"
    r"check_call|getoutput|getstatusoutput|spawn\w*|exec\w*|create_subprocess_\w+)\b(?!\s*\()"
    r"|\bfrom\s+(?:os|pty|asyncio|subprocess)\s+import\b[^\n]*\bas\b"
    r"|\b(?:getattr|globals|locals|vars)\s*\([^)\n]*\b(?:system|popen|exec|eval)\b"
)
_SHELL_PROGRAMS = rx(
    r"(?:.*/)?(?:(?:ba|z|k|da|fi|c|tc)?sh|python[\d.]*|node|deno|bun|ruby|perl|php|pwsh|"
    r"powershell|cmd(?:\.exe)?|osascript|env|sudo|xargs|nohup|timeout|uv|uvx|npx)"
)
# An argument that is a literal: quoted text (concatenated), without interpolation.
_LITERAL_ARG = rx(
    r"""\s*(?:[rRbBuU]{0,2}(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')\s*\+?\s*)+"""
)


def _matching(text: str, open_at: int) -> int:
    """The index just past the bracket matching text[open_at], skipping string literals."""
    depth, i, quote = 0, open_at, ""
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
        elif ch in "\"'`":
            quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else ch
            i += len(quote)
            continue
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _split_args(inner: str) -> list[str]:
    """Top-level comma-separated parts of an argument list (string literals respected)."""
    parts, start, i = [], 0, 0
    while i < len(inner):
        ch = inner[i]
        if ch in "([{\"'`":
            i = _matching(inner, i) if ch in "([{" else _past_string(inner, i)
            continue
        if ch == ",":
            parts.append(inner[start:i])
            start = i + 1
        i += 1
    parts.append(inner[start:])
    return [p.strip() for p in parts if p.strip()]


def _past_string(text: str, i: int) -> int:
    quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else text[i]
    j = i + len(quote)
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text.startswith(quote, j):
            return j + len(quote)
        j += 1
    return len(text)


def _literal(arg: str) -> bool:
    return _LITERAL_ARG.fullmatch(arg) is not None


def _program(arg: str) -> str:
    return arg.strip().lstrip("rRbBuU")[1:-1].strip().split(" ")[0]


def _computed(fn: str, args: list[str]) -> bool:
    """The call's arguments may hold a string from elsewhere that it runs as code."""
    positional = [a for a in args if not re.match(r"^\*{0,2}[A-Za-z_]\w*\s*=(?!=)", a)]
    shell = any(re.match(r"^shell\s*=\s*(?!False\b)", a) for a in args)
    if any(a.startswith("*") for a in positional):
        return True
    if not positional:
        return False
    first = positional[0]
    if fn in ("create_subprocess_exec", "execFile", "execFileSync") or fn.startswith(
        ("spawn", "exec", "posix_spawn")
    ) and fn not in ("exec", "execSync"):
        argv = positional
    elif first[:1] in "[(" and first[-1:] in "])":
        argv = _split_args(first[1:-1])
    else:
        return not _literal(first)
    if not argv or not _literal(argv[0]):
        return True
    if shell:
        return False  # shell=True with a list: only its literal first item is the command
    return _SHELL_PROGRAMS.fullmatch(_program(argv[0])) is not None and not all(
        map(_literal, argv)
    )


@lru_cache(maxsize=256)
def code_runs_computed(text: str) -> bool:
    """A file of code with an execution sink whose argument is not a literal."""
    if _GETATTR_SINK.search(text) or _SINK_VALUE.search(text):
        return True
    aliases = {"subprocess", *_SUBPROCESS_ALIAS.findall(text)}
    bare_run = _FROM_SUBPROCESS.search(text) is not None
    for m in _CALL.finditer(text):
        fn, recv = m.group("fn"), m.group("recv")
        if _DEF_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue
        if fn in ("run", "call") and not (recv in aliases or (recv is None and bare_run)):
            continue
        if fn in ("exec", "eval") and recv not in (None, "child_process", "cp", "builtins"):
            continue
        close = _matching(text, m.end() - 1)
        inner = text[m.end() : close - 1]
        if "${" in inner and "`" in inner:
            if _fixed_program(inner, text):
                continue  # `exec(`${opener} "${url}"`)`: the program is fixed
            return True  # a JavaScript template with a substitution
        if re.search(r"""\b[fF][rR]?["'][^"'\n]*\{""", inner):
            return True  # an f-string with a placeholder
        if _computed(fn, _split_args(inner)):
            return True
    return False


# A template that is one program and quoted arguments: `${cmd} "${url}"`, `open '${path}'`.
_TEMPLATE = rx(r"""^\s*`(?P<prog>[\w./-]+|\$\{\s*(?P<var>[A-Za-z_$][\w$]*)\s*\})"""
               r"""(?P<args>(?:\s+(?:[\w./=:-]+|"[^"`\\]*"|'[^'`\\]*'))*)\s*`\s*$""")
_STRING = r"""(?:"[^"\\\n]*"|'[^'\\\n]*')"""


def _fixed_program(inner: str, text: str) -> bool:
    """A template handed to a runner whose command word is a literal program (or a variable
    the file binds only to literal programs, `const cmd = isMac ? "open" : "xdg-open"`), not
    a shell, and whose substitutions all sit inside quoted arguments: it runs that program
    with the values as its arguments, as an argv list with a literal program does."""
    t = _TEMPLATE.match(inner)
    if t is None or "${" in _unquoted(t.group("args")):
        return False
    progs = [t.group("prog")]
    if t.group("var"):
        binds = re.findall(rf"(?<![\w$.]){re.escape(t.group('var'))}\s*=(?!=)\s*([^;\n]+)", text)
        if not binds:
            return False
        progs = []
        for rhs in binds:
            values = re.fullmatch(rf"(?:[^?:;\n]+\?\s*({_STRING})\s*:\s*)*({_STRING})\s*;?\s*",
                                  rhs.strip())
            if values is None:
                return False
            progs += re.findall(rf"\?\s*({_STRING})\s*:", rhs) + [values.group(2)]
        progs = [p[1:-1] for p in progs]
    return all(p and "$" not in p and not _SHELL_PROGRAMS.fullmatch(p) for p in progs)


def _unquoted(args: str) -> str:
    return re.sub(r""""[^"]*"|'[^']*'""", "", args)


# --- a shell script that runs a computed string -----------------------------------------------

_SH_COMPUTED = rx(
    r"\beval\b[^\n#]*\$"
    r"|\b(?:ba|z|k|da)?sh\s+(?:-\w+\s+)*-c\s+[^\n#]*\$"
    r"|\b(?:source|\.)\s+[\"']?(?:<\(|\$)"
    r"|(?:^|[;&|({]|\bthen|\bdo|\belse|\bexec|\bsudo|\bxargs|\bnohup|\bcommand|\btime)"
    r"\s*[\"']?\$(?:\{?[A-Za-z_@*]|\()"
    r"|\$[^\n|#]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b"
    r"|\b(?:ba|z|k|da)?sh\b[^\n|#]*<<<\s*[\"']?\$",
    re.MULTILINE,
)


@lru_cache(maxsize=256)
def shell_runs_computed(text: str) -> bool:
    """A shell script that runs a string it computes: `eval "$x"`, `sh -c "$x"`, `$CMD`."""
    return _SH_COMPUTED.search(text) is not None


def runs_computed(text: str, kind: str) -> bool:
    if kind == "shell":
        return shell_runs_computed(text)
    return kind == "code" and code_runs_computed(text)


# --- the files such code reads ------------------------------------------------------------------

_DYNAMIC_IMPORT = rx(r"\b(?:import_module|__import__|run_path|run_module|require)\s*\(\s*(?![\"'])")
_IMPORT_LINE = rx(r"^.*\b(?:import|require|source|load|open|include)\b.*$", re.MULTILINE)


def _mentions(reader: str, path: str, kind: str | None) -> bool:
    """`reader` (the text of a file that runs computed strings, or reads for one) names
    `path`, or reads files like it under a computed name."""
    parts = path.split("/")
    base = parts[-1]
    if re.search(rf"(?<![\w-]){re.escape(base)}\b", reader):
        return True
    stem = base.rsplit(".", 1)[0]
    if stem == "__init__" and len(parts) > 1:
        stem = parts[-2]
    if kind == "code" and any(
        re.search(rf"\b{re.escape(stem)}\b", line) for line in _IMPORT_LINE.findall(reader)
    ):
        return True
    if kind == "code" and _DYNAMIC_IMPORT.search(reader):
        return True
    ext = base.rsplit(".", 1)[-1].lower() if "." in base else ""
    if kind == "data" and ext:
        exts = "ya?ml" if ext in ("yaml", "yml") else re.escape(ext)
        return re.search(rf"(?<![\w-])\.{exts}\b", reader, re.IGNORECASE) is not None
    return False


def exposed_files(files: list[tuple[str, str]]) -> frozenset[str]:
    """The paths of shipped files whose strings code may run: files of code that run a
    computed string, and the files they read, transitively. `files`: (path, text)."""
    kinds = {path: file_kind(path, text) for path, text in files}
    texts = dict(files)
    exposed = {p for p, k in kinds.items() if k in ("code", "shell") and runs_computed(texts[p], k)}
    frontier = list(exposed)
    while frontier:
        reader = texts[frontier.pop()]
        for path, kind in kinds.items():
            if kind is not None and path not in exposed and _mentions(reader, path, kind):
                exposed.add(path)
                if kind in ("code", "shell"):
                    frontier.append(path)
    return frozenset(exposed)
