"""README's Keys table and the code agree: every binding id the workbench declares is in the
table (exactly, or by a `family.*` row), and every id the table names exists."""

from __future__ import annotations

import importlib
import pkgutil
import re

from textual.binding import Binding

import skillforge.app
import skillforge.screens
import widgets
from tests.conftest import ROOT


def declared_ids() -> set[str]:
    ids: set[str] = set()
    for package in (widgets, skillforge.screens, skillforge.app):
        for info in pkgutil.iter_modules(package.__path__):
            if info.name == "serve":
                continue  # textual-serve's server, no bindings
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for obj in vars(module).values():
                for b in getattr(obj, "BINDINGS", None) or []:
                    if isinstance(b, Binding) and b.id:
                        ids.add(b.id)
    return ids


def documented_ids() -> set[str]:
    readme = (ROOT / "README.md").read_text("utf-8")
    table = readme.split("### Keys", 1)[1].split("\n## ", 1)[0]
    ids: set[str] = set()
    for line in table.splitlines():
        cells = line.split(" | ")
        if line.startswith("| `") and len(cells) >= 3:
            ids |= set(re.findall(r"`([a-z_]+(?:\.[a-z_*]+)?)`", cells[-1]))
    return ids


def test_every_binding_id_is_in_the_readme_and_every_documented_id_exists():
    declared, documented = declared_ids(), documented_ids()
    families = {d[:-2] for d in documented if d.endswith(".*")}
    missing = {i for i in declared if i not in documented and i.split(".")[0] not in families}
    assert not missing, f"not in README's Keys table: {sorted(missing)}"
    unknown = {d for d in documented if not d.endswith(".*") and d not in declared}
    assert not unknown, f"README names ids no binding has: {sorted(unknown)}"
