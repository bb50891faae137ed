"""skillforge's own files in a grading container, and who owns what there (docs/graders.md).

The grader runs as GRADER_UID: not root, not the agent's uid, with no capability. It owns
/grader (mode 0700: the agent's uid cannot even read the expected values beside the
grader), its HOME and the reward folder /logs/grader (which the agent's uid cannot write).
The workspace copy stays the agent's (uid 1000): the grader reads it, and the agent's code
that the grader runs with `as-agent` may write there and in /tmp, as it could in its trial.

`as-agent CMD...` is a client of a small broker (skillforge.sandbox.as_agent) that skillforge
starts as root in the grading container before the grader: only the broker may change uids,
and it serves only the grader's uid.
"""

from __future__ import annotations

from skillforge.sandbox.archive import TarBuilder
from skillforge.sandbox.base import (
    AGENT_GID,
    AGENT_UID,
    GRADER_DIR,
    GRADER_GID,
    GRADER_UID,
    LOGS_DIR,
    WORKSPACE,
)

GRADER_LOGS = f"{LOGS_DIR}/grader"
GRADER_USER = f"{GRADER_UID}:{GRADER_GID}"
# skillforge's files beside the grader: its launcher, its HOME, as-agent and its broker.
SUPPORT_DIR = f"{GRADER_DIR}/.skillforge"
GRADER_HOME = f"{SUPPORT_DIR}/home"
LAUNCHER = f"{SUPPORT_DIR}/launch.py"
# The grader's output and exit code, written by the wrapper around it (as the grader).
RUN_DIR = f"{SUPPORT_DIR}/run"
AS_AGENT = f"{SUPPORT_DIR}/as-agent"
AS_AGENT_PY = f"{SUPPORT_DIR}/as_agent.py"
# The broker's socket, in a folder only the grader's uid may enter.
BROKER_DIR = f"{SUPPORT_DIR}/broker"
BROKER_SOCKET = f"{BROKER_DIR}/socket"
# What a grader's process sees: nothing of the agent's environment.
GRADER_ENV = {
    "GRADER_WORKSPACE": WORKSPACE,
    "GRADER_LOG_DIR": GRADER_LOGS,
    "HOME": GRADER_HOME,
    "PYTHONSAFEPATH": "1",
    "PYTHONNOUSERSITE": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "SKILLFORGE_AS_AGENT": AS_AGENT,
}
_LAUNCH_PY = '''"""skillforge's launcher for a Python grader (docs/graders.md).

Runs the grader as `python3 GRADER ARGS...` would (its folder first on sys.path, run as
__main__), then ends the process at once after flushing its output: no exit hook (atexit,
a daemon thread) of code the grader imported can run after it wrote its reward.
"""
import os
import runpy
import sys
import traceback

script = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
code = 0
try:
    runpy.run_path(script, run_name="__main__")
except SystemExit as exc:
    if exc.code is None or isinstance(exc.code, int):
        code = exc.code or 0
    else:
        print(exc.code, file=sys.stderr)
        code = 1
except BaseException:
    traceback.print_exc()
    code = 1
try:
    sys.stdout.flush()
    sys.stderr.flush()
finally:
    os._exit(code)
'''
_AS_AGENT_SH = f"""#!/bin/sh
# as-agent CMD [ARG...]: run CMD as the agent's uid ({AGENT_UID}) with no supplementary
# groups, for a grader that must run the agent's code (docs/graders.md): so run, that code
# cannot write the reward, read the grader's folder or signal the grader.
if [ "$(id -u)" != 0 ] && [ -d {BROKER_DIR} ]; then
  # A grading container: the grader has no capability; skillforge's root broker runs CMD.
  if [ -S {BROKER_SOCKET} ] && command -v python3 >/dev/null 2>&1; then
    exec python3 -I -S {AS_AGENT_PY} run {BROKER_SOCKET} "$@"
  fi
  echo "as-agent: no broker to run the agent's code as uid {AGENT_UID} (it needs python3" \\
    "in the trial image)" >&2
  exit 126
fi
# Elsewhere without root (the local sandbox, a bare checkout) CMD runs as it is.
if [ "$(id -u)" != 0 ]; then exec "$@"; fi
# As root (a Harbor verifier): switch uids here.
if command -v setpriv >/dev/null 2>&1; then
  exec setpriv --reuid={AGENT_UID} --regid={AGENT_GID} --clear-groups -- "$@"
fi
exec python3 -c 'import os, sys; os.setgroups([]); os.setgid({AGENT_GID}); os.setuid({AGENT_UID}); \\
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
"""


def _broker_source() -> bytes:
    from pathlib import Path

    return (Path(__file__).with_name("as_agent.py")).read_bytes()


def broker_command() -> list[str]:
    """argv (run as root in the grading container) that starts the as-agent broker and
    returns once it listens; exit code 127 when the image has no python3."""
    return ["python3", "-I", "-S", AS_AGENT_PY, "serve", str(GRADER_UID), str(AGENT_UID),
            str(AGENT_GID), BROKER_SOCKET]


def add_support(builder: TarBuilder) -> None:
    """skillforge's files in /grader/.skillforge: root's and read-only, but the grader's
    HOME, its run folder and the broker's folder, which are the grader uid's alone."""
    builder.add_dir(SUPPORT_DIR, mode=0o755)
    for folder in (GRADER_HOME, RUN_DIR, BROKER_DIR):
        builder.add_dir(folder, uid=GRADER_UID, gid=GRADER_GID, mode=0o700)
    builder.add_file(LAUNCHER, _LAUNCH_PY.encode(), mode=0o644)
    builder.add_file(AS_AGENT, _AS_AGENT_SH.encode(), mode=0o755)
    builder.add_file(AS_AGENT_PY, _broker_source(), mode=0o644)


def grading_layout() -> bytes:
    """The folders a grading sandbox sets over the trial layout: /logs (the agent's in a
    trial) becomes root's, and /logs/grader the grader uid's, so nothing running as the
    agent's uid can write, remove or swap the reward."""
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path, uid, gid in ((LOGS_DIR, 0, 0), (GRADER_LOGS, GRADER_UID, GRADER_GID)):
            info = tarfile.TarInfo(path.strip("/"))
            info.type, info.mode, info.uid, info.gid = tarfile.DIRTYPE, 0o755, uid, gid
            tar.addfile(info)
    return buf.getvalue()
