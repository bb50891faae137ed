"""Readings from the twenty-sixth held-out part of issue 36: a skill's source folder that its
repository's build completes (SF116).

A repository keeps a skill's source as SKILL.md alone (`src/skills/<name>/`) and its
references apart (`src/references/<name>/`); its build assembles the copies agents install
(`dist/agent-a/skills/<name>/` with `references/`, or a folder whose `references` is a link
to the shared one), each with a byte-identical SKILL.md. In a checkout, the source's link to
`references/guide.md` is found in those copies: a warning that names the copy, not an error.
Its twins keep the error: a copied skill (no repository on disk), no copy, a copy whose
SKILL.md diverged, a copy that lacks the file too, and a skill with a `references/` of its
own that lost one file.

Every skill text here is written for this file.
"""

from __future__ import annotations

import os
import shutil

from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from linters.text.paths.path_context import hedged
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_SOURCE = """\
# Tide tables

Reads a harbour's tide table and answers when the next high water is.

1. Look the harbour up as [the guide](references/guide.md) says.
2. Give times in the harbour's local zone; the offsets are in `references/zones.md`.
"""
_REFS = {"guide.md": "# Guide\n\nHarbours by code.\n", "zones.md": "# Zones\n\nOffsets.\n"}
_LINK, _MENTION = ("SKILL.md", 10), ("SKILL.md", 11)


def _repo(tmp_path, git=True, copy_text=None, copy_refs=_REFS, linked=False, own_refs=None):
    """A repository with the source `src/skills/tide-tables/` and one built copy."""
    repo = tmp_path / "repo"
    source = make_skill(repo / "src" / "skills", _SOURCE, own_refs, name="tide-tables")
    shared = repo / "src" / "references" / "tide-tables"
    shared.mkdir(parents=True)
    for name, text in (copy_refs or {}).items():
        (shared / name).write_text(text)
    copy = repo / "dist" / "agent-a" / "skills" / "tide-tables"
    copy.mkdir(parents=True)
    skill_md = (source / "SKILL.md").read_text()
    (copy / "SKILL.md").write_text(skill_md if copy_text is None else copy_text)
    if linked:
        os.symlink(os.path.relpath(shared, copy), copy / "references")
    else:
        shutil.copytree(shared, copy / "references")
    if git:
        (repo / ".git").mkdir()
    return source


def _messages(skill):
    return [f.message for f in lint_skill(skill, external=False).findings if f.rule == "SF116"]


def test_a_source_whose_built_copy_has_the_file_is_a_warning(tmp_path):
    source = _repo(tmp_path)
    assert found(source, "SF116") == [(*_LINK, "warning"), (*_MENTION, "warning")]
    assert all("`dist/agent-a/skills/tide-tables/`, a copy of this skill with a "
               "byte-identical SKILL.md" in m for m in _messages(source))


def test_a_copy_whose_references_link_to_the_shared_folder_reads_the_same(tmp_path):
    source = _repo(tmp_path, linked=True)
    assert severe(source, "SF116") == []


def test_a_copied_skill_keeps_its_error(tmp_path):
    source = _repo(tmp_path, git=False)
    assert severe(source, "SF116") == [(*_LINK, "error"), (*_MENTION, "error")]


def test_a_copy_whose_skill_md_diverged_is_another_skill(tmp_path):
    source = _repo(tmp_path, copy_text=(_repo_text := "---\nname: tide-tables\n---\n\nOld.\n"))
    assert _repo_text not in (source / "SKILL.md").read_text()
    assert severe(source, "SF116") == [(*_LINK, "error"), (*_MENTION, "error")]


def test_a_copy_that_lacks_the_file_too_completes_nothing(tmp_path):
    source = _repo(tmp_path, copy_refs={"zones.md": "# Zones\n"})
    assert severe(source, "SF116") == [(*_LINK, "error")]
    assert found(source, "SF116") == [(*_LINK, "error"), (*_MENTION, "warning")]


def test_no_copy_keeps_the_error(tmp_path):
    repo = tmp_path / "repo"
    source = make_skill(repo / "skills", _SOURCE, name="tide-tables")
    (repo / ".git").mkdir()
    assert severe(source, "SF116") == [(*_LINK, "error"), (*_MENTION, "error")]


def test_a_skill_with_its_own_references_that_lost_a_file_keeps_the_error(tmp_path):
    # Out of step with its copies: the folder the build would add is already its own.
    source = _repo(tmp_path, own_refs={"references/zones.md": "# Zones\n"})
    assert severe(source, "SF116") == [(*_LINK, "error")]


_NAME = st.from_regex(r"[a-z]{3,8}(?:-[a-z]{3,8})?", fullmatch=True)
# A file named for a hedge word ("tbd.md", "planned.md") is a hedged entry, judged elsewhere
# (path_context: "TBD", "planned"); the property here is about copies, so it draws others.
_FILE = st.from_regex(r"[a-z]{3,10}\.md", fullmatch=True).filter(
    lambda f: not hedged(f"Follow [the steps](references/{f}) before you answer.", 0))


@settings(max_examples=examples(30), deadline=None)
@given(name=_NAME, file=_FILE, git=st.booleans(), same=st.booleans(), has=st.booleans(),
       depth=st.integers(min_value=1, max_value=4))
def test_only_an_identical_copy_in_a_repository_that_has_the_file_softens(
        tmp_path_factory, name, file, git, same, has, depth):
    repo = tmp_path_factory.mktemp("repo")
    body = f"# {name}\n\nFollow [the steps](references/{file}) before you answer.\n"
    source = make_skill(repo / "src", body, name=name)
    copy = repo.joinpath(*[f"d{i}" for i in range(depth)], name)
    copy.mkdir(parents=True)
    text = (source / "SKILL.md").read_text()
    (copy / "SKILL.md").write_text(text if same else text + "\nA later step.\n")
    (copy / "references").mkdir()
    (copy / "references" / (file if has else "other-" + file)).write_text("# Steps\n")
    if git:
        (repo / ".git").mkdir()
    softened = git and same and has
    assert severe(source, "SF116") == ([] if softened else [("SKILL.md", 8, "error")])
