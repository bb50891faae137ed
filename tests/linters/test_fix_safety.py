"""`--fix` never changes meaning: one skill per way it once did (issue 36), fixed as
`skillforge lint --fix` fixes it, and the text that must stay as it was.

Each skill under tests/fixtures/fixes/safety/ reproduces one class of damage the safe fixes
did to public skills: a link to a sibling skill's SKILL.md pointed at the skill's own, shell
code in backticks rewritten, a path no finding named edited (on the line of another finding,
or a link that resolves only outside the scratch copy the fixes are worked out in), a link
whose text names another file retargeted, a reference's YAML header and HTML comments copied into its table of
contents, and a moved frontmatter key's comments dropped.
"""

from __future__ import annotations

from pathlib import Path

from linters.fixes.toc import anchor
from skillforge.models.lint_config import LintConfig
from skillforge.models.skill import load_skill
from skillforge.workspace.fixing import fix_skill, write_plan
from tests.linters.fix_helpers import FIX_FIXTURES, copy_skill, fired

SAFETY = FIX_FIXTURES / "safety"


def fix_all(skill: Path) -> list[str]:
    """Apply every safe fix as `skillforge lint --fix` does; the titles of those applied."""
    outcome = fix_skill(skill, LintConfig(scripts=False))
    if outcome.plan.changes:
        write_plan(skill, outcome.plan, "skillforge lint --fix")
    return [f.title for f in outcome.applied]


def test_a_link_to_a_sibling_skill_is_not_pointed_at_the_skills_own_skill_md(tmp_path: Path):
    skill = copy_skill(SAFETY / "sibling-skill-link" / "pr-digest", tmp_path)
    handoff = skill / "references" / "handoff.md"
    before = handoff.read_text()
    assert [f.line for f in fired(skill, "SF116")] == [3]  # ../draft-hold/SKILL.md
    assert fix_all(skill) == []
    assert handoff.read_text() == before  # was: [draft-hold](../SKILL.md)


def test_code_in_backticks_is_never_rewritten(tmp_path: Path):
    skill = copy_skill(SAFETY / "code-span" / "hold-drafts", tmp_path)
    md = skill / "SKILL.md"
    before = md.read_text()
    # A broken link beside shell code naming a file called like scripts/draft-hold.sh, and
    # a path in backticks that only one file's name fits: both findings stay unfixed.
    assert sorted(f.line for f in fired(skill, "SF116")) == [10, 11]
    assert fix_all(skill) == []
    after = md.read_text()
    assert after == before  # was: DH="$scripts/draft-hold.sh" and `references/tone.md`
    assert 'DH="$CLAUDE_PLUGIN_ROOT/skills/draft-hold/draft-hold.sh"' in after


def test_a_path_no_finding_names_is_left_alone(tmp_path: Path):
    skill = copy_skill(SAFETY / "unnamed-link" / "pr-digest", tmp_path)
    md = skill / "SKILL.md"
    before = md.read_text()
    # The finding names checklist.md (no file fits); docs/grouping.md is an example.
    (finding,) = fired(skill, "SF116")
    assert "`checklist.md`" in finding.message
    assert fix_all(skill) == []
    assert md.read_text() == before  # was: "... kept the rules in references/grouping.md"


def test_only_findings_of_the_skills_own_report_are_fixed(tmp_path: Path):
    kit = copy_skill(SAFETY / "nested-skill" / "video-kit", tmp_path)
    cast = kit / "references" / "cast"
    md = cast / "SKILL.md"
    before = md.read_text()
    # In place, references/scene-rules.md resolves in the kit the cast skill sits in: no
    # finding. In fix_skill's scratch copy of the cast skill alone it did not, and the link
    # was pointed at the cast's own notes/scene-rules.md, another file.
    assert fired(cast, "SF116") == []
    assert fix_all(cast) == []
    assert md.read_text() == before


def test_a_link_whose_text_names_another_file_is_not_retargeted(tmp_path: Path):
    skill = copy_skill(SAFETY / "link-text-names-another" / "pr-digest", tmp_path)
    md = skill / "SKILL.md"
    before = md.read_text()
    assert fix_all(skill) == ["Link to `references/grouping.md` instead of `grouping.md`"]
    # [layout-v2.md](layout.md) names a file the skill does not have: which one is meant
    # cannot be told, so only the link whose text agrees with the one file that fits moves.
    assert md.read_text() == before.replace("(grouping.md)", "(references/grouping.md)")
    assert [f.line for f in fired(skill, "SF116")] == [12]


def test_contents_come_from_real_headings_not_the_yaml_header(tmp_path: Path):
    skill = copy_skill(SAFETY / "toc" / "field-survey", tmp_path)
    methods = skill / "references" / "methods.md"
    before = methods.read_text()
    assert "Add a table of contents to references/methods.md (5 sections)" in fix_all(skill)
    after = methods.read_text()
    contents = after[after.index("## Contents"):after.index("## Sampling")]
    assert contents == (
        "## Contents\n\n"
        "- [Sampling](#sampling-)\n"  # no HTML comment; GitHub keeps the space before it
        "- [Interviews: _who_ asks what](#interviews-who-asks-what)\n"
        "- [Consent & storage](#consent--storage)\n"
        "- [Data cleaning](#data-cleaning)\n"
        "- [Data cleaning](#data-cleaning-1)\n\n")
    # was: "- [reviewed-by: survey desk](#reviewed-by-survey-desk)" from the YAML header,
    # and "[Sampling <!-- keep in step with the field form -->](#sampling----keep-...)".
    # Ten lines inserted after the opening paragraph; nothing else changed.
    assert after.replace(contents, "", 1) == before
    assert not any(f.path == "references/methods.md" for f in fired(skill, "SF403"))


def test_contents_only_for_references_skill_md_links_to(tmp_path: Path):
    skill = copy_skill(SAFETY / "toc" / "field-survey", tmp_path)
    archive = skill / "references" / "archive.md"
    before = archive.read_text()
    assert {f.path for f in fired(skill, "SF403")} == {"references/archive.md",
                                                       "references/methods.md"}
    fix_all(skill)
    # SKILL.md names the archive in passing but does not link it: its finding stays for
    # the author to judge.
    assert archive.read_text() == before
    assert [f.path for f in fired(skill, "SF403")] == ["references/archive.md"]


def test_anchor_is_githubs_for_emphasis_comments_and_other_scripts():
    seen: dict[str, int] = {}
    assert anchor("Interviews: _who_ asks what", seen) == "interviews-who-asks-what"
    assert anchor("Sampling <!-- keep in step -->", seen) == "sampling-"
    assert anchor("Install 📦", seen) == "install-"  # the emoji goes, its space stays
    assert anchor("snake_case names", seen) == "snake_case-names"
    assert anchor("Use <code>jq</code> filters", seen) == "use-jq-filters"
    assert anchor("See [the spec](https://example.com/spec)", seen) == "see-the-spec"
    assert anchor("हिन्दी सारांश", seen) == "हिन्दी-सारांश"  # combining marks are kept


def test_a_moved_keys_comments_stay(tmp_path: Path):
    skill = copy_skill(SAFETY / "yaml-comment" / "invoice-check", tmp_path)
    md = skill / "SKILL.md"
    before = md.read_text()
    assert fix_all(skill) == ["Move `owner` under `metadata:`"]
    after = md.read_text()
    assert after == before.replace(
        "owner: accounts-payable  # the team that answers questions about this skill\n",
        "metadata:\n  owner: accounts-payable  # the team that answers questions about this skill\n")
    # was: both comments gone, the full-line one below the key included
    assert dict(load_skill(skill).frontmatter.get("metadata")) == {"owner": "accounts-payable"}


def test_link_fixes_in_one_file_go_in_one_plan_and_others_wait(tmp_path: Path):
    from linters.fixes.apply import plan_fixes
    from tests.linters.fix_helpers import fixes_of

    skill = copy_skill(FIX_FIXTURES / "SF116" / "grant-deadlines", tmp_path)
    # Two links on two lines of SKILL.md: edits that cannot overlap, made against the same
    # text, so both apply at once.
    plan = plan_fixes(load_skill(skill), fixes_of(skill, "SF116"))
    assert len(plan.applied) == 2 and not plan.refused
    # A frontmatter fix rewrites lines by its own reading of the file: it waits a round.
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace("---\n\n# Grant", "category: grants\n---\n\n# Grant", 1))
    plan = plan_fixes(load_skill(skill), fixes_of(skill, "SF116") + fixes_of(skill, "SF112"))
    assert [f.rule for f in plan.applied] == ["SF116", "SF116"]
    assert "already changed by another fix" in plan.refused[0][1]


def test_moving_a_key_leaves_every_other_line_as_written(tmp_path: Path):
    skill = copy_skill(SAFETY / "frontmatter-layout" / "tax-summary", tmp_path)
    md = skill / "SKILL.md"
    before = md.read_text()
    fix_all(skill)
    # was: the description unfolded onto one line, the blank line before `license` gone
    assert md.read_text() == before.replace(
        "author: Finance desk <finance@example.org>\n",
        "metadata:\n  author: Finance desk <finance@example.org>\n  revision: '3.10'\n").replace(
        "revision: 3.10\n", "")
    meta = load_skill(skill).frontmatter.get("metadata")
    assert dict(meta) == {"author": "Finance desk <finance@example.org>", "revision": "3.10"}


def _docs_mirror(root: Path) -> Path:
    """A docs mirror: pages in folders link each other as the site does, from its root."""
    (root / "animation").mkdir(parents=True)
    (root / "SKILL.md").write_text(
        "---\nname: docs-mirror\ndescription: Answers questions about the Example SDK from its "
        "documentation. Use when the user asks how to animate with the SDK.\n---\n\n"
        "# Docs\n\nStart at [the overview](overview.md) and [animation](animation/create.md).\n")
    (root / "overview.md").write_text("# Overview\n\nThe SDK.\n")
    (root / "animation" / "overview.md").write_text("# Animation overview\n\nKeyframes.\n")
    (root / "animation" / "create.md").write_text(
        "# Create\n\nRead [the animation overview](./animation/overview.md) first.\n\n"
        "See also [types](./kinds/types.md).\n")
    return root


def test_a_site_style_link_is_pointed_at_the_page_its_path_names_from_the_root(tmp_path: Path):
    skill = _docs_mirror(tmp_path / "docs-mirror")
    found = fired(skill, "SF116")
    assert [(f.path, f.line) for f in found] == [("animation/create.md", 3),
                                                ("animation/create.md", 5)]
    # Two files are named overview.md: the path read from the root decides, not the shorter.
    assert "point it at `overview.md`" in found[0].message
    assert "add the file or fix the path" in found[1].message  # nothing fits types.md
    fix_all(skill)
    text = (skill / "animation" / "create.md").read_text()
    assert "[the animation overview](./overview.md)" in text  # the same page, from its folder
    assert "[types](./kinds/types.md)" in text


def test_a_name_two_files_share_gets_no_suggestion_and_no_fix(tmp_path: Path):
    skill = _docs_mirror(tmp_path / "docs-mirror")
    create = skill / "animation" / "create.md"
    create.write_text("# Create\n\nRead [the overview](./intro/overview.md) first.\n")
    [found] = fired(skill, "SF116")
    assert "add the file or fix the path" in found.message
    assert fix_all(skill) == []
    assert "(./intro/overview.md)" in create.read_text()
