"""Through one real grading container: whatever tree of files, folders and links the
agent's code makes in /workspace and /tmp while the grader runs it under `as-agent`, a
grader that then reads every path it can reach, following every link, never reads a byte
from outside the tree it started in (issue 34: the broker applies the workspace copy's
link rule in place before `as-agent` returns).

Hypothesis draws the trees (tests/sandbox/workspace_trees.py: random trees and trees built
to chain); each example is one `docker exec` as the grader: `as-agent` builds the tree as
the agent's uid (in /workspace and again in /tmp/w, after clearing the last one), then the
reader below reports what it read. The same rule on the host, against the copy's verdicts:
tests/sandbox/test_link_rule.py.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skillforge.sandbox import open_sandbox
from skillforge.sandbox.archive import concat_tars
from skillforge.sandbox.grader_support import (
    AS_AGENT,
    GRADER_ENV,
    GRADER_USER,
    broker_command,
    grading_layout,
)
from skillforge.sandbox.grading import grader_plan
from tests.hypothesis_budget import examples
from tests.sandbox.test_workspace_copy import CHAIN
from tests.sandbox.workspace_trees import Entry, chains, shell_of, trees

pytestmark = [pytest.mark.docker, pytest.mark.timeout(600)]

WALKER = Path(__file__).parent / "fixtures" / "walker"  # its folder holds secret.txt
ROOTS = ("/workspace", "/tmp/w")
READER = '''import json, os, sys
secret = open("/grader/secret.txt").read().strip()
bad, read = [], 0
for base in sys.argv[1:]:
    names = set()
    for dirpath, dirnames, filenames in os.walk(base):
        names.update(os.path.relpath(os.path.join(dirpath, n), base)
                     for n in dirnames + filenames)
    paths = [os.path.join(base, n) for n in names]
    paths += [os.path.join(base, n, m) for n in names
              for m in ("..", "secret.txt", "grader", *names)]
    seen = set()
    for dirpath, dirnames, filenames in os.walk(base, followlinks=True):
        real = os.path.realpath(dirpath)
        if real in seen or len(seen) > 2000:
            dirnames[:] = []
            continue
        seen.add(real)
        paths += [os.path.join(dirpath, f) for f in filenames]
    for p in paths:
        try:
            if not os.path.isfile(p):
                continue
            real = os.path.realpath(p)
            data = open(p, errors="replace").read()
        except OSError:
            continue
        read += 1
        if secret in data or not real.startswith(base + "/"):
            bad.append(p + " -> " + real)
print(json.dumps({"bad": bad[:5], "read": read}))
'''


def _agent_script(entries: list[Entry]) -> str:
    """As the agent: clear the last tree, then build this one in each root."""
    build = shell_of(entries)
    steps = ["rm -rf /workspace/* /workspace/.[!.]* /tmp/w; mkdir -p /tmp/w"]
    for root in ROOTS:
        steps.append("(" + build.replace("cd /workspace", f"cd {root}") + ")")
    return "\n".join(steps)


def test_agent_code_cannot_leave_a_link_the_grader_reads_through(spec):
    archive, _cmd, _workdir = grader_plan(WALKER, "evals/graders/walk.py")
    loop = asyncio.new_event_loop()
    sandbox = open_sandbox("docker", spec(grading=True), concat_tars(grading_layout(), archive))
    sb = loop.run_until_complete(sandbox.__aenter__())
    try:
        started = loop.run_until_complete(
            sb.exec(broker_command(), timeout_s=20, user="0:0", workdir="/"))
        assert started.ok, started.stderr

        @settings(max_examples=examples(40), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(st.one_of(trees(max_entries=8), chains()))
        @example(CHAIN)
        @example([Entry("s", "link", "."),
                  Entry("answer", "link", "s/../../grader/secret.txt")])
        @example([Entry("a", "link", "/workspace"),
                  Entry("b", "link", "a/../grader/secret.txt")])
        def check(entries: list[Entry]) -> None:
            ran = loop.run_until_complete(sb.exec(
                ["sh", "-c", f'{AS_AGENT} sh -c "$1" && exec python3 -c "$2" "$3" "$4"',
                 "check", _agent_script(entries), READER, *ROOTS],
                timeout_s=60, user=GRADER_USER, env=GRADER_ENV, workdir="/grader"))
            assert ran.exit_code == 0, (entries, ran.stderr)
            seen = json.loads(ran.stdout)
            assert seen["bad"] == [], (entries, seen)
            files = sum(1 for e in entries if e.kind == "file")
            assert seen["read"] >= files * len(ROOTS), (entries, seen)  # real files read

        check()
    finally:
        loop.run_until_complete(sandbox.__aexit__(None, None, None))
        loop.close()
