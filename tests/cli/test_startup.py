"""The CLI starts fast: starting `skillforge` imports click and the command table, nothing more.

Each command's module loads when that command runs (skillforge/cli/lazy.py). These tests
look at sys.modules of a fresh interpreter, since this test process has imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillforge.cli import COMMANDS, main
from skillforge.cli.import_cmd import import_group
from tests.conftest import ROOT, SAMPLE_SKILLS

EXE = str(Path(sys.executable).with_name("skillforge"))
HEAVY = ("pydantic", "rich", "docker", "openai", "anthropic", "textual", "numpy", "scipy",
         "linters", "sessions", "tiktoken", "detect_secrets", "ruamel")
# What a fresh interpreter has loaded after running the code given to it.
PROBE = (
    "import json, sys\n"
    "{code}\n"
    "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
)


def loaded_after(code: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(code=code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    return proc, set(json.loads(proc.stderr.strip().splitlines()[-1]))


def unwanted(modules: set[str]) -> list[str]:
    commands = {m for m in modules if m.startswith("skillforge.cli.") and m != "skillforge.cli.lazy"}
    heavy = {m for m in modules if m.split(".")[0] in HEAVY}
    return sorted(commands | heavy)


def test_importing_the_cli_imports_no_command_and_no_heavy_library():
    _proc, modules = loaded_after("import skillforge.cli")
    assert "skillforge.cli" in modules
    assert unwanted(modules) == []


def test_help_lists_every_command_without_importing_them():
    code = ("from skillforge.cli import main\n"
            "try:\n    main(['--help'], prog_name='skillforge')\n"
            "except SystemExit:\n    pass")
    proc, modules = loaded_after(code)
    assert unwanted(modules) == []
    listing = proc.stdout.split("Commands:", 1)[1]
    for name, ref in COMMANDS.items():
        # A long name (optimize-description) sits on a line of its own, its summary below.
        listed = f"  {name} " in listing or f"  {name}\n" in listing
        assert listed is not ref.hidden, name
    assert "Lint skills: a skill folder, a SKILL.md, or any folder" in listing


def test_version_is_printed_by_the_console_script():
    proc = subprocess.run([EXE, "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("skillforge, version ")


@pytest.mark.parametrize(("group", "name"), [(main, n) for n in COMMANDS]
                         + [(import_group, n) for n in import_group.lazy_commands])
def test_each_summary_is_its_commands_own_help(group, name):
    ref = group.lazy_commands[name]
    real = ref.load()
    assert real.name == name
    assert real.hidden == ref.hidden
    for width in (200, 40):  # the listing shortens both the same way at any width
        assert ref.stand_in(name).get_short_help_str(width) == real.get_short_help_str(width)


@pytest.mark.parametrize("argv", [[n] for n in COMMANDS] + [["import", "harbor"]],
                         ids=" ".join)
def test_each_command_has_its_own_help(argv):
    result = CliRunner().invoke(main, [*argv, "--help"], prog_name="skillforge")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Usage: skillforge {' '.join(argv)} ")


class FakeApp:
    opened: list[Path] = []

    def __init__(self, root: Path, settings) -> None:
        self.root = root

    def run(self) -> None:
        FakeApp.opened.append(self.root)


@pytest.mark.parametrize("argv", [[str(SAMPLE_SKILLS / "csv-insights")], []],
                         ids=["a path", "no argument"])
def test_a_path_or_nothing_opens_the_workbench(argv, monkeypatch):
    monkeypatch.setattr("skillforge.app.build_app", FakeApp)
    monkeypatch.setattr(FakeApp, "opened", [])
    monkeypatch.chdir(SAMPLE_SKILLS)
    result = CliRunner().invoke(main, argv, prog_name="skillforge")
    assert result.exit_code == 0, result.output
    assert FakeApp.opened == [Path(argv[0] if argv else ".")]


def test_a_typo_is_a_mistyped_command_not_a_path_to_open():
    # `skillforge lnt`: no command and no such path, so the nearest command (issue 16;
    # tests/cli/test_mistyped.py has the rest).
    result = CliRunner().invoke(main, ["lnt"], prog_name="skillforge")
    assert result.exit_code == 2
    assert "No such command 'lnt'. Did you mean 'lint'?" in result.output
    assert "Usage: skillforge open" not in result.output


def test_a_command_module_loads_when_its_command_runs():
    _proc, modules = loaded_after(
        "from skillforge.cli import main\n"
        "try:\n    main(['new', '--help'], prog_name='skillforge')\n"
        "except SystemExit:\n    pass")
    assert "skillforge.cli.new" in modules
    assert not {"skillforge.cli.lint", "skillforge.cli.doctor", "linters"} & modules

