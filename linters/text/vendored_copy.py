"""Is the skill a vendored copy of another project's skill? (SF112, SF116, SF301; issue 36.)

A repository may keep copies of other projects' skills for reference or to track them:
`RESEARCH/upstream-snapshots/<commit>/plugins/x/skills/y/`, `apps/motion/assets/upstream/
recipes/z/`, `vendor/`, `third_party/`. Such a copy often keeps only SKILL.md (its companion
files stay upstream) and keeps the upstream harness's frontmatter keys: its missing files and
unknown keys are the upstream project's, worth a warning, not an error of this repository.

The cue is a folder between the repository's top and the skill whose whole name says it holds
other projects' code (`vendor`, `vendored`, `third_party`, `upstream`, `upstream-snapshots`,
`node_modules`); a name that merely contains such a word (`vendor-tools`, a skill named
`upstream-reporting`) does not count, nor do folders inside the skill (`references/upstream/`
is the skill's own reference material). The repository's top is the nearest folder above the
skill holding `.git` (a submodule's `.git` file does not end the repository: a submodule under
`vendor/` is a vendored copy); without one, the walk stops below the user's home folder, so a
checkout at `~/src/vendor/repo/` with its `.git` is read from `repo/` down.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from linters.text.compiled_regex import rx

_VENDOR_FOLDER = rx(
    r"^[._]?(?:vendor(?:ed|s)?|third[-_]?party|3rd[-_]?party|upstream|node_modules)"
    r"(?:[-_](?:snapshots?|cop(?:y|ies)|mirrors?|skills?|sources?|src))?$",
    re.IGNORECASE,
)


def _repository_top(folder: Path) -> bool:
    """`folder` holds `.git`: a repository's own (a folder, or a worktree's `.git` file), not
    a submodule's (a file pointing into the superproject's `.git/modules/`)."""
    git = folder / ".git"
    try:
        if git.is_dir():
            return True
        if git.is_file():
            return "/modules/" not in git.read_text("utf-8", errors="replace")[:500]
    except OSError:
        pass
    return False


@functools.lru_cache(maxsize=256)
def _vendored_under(root: str) -> str | None:
    try:
        real = Path(root).resolve()
        home = Path.home().resolve()
    except (OSError, RuntimeError):
        return None
    for folder in real.parents:
        if folder == home or _repository_top(folder):
            return None
        if _VENDOR_FOLDER.match(folder.name):
            return folder.name
    return None


def vendored_folder(root: Path) -> str | None:
    """The folder above the skill at `root`, below its repository's top, whose name says it
    holds copies of other projects' code (`upstream`, `vendor`...), or None."""
    return _vendored_under(str(root))


def vendored_reason(root: Path, what: str) -> str | None:
    """The warning's reason for a vendored copy: `what` (the missing file, the key) is the
    upstream project's; None when the skill is not under such a folder."""
    folder = vendored_folder(root)
    if folder is None:
        return None
    return (f"this SKILL.md sits under `{folder}/`, a vendored copy of another project's "
            f"skill, so {what} is the upstream project's; fix it there, or keep the copy out "
            "of the folders harnesses load")
