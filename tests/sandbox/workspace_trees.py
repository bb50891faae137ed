"""Random workspaces for the grading-copy property tests: trees of folders, files and
symbolic links whose targets are drawn to reach anywhere (chains through other links,
loops, `..` through links to folders, absolute paths into /grader and /workspace).

A tree is a list of `Entry(path, kind, target)` under /workspace; `tar_of` turns it into
the tar the agent's container would produce, `shell_of` into the commands that build it in
a real container. Every regular file holds a token naming it; the secret outside the
workspace holds SECRET, so a reader can tell where every byte it read came from.
"""

from __future__ import annotations

import io
import shlex
import tarfile
from dataclasses import dataclass

from hypothesis import strategies as st

NAMES = ("a", "b", "s", "d", "x")
SECRET = "SECRET-OUTSIDE-THE-WORKSPACE"
# Places outside the workspace a link may aim at (the grader's folder, its log folder).
OUTSIDE = ("/grader", "/grader/secret.txt", "/logs/grader", "/")


@dataclass(frozen=True)
class Entry:
    path: str  # relative to /workspace, e.g. "a/b"
    kind: str  # "dir", "file" or "link"
    target: str = ""  # a link's target, verbatim


def _component() -> st.SearchStrategy[str]:
    return st.sampled_from((*NAMES, ".", "..", "..", "grader", "workspace", "secret.txt"))


@st.composite
def link_targets(draw) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from((*OUTSIDE, "/workspace", "/workspace/s",
                                     "/workspace/a/..", "/workspace/../grader")))
    parts = draw(st.lists(_component(), min_size=1, max_size=5))
    text = "/".join(parts)
    return ("/" + text) if draw(st.booleans()) and draw(st.booleans()) else text


@st.composite
def trees(draw, max_entries: int = 10) -> list[Entry]:
    """A workspace: entries at distinct paths, up to three levels deep."""
    paths = draw(st.lists(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3)
                          .map("/".join), min_size=1, max_size=max_entries, unique=True))
    out: list[Entry] = []
    taken: set[str] = set()
    for path in sorted(paths, key=lambda p: (p.count("/"), p)):
        parents = {path.rsplit("/", i)[0] for i in range(1, path.count("/") + 1)}
        # a path below a file or a link cannot exist: make it a sibling name instead
        if any(p in taken and p not in _dirs(out) for p in parents):
            continue
        kind = draw(st.sampled_from(("dir", "file", "link", "link")))
        out.append(Entry(path, kind, draw(link_targets()) if kind == "link" else ""))
        taken.add(path)
    return out


def _dirs(entries: list[Entry]) -> set[str]:
    return {e.path for e in entries if e.kind == "dir"}


def token(path: str) -> str:
    return f"TOKEN:{path}"


def tar_of(entries: list[Entry]) -> bytes:
    """The tar `tar -c -C / workspace` would give for this tree."""
    buf = io.BytesIO()
    made: set[str] = set()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        def add_dir(path: str) -> None:
            if path in made:
                return
            if "/" in path:
                add_dir(path.rsplit("/", 1)[0])
            made.add(path)
            info = tarfile.TarInfo(path)
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(info)

        add_dir("workspace")
        for e in entries:
            name = f"workspace/{e.path}"
            add_dir(name.rsplit("/", 1)[0])
            if e.kind == "dir":
                add_dir(name)
            elif e.kind == "file":
                data = token(e.path).encode()
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(data), 0o644
                tar.addfile(info, io.BytesIO(data))
            else:
                info = tarfile.TarInfo(name)
                info.type, info.linkname = tarfile.SYMTYPE, e.target
                tar.addfile(info)
    return buf.getvalue()


def shell_of(entries: list[Entry]) -> str:
    """Shell commands that build the tree under /workspace (run as the agent)."""
    lines = ["set -e", "cd /workspace"]
    for e in entries:
        q = shlex.quote(e.path)
        parent = e.path.rsplit("/", 1)[0] if "/" in e.path else "."
        lines.append(f"mkdir -p {shlex.quote(parent)}")
        if e.kind == "dir":
            lines.append(f"mkdir -p {q}")
        elif e.kind == "file":
            lines.append(f"printf %s {shlex.quote(token(e.path))} > {q}")
        else:
            lines.append(f"ln -s {shlex.quote(e.target)} {q}")
    return "\n".join(lines)


# What a chain's steps are made of: the other links' names, `..` and `.`, the folder and its
# file, and the names that lead to the secret once a step has left the workspace.
_STEPS = ("..", "..", ".", "a", "b", "s", "x", "d", "f", "grader", "secret.txt", "workspace")


@st.composite
def chains(draw) -> list[Entry]:
    """A workspace built to chain: the folder d with the file d/f, and links a, b, s, x
    whose targets start at another link (or `.`, `..`, /workspace, /grader, /) and go on
    through more links, `..` and names: chains, `..` after a link, absolute links into
    /grader and loops, which random trees() seldom build."""
    out = [Entry("d", "dir"), Entry("d/f", "file")]
    for name in ("a", "b", "s", "x"):
        head = draw(st.sampled_from(("a", "b", "s", "x", "d", ".", "..", "/workspace",
                                     "/grader", "/", "/workspace/..")))
        tail = draw(st.lists(st.sampled_from(_STEPS), max_size=4))
        out.append(Entry(name, "link", "/".join([head, *tail])))
    return out
