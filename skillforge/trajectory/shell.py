"""Shell command lines as the trajectory facts read them: the SKILL.md files they print,
the skill scripts they run and the files they redirect into (skillforge.trajectory.facts).

Best effort and never raising: a line that does not lex is read line by line, then split on
separators. `cd` is followed within one command line. This reading is deliberately simpler
than the security metric's (skillforge.trajectory.shell_reading); the facts' formulas rely on it.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator, Sequence

from skillforge.workspace.skill_paths import skill_path

PRINTERS = {"cat", "head", "tail", "sed", "less", "more", "bat", "batcat", "nl", "awk", "view",
            "tac", "get-content", "type", "pygmentize"}
INTERPRETER = re.compile(r"^(python[\d.]*|bash|sh|zsh|dash|node|ruby|perl|deno|bun|tsx|"
                         r"ts-node|rscript|pwsh|php|lua)$", re.IGNORECASE)
_RUNNERS = {"uv", "poetry", "pipenv", "npx", "pnpm", "yarn"}
_SEPARATORS = {"&&", "||", ";", "|", "&", "\n"}


def _words(command: str) -> list[list[str]]:
    """Simple commands of a command line, as word lists (best effort, never raises)."""
    try:
        return _lex(command)
    except ValueError:  # a quote spans lines (or never closes): lex line by line
        out: list[list[str]] = []
        for line in command.splitlines():
            try:
                out += _lex(line)
            except ValueError:
                out += [part.split() for part in re.split(r"&&|\|\||;|\|", line)]
        return [w for w in out if w]


def _lex(command: str) -> list[list[str]]:
    lexer = shlex.shlex(command.replace("\n", " ; "), posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = ""
    out: list[list[str]] = [[]]
    for token in lexer:
        if token in _SEPARATORS or set(token) <= set(";&|"):
            out.append([])
        else:
            out[-1].append(token)
    return [w for w in out if w]


def _strip_prefix(words: list[str]) -> list[str]:
    i = 0
    while i < len(words) and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[i])
                              or words[i] in ("sudo", "env", "exec", "time", "nohup", "command")):
        i += 1
    return words[i:]


def _resolve(token: str, cwd: str | None) -> str:
    if cwd and not token.startswith(("/", "~", "$")):
        return posixpath.normpath(posixpath.join(cwd, token))
    return token


def _commands(command: str) -> Iterator[tuple[list[str], str | None]]:
    """(words, working folder) of each simple command, prefixes stripped and `cd` followed."""
    cwd: str | None = None
    for words in _words(command):
        words = _strip_prefix(words)
        if not words:
            continue
        if words[0] == "cd" and len(words) > 1:
            cwd = _resolve(words[1], cwd)
            continue
        yield words, cwd


def shell_reads(command: str, skills_dirs: Sequence[str]) -> list[str]:
    """Names of the skills whose SKILL.md the command line prints (cat, head, sed...)."""
    names = []
    for words, cwd in _commands(command):
        if posixpath.basename(words[0]).lower() not in PRINTERS:
            continue
        for token in words[1:]:
            hit = skill_path(_resolve(token, cwd), skills_dirs)
            if hit and hit[1] == "SKILL.md":
                names.append(hit[0])
    return names


def executed_scripts(command: str, skills_dirs: Sequence[str]) -> list[tuple[str, str]]:
    """(skill name, scripts/... path) for each skill script the command line runs."""
    runs = []
    for words, cwd in _commands(command):
        target = words[0]
        rest = words[1:]
        if posixpath.basename(target) in _RUNNERS and rest[:1] in (["run"], ["exec"]):
            rest = rest[1:]
            target, rest = (rest[0], rest[1:]) if rest else ("", [])
        if INTERPRETER.match(posixpath.basename(target)):
            positional = [w for w in rest if not w.startswith("-")]
            target = positional[0] if positional else ""
        hit = skill_path(_resolve(target, cwd), skills_dirs) if target else None
        if hit and hit[1].startswith("scripts/"):
            runs.append(hit)
    return runs


def shell_writes(command: str) -> list[str]:
    """Files the command line writes: `>`/`>>` targets and tee's arguments."""
    paths = []
    for words in _words(command):
        for i, w in enumerate(words):
            target = None
            if w in (">", ">>") and i + 1 < len(words):
                target = words[i + 1]
            elif re.match(r"^\d?>>?[^>&]", w):
                target = re.sub(r"^\d?>>?", "", w)
            elif posixpath.basename(words[0]) == "tee" and i > 0 and not w.startswith("-"):
                target = w
            if target and not target.startswith(("/dev/", "&")):
                paths.append(target)
    return paths
