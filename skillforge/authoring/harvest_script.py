"""Harvest, the script: a cached skill's code made into a command (`scripts/<name>.py`).

In Skill Mode the agent's code reads a dict `args`, reaches tools through
`call_tool(name, **kwargs)` and sets a variable `result` (SkillCraft's protocol). The harvested
script keeps that code verbatim at module level, between two marker comments, and adds what
the sandbox used to provide:

- `args`, from one option per parameter (`--csv-path sales.csv`) and/or `--args-json` (one
  JSON object; options given as well override its keys);
- `call_tool` for the built-in agent's tools (`bash`, `read_file`, `write_file`), run on this
  machine with the same arguments and the same values back as the Skill Mode runner in the
  trial's sandbox (skillforge.agent.skill_runner: bash gives {exit_code, stdout, stderr},
  read_file the text, write_file a line saying what it wrote), so the code behaves as it
  did in the trial;
- the `result` printed as JSON on standard output (exit 1 with a message when none was set).

The code's leading imports are moved above the runtime (ruff's E402 would flag an import below
it); nothing else of the code changes. The runtime's own names start with `_` so they cannot
clash with the code's.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from skillforge.models.skill_mode import CachedSkill

START_MARK = "# ---- skill code: as the agent saved it (skillforge harvest) ----"
END_MARK = "# ---- end of skill code ----"
# JSON-schema type -> how the command line converts an option's text.
_SCHEMA_KINDS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool",
                 "array": "json", "object": "json"}
_FLAG_CHARS = re.compile(r"[^a-z0-9]+")

RUNTIME = '''
import argparse as _argparse
import json as _json
import os as _os
import subprocess as _subprocess
import sys as _sys
{hoisted}
# name -> (option, kind, help). kind: str, int, float, bool or json (the value is JSON text).
_PARAMETERS = {parameters}
_PROG = {prog!r}
_ABOUT = {about!r}


def _resolve(path):
    return _os.path.abspath(_os.path.expanduser(str(path)))


def _bash(command, timeout=120):
    """Run `command` with sh: {{exit_code, stdout, stderr}} (timed_out when it was killed)."""
    try:
        done = _subprocess.run(["sh", "-c", str(command)], capture_output=True, text=True,
                               errors="replace", timeout=float(timeout),
                               stdin=_subprocess.DEVNULL, check=False)
    except _subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) \
            else (exc.stdout or "")
        return {{"exit_code": None, "stdout": out,
                 "stderr": f"killed: the command ran longer than {{float(timeout):g}} s",
                 "timed_out": True}}
    return {{"exit_code": done.returncode, "stdout": done.stdout, "stderr": done.stderr}}


def _read_file(path, offset=1, limit=None):
    """The text of lines offset..offset+limit-1 (all from offset when limit is None)."""
    with open(_resolve(path), encoding="utf-8", errors="replace") as fh:
        lines = fh.read().splitlines(keepends=True)
    start = max(1, int(offset)) - 1
    end = len(lines) if limit is None else start + int(limit)
    return "".join(lines[start:end])


def _write_file(path, content):
    """Create or overwrite a text file (missing folders are created)."""
    full = _resolve(path)
    _os.makedirs(_os.path.dirname(full) or ".", exist_ok=True)
    data = str(content).encode("utf-8")
    with open(full, "wb") as fh:
        fh.write(data)
    return f"wrote {{len(data)}} bytes to {{full}}"


_TOOLS = {{"bash": _bash, "read_file": _read_file, "write_file": _write_file}}


def call_tool(name, **kwargs):
    """The agent's tools, run here: bash(command, timeout), read_file(path, offset, limit),
    write_file(path, content). Same values back as in the trial's sandbox."""
    tool = _TOOLS.get(name)
    if tool is None:
        raise ValueError(f"call_tool: no tool {{name!r}}; the tools are "
                         + ", ".join(_TOOLS))
    return tool(**kwargs)


def _convert(parser, option, kind, text):
    if kind == "str":
        return text
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            low = text.strip().lower()
            if low in ("true", "yes", "1", "on"):
                return True
            if low in ("false", "no", "0", "off"):
                return False
            raise ValueError(text)
        return _json.loads(text)
    except ValueError:
        parser.error(f"{{option}} {{text!r}}: expected {{kind}}")


def _arguments(argv):
    """The skill's `args` dict from the command line."""
    parser = _argparse.ArgumentParser(prog=_PROG, description=_ABOUT)
    parser.add_argument("--args-json", metavar="JSON",
                        help="all arguments as one JSON object; options given too override it")
    for name, (option, kind, text) in _PARAMETERS.items():
        parser.add_argument(option, dest="p_" + name, metavar=kind.upper(), help=text)
    ns = parser.parse_args(argv)
    values = {{}}
    if ns.args_json:
        try:
            values = _json.loads(ns.args_json)
        except ValueError as exc:
            parser.error(f"--args-json is not valid JSON: {{exc}}")
        if not isinstance(values, dict):
            parser.error("--args-json must be a JSON object, e.g. '{{\\"name\\": \\"value\\"}}'")
    for name, (option, kind, _text) in _PARAMETERS.items():
        given = getattr(ns, "p_" + name)
        if given is not None:
            values[name] = _convert(parser, option, kind, given)
    return values


def _emit(value):
    if value is _NO_RESULT:
        print(f"{{_PROG}}: the skill's code set no `result`", file=_sys.stderr)
        _sys.exit(1)
    print(_json.dumps(value, indent=2, ensure_ascii=False, default=str))


_NO_RESULT = object()
args = _arguments(_sys.argv[1:])
'''


def option_of(name: str) -> str:
    """`csv_path` -> `--csv-path`."""
    return "--" + (_FLAG_CHARS.sub("-", name.lower()).strip("-") or "value")


def param_kind(spec: Any, example: Any = None) -> str:
    """How the command line converts a parameter: from its JSON-schema type, else from the
    value a recorded execution gave it, else text."""
    if isinstance(spec, dict):
        kind = spec.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), None)
        if isinstance(kind, str) and kind in _SCHEMA_KINDS:
            return _SCHEMA_KINDS[kind]
    if isinstance(example, bool):
        return "bool"
    if isinstance(example, int):
        return "int"
    if isinstance(example, float):
        return "float"
    if isinstance(example, (list, dict)):
        return "json"
    return "str"


def param_help(spec: Any) -> str:
    if isinstance(spec, dict):
        text = spec.get("description")
        return " ".join(str(text).split()) if text else ""
    return " ".join(str(spec).split()) if spec is not None else ""


def parameter_table(skill: CachedSkill, example: dict[str, Any] | None) -> dict[str, tuple]:
    """name -> (option, kind, help), options made unique."""
    table: dict[str, tuple] = {}
    used = {"--args-json", "--help", "-h"}
    for name, spec in skill.parameters.items():
        option = option_of(name)
        base, n = option, 2
        while option in used:
            option, n = f"{base}-{n}", n + 1
        used.add(option)
        table[name] = (option, param_kind(spec, (example or {}).get(name)), param_help(spec))
    return table


def _hoist_imports(code: str) -> tuple[list[str], str]:
    """(leading top-level import lines, the code without them). Nothing moves when the code
    does not parse or an import shares its line with another statement."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return [], code
    lines = code.splitlines()
    moved: set[int] = set()
    hoisted: list[str] = []
    body = tree.body
    for i, node in enumerate(body):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            continue  # a docstring stays where it is
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            break
        span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        neighbours = [n for j, n in enumerate(body) if j != i
                      and (n.lineno in span or (n.end_lineno or n.lineno) in span)]
        if neighbours or node.col_offset != 0 or lines[node.lineno - 1].rstrip().endswith(";"):
            break
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            break  # only valid at the very top of the file; left for the author to see
        hoisted.extend(lines[k - 1] for k in span)
        moved.update(span)
    rest = [line for k, line in enumerate(lines, start=1) if k not in moved]
    while rest and not rest[0].strip():
        rest.pop(0)
    return hoisted, "\n".join(rest)


def script_text(skill: CachedSkill, *, prog: str, docstring: str,
                example: dict[str, Any] | None = None) -> str:
    """The whole `scripts/<name>.py`: shebang, docstring, runtime, the code, the output."""
    hoisted, code = _hoist_imports(skill.script_code.replace("\r\n", "\n"))
    table = parameter_table(skill, example)
    about = " ".join(skill.description.split()) or f"Run the {prog} skill."
    runtime = RUNTIME.format(
        hoisted="\n".join(hoisted) + ("\n" if hoisted else ""),
        parameters=_py_literal(table),
        prog=prog, about=about,
    )
    doc = docstring.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return (f'#!/usr/bin/env python3\n"""{doc}\n"""\n{runtime}\n{START_MARK}\n'
            f"{code.rstrip()}\n{END_MARK}\n\n_emit(globals().get(\"result\", _NO_RESULT))\n")


def _py_literal(table: dict[str, tuple]) -> str:
    """A readable Python literal of the parameter table (one entry per line)."""
    if not table:
        return "{}"
    rows = [f"    {json.dumps(k)}: ({json.dumps(o)}, {json.dumps(kd)}, {json.dumps(h)}),"
            for k, (o, kd, h) in table.items()]
    return "{\n" + "\n".join(rows) + "\n}"
