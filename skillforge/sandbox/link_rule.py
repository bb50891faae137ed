"""The link rule of a grader's workspace, shared by the host and the grading container.

One rule (docs/graders.md): a symbolic link is kept only when resolving it the way the kernel
would, one component at a time, following every link on the way (chains, links to folders,
`..` through a link, absolute targets), never leaves its tree and meets no loop; every other
link becomes a link to UNSAFE_MARKER, a name the tree never holds, so the grader sees that a
link was there and opening it fails. `LinkJudge` is that rule, on a table of links.

Two places apply it:

- skillforge.sandbox.workspace_copy, on the host, to the agent's workspace tar on its way
  into the grading container (the links come from the tar's headers);
- as-agent's broker (skillforge.sandbox.as_agent), as root inside the grading container,
  to /workspace and /tmp in place each time agent code that the grader ran has ended and
  every process of the agent's uid is gone: `sanitize` walks the real tree.

So this file is standard library only and runs on the image's own python3 (3.6 or later):
no annotations, dataclasses or newer syntax. The broker loads it by path.
"""

import os
import shutil
import stat
from pathlib import PurePosixPath

# The target every unsafe link is rewritten to: relative, so it stays in its own folder,
# and a name the tree never holds (the agent's own paths through it are removed: else an
# agent could make the replaced link open a file of its choosing).
UNSAFE_MARKER = ".skillforge-unsafe-link"
# Links followed in one resolution before it is called a loop (Linux's own limit is 40).
MAX_LINKS = 40
_TOP = PurePosixPath("/")


def inside(path, root):
    """Whether an absolute, `..`-free path is `root` or below it."""
    return path == root or root in path.parents


class LinkJudge:
    """Decides which symbolic links of a tree resolve inside its root.

    `links` maps each link's absolute path (a PurePosixPath, as the tree's own processes
    name it) to its target, verbatim."""

    def __init__(self, links, root="/workspace"):
        self.links = links
        self.root = PurePosixPath(root)
        self._safe = {}
        self._judging = set()

    def safe(self, link):
        """Whether the link at `link` resolves inside the root through safe links only."""
        if link in self._safe:
            return self._safe[link]
        if link in self._judging:  # a cycle through this very link: a loop
            return False
        self._judging.add(link)
        try:
            verdict = inside(link.parent, self.root) and \
                self._resolve(link.parent, self.links[link]) is not None
        finally:
            self._judging.discard(link)
        self._safe[link] = verdict
        return verdict

    def _resolve(self, base, target):
        """Where `target`, read from folder `base`, ends; None when it leaves the root,
        passes through an unsafe link or loops."""
        target_path = PurePosixPath(target)
        cur = _TOP if target_path.is_absolute() else base
        pending = [p for p in reversed(target_path.parts) if p != "/"]
        jumped = target_path.is_absolute()  # "/" itself is allowed only right after a jump
        followed = 0
        while pending:
            part = pending.pop()
            if part in ("", "."):
                continue
            if part == "..":
                cur = cur.parent
                jumped = False
            else:
                nxt = cur / part
                if nxt in self.links:
                    followed += 1
                    if followed > MAX_LINKS or not self.safe(nxt):
                        return None
                    hop = PurePosixPath(self.links[nxt])
                    if hop.is_absolute():
                        cur, jumped = _TOP, True
                    pending.extend(p for p in reversed(hop.parts) if p != "/")
                    continue
                cur, jumped = nxt, False
            if not inside(cur, self.root) and not (jumped and cur == _TOP):
                return None
        return cur if inside(cur, self.root) else None


def sanitize(real_root, agent_uid, agent_gid, root=None, theirs=None):
    """Apply the rule in place to the tree at `real_root`, as root, once nothing of the
    agent's uid runs: its links that lead out become markers; its pipes, sockets and
    devices, its paths named UNSAFE_MARKER and the names it gave to files not its own (hard
    links) are removed. The tree's processes know it as `root` (default: `real_root`).

    Only what the agent's uid made is changed (in /tmp the grader's files stay as they
    are): an entry it owns, or any entry in a folder it owns (`theirs` says whether the
    root itself is, when its owner is not the agent's uid for now). Every link of the tree, the
    grader's included, is judged, so a chain through the grader's own links is seen.
    Returns (replaced links, removed paths), as the tree's processes name them."""
    real_root = os.path.abspath(real_root)
    logical = PurePosixPath(root or real_root)

    def name(path):
        rel = os.path.relpath(path, real_root)
        return logical if rel == "." else logical / rel

    links, candidates, removed = {}, [], []
    if theirs is None:
        theirs = os.lstat(real_root).st_uid == agent_uid
    stack = [(real_root, theirs)]
    while stack:
        folder, folder_theirs = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            mode = info.st_mode
            agents = info.st_uid == agent_uid or folder_theirs
            if agents and entry.name == UNSAFE_MARKER:
                _remove(entry.path, stat.S_ISDIR(mode))
                removed.append(name(entry.path))
            elif stat.S_ISDIR(mode):
                stack.append((entry.path, info.st_uid == agent_uid))
            elif stat.S_ISLNK(mode):
                try:
                    links[name(entry.path)] = os.readlink(entry.path)
                except OSError:
                    continue
                if agents:
                    candidates.append(entry.path)
            elif (stat.S_ISREG(mode) and (info.st_uid == agent_uid or not folder_theirs)) \
                    or not agents:
                continue  # its own file, or anything of another uid where it is theirs
            else:  # a pipe, socket or device; a hard link to a file not its own
                _remove(entry.path, False)
                removed.append(name(entry.path))
    judge = LinkJudge(links, logical)
    replaced = []
    for path in candidates:
        if not judge.safe(name(path)):
            os.unlink(path)
            os.symlink(UNSAFE_MARKER, path)
            os.lchown(path, agent_uid, agent_gid)
            replaced.append(name(path))
    return replaced, removed


def _remove(path, folder):
    try:
        if folder:
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except OSError:
        pass
