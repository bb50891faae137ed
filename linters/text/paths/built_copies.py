"""A skill's source folder that its repository's build completes (SF116; issue 36, holdout 26).

Some repositories keep a skill's source as SKILL.md alone (`core/skills/<name>/`) and its
references apart (`core/references/<name>/`); a build assembles the copies agents install
(`plugins/x/skills/<name>/` with its `references/`, or a surface's `skills/<name>/` whose
`references` links to the shared folder), each with a byte-identical SKILL.md. The source's
link to `references/api.md` is missing from its own folder and found in every copy an agent
loads: a warning that names the copy where the file is, not an error.

Only on disk, in a repository (a folder above the skill holds `.git`): a copied skill cannot
see its repository's other copies, so it keeps its error. Only when the skill has none of the
path's first folder (a source the build adds `references/` to; a folder with `references/`
that lacks one of its files is out of step with its copies, and keeps its error), when another
folder of the same name holds a byte-identical SKILL.md (a fork whose SKILL.md diverged is
another skill) and when such a copy has the file (one that lacks it too completes nothing).
The copies are looked for once per lint, only when a path is missing, by a bounded walk of the
repository that skips `.git`, dependency and cache folders.
"""

from __future__ import annotations

import os
import posixpath
from collections import deque
from collections.abc import Callable, Hashable
from pathlib import Path

from linters.text.paths.path_refs import PathRef
from linters.text.paths.project_top import git_top

# Folders no build assembles a skill into: version control, dependencies, caches.
_SKIP = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__",
                   ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".cache"})
# The walk's bounds. The copies of holdout26's repository sit 3-4 folders below its top, in
# a tree of ~200 folders (read in ~4 ms). 1,000 folders take ~30 ms (3,000 took ~80-140 ms):
# the most a lint on save spends on this, and only when a path is missing in a skill inside
# a repository. A copy past the bound is not found, and the finding stays an error.
_MAX_DEPTH = 8
_MAX_FOLDERS = 1000


def _skill_md(folder: Path) -> bytes | None:
    try:
        return (folder / "SKILL.md").read_bytes()
    except OSError:
        return None


def identical_copies(root: Path) -> tuple[Path, Path] | tuple[()]:
    """The repository's top, then the other folders named as the skill at `root` whose
    SKILL.md is byte-identical to its own, nearest the top first; () when the skill is in
    no repository on disk or has no such copy."""
    top = git_top(root)
    own = _skill_md(root)
    if top is None or own is None:
        return ()
    try:
        here = root.resolve()
    except (OSError, RuntimeError):
        return ()
    found: list[Path] = []
    queue: deque[tuple[str, int]] = deque([(str(top), 0)])
    seen = 0
    while queue and seen < _MAX_FOLDERS:
        folder, depth = queue.popleft()
        seen += 1
        try:
            with os.scandir(folder) as it:
                entries = [(e.name, e.path, e.is_symlink()) for e in it
                           if e.name not in _SKIP and e.is_dir()]
        except OSError:
            continue
        for name, path, link in sorted(entries):
            if name == root.name and _is_copy(Path(path), here, own):
                found.append(Path(path))
            elif depth + 1 < _MAX_DEPTH and not link:
                queue.append((path, depth + 1))
    return (top, *found) if found else ()  # type: ignore[return-value]


def _is_copy(folder: Path, here: Path, own: bytes) -> bool:
    try:
        if folder.resolve() == here:
            return False  # the skill itself, or a link to it
    except (OSError, RuntimeError):
        return False
    return _skill_md(folder) == own


def built_copy_has(root: Path, copies: tuple[Path, ...], rel: str) -> str | None:
    """Why the missing `rel` (read from the skill's root) is a file the repository's build
    puts beside this source, or None. `copies`: `identical_copies(root)`."""
    rel = posixpath.normpath(rel)
    if not copies or rel.startswith("../") or rel == ".." or "/" not in rel:
        return None
    if os.path.lexists(root / rel.split("/", 1)[0]):
        return None  # the skill has the folder: a file lost from it is its own
    top, *others = copies
    for copy in others:
        if (copy / rel).exists():
            where = copy.relative_to(top).as_posix()
            return (f"the repository's `{where}/`, a copy of this skill with a byte-identical "
                    f"SKILL.md, has `{rel}`: this folder reads as the source its build "
                    "completes; check that every copy you ship has it")
    return None


def built_copy_reason(root: Path, ref: PathRef,
                      memo: Callable[[Hashable, Callable[[], tuple]], tuple]) -> str | None:
    """`built_copy_has` for a missing path of the skill at `root`; `memo` is the lint's
    once-per-pass cache (`LintContext.memo`), so the copies are looked for once per lint,
    and only here, when a path is missing."""
    if not root.is_dir():
        return None
    copies = memo(("identical_copies",), lambda: identical_copies(root))
    base = posixpath.dirname(ref.file) if ref.link and not ref.from_root else ""
    return built_copy_has(root, copies, posixpath.join(base, ref.path))
