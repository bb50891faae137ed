"""The server lints as `skillforge lint` does: skillforge.toml and inline suppressions apply,
every file of the skill gets its findings, and a broken config is shown, not fatal."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.lsp.conftest import Session, module_loop, uri

pytestmark = module_loop  # every test here uses the module's server (`lsp`)

BROKEN_SCRIPT = "def main(:\n    pass\n"


def rules(diags: list[types.Diagnostic]) -> set[str]:
    return {str(d.code) for d in diags}


async def test_skillforge_toml_disabling_a_rule_is_honoured(lsp: Session, skill: Path):
    (skill / "skillforge.toml").write_text('[lint]\ndisable = ["SF112"]\n')
    md = skill / "SKILL.md"
    lsp.open(md)
    assert rules(await lsp.diagnostics(md)) == {"SF313"}


async def test_inline_suppression_is_honoured(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    assert "SF112" in rules(await lsp.diagnostics(md))
    lsp.change(md, lsp.text(md) + "\n<!-- skillforge: disable SF112 -->\n")
    assert rules(await lsp.diagnostics(md)) == {"SF313"}


async def test_findings_of_files_not_open_are_published_and_cleared(lsp: Session, skill: Path):
    script = skill / "scripts" / "tally.py"
    script.write_text(BROKEN_SCRIPT)
    md = skill / "SKILL.md"
    lsp.open(md)
    diags = await lsp.latest(script, lambda d: bool(d), "for the broken script")
    (syntax,) = [d for d in diags if d.code == "SF601"]
    assert syntax.range.start.line == 0

    # Opened and fixed in the editor (unsaved): its findings clear.
    lsp.open(script, "python")
    lsp.change(script, (Path(__file__).parent / "fixtures/weekly-report/scripts/tally.py").read_text())
    assert "SF601" not in rules(await lsp.diagnostics(script))


async def test_a_repeated_paragraph_points_at_its_other_copy(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    overview = md.read_text().split("## Overview\n\n")[1].split("\n\n")[0]
    ref = skill / "references" / "sources.md"
    ref.parent.mkdir()
    ref.write_text(f"# Sources\n\n{overview}\n")
    lsp.open(md)
    lsp.change(md, lsp.text(md).replace("- Reads CSV", "- Details in references/sources.md.\n- Reads CSV"))
    (dup,) = [d for d in await lsp.diagnostics(md) if d.code == "SF406"]
    assert dup.related_information, dup
    assert dup.related_information[0].location.uri == uri(ref)


async def test_a_broken_config_is_shown_on_its_file(lsp: Session, skill: Path):
    toml = skill / "skillforge.toml"
    toml.write_text("[lint]\nfail_under = 'high'\n")
    md = skill / "SKILL.md"
    lsp.open(md)
    # The skill is still linted, with the default settings.
    assert "SF112" in rules(await lsp.diagnostics(md))
    (err,) = await lsp.latest(toml, bool, "for skillforge.toml")
    assert err.code == "config" and err.severity == types.DiagnosticSeverity.Error
    assert "fail_under" in err.message


async def test_closing_the_last_document_clears_the_skill(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    assert await lsp.diagnostics(md)
    lsp.close(md)
    await lsp.latest(md, lambda d: not d, "cleared after close")
