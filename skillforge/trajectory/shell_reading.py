"""Reading a shell command line: which paths it reads, writes or enters, which files it
executes, and why it sends data over the network (CONTRACTS.md section 7).

`read_command(command, cwd)` parses the line (skillforge.trajectory.shell_parse), follows `cd` from
command to command, reads heredoc bodies fed to shells and interpreters, `bash -c` and
`$(...)` text (three levels deep), and the code of `python -c`, `node -e` and interpreter
heredocs (string literals naming system folders or the home folder). Which arguments count
as paths is described in skillforge.metrics.security. Never raises; runs nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from skillforge.metrics.exfiltration import code_exfiltration, network
from skillforge.trajectory.shell_parse import (
    SimpleCommand,
    looks_like_path,
    parse,
    resolve,
    split_heredocs,
)

_SUBST = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")
INTERPRETER = re.compile(r"^(python[\d.]*|node|nodejs|ruby|perl|php|deno|bun|tsx|ts-node|"
                         r"rscript|lua|pwsh|powershell)$", re.IGNORECASE)
SHELLS = re.compile(r"^(ba|z|da|k|fi|c|tc)?sh$")
# Their arguments are text, not paths.
TEXT_COMMANDS = {"echo", "printf", "export", "alias", "which", "type", "true", "false", "read",
                 "set", "unset", ":", "whoami", "id", "date", "hostname", "uname", "pwd",
                 "sleep", "exit", "return", "local", "declare", "wait", "kill", "jobs"}
# Their first positional argument is a pattern or a program, not a path.
PATTERN_FIRST = {"grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "mawk",
                 "nawk", "jq", "yq"}
# Options of those tools that take the next word as their value.
PATTERN_VALUE_OPTS = {"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C",
                      "-g", "--glob", "--iglob", "-t", "--type", "-T", "--type-not", "-M",
                      "-j", "-v", "-F", "--arg", "--argjson", "-l", "-d", "-D", "--expression"}
WRITE_COMMANDS = {"touch", "mkdir", "rm", "rmdir", "unlink", "shred", "truncate", "chmod",
                  "chown", "chgrp", "mkfifo", "mknod", "tee"}
COPY_COMMANDS = {"cp", "mv", "install", "ln", "rsync"}
SENSITIVE_TOPS = {"etc", "root", "home", "proc", "sys", "var", "usr", "opt", "srv", "mnt",
                  "media", "boot", "dev", "run", "lib", "bin", "sbin", "Users", "private",
                  "Volumes", "Library"}
_CODE_PATH = re.compile(r"(['\"])((?:~|/)(?:[^'\"\n\\]|\\.)*)\1")


@dataclass
class ShellReading:
    """What one command line touches: (path, 'reads' | 'writes' | 'enters') pairs,
    exfiltration reasons, and the files it executes (to find scripts the agent wrote)."""

    paths: list[tuple[str, str]] = field(default_factory=list)
    exfiltration: list[str] = field(default_factory=list)
    executed: list[str] = field(default_factory=list)

    def merge(self, other: ShellReading) -> None:
        self.paths += other.paths
        self.exfiltration += other.exfiltration
        self.executed += other.executed


def read_command(command: str, cwd: str, depth: int = 0) -> ShellReading:
    """Paths, exfiltration and executed files of one command line, run in `cwd`."""
    reading = ShellReading()
    text, docs = split_heredocs(command)
    for feeding, body in docs:
        consumers = parse(feeding)
        name = consumers[-1].name if consumers else ""
        if SHELLS.match(name) and depth < 3:
            reading.merge(read_command(body, cwd, depth + 1))
        elif INTERPRETER.match(name):
            _read_code(body, reading)
    if depth < 3:
        for m in _SUBST.finditer(text):
            inner = m.group(1) if m.group(1) is not None else m.group(2)
            if inner.strip():
                reading.merge(read_command(inner, cwd, depth + 1))
    for cmd in parse(text):
        cwd = _read_simple(cmd, cwd, reading, depth)
    return reading


def _read_simple(cmd: SimpleCommand, cwd: str, reading: ShellReading, depth: int) -> str:
    """Record what one simple command touches; returns the working directory after it."""
    for op, target in cmd.redirects:
        if not target or target.startswith("&") or target.isdigit() or op == "<<<":
            continue
        if target.startswith(("/dev/tcp/", "/dev/udp/")):
            if ">" in op:
                reading.exfiltration.append(f"writes to {target} (a raw network socket)")
            continue
        path = resolve(target, cwd)
        if path:
            reading.paths.append((path, "writes" if ">" in op else "reads"))
    if not cmd.words:
        return cwd
    name, args = cmd.name, cmd.words[1:]
    if name == "cd":
        target = next((a for a in args if not a.startswith("-")), "~")
        path = resolve(target, cwd) if target != "-" else None
        if path is None:
            return cwd
        reading.paths.append((path, "enters"))
        return path
    code = _option_value(cmd, SHELLS, r"^-[a-z]*c[a-z]*$")
    if code is not None:
        if depth < 3:
            reading.merge(read_command(code, cwd, depth + 1))
        return cwd
    code = _option_value(cmd, INTERPRETER, r"^(-c|-e|--eval|-p|--print|-r|-[a-z]*e)$")
    if code is not None:
        _read_code(code, reading)
        return cwd
    if name in TEXT_COMMANDS:
        return cwd
    reason = network(cmd)
    if reason:
        reading.exfiltration.append(reason)
    if INTERPRETER.match(name) or SHELLS.match(name):
        script = next((a for a in args if not a.startswith("-")), None)
        if script and (path := resolve(script, cwd)):
            reading.executed.append(path)
    elif "/" in cmd.words[0] and (path := resolve(cmd.words[0], cwd)):
        reading.executed.append(path)
    for token, mode in _path_args(cmd):
        path = resolve(token, cwd)
        if path:
            reading.paths.append((path, mode))
    return cwd


def _option_value(cmd: SimpleCommand, program: re.Pattern[str], option: str) -> str | None:
    if not program.match(cmd.name):
        return None
    for i, w in enumerate(cmd.words[1:-1], start=1):
        if re.match(option, w):
            return cmd.words[i + 1]
    return None


def _path_args(cmd: SimpleCommand) -> list[tuple[str, str]]:
    """(token, mode) for the arguments of `cmd` that name files."""
    name, args = cmd.name, cmd.words[1:]
    if name == "find":
        return _find_args(args)
    pattern_pending = name in PATTERN_FIRST and not (
        any(a in ("-e", "-f", "--regexp", "--file", "--expression") or
            a.startswith(("--regexp=", "--file=", "--expression=")) for a in args)
        or (name == "rg" and "--files" in args))
    in_place = name in ("sed", "perl") and any(a.startswith("-i") or a == "--in-place"
                                               for a in args)
    found: list[tuple[str, str]] = []
    positional: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a.startswith("--") and "=" in a:
            value = a.split("=", 1)[1]
            if looks_like_path(value):
                found.append((value, "reads"))
            continue
        if a.startswith("-") and a != "-":
            if name in PATTERN_FIRST and a in PATTERN_VALUE_OPTS and i < len(args):
                if a in ("-f", "--file"):
                    found.append((args[i], "reads"))
                i += 1
            continue
        if pattern_pending:
            pattern_pending = False
            continue
        if "=" in a and not a.startswith(("/", "~", ".")):
            key, value = a.split("=", 1)  # dd if=/dev/sda of=x, make DESTDIR=/opt
            if looks_like_path(value):
                found.append((value, "writes" if key == "of" else "reads"))
            continue
        positional.append(a)
    for n, a in enumerate(positional):
        if not looks_like_path(a):
            continue
        if name in WRITE_COMMANDS or in_place:
            mode = "writes"
        elif name in COPY_COMMANDS:
            mode = "writes" if n == len(positional) - 1 and len(positional) > 1 else "reads"
        else:
            mode = "reads"
        found.append((a, mode))
    return found


def _find_args(args: list[str]) -> list[tuple[str, str]]:
    """find's start folders (before the first test), and paths inside -exec ... ;"""
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(args) and not args[i].startswith("-") and args[i] not in ("(", "!"):
        if looks_like_path(args[i]):
            found.append((args[i], "reads"))
        i += 1
    in_exec = False
    for a in args[i:]:
        if a in ("-exec", "-execdir", "-ok", "-okdir"):
            in_exec = True
        elif a in (";", "+", "\\;"):
            in_exec = False
        elif in_exec and looks_like_path(a) and a != "{}":
            found.append((a, "reads"))
    return found


def code_paths(code: str) -> list[str]:
    """String literals in code that name a system folder or the home folder."""
    out = []
    for m in _CODE_PATH.finditer(code):
        literal = m.group(2)
        top = literal.lstrip("/").split("/", 1)[0]
        if literal.startswith("~/") or literal == "~" or (
                literal.startswith("/") and top in SENSITIVE_TOPS):
            path = resolve(literal, "/")
            if path:
                out.append(path)
    return out


def _read_code(code: str, reading: ShellReading) -> None:
    reading.paths += [(p, "reads") for p in code_paths(code)]
    reason = code_exfiltration(code)
    if reason:
        reading.exfiltration.append(reason)
