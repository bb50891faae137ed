"""Watch a skill folder for changes, fast, without editor noise (headless; the TUI uses it).

watchfiles' default debounce (1.6 s) is tuned for reloading servers; an author saving a
file wants the lint panel to react before their eyes move to it, so the default here is a
few tens of milliseconds. Editor swap and backup files are ignored: they change on every
keystroke in some editors and say nothing about the skill.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

from watchfiles import Change, DefaultFilter, awatch

DEBOUNCE_MS = 30
STEP_MS = 10

_EDITOR_NOISE = (
    r"\.sw[a-p]$",  # vim swap files
    r"~$",  # emacs/vim backups
    r"^\.#",  # emacs lock files
    r"^#.*#$",  # emacs autosave
    r"^4913$",  # vim's write-permission probe
    r"\.tmp$",
    r"\.kate-swp$",
    r"\.___jb_...___$",  # JetBrains safe-write temporaries
    r"\.py[cod]$",
    r"^flycheck_",
)


class SkillWatchFilter(DefaultFilter):
    """DefaultFilter minus .DS_Store (SF405 reports it) plus more editor temporaries."""

    ignore_dirs = (*DefaultFilter.ignore_dirs, ".skillforge", ".ruff_cache")
    ignore_entity_patterns = _EDITOR_NOISE

    def __init__(self) -> None:
        super().__init__()
        self._noise = [re.compile(p) for p in _EDITOR_NOISE]

    def __call__(self, change: Change, path: str) -> bool:
        name = Path(path).name
        if any(rx.search(name) for rx in self._noise):
            return False
        return super().__call__(change, path)


async def watch_changes(
    root: Path, debounce_ms: int = DEBOUNCE_MS, stop_event=None
) -> AsyncIterator[set[str]]:
    """Yield sets of changed paths under `root`, merged per debounce window."""
    async for changes in awatch(
        root,
        watch_filter=SkillWatchFilter(),
        debounce=debounce_ms,
        step=STEP_MS,
        stop_event=stop_event,
        recursive=True,
        ignore_permission_denied=True,
    ):
        yield {path for _change, path in changes}
