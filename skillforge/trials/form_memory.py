"""The workbench's trial form, remembered per skill in the state dir (never in the skill).

`<state_dir>/ui/trial-forms.json` maps a skill's absolute path to the values the author
set in the form that differ from the configuration at the time ([trial] settings and the
evals.json defaults): a later change of skillforge.toml still shows in every field the
author never touched. Unreadable or foreign content counts as nothing remembered.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skillforge.models.fileio import atomic_write_text

FILE = Path("ui") / "trial-forms.json"
# What the form may set: [trial] keys plus the run-only ones.
KEYS = ("case_ids", "conditions", "attempts", "concurrency", "agent", "model", "sandbox",
        "image", "network", "timeout_sec", "max_turns", "disk_mb", "decoys", "judge")


def _read(state_dir: Path) -> dict[str, Any]:
    try:
        doc = json.loads((state_dir / FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def remembered(state_dir: Path, skill: Path) -> dict[str, Any]:
    """The values remembered for `skill` ({} when none)."""
    values = _read(state_dir).get(str(skill.resolve()))
    if not isinstance(values, dict):
        return {}
    return {k: v for k, v in values.items() if k in KEYS}


def remember(state_dir: Path, skill: Path, values: Mapping[str, Any],
             configured: Mapping[str, Any]) -> dict[str, Any]:
    """Store the form's `values` that differ from `configured`; returns what was stored."""
    from sessions.store import ensure_state_dir  # the store's folder rules (a .gitignore)

    kept = {k: v for k, v in values.items()
            if k in KEYS and v != configured.get(k) and not (k == "case_ids" and not v)}
    doc = _read(state_dir)
    key = str(skill.resolve())
    if doc.get(key) == kept or (not kept and key not in doc):
        return kept
    if kept:
        doc[key] = kept
    else:
        doc.pop(key, None)
    ensure_state_dir(state_dir)
    path = state_dir / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(doc, indent=2, sort_keys=True) + "\n")
    return kept
