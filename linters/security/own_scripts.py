"""SF513: a script-runner package (`npx tsx`, `npx ts-node`) run on a script the skill ships.

The unpinned package is the TypeScript/JavaScript runner, and what it is handed is the skill's
own script: the user's data goes to code shipped with the skill and readable in it, not to a
tool the registry serves. The runner is still unpinned, so the finding stays, at medium. A
script the skill does not ship, or one fetched from a URL, stays high.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from linters.text.compiled_regex import rx

# A leading folder variable that names where the skill sits (`{baseDir}/`, `$SKILL_DIR/`).
_BASE = rx(r"^(?:\{baseDir\}|\$\{?\w+\}?)/")


def shipped_script(script: str, in_file: str, shipped: Iterable[str]) -> str | None:
    """The shipped file `script` names, resolved from the skill's folder or the naming
    file's own folder, or None."""
    if not script or script.startswith(("/", "~")):
        return None
    rel = _BASE.sub("", script)
    files = set(shipped)
    for base in ("", posixpath.dirname(in_file)):
        path = posixpath.normpath(posixpath.join(base, rel))
        if not path.startswith("../") and path in files:
            return path
    return None


def note(path: str, severity: str) -> str:
    return (f" (medium, not {severity}: the package is a script runner and the script it "
            f"runs is the skill's own `{path}`, so the data goes to the skill's shipped code, "
            "not to a tool the registry serves; pin the runner and review the script.)")



