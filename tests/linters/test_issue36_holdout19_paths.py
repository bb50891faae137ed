"""Issue 36, holdout19: paths a skill names that are its own files under another name.

- A skill kept in a chezmoi source tree (a `dot_`-prefixed folder above it, or chezmoi's own
  files at the top) is written for its installed form: `~/.claude/skills/<skill>/sync-board`
  runs the file the repository keeps as `executable_sync-board`, and a link to `guide.md`
  names `readonly_guide.md`. A path is found when each component, read as its chezmoi target
  name, names a file of the skill (linters.text.paths.chezmoi), for SF301 and SF116 alike.
- A placeholder script name followed by a bracketed argument placeholder ("Run with: `uv run
  scripts/script_name.py [arguments]`") is the pattern every listed script follows, not a
  missing script.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin where the skill's missing file is still an error.
"""

from __future__ import annotations

from pathlib import Path

from tests.linters.rule_findings import severe
from tests.linters.test_security import make_skill

# --- chezmoi source names -------------------------------------------------------------------

_BOARD = """\
# Board sync

Move the tickets with the bundled script:

```bash
~/.claude/skills/board-sync/sync-board --team core
```

The column rules are in [the guide](guide.md).
"""
_SOURCES = {"executable_sync-board": "#!/bin/sh\necho sync\n",
            "readonly_guide.md": "# Guide\n"}


def _in(tmp_path: Path, *folders: str) -> Path:
    root = tmp_path.joinpath(*folders) if folders else tmp_path
    root.mkdir(parents=True, exist_ok=True)
    return root


def test_a_chezmoi_source_name_is_the_skills_file(tmp_path):
    """Before: SF301 'runs sync-board, which is not in the skill', SF116 on guide.md."""
    skill = make_skill(_in(tmp_path, "dot_claude", "skills"), _BOARD, _SOURCES,
                       name="board-sync")
    assert severe(skill, "SF301") == []
    assert severe(skill, "SF116") == []
    assert severe(skill, "SF305") == []  # `executable_` is the run bit chezmoi sets


def test_chezmoi_files_at_the_top_mark_the_tree(tmp_path):
    root = _in(tmp_path, "home")
    (root / ".chezmoiignore").write_text("README.md\n", encoding="utf-8")
    skill = make_skill(_in(root, "agents", "skills"), _BOARD, _SOURCES, name="board-sync")
    assert severe(skill, "SF301") == []
    assert severe(skill, "SF116") == []


def test_outside_a_chezmoi_tree_the_prefixed_name_is_another_file(tmp_path):
    skill = make_skill(_in(tmp_path, "claude", "skills"), _BOARD, _SOURCES, name="board-sync")
    assert [r[2] for r in severe(skill, "SF301")] == ["error"]
    assert [r[2] for r in severe(skill, "SF116")] == ["error"]


def test_a_name_no_source_installs_stays_missing(tmp_path):
    body = _BOARD.replace("sync-board --team", "push-board --team").replace(
        "(guide.md)", "(rules.md)")
    skill = make_skill(_in(tmp_path, "dot_claude", "skills"), body, _SOURCES,
                       name="board-sync")
    assert [r[2] for r in severe(skill, "SF301")] == ["error"]
    assert [r[2] for r in severe(skill, "SF116")] == ["error"]


# --- a placeholder script name ------------------------------------------------------------------

_PATTERN = """\
# Ledger tools

> Every script lives in `scripts/`. Run with: `uv run scripts/script_name.py [options]`

| Task | Script |
|---|---|
| Import a statement | `scripts/import_statement.py` |
"""
_SCRIPTS = {"scripts/import_statement.py": "print('ok')\n"}


def test_a_generic_script_name_with_an_argument_slot_is_a_pattern(tmp_path):
    """Before: SF301 'runs scripts/script_name.py, which is not in the skill'."""
    assert severe(make_skill(tmp_path, _PATTERN, _SCRIPTS), "SF301") == []
    other = _PATTERN.replace("script_name.py [options]", "your-tool.py <args>")
    assert severe(make_skill(tmp_path / "b", other, _SCRIPTS), "SF301") == []


def test_a_real_looking_name_or_real_arguments_stay_missing(tmp_path):
    real = _PATTERN.replace("script_name.py [options]", "name_parser.py [options]")
    assert [r[2] for r in severe(make_skill(tmp_path, real, _SCRIPTS), "SF301")] == ["error"]
    run = _PATTERN.replace("script_name.py [options]", "script_name.py --all")
    assert [r[2] for r in severe(make_skill(tmp_path / "b", run, _SCRIPTS), "SF301")] == [
        "error"]
