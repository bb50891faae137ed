"""Where linting keeps what it can reuse across processes: one folder per cache, one root.

The compiled regexes (`compiled-regex/`), the tokenizer's tables (`tokenizer/`), the secret
detectors' table (`secret-detectors/`) and the external linters' results (`scriptlint/`)
all live under `cache_dir(name)`; each cache says itself what its files are and when
they go stale.
"""

from __future__ import annotations

import os
from pathlib import Path

# Root of skillforge's caches.
CACHE_DIR_ENV = "SKILLFORGE_CACHE_DIR"


def cache_dir(name: str) -> Path:
    """<$SKILLFORGE_CACHE_DIR | $XDG_CACHE_HOME/skillforge | ~/.cache/skillforge>/`name`."""
    base = os.environ.get(CACHE_DIR_ENV)
    if base:
        return Path(base) / name
    xdg = os.environ.get("XDG_CACHE_HOME")
    root = Path(xdg) if xdg else Path.home() / ".cache"
    return root / "skillforge" / name
