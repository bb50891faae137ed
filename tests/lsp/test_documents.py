"""The skill an editor shows: open buffers stand in for the disk copy (`load_skill`'s
`overrides`), unchanged buffers keep what the disk says about encodings; and pygls is
loaded only by `skillforge lsp`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from linters import lint_skill
from skillforge.lsp.documents import overrides_for, skill_root_for
from skillforge.models.skill_loader import load_skill
from tests.conftest import ROOT


def test_an_override_replaces_the_disk_copy(skill: Path):
    edited = (skill / "SKILL.md").read_text().replace("category: reporting\n", "")
    loaded = load_skill(skill, overrides={"SKILL.md": edited.encode()})
    assert loaded.skill_md.text == edited
    assert "category" not in loaded.frontmatter.data
    assert "SF112" not in {f.rule for f in lint_skill(loaded).findings}
    # The disk is untouched, and the scripts keep their run bit.
    assert "category: reporting" in (skill / "SKILL.md").read_text()
    assert loaded.file("scripts/tally.py").executable


def test_a_file_not_yet_saved_is_part_of_the_skill(skill: Path):
    loaded = load_skill(skill, overrides={"references/notes.md": b"# Notes\n"})
    assert loaded.file("references/notes.md").text == "# Notes\n"


def test_an_unchanged_buffer_keeps_the_disk_encoding_findings(skill: Path):
    md = skill / "SKILL.md"
    text = md.read_text()
    md.write_bytes(b"\xef\xbb\xbf" + text.encode())
    # An editor shows the text without the mark: nothing to override, SF118 still reported.
    assert overrides_for(skill, {"SKILL.md": text}) == {}
    # Edited, the buffer is linted as the UTF-8 it will be saved as, mark kept.
    edited = overrides_for(skill, {"SKILL.md": text + "\nMore.\n"})["SKILL.md"]
    assert edited.startswith(b"\xef\xbb\xbf") and edited.endswith(b"More.\n")
    loaded = load_skill(skill, overrides={"SKILL.md": edited})
    assert "SF118" in {f.rule for f in lint_skill(loaded).findings}


def test_a_document_belongs_to_the_nearest_skill(skill: Path):
    assert skill_root_for(skill / "scripts" / "tally.py") == skill
    nested = skill / "tools" / "inner"
    nested.mkdir(parents=True)
    (nested / "SKILL.md").write_text("---\nname: inner\n---\n")
    assert skill_root_for(nested / "notes.md") == nested
    assert skill_root_for(skill / "NEW" / "SKILL.md") == skill / "NEW"
    assert skill_root_for(skill.parent / "loose.md") is None


def test_pygls_is_imported_only_by_the_lsp_command():
    code = ("import sys\nfrom click.testing import CliRunner\nimport skillforge.cli as c\n"
            "CliRunner().invoke(c.main, ['lint', '--explain', 'SF112'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('pygls', 'lsprotocol', 'cattrs', 'skillforge') and "
            "(m.startswith('skillforge.lsp') or not m.startswith('skillforge'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"
    # And only skillforge/lsp's modules import it.
    users = [p.relative_to(ROOT).as_posix() for pkg in ("skillforge", "linters", "sessions")
             for p in (ROOT / pkg).rglob("*.py")
             if "import pygls" in p.read_text() or "from pygls" in p.read_text()
             or "from lsprotocol" in p.read_text()]
    assert users and all(u.startswith("skillforge/lsp/") for u in users), users
