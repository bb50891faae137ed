"""Lexing shell command lines into simple commands, and resolving the path tokens in them.

Best effort and never raising: a command that does not lex (an unclosed quote) is read line
by line, then split on whitespace. Nothing here runs anything. skillforge.trajectory.shell_reading
builds on it to say what a command touches.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass, field

_PUNCT = ";&|<>\n"
_PIPES = {"|", "|&"}
_HEREDOC = re.compile(r"(?<!<)<<(-?)[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\2")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
PREFIX_COMMANDS = {"sudo", "env", "exec", "time", "nohup", "command", "nice", "timeout",
                   "stdbuf", "xargs", "doas"}


@dataclass
class SimpleCommand:
    """One simple command: its words (redirections taken out), its redirections as
    (operator, target) pairs, and the previous stage of its pipeline."""

    words: list[str]
    redirects: list[tuple[str, str]] = field(default_factory=list)
    piped_from: SimpleCommand | None = None

    @property
    def name(self) -> str:
        return posixpath.basename(self.words[0]).lower() if self.words else ""


def strip_prefix(words: list[str]) -> list[str]:
    """Words without leading assignments and wrappers (`FOO=1 sudo -E python x` -> python x)."""
    i = 0
    while i < len(words):
        base = posixpath.basename(words[i]).lower()
        if _ASSIGNMENT.match(words[i]):
            i += 1
        elif base in PREFIX_COMMANDS:
            i += 1
            while i < len(words) and (words[i].startswith("-") or (
                    base in ("timeout", "nice") and words[i][:1].isdigit())):
                i += 2 if words[i] in ("-u", "-g", "-n") else 1
        else:
            break
    # `env` or `time` alone is the command itself (env prints the environment).
    return words[i:] or words[-1:]


def split_heredocs(command: str) -> tuple[str, list[tuple[str, str]]]:
    """The command without heredoc bodies, and (line feeding it, body) for each heredoc."""
    lines = command.split("\n")
    kept: list[str] = []
    docs: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        kept.append(line)
        i += 1
        for m in _HEREDOC.finditer(line):
            body: list[str] = []
            while i < len(lines):
                candidate = lines[i].lstrip("\t") if m.group(1) else lines[i]
                i += 1
                if candidate.strip() == m.group(3):
                    break
                body.append(lines[i - 1])
            docs.append((line[: m.start()], "\n".join(body)))
    return "\n".join(kept), docs


def _tokens(text: str) -> list[str]:
    try:
        lexer = shlex.shlex(text.replace("\\\n", " "), posix=True, punctuation_chars=_PUNCT)
        lexer.whitespace_split = True
        lexer.whitespace = " \t\r"
        lexer.commenters = ""
        return list(lexer)
    except ValueError:  # an unclosed quote
        if "\n" in text:
            return [t for line in text.split("\n") for t in (*_tokens(line), "\n")]
        return text.split()


def parse(command: str) -> list[SimpleCommand]:
    """The simple commands of a command line (heredoc bodies left out), in order."""
    tokens = _tokens(split_heredocs(command)[0])
    out: list[SimpleCommand] = []
    current = SimpleCommand(words=[])
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok and set(tok) <= set(";&|\n"):
            if current.words or current.redirects:
                out.append(current)
            piped = tok in _PIPES and bool(current.words)
            current = SimpleCommand(words=[], piped_from=current if piped else None)
        elif tok and set(tok) <= set("<>&"):
            if len(current.words) > 1 and current.words[-1].isdigit():
                current.words.pop()  # the fd number of `2>`
            target = tokens[i + 1] if i + 1 < len(tokens) else ""
            current.redirects.append((tok, "" if tok.startswith("<<") and tok != "<<<"
                                      else target))
            i += 1
        else:
            current.words.append(tok)
        i += 1
    if current.words or current.redirects:
        out.append(current)
    for cmd in out:
        cmd.words = strip_prefix(cmd.words)
    return out


def resolve(token: str, cwd: str) -> str | None:
    """An absolute (or `~/...`) normalised path for a path token; None when unknown."""
    t = token.strip()
    if t.startswith(("@", "<")) and len(t) > 1:
        t = t[1:]  # curl's `-d @file`, `-F x=<file`
    if t.startswith(("$(", "`")) or "://" in t:
        return None
    if t.endswith(")") and "(" not in t:
        t = t.rstrip(")")  # the tail of an unquoted `$(cat /x)`
    for var in ("${HOME}", "$HOME"):
        if t == var or t.startswith(var + "/"):
            t = "~" + t[len(var):]
    if t.startswith("$") or not t:
        return None
    if t.startswith("~"):
        head, _, rest = t.partition("/")
        rest = posixpath.normpath(rest) if rest else ""
        return head if rest in ("", ".") else f"{head}/{rest}"
    if not t.startswith("/"):
        t = posixpath.join(cwd, t)
    p = posixpath.normpath(t)
    return "/" + p.lstrip("/") if p.startswith("//") else p


def is_remote(token: str) -> bool:
    """True for a `host:path` remote spec (scp, rsync), which names no local file."""
    return not token.startswith(("/", "~", ".")) and bool(
        re.match(r"^(?:[\w.+-]+@)?[\w.-]+:(?!//)", token))


def looks_like_path(token: str) -> bool:
    """True when an argument reads as a file path (absolute, home-relative, or with a /)."""
    if token.startswith(("@", "<")):
        token = token[1:]
    if not token or token.startswith("-") or "://" in token or is_remote(token):
        return False
    if token.startswith(("/", "~", "$HOME", "${HOME}")) or token in (".", ".."):
        return True
    return "/" in token and not token.startswith("$")


def shorten(text: str, limit: int = 80) -> str:
    """A command on one line for a message: backticks made quotes, cut to `limit` chars."""
    text = " ".join(text.split()).replace("`", "'")
    return text if len(text) <= limit else text[: limit - 3] + "..."
