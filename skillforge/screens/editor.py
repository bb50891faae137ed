"""Opening a file in the author's `$VISUAL` / `$EDITOR`, at a line when there is one."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from textual.app import App


def editor_command(path: Path, line: int | None) -> list[str]:
    """`$VISUAL`/`$EDITOR` at a line, in the syntax the common editors understand."""
    editor = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
    name = Path(editor[0]).name
    if line and name in ("code", "code-insiders", "codium", "cursor", "windsurf"):
        return [*editor, "--goto", f"{path}:{line}"]
    if line and name in ("subl", "zed", "hx", "helix"):
        return [*editor, f"{path}:{line}"]
    if line:
        return [*editor, f"+{line}", str(path)]
    return [*editor, str(path)]


def run_editor(app: App, path: Path, line: int | None) -> str | None:
    """Suspend the app and edit `path`; the reason it could not be opened, or None."""
    cmd = editor_command(path, line)
    try:
        with app.suspend():
            subprocess.run(cmd, check=False)
    except Exception as exc:  # noqa: BLE001 - SuspendNotSupported, a missing editor...
        return f"Could not open {shlex.join(cmd)}: {exc}. Set $EDITOR to your editor."
    return None
