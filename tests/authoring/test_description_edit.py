"""Replacing a SKILL.md description changes that entry only: comments, quoting of other keys,
nested metadata, CRLF line ends and the body stay byte-identical; the new value reads back;
a file changed since the loop started is refused and nothing is written."""

from __future__ import annotations

import pytest

from skillforge.authoring.description_edit import (
    DescriptionEditError,
    read_description,
    with_description,
    write_description,
)
from skillforge.models.skill import load_skill

TEXT = """---
name: demo-skill  # the folder's name
description: >
  Folded old text
  over two lines.

# a comment that stays
license: 'MIT'
metadata:
  owner: "team: data"
---
# Demo

Body text: description: not this one.
"""


@pytest.mark.parametrize("new", [
    "Summarises data files. Use when asked for totals.",
    "Uses: colons, 'quotes', \"double\" and # hashes - all kept; Use when needed.",
    "x" * 1024,
])
def test_only_the_entry_changes_and_the_value_reads_back(tmp_path, new):
    out = with_description(TEXT, new)
    old_lines, new_lines = TEXT.splitlines(), out.splitlines()
    assert old_lines[:2] == new_lines[:2]
    assert old_lines[5:] == new_lines[3:]  # the blank line, the comment, the rest, the body
    assert new_lines[2].startswith("description: ")
    skill = tmp_path / "demo-skill"
    skill.mkdir()
    (skill / "SKILL.md").write_text(out)
    assert load_skill(skill).description == new == read_description(skill)


def test_crlf_and_a_last_key_description(tmp_path):
    text = "---\r\nname: demo\r\ndescription: old one\r\n---\r\nbody\r\n"
    out = with_description(text, "New text. Use when asked.")
    assert out == "---\r\nname: demo\r\ndescription: New text. Use when asked.\r\n---\r\nbody\r\n"


def test_refusals(tmp_path):
    with pytest.raises(DescriptionEditError, match="1024"):
        with_description(TEXT, "y" * 1025)
    with pytest.raises(DescriptionEditError, match="no `description`"):
        with_description("---\nname: a\n---\nbody\n", "New. Use when asked.")
    with pytest.raises(DescriptionEditError, match="frontmatter"):
        with_description("# no frontmatter\n", "New. Use when asked.")
    skill = tmp_path / "demo-skill"
    skill.mkdir()
    (skill / "SKILL.md").write_text(TEXT)
    with pytest.raises(DescriptionEditError, match="changed since"):
        write_description(skill, "New. Use when asked.", expect="something else")
    assert (skill / "SKILL.md").read_text() == TEXT
    write_description(skill, "New. Use when asked.", expect="Folded old text over two lines.\n")
    assert read_description(skill) == "New. Use when asked."
