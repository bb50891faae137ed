"""The core stays headless: import-linter contracts hold, and no core module loads Textual."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

UI_MODULES = ("skillforge.app", "skillforge.screens")


def _core_modules() -> list[str]:
    """Every importable module of skillforge, linters and sessions outside the UI."""
    mods = []
    for pkg in ("skillforge", "linters", "sessions"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            if name in ("skillforge.__main__",) or name.startswith(UI_MODULES):
                continue
            mods.append(name)
    return mods


def test_import_linter_contracts_hold():
    exe = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(exe)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: 3 kept, 0 broken" in proc.stdout


def test_the_contract_catches_a_core_module_importing_textual(tmp_path):
    """Plant `import textual` in a core module of a copy: lint-imports must break."""
    for name in ("skillforge", "linters", "sessions", "widgets"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    live = tmp_path / "skillforge" / "live.py"
    live.write_text("import textual  # planted\n" + live.read_text())
    exe = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([str(exe), "--no-cache"], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode != 0
    assert "skillforge.live -> textual" in proc.stdout


def test_no_core_module_imports_textual_at_runtime():
    # One fresh interpreter imports each core module in turn and stops at the first that
    # pulls Textual in (import-linter sees static imports; this also catches dynamic ones).
    code = (
        "import importlib, sys\n"
        f"for m in {_core_modules()!r}:\n"
        "    importlib.import_module(m)\n"
        "    if 'textual' in sys.modules:\n"
        "        print('LEAK', m); sys.exit(1)\n"
        "print('OK', len(sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("OK"), proc.stdout + proc.stderr


def test_the_code_passes_ruff_with_the_projects_rules():
    # The same ruff skillforge runs on skill scripts, here with the rules pyproject.toml pins.
    exe = Path(sys.executable).with_name("ruff")
    proc = subprocess.run([str(exe), "check", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
