"""The editor session of issue 20: open a skill with a defect, see the findings, fix it by
typing or by the quick fix, see them clear. Driven through pytest-lsp against the server
process, as an editor would."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.lsp.conftest import Session, apply_text_edits, module_loop

pytestmark = module_loop  # every test here uses the module's server (`lsp`)


def by_rule(diags: list[types.Diagnostic]) -> dict[str, types.Diagnostic]:
    return {str(d.code): d for d in diags}


async def test_open_shows_findings_with_rule_ids(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    diags = by_rule(await lsp.diagnostics(md))

    assert set(diags) == {"SF112", "SF313"}
    unknown = diags["SF112"]
    assert unknown.source == "skillforge"
    assert unknown.severity == types.DiagnosticSeverity.Error
    assert "`category`" in unknown.message
    # Line 4 of the file (0-based 3), from the key to the end of its line.
    assert (unknown.range.start.line, unknown.range.start.character) == (3, 0)
    assert unknown.range.end.character == len("category: reporting")
    assert unknown.code_description.href.startswith("file://")
    assert unknown.code_description.href.endswith("/linters/catalogue/correctness.toml")
    assert unknown.data["explain"] == "skillforge lint --explain SF112"
    # A skill-wide finding (no evals) sits on SKILL.md's first line, as information.
    assert diags["SF313"].severity == types.DiagnosticSeverity.Information


async def test_typing_the_fix_clears_the_finding(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    assert "SF112" in by_rule(await lsp.diagnostics(md))

    # Unsaved: the disk still has the key, the buffer does not.
    lsp.change(md, lsp.text(md).replace("category: reporting\n", ""))
    assert "SF112" not in by_rule(await lsp.diagnostics(md))
    assert "category: reporting" in md.read_text()

    lsp.change(md, lsp.text(md).replace("name: weekly-report", "name: Weekly_Report"))
    assert {"SF108", "SF110"} <= set(by_rule(await lsp.diagnostics(md)))


async def test_quick_fix_applied_clears_the_finding(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    unknown = by_rule(await lsp.diagnostics(md))["SF112"]

    actions = await lsp.code_actions(md, unknown)
    assert [a.title for a in actions] == ["SF112: Move `category` under `metadata:`"]
    action = actions[0]
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.is_preferred is True  # a safe fix
    (change,) = action.edit.document_changes
    assert change.text_document.uri == md.as_uri()
    assert change.text_document.version == 1

    fixed = apply_text_edits(lsp.text(md), list(change.edits))
    assert "\nmetadata:\n  category: reporting\n---\n" in fixed
    lsp.change(md, fixed)
    diags = by_rule(await lsp.diagnostics(md))
    assert "SF112" not in diags and "SF114" not in diags
    assert set(diags) == {"SF313"}


async def test_a_skill_opened_through_a_symlink_gets_diagnostics_under_that_path(
        lsp: Session, skill: Path):
    link = skill.parent / "linked-report"
    link.symlink_to(skill, target_is_directory=True)
    md = link / "SKILL.md"
    lsp.open(md)
    assert "SF112" in by_rule(await lsp.diagnostics(md))
