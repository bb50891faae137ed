"""The cheap text tests that spare parsing a document never skip one that matters.

SF116 (links), SF122 (backslash paths) and SF303/SF304 (reference reach) look at a
reference's text before parsing it (issue 14: parsing every reference cost ~40 ms of the
corpus lint). Each gate must say "maybe" whenever the parsed document would give the rule
something: checked here on random Markdown-ish texts against the parse itself.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.context import LintContext
from linters.links import _ANCHORS, _clean_link, _may_refer, link_target_starts, references
from linters.markdown import MarkdownDoc
from linters.reachability import _links_to_references, may_link_to_reference
from skillforge.models.skill import Skill, SkillFile, classify
from tests.hypothesis_budget import examples

PIECES = ["[", "]", "(", ")", "](", "]:", "[x](", "http://h/", "https:", "mailto:a", "#top",
          "~", "/", "C:\\", "`", "``", " ", "  ", "\n", "\n\n", "    ", "<", ">", "'t'", '"',
          "\\", "./", "../", "{x}", "a.md", "b.md", "guide.md", "references/", "scripts\\",
          "references\\", "run.py", "x", "%20", "!", "```\n", "- ", "|", "\t", "é"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@given(TEXT)
@settings(max_examples=examples(1500), deadline=None)
def test_sf116_skips_only_texts_without_a_checkable_reference(text):
    if _may_refer(text):
        return
    doc = MarkdownDoc(text)
    assert all(_clean_link(link.target) is None for link in doc.links), text
    assert list(references(doc, "references/a.md")) == [], text


@given(TEXT)
@settings(max_examples=examples(1500), deadline=None)
def test_every_link_target_starts_where_the_gate_looks(text):
    # Each target the reader finds is a prefix of a start the gate looks at (the same one,
    # or shorter where inline code was blanked out).
    starts = list(link_target_starts(text))
    for link in MarkdownDoc(text).links:
        assert any(s.startswith(link.target) for s in starts), (text, link)


def _skill(doc_text: str, names: list[str]) -> tuple[LintContext, SkillFile]:
    files = [SkillFile(path="SKILL.md", size=0, kind="skill_md", text="---\nname: x\n---\n")]
    doc_file = SkillFile(path="references/doc.md", size=0, kind="reference", text=doc_text)
    files.append(doc_file)
    for name in names:
        files.append(SkillFile(path=name, size=0, kind=classify(name), text=""))
    return LintContext(Skill(root=Path("/nonexistent"), files=files)), doc_file


# Whole links and code spans as pieces too, so that links to the references are common.
LINKISH = st.lists(st.sampled_from(PIECES + [
    "[a](a.md)", "`a.md`", "[g](../guide.md)", "`references/b.md`", "[s](sub/a.md#x)",
    "[d](./doc.md)", "![i](a.md)", "[x]: b.md", "`reference/x.md`", "[u](a.md?v=1)"]),
    max_size=30).map("".join)
REF_NAMES = st.lists(st.sampled_from(
    ["references/a.md", "references/b.md", "guide.md", "references/sub/a.md", "reference/x.md",
     "references/doc.md", "assets/a.md"]), unique=True, max_size=4)


@given(LINKISH, REF_NAMES)
@settings(max_examples=examples(1500), deadline=None)
def test_reach_skips_only_texts_without_a_link_to_a_reference(text, names):
    ctx, doc_file = _skill(text, [n for n in names if n != "references/doc.md"])
    if may_link_to_reference(ctx, doc_file):
        return
    assert list(_links_to_references(ctx, doc_file)) == [], (text, names)


def test_the_gates_open_for_plain_cases():
    assert _may_refer("See [the guide](guide.md).")
    assert not _may_refer("See [the site](https://example.com) and [top](#top).")
    assert _may_refer("Run `scripts/run.py`.")  # a path mention: anchors decide
    assert all(a in "scripts/ references/ reference/ assets/ templates/ ./" for a in _ANCHORS)
    ctx, doc = _skill("Read [a](a.md) next.", ["references/a.md"])
    assert may_link_to_reference(ctx, doc)
    assert list(_links_to_references(ctx, doc)) == [(1, ctx.skill.file("references/a.md"))]
    ctx, doc = _skill("Read [the site](https://example.com/a.txt).", ["references/a.md"])
    assert not may_link_to_reference(ctx, doc)


def test_evals_rules_name_the_evals_file_as_the_models_do():
    # linters.evals_rules keeps its own copy so the evals models load only when needed.
    from linters import evals_rules
    from skillforge.models import evals

    assert evals_rules.EVALS_PATH == evals.EVALS_PATH
