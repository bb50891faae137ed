"""Hovers: a rule id shows its catalogue entry (what `--explain` prints), a frontmatter key
what it means, a diagnostic's place its rule's entry."""

from __future__ import annotations

from pathlib import Path

from linters.registry import catalogue
from tests.lsp.conftest import Session, module_loop

SUPPRESSION = "<!-- skillforge: disable SF309 -->\n"


@module_loop
async def test_hover_on_a_rule_id_in_a_suppression_comment(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    await lsp.diagnostics(md)
    lsp.change(md, lsp.text(md).replace("# Weekly report\n", "# Weekly report\n" + SUPPRESSION))
    await lsp.diagnostics(md)
    row = lsp.text(md).split("\n").index(SUPPRESSION.strip())

    hover = await lsp.hover(md, row, SUPPRESSION.index("SF309") + 2)
    rule = catalogue()["SF309"]
    assert hover is not None
    assert hover.contents.kind == "markdown"
    assert hover.contents.value.startswith(f"**SF309** {rule.title}")
    assert rule.explanation.split("\n")[0] in hover.contents.value
    assert "`skillforge lint --explain SF309`" in hover.contents.value
    start = SUPPRESSION.index("SF309")
    assert (hover.range.start.character, hover.range.end.character) == (start, start + 5)


@module_loop
async def test_hover_on_frontmatter_keys(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    await lsp.diagnostics(md)
    lines = lsp.text(md).split("\n")

    name = await lsp.hover(md, lines.index("name: weekly-report"), 2)
    assert "**`name`** (Agent Skills spec, required)" in name.contents.value
    assert "equal to the folder's name" in name.contents.value

    # An unknown key: what to do with it, and (the cursor is in SF112's range) the rule.
    unknown = await lsp.hover(md, lines.index("category: reporting"), 3)
    value = unknown.contents.value
    assert "**`category`**: not a key of the Agent Skills spec" in value
    assert f"**SF112** {catalogue()['SF112'].title}" in value
    # SF112 can fix, as `--explain` says: the hover says so too.
    assert "**Fix** (safe, `skillforge lint --fix`, or this editor's quick fix): " in value
    assert catalogue()["SF112"].fix_summary.strip() in value


@module_loop
async def test_hover_on_a_claude_code_key_and_outside_anything(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    await lsp.diagnostics(md)
    lsp.change(md, lsp.text(md).replace("category: reporting\n", "disable-model-invocation: true\n"))
    await lsp.diagnostics(md)
    lines = lsp.text(md).split("\n")

    hover = await lsp.hover(md, lines.index("disable-model-invocation: true"), 5)
    assert "Claude Code only" in hover.contents.value
    assert "only the user's `/name` runs it" in hover.contents.value

    # Plain body text with no finding: nothing to say.
    assert await lsp.hover(md, lines.index("## Workflow") + 2, 4) is None


def test_every_key_the_linter_knows_has_a_meaning():
    from linters.correctness.correctness import SPEC_KEYS
    from linters.correctness.harness_keys import KNOWN_KEYS
    from skillforge.lsp.keys import KEYS

    assert set(SPEC_KEYS) | set(KNOWN_KEYS) <= set(KEYS)
