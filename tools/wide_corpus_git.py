"""Git plumbing of tools/wide_corpus.py: read a pinned commit's tree and blobs from a bare
snapshot (`--mirror`) or a shallow clone, without a work tree."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


class RepoError(Exception):
    """A repository that cannot be had or does not match its manifest entry."""


@dataclass
class Entry:
    mode: str
    kind: str
    oid: str
    path: str  # POSIX path in the repository


# --- git helpers ------------------------------------------------------------------------------

def git(git_dir: Path | None, *args: str, stdin: bytes | None = None, check: bool = True,
        env: dict[str, str] | None = None) -> bytes:
    cmd = ["git"]
    if git_dir is not None:
        cmd += ["--git-dir", str(git_dir)]
    cmd += list(args)
    full_env = dict(os.environ, GIT_TERMINAL_PROMPT="0", **(env or {}))
    proc = subprocess.run(cmd, input=stdin, capture_output=True, env=full_env)
    if check and proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        shown = " ".join(["git", *args])
        raise RepoError(f"`{shown[:200]}` failed: "
                        f"{err[-1] if err else 'exit ' + str(proc.returncode)}")
    return proc.stdout


def has_commit(git_dir: Path, commit: str) -> bool:
    # No lazy fetch from a promisor remote here: the question is what the git data holds.
    proc = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "-e", commit + "^{commit}"],
                          capture_output=True, env=dict(os.environ, GIT_NO_LAZY_FETCH="1"))
    return proc.returncode == 0


def is_git_dir(p: Path) -> bool:
    return (p / "HEAD").is_file() and (p / "objects").is_dir()


def git_dirs_under(p: Path, depth: int = 3) -> list[Path]:
    """Git directories at `p` or up to `depth` levels below it (not inside objects/)."""
    if not p.is_dir():
        return []
    if is_git_dir(p):
        return [p]
    found: list[Path] = []
    if depth == 0:
        return found
    try:
        children = sorted(c for c in p.iterdir() if c.is_dir() and c.name != "objects")
    except OSError:
        return found
    for child in children:
        found += git_dirs_under(child, depth - 1)
    return found


def mirror_candidates(mirror: Path, repo: str) -> list[Path]:
    owner, name = repo.split("/", 1)
    stems = {f"{owner}+{name}".lower(), f"{owner}__{name}".lower()}
    out: list[Path] = []
    try:
        entries = sorted(mirror.iterdir())
    except OSError as e:
        raise RepoError(f"cannot read --mirror {mirror}: {e}") from None
    for entry in entries:
        low = entry.name.lower()
        for stem in stems:
            if low == stem or (low.startswith(stem) and not low[len(stem)].isalnum()
                               and low[len(stem)] not in "-_"):
                out += git_dirs_under(entry)
        if low == owner.lower() and entry.is_dir():  # DIR/owner/name[.git]
            for sub in sorted(entry.iterdir()):
                sl = sub.name.lower()
                if sl == name.lower() or sl == name.lower() + ".git":
                    out += git_dirs_under(sub)
    return out


def from_mirror(mirror: Path, repo: str, commit: str) -> Path:
    cands = mirror_candidates(mirror, repo)
    if not cands:
        raise RepoError(f"no git directory for {repo} under {mirror} "
                        f"(looked for {repo.replace('/', '+')}*, {repo.replace('/', '__')}*, {repo}*)")
    for cand in cands:
        if has_commit(cand, commit):
            return cand
    raise RepoError(f"commit {commit} is not in {', '.join(str(c) for c in cands)}")


def sparse_pattern(path: str) -> str:
    """A non-cone sparse-checkout pattern matching the folder `path` (or everything)."""
    if path == ".":
        return "/*"
    esc = re.sub(r"([\\*?\[\]!#])", r"\\\1", path)
    return f"/{esc}/"


def clone(url: str, commit: str, dest: Path) -> Path:
    """A blob-less clone at `dest` (reused when there) holding `commit`; its git dir."""
    if not (dest / ".git").is_dir():
        if dest.exists():
            shutil.rmtree(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        git(None, "clone", "--quiet", "--filter=blob:none", "--no-checkout", url, str(dest))
    gd = dest / ".git"
    if not has_commit(gd, commit):
        git(gd, "fetch", "--quiet", "--filter=blob:none", "origin", commit, check=False)
    if not has_commit(gd, commit):
        raise RepoError(f"commit {commit} is not in {url} (gone, or the history was rewritten)")
    return gd


def checkout_folders(gd: Path, dest: Path, commit: str, folders: list[str]) -> None:
    """Sparse checkout of `folders` at `commit`: fetches the blobs of those folders only."""
    wt = ["--work-tree", str(dest)]
    patterns = "".join(sparse_pattern(p) + "\n" for p in sorted(folders))
    git(gd, *wt, "sparse-checkout", "set", "--no-cone", "--stdin", stdin=patterns.encode())
    git(gd, *wt, "-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach",
        commit)


# --- reading the tree --------------------------------------------------------------------------

def list_tree(git_dir: Path, commit: str) -> list[Entry]:
    raw = git(git_dir, "ls-tree", "-r", "-z", "--full-tree", commit)
    out = []
    for rec in raw.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, oid = meta.decode().split()
        out.append(Entry(mode, kind, oid, os.fsdecode(path)))
    return out


def sizes(git_dir: Path, oids: list[str]) -> dict[str, int | None]:
    """Blob sizes; None for a blob the git data does not hold."""
    if not oids:
        return {}
    raw = git(git_dir, "cat-file", "--batch-check", stdin="".join(o + "\n" for o in oids).encode(),
              env={"GIT_NO_LAZY_FETCH": "1"})
    out: dict[str, int | None] = {}
    for line in raw.decode().splitlines():
        parts = line.split()
        out[parts[0]] = int(parts[2]) if len(parts) == 3 and parts[1] == "blob" else None
    return out


def contents(git_dir: Path, oids: list[str]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    if not oids:
        return out
    raw = git(git_dir, "cat-file", "--batch", stdin="".join(o + "\n" for o in oids).encode(),
              env={"GIT_NO_LAZY_FETCH": "1"})
    i = 0
    while i < len(raw):
        j = raw.index(b"\n", i)
        head = raw[i:j].split()
        if len(head) == 3:
            size = int(head[2])
            out[head[0].decode()] = raw[j + 1:j + 1 + size]
            i = j + 1 + size + 1
        else:  # "<oid> missing"
            i = j + 1
    return out
