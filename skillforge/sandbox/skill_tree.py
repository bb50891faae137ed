"""A skill's files as they are copied into a sandbox: read from a folder or a git revision.

Never included: `evals/` (ground truth and graders stay out of the agent's reach), VCS and
skillforge folders, caches and editor junk. Symlinks are kept as symlinks (never followed),
so a link to a host file cannot pull that file into the container.
"""

from __future__ import annotations

import io
import os
import re
import stat
import subprocess
import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from skillforge.models.skill import SKILL_MD, parse_skill_text

EXCLUDED_DIRS = frozenset({
    "evals", ".git", ".hg", ".svn", ".skillforge", "__pycache__", ".pytest_cache",
    ".mypy_cache", ".ruff_cache", ".venv",
})
EXCLUDED_FILES = frozenset({".DS_Store", "Thumbs.db"})
EXCLUDED_SUFFIXES = (".pyc", ".pyo", ".swp", ".swo", "~")
NAME_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")


class SkillTreeError(ValueError):
    """A skill (or a version of it) cannot be staged; the message says why and what to do."""


@dataclass(frozen=True)
class TreeEntry:
    """A regular file (data) or a symlink (link target) of a skill."""

    data: bytes = b""
    executable: bool = False
    link: str | None = None


@dataclass
class SkillTree:
    """What ends up under /skills/<name>/: a name, a description and files."""

    name: str
    description: str
    files: dict[str, TreeEntry] = field(default_factory=dict)
    source: str = ""

    def skill_md_text(self) -> str:
        entry = self.files.get(SKILL_MD)
        return entry.data.decode("utf-8", errors="replace") if entry else ""


def excluded(rel: PurePosixPath) -> bool:
    """True for paths that never leave the author's machine (evals, VCS, caches)."""
    if any(part in EXCLUDED_DIRS for part in rel.parts[:-1]):
        return True
    name = rel.name
    return name in EXCLUDED_DIRS or name in EXCLUDED_FILES or name.endswith(EXCLUDED_SUFFIXES)


def _identity(files: dict[str, TreeEntry], fallback: str, source: str) -> tuple[str, str]:
    md = files.get(SKILL_MD)
    if md is None or md.link is not None:
        raise SkillTreeError(f"{source} has no {SKILL_MD}; a skill folder needs one at its top")
    status, fm, _body, _line, _issue = parse_skill_text(md.data.decode("utf-8", "replace"))
    name = fm.get("name") if (status == "ok" and fm is not None) else None
    desc = fm.get("description") if (status == "ok" and fm is not None) else None
    if not isinstance(name, str) or not NAME_RE.match(name):
        name = re.sub(r"[^a-z0-9-]+", "-", fallback.lower()).strip("-") or "skill"
    return name, desc.strip() if isinstance(desc, str) else ""


def tree_name(root: Path | str) -> str:
    """The name `read_skill_tree` gives the skill at `root` (the one its runs are stored
    under), reading only SKILL.md; the folder's name, normalised, when that is unreadable."""
    root = Path(root)
    try:
        files = {SKILL_MD: TreeEntry(data=(root / SKILL_MD).read_bytes())}
        return _identity(files, root.resolve().name, str(root))[0]
    except (OSError, SkillTreeError):
        return _identity({SKILL_MD: TreeEntry(data=b"")}, root.resolve().name, str(root))[0]


def read_skill_tree(root: Path | str) -> SkillTree:
    """The stageable files of the skill folder at `root` (exclusions applied)."""
    root = Path(root)
    if not root.is_dir():
        raise SkillTreeError(f"skill folder {root} does not exist")
    files: dict[str, TreeEntry] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        base = PurePosixPath(Path(dirpath).relative_to(root).as_posix())
        dirnames[:] = sorted(d for d in dirnames
                             if not excluded(base / d) and not (Path(dirpath) / d).is_symlink())
        # Symlinked folders are kept as links, like symlinked files.
        links = [d for d in os.listdir(dirpath) if (Path(dirpath) / d).is_symlink()
                 and (Path(dirpath) / d).is_dir()]
        for name in sorted(set(filenames) | set(links)):
            rel = base / name if str(base) != "." else PurePosixPath(name)
            if excluded(rel):
                continue
            full = Path(dirpath) / name
            st = full.lstat()
            if stat.S_ISLNK(st.st_mode):
                files[str(rel)] = TreeEntry(link=os.readlink(full))
            elif stat.S_ISREG(st.st_mode):
                try:
                    data = full.read_bytes()
                except OSError as exc:
                    raise SkillTreeError(f"cannot read {full}: {exc.strerror or exc}") from exc
                files[str(rel)] = TreeEntry(data=data, executable=bool(st.st_mode & 0o111))
    name, desc = _identity(files, root.resolve().name, str(root))
    return SkillTree(name=name, description=desc, files=files, source=str(root))


def read_skill_git(root: Path | str, ref: str) -> SkillTree:
    """The skill at `root` as it was at git revision `ref` (a tag, branch or commit)."""
    root = Path(root).resolve()

    def git(*args: str) -> subprocess.CompletedProcess:
        try:
            return subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                                  check=False, timeout=120)
        except FileNotFoundError as exc:
            raise SkillTreeError("git is not installed; install it or give baseline_version "
                                 "as a folder holding the earlier version") from exc

    prefix = git("rev-parse", "--show-prefix")
    if prefix.returncode != 0:
        raise SkillTreeError(f"{root} is not inside a git repository, so baseline version "
                             f"git:{ref} cannot be read; use a saved folder instead")
    sub = prefix.stdout.decode().strip()
    # Run inside the skill folder, git archives only that folder (paths relative to it).
    done = git("archive", "--format=tar", ref, "--", ".")
    if done.returncode != 0:
        msg = done.stderr.decode(errors="replace").strip().splitlines()
        raise SkillTreeError(f"git cannot give {root.name} at {ref!r} "
                             f"({msg[-1] if msg else 'unknown error'}); check the ref with "
                             f"`git -C {root} log --oneline -- .`")
    files: dict[str, TreeEntry] = {}
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        for m in tar:
            name = m.name[len(sub):] if sub and m.name.startswith(sub) else m.name
            rel = PurePosixPath(name)
            if not name or excluded(rel) or m.isdir():
                continue
            if m.issym():
                files[str(rel)] = TreeEntry(link=m.linkname)
            elif m.isfile():
                fh = tar.extractfile(m)
                files[str(rel)] = TreeEntry(data=fh.read() if fh else b"",
                                            executable=bool(m.mode & 0o111))
    name, desc = _identity(files, root.name, f"{root} at {ref}")
    return SkillTree(name=name, description=desc, files=files, source=f"{root}@{ref}")


def read_skill_version(root: Path | str, version: str) -> SkillTree:
    """An earlier version of a skill: `git:REF`, or a folder holding a saved copy."""
    if version.startswith("git:"):
        return read_skill_git(root, version[4:])
    folder = Path(version).expanduser()
    if not folder.is_absolute() and not folder.exists():
        folder = Path(root).parent / folder
    if not folder.is_dir():
        raise SkillTreeError(f"baseline_version {version!r} is neither git:REF nor an existing "
                             "folder; give e.g. git:v1.0 or the path of a saved copy")
    return read_skill_tree(folder)
