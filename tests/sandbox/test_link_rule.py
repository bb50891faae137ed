"""The link rule in place (link_rule.sanitize, which as-agent's broker applies in a grading
container after the agent's code) gives the same verdicts as the workspace copy on the host
(workspace_copy.copy_workspace): for any tree Hypothesis draws, the links one replaces are
the links the other does. The trees are those of the copy's own property tests
(tests/sandbox/workspace_trees.py); tests/sandbox/test_hostile_grading.py checks the broker
through a real grading container.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from skillforge.sandbox.link_rule import UNSAFE_MARKER, sanitize
from skillforge.sandbox.workspace_copy import copy_workspace
from tests.hypothesis_budget import examples
from tests.sandbox.test_workspace_copy import CHAIN
from tests.sandbox.workspace_trees import Entry, chains, tar_of, token, trees


def _build(entries: list[Entry], base: Path) -> None:
    """The agent's tree, as it made it: link targets verbatim (never followed here)."""
    base.mkdir()
    for e in entries:
        path = base / e.path
        path.parent.mkdir(parents=True, exist_ok=True)
        if e.kind == "dir":
            path.mkdir(exist_ok=True)
        elif e.kind == "file":
            path.write_text(token(e.path))
        else:
            os.symlink(e.target, path)


def _in_place(entries: list[Entry]) -> tuple[set[str], dict[str, str]]:
    """(links sanitize replaced, every link's target afterwards), as /workspace paths."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "workspace"
        _build(entries, base)
        replaced, removed = sanitize(base, os.getuid(), os.getgid(), root="/workspace")
        assert removed == []
        after = {f"/workspace/{p.relative_to(base).as_posix()}": os.readlink(p)
                 for p in base.rglob("*") if p.is_symlink()}
        return {str(p) for p in replaced}, after


@settings(max_examples=examples(800), deadline=None)
@given(st.one_of(trees(), chains()))
@example(CHAIN)
@example([Entry("a", "link", "/workspace"), Entry("b", "link", "a/../grader/secret.txt")])
@example([Entry("a", "link", "b"), Entry("b", "link", "a")])
def test_in_place_and_the_copy_replace_the_same_links(entries):
    report = copy_workspace(io.BytesIO(tar_of(entries)), io.BytesIO())
    replaced, after = _in_place(entries)
    assert replaced == set(report.unsafe_links), entries
    for e in entries:
        if e.kind == "link":
            name = f"/workspace/{e.path}"
            assert after[name] == (UNSAFE_MARKER if name in replaced else e.target)


def test_pipes_sockets_and_the_markers_name_are_removed(tmp_path):
    import socket

    base = tmp_path / "workspace"
    (base / "d" / UNSAFE_MARKER).mkdir(parents=True)
    (base / "d" / UNSAFE_MARKER / "x").write_text("chosen")
    os.mkfifo(base / "fifo")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(base / "d" / "sock"))
    sock.close()
    (base / "answer.txt").write_text("42")
    (base / "out").symlink_to("/grader/expected.txt")
    replaced, removed = sanitize(base, os.getuid(), os.getgid(), root="/workspace")
    assert sorted(map(str, removed)) == [f"/workspace/d/{UNSAFE_MARKER}", "/workspace/d/sock",
                                         "/workspace/fifo"]
    assert [str(p) for p in replaced] == ["/workspace/out"]
    assert sorted(p.name for p in base.rglob("*")) == ["answer.txt", "d", "out"]
    assert os.readlink(base / "out") == UNSAFE_MARKER


def test_only_what_the_agents_uid_made_is_changed(tmp_path):
    # /tmp holds the grader's files too: a link of another uid is judged (a chain through
    # it counts) but left as it is.
    base = tmp_path / "tmp"
    base.mkdir()
    (base / "grader-link").symlink_to("/grader")
    os.mkfifo(base / "grader-fifo")
    replaced, removed = sanitize(base, os.getuid() + 1, os.getgid(), root="/tmp")
    assert (replaced, removed) == ([], [])
    assert os.readlink(base / "grader-link") == "/grader"
