"""The cheap text tests that spare parsing a document never skip one that matters.

SF116 (links), SF122 (backslash paths) and SF303/SF304 (reference reach) look at a
reference's text before parsing it (issue 14: parsing every reference cost ~40 ms of the
corpus lint). Each gate must say "maybe" whenever the parsed document would give the rule
something: checked here on random Markdown-ish texts against the parse itself. SF116's
second gate passes over a file whose every possible reference resolves.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from linters.context import LintContext
from linters.correctness.link_gates import all_resolve, link_target_starts, may_refer
from linters.text.paths.link_resolver import Resolver
from linters.correctness.links import references
from linters.text.paths.path_refs import ANCHORS, clean_link
from linters.text.markdown import MarkdownDoc
from linters.reliability.reachability import _links_to_references, may_link_to_reference
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
    if may_refer(text):
        return
    doc = MarkdownDoc(text)
    assert all(clean_link(link.target) is None for link in doc.links), text
    assert list(references(doc, "references/a.md")) == [], text


@given(TEXT)
@example("[[]:<")  # a definition whose whole target is "<" (found by this test at full count)
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
    assert may_refer("See [the guide](guide.md).")
    assert not may_refer("See [the site](https://example.com) and [top](#top).")
    assert may_refer("Run `scripts/run.py`.")  # a path mention: anchors decide
    assert all(a in "scripts/ references/ reference/ assets/ templates/ ./" for a in ANCHORS)
    ctx, doc = _skill("Read [a](a.md) next.", ["references/a.md"])
    assert may_link_to_reference(ctx, doc)
    assert list(_links_to_references(ctx, doc)) == [(1, ctx.skill.file("references/a.md"))]
    ctx, doc = _skill("Read [the site](https://example.com/a.txt).", ["references/a.md"])
    assert not may_link_to_reference(ctx, doc)


def test_evals_rules_name_the_evals_file_as_the_models_do():
    # linters.reliability.evals_rules keeps its own copy so the evals models load only when needed.
    from linters.reliability import evals_rules
    from skillforge.models import evals

    assert evals_rules.EVALS_PATH == evals.EVALS_PATH


# Paths, code spans and link targets that resolve or not, and what changes how they read.
RESOLVING = st.lists(st.sampled_from(PIECES + [
    "[a](a.md)", "[b](b.md)", "[m](missing.md)", "[x]: b.md", "[y]: <a.md> t", "`a.md`",
    "`references/a.md`", "`references/gone.md`", "references/b.md", "references/gone.md",
    "./a.md", "`./a.md`", "scripts/run.py", "`scripts/run.py`", "(`scripts/run.py`)",
    "{baseDir}/scripts/run.py", "[r](../SKILL.md)", "\r", "\x0b", "\u2028", "\xa0", "x[1]: ",
    "`` a`b ``", "[c](`a.md`)", "arr[0](missing.md)", "`../../scripts/run.py`",
    '[t](a`b` "title")']), max_size=30).map("".join)
EXISTING = st.lists(st.sampled_from(
    ["references/a.md", "references/b.md", "scripts/run.py", "a.md", "references/sub/a.md",
     "references/a`b`"]),
    unique=True, max_size=5)


@given(RESOLVING, EXISTING)
@settings(max_examples=examples(3000), deadline=None)
def test_sf116_passes_over_only_texts_whose_references_all_resolve(text, names):
    ctx, doc_file = _skill(text, names)
    resolver = Resolver(ctx.skill)
    if not all_resolve(text, doc_file.path, resolver, ctx.anchors(doc_file)):
        return
    for ref in references(MarkdownDoc(text), doc_file.path):
        ref = ref._replace(path=ref.path.replace("\\", "/"))
        assert resolver.exists(ref), (text, names, ref)
