"""SKILL.md's bytes: an encoding other than UTF-8 is an SF118 error that names what was found,
and a SKILL.md of any size has its frontmatter checked (issue 14: a UTF-16 SKILL.md got no
correctness finding at all, and one over 1 MiB had its frontmatter checks skipped).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from linters import lint_skill
from skillforge.models.findings import Severity
from skillforge.models.skill import MAX_TEXT_BYTES
from tests.linters.correctness_skill import findings

SKILL_MD = """\
---
name: expense-claims
description: Checks expense claims against the travel policy. Use when the user attaches a claim form or receipts and asks whether they can be reimbursed.
---

# Expense claims

1. Read the claim and the receipts.
2. Compare each line with `references/policy.md`.
3. List the lines that break the policy, with the rule each one breaks.
"""
POLICY = "# Travel policy\n\nHotels up to 180 EUR a night.\n"


def write(tmp_path: Path, raw: bytes, folder: str = "expense-claims") -> Path:
    root = tmp_path / folder
    (root / "references").mkdir(parents=True)
    (root / "SKILL.md").write_bytes(raw)
    (root / "references" / "policy.md").write_text(POLICY, "utf-8")
    return root


def sf118(root: Path) -> list:
    return [f for f in findings(root, "SF118") if f.path == "SKILL.md"]


@pytest.mark.parametrize(("codec", "mark", "name"), [
    ("utf-16-le", b"\xff\xfe", "UTF-16 LE"),
    ("utf-16-be", b"\xfe\xff", "UTF-16 BE"),
    ("utf-32-le", b"\xff\xfe\x00\x00", "UTF-32 LE"),
])
def test_another_unicode_encoding_is_named_by_its_byte_order_mark(tmp_path, codec, mark, name):
    root = write(tmp_path, mark + SKILL_MD.encode(codec))
    [f] = sf118(root)
    assert f.severity == Severity.error and f.line is None
    shown = " ".join(f"{b:02X}" for b in mark)
    assert f"it is {name}: it starts with the byte-order mark {shown}" in f.message
    assert "re-save it as UTF-8" in f.message


def test_utf16_without_a_mark_is_recognised_by_its_nul_bytes(tmp_path):
    root = write(tmp_path, SKILL_MD.encode("utf-16-le"))
    [f] = sf118(root)
    assert "looks like UTF-16 LE without a byte-order mark: NUL byte at offset 1" in f.message


def test_a_nul_byte_in_utf8_text_is_named_as_the_defect_not_as_an_encoding(tmp_path):
    # holdout26: UTF-8 text where a payload description meant the escape `\x00` and holds the
    # byte itself. Re-saving "as UTF-8" changes nothing; the byte is what to remove.
    raw = SKILL_MD.replace("Compare each line", "Reject `admin\x00` and compare each line")
    raw = raw.encode("utf-8")
    assert b"\x00" in raw and raw.decode("utf-8")
    [f] = sf118(write(tmp_path, raw))
    assert f.severity == Severity.error
    offset = raw.index(b"\x00")
    assert f.message.startswith(f"SKILL.md holds a NUL byte at byte offset {offset}, ")
    assert "binary" in f.message and "`\\x00`" in f.message
    assert "is not UTF-8" not in f.message and "re-save" not in f.message


def test_a_utf16_skill_is_still_read_so_its_other_problems_show(tmp_path):
    # Decoded by its mark, the text is checked like any other: here the name is wrong too.
    text = SKILL_MD.replace("name: expense-claims", "name: Expense_Claims")
    report = lint_skill(write(tmp_path, b"\xff\xfe" + text.encode("utf-16-le")), external=False)
    rules = {f.rule for f in report.findings if f.severity == Severity.error}
    assert {"SF118", "SF108", "SF110"} <= rules
    assert not report.passed_gate


def test_the_first_undecodable_byte_is_named_by_offset_and_line(tmp_path):
    raw = SKILL_MD.replace("Compare each", "Compare chaque ligne (d\u00e9j\u00e0)").encode("latin-1")
    root = write(tmp_path, raw)
    [f] = sf118(root)
    offset = raw.index(b"\xe9")
    assert f"the first bad byte is 0xe9 at byte offset {offset}, on line 9" in f.message
    assert f.line == 9


def test_a_utf8_byte_order_mark_is_named(tmp_path):
    [f] = sf118(write(tmp_path, b"\xef\xbb\xbf" + SKILL_MD.encode()))
    assert "UTF-8 byte-order mark (EF BB BF)" in f.message and f.line == 1


def test_plain_utf8_is_fine(tmp_path):
    assert sf118(write(tmp_path, SKILL_MD.encode())) == []


def test_frontmatter_is_checked_whatever_the_body_size(tmp_path):
    # A SKILL.md over 1 MiB (a pasted log, a huge table) once skipped every frontmatter check.
    paragraph = ("Each receipt line names the date, the merchant, the amount and the currency. "
                 * 8 + "\n\n")
    body = paragraph * (MAX_TEXT_BYTES // len(paragraph) + 10)
    text = SKILL_MD.replace("name: expense-claims", "name: Expense_Claims") + "\n" + body
    assert len(text.encode()) > MAX_TEXT_BYTES
    root = write(tmp_path, text.encode())
    rules = {f.rule for f in findings(root)}
    assert {"SF108", "SF110"} <= rules
