"""SF118's fix: the file re-saved as UTF-8 without a byte-order mark, its text unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.linters.fix_helpers import failing_fixture, fired, fix_rule, fixes_of

TEXT = "Glossary\n\nDébit: money out. Crédit: money in.\n# a comment line, kept\n"


@pytest.mark.parametrize(("encoded", "shown"), [
    (b"\xef\xbb\xbf" + TEXT.encode("utf-8"), "byte-order mark"),
    (TEXT.encode("utf-16"), "UTF-16"),
    (TEXT.replace("money out", "money out \u2013").encode("cp1252"), "Windows-1252"),
    (TEXT.encode("latin-1"), "Windows-1252"),
], ids=["utf8-bom", "utf16-bom", "cp1252", "latin1"])
def test_sf118_resaves_as_utf8_with_the_same_text(tmp_path: Path, encoded: bytes, shown: str):
    skill = failing_fixture("SF118", tmp_path)
    target = skill / "references" / "glossary.md"
    target.write_bytes(encoded)
    (fix,) = fixes_of(skill, "SF118")
    assert fix.safety == "safe" and shown in fix.title
    plan = fix_rule(skill, "SF118")
    assert "re-encoded from" in plan.diff() and "(the text is unchanged)" in plan.diff()
    assert not fired(skill, "SF118")
    data = target.read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf")
    expected = TEXT.replace("money out", "money out \u2013") if "\u2013".encode("cp1252") in encoded else TEXT
    assert data.decode("utf-8") == expected


def test_sf118_skill_md_in_utf16_without_a_mark(tmp_path: Path):
    skill = failing_fixture("SF118", tmp_path)
    md = skill / "SKILL.md"
    original = md.read_text("utf-8")
    md.write_bytes(original.encode("utf-16-le"))
    (fix,) = [f for f in fixes_of(skill, "SF118") if "SKILL.md" in f.title]
    assert "UTF-16 LE" in fix.title
    fix_rule(skill, "SF118")
    assert md.read_text("utf-8") == original


def test_sf118_bom_on_skill_md(tmp_path: Path):
    skill = failing_fixture("SF118", tmp_path)
    md = skill / "SKILL.md"
    original = md.read_bytes()
    md.write_bytes(b"\xef\xbb\xbf" + original)
    assert any(f.path == "SKILL.md" for f in fired(skill, "SF118"))
    fix_rule(skill, "SF118")
    assert md.read_bytes() == original


def test_sf118_text_with_stray_nul_bytes_gets_no_fix(tmp_path: Path):
    skill = failing_fixture("SF118", tmp_path)
    md = skill / "SKILL.md"
    md.write_bytes(md.read_bytes() + b"\x00\x00\xff odd\n")
    assert any(f.path == "SKILL.md" for f in fired(skill, "SF118"))
    assert not [f for f in fixes_of(skill, "SF118") if "SKILL.md" in f.title]
