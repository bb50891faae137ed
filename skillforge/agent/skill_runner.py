"""Runs one Skill Mode skill inside the trial sandbox (never on the host). Standard library only.

The built-in agent's `execute_skill` passes this file's text to `python3 -c` in the
sandbox, as the agent user, in /workspace:

    python3 -c "<this file>" CACHE_PATH NAME ARGS_JSON TOOL_TIMEOUT_S

It loads CACHE_PATH (the trial's skill_cache.json), runs the skill's `script_code` with the
dict `args` and a `call_tool(name, **kwargs)` that reaches the agent's own tools here in
the container (`bash`: sh with a timeout; `read_file`; `write_file`), and prints one line:
MARKER followed by JSON `{ok, has_result, result, error, traceback, stdout}`. Whatever the
script prints goes to `stdout` in that JSON, not to the runner's own output. Passing the
text inline (rather than a file in the container) means nothing the agent writes can
change the runner, and it works in every sandbox backend.
"""

import contextlib
import io
import json
import linecache
import os
import subprocess
import sys
import time
import traceback

MARKER = "@@skillforge-skill-result@@ "
MAX_RESULT_CHARS = 40_000
MAX_PRINTED_CHARS = 4_000
HOME = "/home/agent"


def _path(path):
    p = str(path).strip()
    if p == "~" or p.startswith("~/"):
        p = HOME + p[1:]
    return p if os.path.isabs(p) else os.path.join(os.getcwd(), p)


class Tools:
    """call_tool's implementation: the agent's bash, read_file and write_file, in here."""

    def __init__(self, timeout_s):
        self.deadline = time.monotonic() + timeout_s

    def __call__(self, name, **kwargs):
        if name == "bash":
            return self.bash(**kwargs)
        if name == "read_file":
            return self.read_file(**kwargs)
        if name == "write_file":
            return self.write_file(**kwargs)
        raise ValueError(f"call_tool: no tool {name!r}; the tools are bash, read_file, "
                         "write_file")

    def bash(self, command, timeout=120):
        left = max(1.0, self.deadline - time.monotonic())
        limit = min(float(timeout), left)
        try:
            done = subprocess.run(["sh", "-c", str(command)], capture_output=True, text=True,
                                  errors="replace", timeout=limit, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) \
                else (exc.stdout or "")
            return {"exit_code": None, "stdout": out,
                    "stderr": f"killed: the command ran longer than {limit:g} s",
                    "timed_out": True}
        return {"exit_code": done.returncode, "stdout": done.stdout, "stderr": done.stderr}

    def read_file(self, path, offset=1, limit=None):
        with open(_path(path), encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines(keepends=True)
        start = max(1, int(offset)) - 1
        end = len(lines) if limit is None else start + int(limit)
        return "".join(lines[start:end])

    def write_file(self, path, content):
        full = _path(path)
        os.makedirs(os.path.dirname(full) or ".", exist_ok=True)
        data = str(content).encode("utf-8")
        with open(full, "wb") as fh:
            fh.write(data)
        return f"wrote {len(data)} bytes to {full}"


def _emit(**fields):
    sys.__stdout__.write("\n" + MARKER + json.dumps(fields, default=str) + "\n")
    sys.__stdout__.flush()


def _jsonable(value):
    text = json.dumps(value, default=str)
    if len(text) > MAX_RESULT_CHARS:
        return {"truncated": True, "size": len(text), "preview": text[:2000]}, True
    return json.loads(text), False


def main(argv):
    cache_path, name, args_json, timeout = argv[1], argv[2], argv[3], float(argv[4])
    try:
        with open(cache_path, encoding="utf-8") as fh:
            skill = json.load(fh)["skills"][name]
        code = skill["script_code"]
        args = json.loads(args_json)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        _emit(ok=False, has_result=False, result=None, stdout="", traceback=None,
              error=f"cannot load skill {name!r} from {cache_path}: {type(exc).__name__}: {exc}")
        return
    filename = f"<skill {name}>"
    # The traceback then shows the skill's own lines.
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    namespace = {"__name__": "__skill__", "args": args, "call_tool": Tools(timeout)}
    printed = io.StringIO()
    error = tb = None
    try:
        compiled = compile(code, filename, "exec")
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            exec(compiled, namespace)  # noqa: S102 - this is the sandboxed skill runner
    except BaseException as exc:  # noqa: BLE001 - every failure is reported, SystemExit too
        error = f"{type(exc).__name__}: {exc}"
        frames = traceback.extract_tb(exc.__traceback__)
        own = [f for f in frames if f.filename == filename] or frames
        tb = "Traceback (most recent call last):\n" + "".join(
            traceback.format_list(own)) + error
    has_result = "result" in namespace
    result, truncated = _jsonable(namespace.get("result")) if has_result else (None, False)
    _emit(ok=error is None, has_result=has_result, result=result, truncated=truncated,
          error=error, traceback=tb, stdout=printed.getvalue()[-MAX_PRINTED_CHARS:])


if __name__ == "__main__":
    main(sys.argv)
