"""The grader's copy of the workspace: every path in it resolves inside it (issue 34).

The property, for any workspace the agent can leave: a grader that opens every path it can
reach in the copy, following every link, never reads a byte from outside the copy. Here the
oracle is the real Linux filesystem: the copy is extracted into a temporary root that also
holds a secret where /grader would be (absolute link targets rebased under that root), and
every path is resolved by the kernel. tests/sandbox/test_workspace_copy_docker.py checks
the same through a real grading container.
"""

from __future__ import annotations

import errno
import io
import os
import tarfile
import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from skillforge.sandbox.workspace_copy import UNSAFE_MARKER, copy_workspace
from tests.hypothesis_budget import examples
from tests.sandbox.workspace_trees import NAMES, SECRET, Entry, chains, tar_of, token, trees


def _extract(copy: bytes, root: Path) -> None:
    """Extract the copy under root, absolute link targets rebased under it, and put the
    secrets where /grader and /logs/grader would be."""
    for place in ("grader", "logs/grader"):
        (root / place).mkdir(parents=True, exist_ok=True)
    (root / "grader" / "secret.txt").write_text(SECRET)
    (root / "grader" / "expected.txt").write_text(SECRET)
    with tarfile.open(fileobj=io.BytesIO(copy)) as tar:
        for m in tar:
            dest = root / m.name
            if m.isdir():
                dest.mkdir(parents=True, exist_ok=True)
            elif m.isfile():
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(tar.extractfile(m).read())
            elif m.issym():
                dest.parent.mkdir(parents=True, exist_ok=True)
                target = m.linkname
                os.symlink(str(root) + target if target.startswith("/") else target, dest)


def _reachable(root: Path, entries: list[Entry]) -> list[Path]:
    """Every path a grader could name: each entry, and each entry followed by each name
    (to go through links to folders), and a walk that follows links."""
    base = root / "workspace"
    names = [e.path for e in entries]
    out = [base / n for n in names]
    out += [base / n / m for n in names for m in (*names, "..", "secret.txt", "grader")]
    seen: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(base, followlinks=True):
        real = os.path.realpath(dirpath)
        if real in seen:
            dirnames[:] = []
            continue
        seen.add(real)
        out += [Path(dirpath) / f for f in filenames]
    return out


def _reads_outside(copy: bytes, entries: list[Entry]) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _extract(copy, root)
        inside = str(root / "workspace") + os.sep
        bad = []
        for path in _reachable(root, entries):
            try:
                if not path.is_file():
                    continue
                real = os.path.realpath(path)
                data = path.read_text(errors="replace")
            except OSError:  # loops, dangling links, a file used as a folder
                continue
            if SECRET in data or not real.startswith(inside):
                bad.append(f"{path.relative_to(root)} -> {Path(real).relative_to(root)}")
        return bad


def _copy(entries: list[Entry]) -> bytes:
    out = io.BytesIO()
    copy_workspace(io.BytesIO(tar_of(entries)), out)
    return out.getvalue()


CHAIN = [Entry("s", "link", "."), Entry("answer", "link", "s/../grader/secret.txt")]


@settings(max_examples=examples(3000), deadline=None)
@given(st.one_of(trees(), chains()))
@example(CHAIN)
@example([Entry("a", "link", "/workspace"), Entry("b", "link", "a/../grader/secret.txt")])
@example([Entry("s", "link", "."), Entry("g", "link", "s/../grader"),
          Entry("x", "link", "g/secret.txt")])
@example([Entry("a", "link", "b"), Entry("b", "link", "a")])
def test_no_path_of_the_copy_reads_outside_it(entries):
    assert _reads_outside(_copy(entries), entries) == []


def _original(entries: list[Entry], root: Path) -> None:
    """The agent's own tree (nothing replaced) under root, for the kernel to resolve."""
    _extract(tar_of(entries), root)


@settings(max_examples=examples(1000), deadline=None)
@given(trees())
def test_a_kept_link_is_one_the_kernel_resolves_inside(entries):
    # Soundness, by a second judge: every link the copy keeps as it was, the kernel
    # resolves (in the agent's own tree) to a place inside the workspace, or to nowhere.
    with tarfile.open(fileobj=io.BytesIO(_copy(entries))) as tar, \
            tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _original(entries, root)
        inside = str(root / "workspace")
        for m in tar:
            if m.issym() and m.linkname != UNSAFE_MARKER:
                real = os.path.realpath(root / m.name)
                assert real == inside or real.startswith(inside + os.sep), (m.name, real)


@settings(max_examples=examples(1000), deadline=None)
@given(trees(), st.data())
def test_links_made_of_plain_names_are_kept_unless_they_loop(entries, data):
    # Completeness where nothing can lead out: with every target a relative path of plain
    # names, the only links the copy may replace are those that loop; files, folders and
    # the rest arrive as they were.
    names = st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map("/".join)
    plain = [Entry(e.path, e.kind, data.draw(names) if e.kind == "link" else "")
             for e in entries]
    with tarfile.open(fileobj=io.BytesIO(_copy(plain))) as tar, \
            tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _original(plain, root)
        got = {m.name.removeprefix("workspace/"): m for m in tar}
        for e in plain:
            m = got[e.path]
            if e.kind == "file":
                assert tar.extractfile(m).read().decode() == token(e.path)
            elif e.kind == "dir":
                assert m.isdir()
            elif m.linkname == UNSAFE_MARKER:
                try:
                    os.path.realpath(root / "workspace" / e.path, strict=True)
                except OSError as exc:
                    assert exc.errno == errno.ELOOP, (e, exc)
                else:
                    raise AssertionError(f"{e} resolves and was replaced")
            else:
                assert m.linkname == e.target


def test_the_chain_of_the_audit_is_replaced_and_its_harmless_link_kept():
    with tarfile.open(fileobj=io.BytesIO(_copy(CHAIN))) as tar:
        links = {m.name: m.linkname for m in tar if m.issym()}
    assert links == {"workspace/s": ".", "workspace/answer": UNSAFE_MARKER}
