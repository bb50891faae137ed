"""The core stays headless: import-linter contracts hold, and no core module loads Textual."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
    assert "Contracts: 8 kept, 0 broken" in proc.stdout


# One planted import per contract: (module file, line planted at its top, the contract's
# name as lint-imports prints it, the edge lint-imports must report).
PLANTED = [
    ("skillforge/workspace/live.py", "import textual", "stay headless",
     "skillforge.workspace.live -> textual"),
    ("linters/engine.py", "import skillforge.trials.run", "depend only on skillforge.models",
     "linters.engine -> skillforge.trials.run"),
    ("linters/correctness/links.py", "import linters.security.text_role",
     "never import one another", "linters.correctness.links -> linters.security.text_role"),
    ("linters/text/markdown.py", "import linters.registry", "text readers import no rule",
     "linters.text.markdown -> linters.registry"),
    ("widgets/heatmap.py", "import skillforge.cli", "never reach into the app",
     "widgets.heatmap -> skillforge.cli"),
    ("skillforge/lift/stats.py", "import skillforge.providers.select",
     "never reach sandboxes, trials or providers",
     "skillforge.lift.stats -> skillforge.providers.select"),
    ("skillforge/agent/tools.py", "import skillforge.trials.staging", "not the trial machinery",
     "skillforge.agent.tools -> skillforge.trials.staging"),
    ("skillforge/models/skill.py", "import skillforge.trajectory.facts",
     "import nothing else of the project",
     "skillforge.models.skill -> skillforge.trajectory.facts"),
]


@pytest.mark.parametrize("path,line,contract,edge", PLANTED, ids=[p[2] for p in PLANTED])
def test_a_planted_import_breaks_its_contract(tmp_path, path, line, contract, edge):
    """Plant one violating import in a copy of the code: lint-imports must name the edge."""
    for name in ("skillforge", "linters", "sessions", "widgets"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / path
    target.write_text(f"{line}  # planted\n" + target.read_text())
    exe = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([str(exe), "--no-cache"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env=env)
    assert proc.returncode != 0
    # The line that names the contract says BROKEN (a models import can break "layers" too,
    # since linters and sessions import the models).
    verdicts = [ln for ln in proc.stdout.splitlines() if contract in ln]
    assert verdicts and " BROKEN" in verdicts[0], proc.stdout
    assert edge in proc.stdout, proc.stdout


def test_only_entry_points_sit_directly_under_skillforge():
    """One folder per concept: a new module at the top of skillforge/ belongs in a folder."""
    top = sorted(p.name for p in (ROOT / "skillforge").glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "config.py"]


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
