"""Through a real grading container: whatever tree of files, folders and links the agent
leaves in /workspace, a grader that reads every path it can reach, following every link,
never reads a byte from outside its copy of the workspace (issue 34).

Hypothesis draws the trees (tests/sandbox/workspace_trees.py), half of them random trees and
half built to chain (links through other links, `..` after a link, absolute links into
/grader, loops); 120 examples, about four minutes on two busy cores. Each is built by the agent
user in a real trial container, graded by the `walker` fixture's grader in a real grading
container, and the grader's own report says whether it read the secret beside it or any
file whose real path is outside /workspace. The same property on the host, with thousands
of trees and the kernel as the judge: tests/sandbox/test_workspace_copy.py.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skillforge.sandbox import open_sandbox
from skillforge.sandbox.grading import run_grader
from tests.hypothesis_budget import examples
from tests.sandbox.test_workspace_copy import CHAIN
from tests.sandbox.workspace_trees import Entry, chains, shell_of, trees

pytestmark = [pytest.mark.docker, pytest.mark.timeout(1800)]

WALKER = Path(__file__).parent / "fixtures" / "walker"
GRADER = "evals/graders/walk.py"


async def _graded(spec, entries: list[Entry]) -> dict[str, float]:
    async with open_sandbox("docker", spec) as sb:
        built = await sb.exec(shell_of(entries), timeout_s=60)
        assert built.ok, built.stderr
        graded = await run_grader(sb, WALKER, GRADER)
    return graded.detail or {}


@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.one_of(trees(max_entries=8), chains()))
@example(CHAIN)
@example([Entry("a", "link", "/workspace"), Entry("b", "link", "a/../grader/secret.txt")])
@example([Entry("d", "dir"), Entry("d/f", "file"), Entry("s", "link", "."),
          Entry("x", "link", "s/d/f")])
def test_a_grader_reading_every_reachable_path_never_reads_outside(spec, entries):
    detail = asyncio.run(_graded(spec(), entries))
    assert detail["reward"] == 0, (entries, detail)
    files = sum(1 for e in entries if e.kind == "file")
    assert detail["files_read"] >= files  # it did read the agent's real files
