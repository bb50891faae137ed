"""A project skill's script that its own `scripts/` lacks but the repository's top holds
(SF301, SF116; issue 36, holdout 26).

A skill kept in a repository's `.claude/skills/<name>/` (or another agent's folder) runs
with the repository's top as its working folder. When it ships a `scripts/` of its own, a
missing `scripts/x.sh` was read as its own file, misspelt or lost (holdout 20), even when
the checked-out repository has `scripts/x.sh` at its top: a release checker that runs its
own `scripts/check.py` and, as the last step of the release, the repository's
`./scripts/release.sh`. From the working folder that run works, so it is a warning that
says where the file is, not an error.

Only on disk: a copied skill, whose top cannot be looked at, keeps its error (the copy
cannot tell a lost script from the repository's). Only a script (a run resolves it from
the working folder; a reference the agent reads is looked up in the skill). Not when the
skill has a file of nearly that name (`scripts/run_checks.sh` for `scripts/run-checks.sh`,
or the same name in another folder): then the path is its own file misspelt. Not when the
text writes the path from a folder variable anywhere (`${CLAUDE_SKILL_DIR}/scripts/x.sh`,
`{baseDir}/scripts/x.sh`): then it is the skill's (or its plugin's) file, not the project's.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path, PurePosixPath

from linters.text.compiled_regex import rx
from skillforge.models.skill import SCRIPT_SUFFIXES

_SEPARATORS = rx(r"[-_.\s]+")


def script_stem(path: str) -> str:
    """A file's name without folder, suffix, case or separators: `Run_Checks` -> `runchecks`."""
    return _SEPARATORS.sub("", PurePosixPath(path).stem.lower())


def _from_variable(text: str, rel: str) -> bool:
    """The text writes `rel` under a folder variable (`$X/rel`, `${X}/rel`, `{x}/rel`)."""
    return re.search(r"(?:\$\{?\w+\}?|\{\w+\})/(?:\./)?" + re.escape(rel) + r"(?![\w.-])",
                     text) is not None


def found_beside_own_folder(root: Path, top: Path, rel: str, text: str) -> str | None:
    """Why the missing script `rel` of the project skill at `root` (`top`: its
    repository's top; `text`: its SKILL.md) is the repository's file, or None (see the
    module's docstring). The skill's files are read from disk, as the top is."""
    if (rel.startswith("../") or PurePosixPath(rel).suffix.lower() not in SCRIPT_SUFFIXES
            or not (top / rel).is_file() or _from_variable(text, rel)):
        return None
    stem = script_stem(rel)
    if any(script_stem(f.name) == stem for f in root.rglob("*") if f.is_file()):
        return None  # the skill's own script, misspelt or moved
    where = root.parent.relative_to(top).as_posix() + "/"
    own = posixpath.dirname(rel) or rel
    return (f"a project skill (kept in the repository's `{where}`) runs from the "
            f"repository's top, where `{rel}` is; its own `{own}/` does not have it")
