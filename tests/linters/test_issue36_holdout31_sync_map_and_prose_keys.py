"""Issue 36, holdout31: two frontmatter readings of a skill's repository documents.

1. A sync script or guide that maps the repository's folders to places (`claude/skills/<name>/
   -> ~/.claude/skills/`, `shared/<name>/ -> ~/.claude/skills/ and ~/.agents/skills/`,
   `codex/skills/<name>/ -> ~/.agents/skills/`) installs each folder where its own line says.
   A skill of the folder it sends only into Claude Code is read by Claude Code alone: a missing
   `name` (SF106) and a missing frontmatter over a first paragraph (SF102) are warnings naming
   that line. Twins keep the errors: the shared and the Codex folders' skills, a stray
   installer or another harness's folder that no folder's line accounts for, a skill of a
   folder the map leaves out, the same skill with no document. A property holds the map to
   adding readings only: where the whole document names Claude Code alone, so does every
   folder's reading.
2. A prose line of the repository's AGENTS.md that lists the SKILL.md frontmatter and shows a
   key with its value in a sentence naming the harness that reads it ("Set `slash: true` to
   make the skill a typed `/name` command in OpenCode.") documents that key as the harness's:
   SF112 is a warning naming the document. Twins keep the error: no harness named, one named
   only in passing (holdout15's notes on what a check would have caught), a harness said to
   ignore it, a line that lists no frontmatter, no document. OpenCode itself documents
   the setting under `metadata` (`opencode/slash: "true"`), which both messages say.

Every repository, document and skill here is written for this file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters.correctness.harness_keys import KNOWN_KEYS, harness_of
from linters.correctness.repo_keys import documenting_line
from linters.text.install_places import (_CLAUDE_PLACE, _OTHER_PLACE, _install_doc,
                                         install_reading)
from skillforge.models.findings import Severity
from tests.linters.correctness_skill import checkout, findings
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

# --- 1. a folder map ------------------------------------------------------------------------

SYNC_GUIDE = """\
# Sync

`./sync.sh install` copies this repository onto the live agent folders.

| From the repository | Lands at |
|---|---|
| `shared/<name>/` | `~/.claude/skills/<name>/` and `~/.agents/skills/<name>/` |
| `claude/skills/<name>/` | `~/.claude/skills/<name>/` |
| `codex/skills/<name>/` | `~/.agents/skills/<name>/` |
| anything else under `codex/` | `~/.codex/` at the same path |

Nothing on disk is deleted.
"""
SYNC_SCRIPT = """\
#!/usr/bin/env bash
# Copy the skills onto the live folders:
#   shared/<name>/        -> ~/.claude/skills/ and ~/.agents/skills/
#   claude/skills/<name>/ -> ~/.claude/skills/
#   codex/skills/<name>/  -> ~/.agents/skills/
set -euo pipefail
top="$(cd "$(dirname "$0")" && pwd)"
claude_dest="$HOME/.claude/skills"
agents_dest="$HOME/.agents/skills"
for s in "$top"/shared/*/; do cp -r "$s" "$claude_dest/" && cp -r "$s" "$agents_dest/"; done
for s in "$top"/claude/skills/*/; do cp -r "$s" "$claude_dest/"; done
for s in "$top"/codex/skills/*/; do cp -r "$s" "$agents_dest/"; done
"""
NO_NAME = """\
---
description: Restores the agent's login from the newest backup. Use when sign-in breaks.
---
# Restore login

1. Find the newest backup.
"""
NO_FRONTMATTER = """\
# Restore login

Restores the agent's login from the newest backup when sign-in breaks.

1. Find the newest backup.
"""
FOLDERS = ("shared", "claude/skills", "codex/skills")


def _repo(tmp_path: Path, docs: dict[str, str], skill: str, text: str = NO_NAME) -> Path:
    """A checkout (`.git` at its top) with the three skill folders, `docs` at its top and the
    skill at `skill`."""
    return checkout(tmp_path / "agent-setup", docs, skill, text, FOLDERS)


@pytest.mark.parametrize("name", ["sync.md", "sync.sh", "sync.ps1", "SYNC.md", "sync-skills.sh"])
def test_a_sync_script_or_guide_is_an_install_document(name):
    assert _install_doc(name)


@pytest.mark.parametrize("name", ["sync.py", "sync.json", "synced-notes.md", "async.md"])
def test_other_names_are_not(name):
    assert not _install_doc(name)


@pytest.mark.parametrize(("doc", "line", "shown"), [
    ("sync.md", 8, "claude/skills/<name>/ | ~/.claude/skills/<name>/"),
    ("sync.sh", 4, "claude/skills/<name>/ -> ~/.claude/skills/"),
])
def test_a_skill_of_the_folder_synced_only_into_claude_code_has_a_warning(tmp_path, doc, line,
                                                                        shown):
    text = SYNC_GUIDE if doc == "sync.md" else SYNC_SCRIPT
    root = _repo(tmp_path, {doc: text}, "claude/skills/restore-login")
    [f] = findings(root, "SF106")
    assert f.severity is Severity.warning
    assert f"installs it only into Claude Code ({doc}, line {line}: `{shown}`)" in f.message
    assert "add `name: restore-login`" in f.message


@pytest.mark.parametrize("doc", ["sync.md", "sync.sh"])
@pytest.mark.parametrize("folder", ["shared", "codex/skills"])
def test_the_shared_and_the_codex_folders_keep_the_error(tmp_path, doc, folder):
    text = SYNC_GUIDE if doc == "sync.md" else SYNC_SCRIPT
    root = _repo(tmp_path, {doc: text}, f"{folder}/restore-login")
    [f] = findings(root, "SF106")
    assert f.severity is Severity.error and "Claude Code" not in f.message


def test_both_documents_together_agree(tmp_path):
    root = _repo(tmp_path, {"sync.md": SYNC_GUIDE, "sync.sh": SYNC_SCRIPT,
                            "README.md": "# agent-setup\n\nRun `./sync.sh install`.\n"},
                 "claude/skills/restore-login")
    installed, other = install_reading(root)
    assert not other and installed is not None and installed.doc == "sync.md"


@pytest.mark.parametrize("stray", [
    "Or for any agent: `npx skills add someone/agent-setup`.",
    "Cursor reads the same skills once you link them into `.cursor/skills/`.",
    "Then `cp -r claude/skills/* ~/.gemini/skills/` for Gemini CLI.",  # the folder's own line
])
def test_a_place_no_folders_line_accounts_for_keeps_the_error(tmp_path, stray):
    root = _repo(tmp_path, {"sync.md": SYNC_GUIDE + "\n" + stray + "\n"},
                 "claude/skills/restore-login")
    [f] = findings(root, "SF106")
    assert f.severity is Severity.error


def test_a_folder_the_map_leaves_out_keeps_the_error(tmp_path):
    # No line for the skill's folder: the script is read as a whole, and it names `.agents`.
    root = _repo(tmp_path, {"sync.sh": SYNC_SCRIPT}, "extras/skills/restore-login")
    assert install_reading(root) == (None, True)
    [f] = findings(root, "SF106")
    assert f.severity is Severity.error


def test_without_the_documents_the_error_stays(tmp_path):
    [f] = findings(_repo(tmp_path, {}, "claude/skills/restore-login"), "SF106")
    assert f.severity is Severity.error


def test_a_missing_frontmatter_follows_the_same_map(tmp_path):
    claude = _repo(tmp_path / "a", {"sync.md": SYNC_GUIDE}, "claude/skills/restore-login",
                   NO_FRONTMATTER)
    codex = _repo(tmp_path / "b", {"sync.md": SYNC_GUIDE}, "codex/skills/restore-login",
                  NO_FRONTMATTER)
    [warned] = findings(claude, "SF102")
    [kept] = findings(codex, "SF102")
    assert warned.severity is Severity.warning and "sync.md, line 8" in warned.message
    assert kept.severity is Severity.error


# Rows of a map, in the three ways documents write them, and lines outside it.
_ROW = st.sampled_from([
    "| `{src}/<name>/` | {dest} |",
    "    {src}/<name>/   -> {dest}",
    "cp -r {src}/* {dest}",
])
_DEST = {"shared": "`~/.claude/skills/` and `~/.agents/skills/`",
         "claude/skills": "`~/.claude/skills/`",
         "codex/skills": "`~/.agents/skills/`"}
_SERVED = ['$HOME/.agents/skills', "Join-Path $HomePath '.agents/skills'"]
_UNSERVED = ["npx skills add someone/agent-setup", "ln -s $PWD/claude/skills .cursor/skills",
             "Gemini CLI reads `~/.gemini/skills/` too."]


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(_ROW, min_size=3, max_size=3), served=st.lists(st.sampled_from(_SERVED),
       max_size=2), unserved=st.lists(st.sampled_from(_UNSERVED), max_size=1),
       folder=st.sampled_from(FOLDERS), data=st.data())
def test_only_the_claude_folder_is_claude_code_only_and_only_without_a_stray_place(
        tmp_path_factory, rows, served, unserved, folder, data):
    lines = [row.format(src=src, dest=_DEST[src]) for row, src in zip(rows, FOLDERS, strict=True)]
    lines = data.draw(st.permutations(lines + served + unserved))
    tmp = tmp_path_factory.mktemp("setup")
    root = _repo(tmp, {"sync.md": "# Sync\n\n" + "\n".join(lines) + "\n"},
                 f"{folder}/restore-login")
    installed, other = install_reading(root)
    claude_only = folder == "claude/skills" and not unserved
    assert (installed is not None) is claude_only
    assert other is (not claude_only)
    [f] = findings(root, "SF106")
    assert (f.severity is Severity.warning) is claude_only


_ANY_ROW = st.sampled_from([
    "| `{src}/<name>/` | `~/.claude/skills/<name>/` |",
    "    {src}/<name>/ -> ~/.agents/skills/",
    "cp -r {src}/* ~/.claude/skills/ ~/.codex/skills/",
    "See `{src}/` before installing into ~/.claude/skills/.",
])
_LOOSE = st.sampled_from(["git clone https://example.org/someone/agent-setup.git .claude",
                          "npx skills add someone/agent-setup", "$HOME/.agents/skills",
                          "Requires bash 5.", ""])


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.tuples(_ANY_ROW, st.sampled_from(FOLDERS + ("docs",))), max_size=4),
       loose=st.lists(_LOOSE, max_size=3), folder=st.sampled_from(FOLDERS), data=st.data())
def test_the_per_folder_reading_never_takes_claude_code_away(tmp_path_factory, rows, loose,
                                                            folder, data):
    # Where the whole document names a Claude Code place and no other harness's, so does the
    # reading for every folder: the map only ever adds readings of Claude Code alone.
    lines = data.draw(st.permutations([r.format(src=src) for r, src in rows] + loose))
    text = "# Setup\n\n" + "\n".join(lines) + "\n"
    tmp = tmp_path_factory.mktemp("setup")
    (tmp / "agent-setup" / "docs").mkdir(parents=True)
    root = _repo(tmp, {"sync.md": text}, f"{folder}/restore-login")
    whole_claude_only = bool(_CLAUDE_PLACE.search(text)) and not _OTHER_PLACE.search(text)
    installed, other = install_reading(root)
    if whole_claude_only:
        assert installed is not None and not other


# --- 2. a key documented in prose -----------------------------------------------------------

_BODY = "# Tide tables\n\nRead the harbour's tide table and give the next high water.\n"
_SLASH = "slash: true\n"
AGENTS = ("# Working in this repository\n\n## Conventions\n\n"
          "- **SKILL.md frontmatter**: `name` (the folder's name) and `description` (with the "
          "trigger phrases) on one line each. Set `slash: true` to make the skill a typed "
          "`/name` command in OpenCode.\n"
          "- Keep descriptions free of angle brackets.\n")


def _keyed(tmp_path: Path, doc: str | None, fm_extra: str = _SLASH) -> Path:
    top = tmp_path / "tern"
    (top / ".git").mkdir(parents=True)
    if doc is not None:
        (top / "AGENTS.md").write_text(doc, "utf-8")
    return make_skill(top / "skills", _BODY, fm_extra=fm_extra, name="tide-tables")


def test_a_key_a_prose_line_says_a_harness_reads_is_a_warning(tmp_path):
    from linters import lint_skill

    skill = _keyed(tmp_path, AGENTS)
    assert severe(skill, "SF112") == []
    [msg] = [f.message for f in lint_skill(skill).findings if f.rule == "SF112"]
    assert "documents it in AGENTS.md" in msg
    assert "(`Set slash: true to make the skill a typed /name command in OpenCode.`)" in msg
    assert 'OpenCode documents this setting under `metadata:` as `opencode/slash: "true"`' in msg


@pytest.mark.parametrize("line", [
    # no harness: the collection's own schema
    "- **SKILL.md frontmatter**: `name`, `description`, and `slash: true` for typed skills.",
    # the harness is said to ignore it
    "- **SKILL.md frontmatter**: `name` and `description`; Claude Code ignores `slash: true`.",
    # not a line listing the frontmatter
    "- Set `slash: true` to make the skill a typed `/name` command in OpenCode.",
    # the key without a value is only named
    "- **Frontmatter**: `name`, `description`. OpenCode has a `slash` setting of its own.",
    # a harness named in passing, in notes on what a check would have caught
    "- **Frontmatter CI**: checking the keys (`name`, `description`, `slash`) would have caught "
    "`slash: yes` in two files and the agent files Claude Code then skipped as agents.",
])
def test_near_misses_keep_the_error(tmp_path, line):
    skill = _keyed(tmp_path, f"# Conventions\n\n{line}\n")
    assert [sev for _f, _l, sev in severe(skill, "SF112")] == ["error"]


def test_a_sample_in_a_code_block_is_not_read_as_prose(tmp_path):
    doc = ("# Conventions\n\n```\n- SKILL.md frontmatter: `name`, `description`; `slash: true` "
           "in OpenCode.\n```\n")
    assert documenting_line(doc, "slash") is None


def test_without_the_document_the_error_names_opencodes_spelling(tmp_path):
    from linters import lint_skill

    skill = _keyed(tmp_path, None)
    [f] = [f for f in lint_skill(skill).findings if f.rule == "SF112"]
    assert f.severity is Severity.error
    assert 'OpenCode documents this setting under `metadata:` as `opencode/slash: "true"`' \
        in f.message


def test_slash_is_no_key_a_harness_documents():
    # OpenCode documents the setting under `metadata`; a top-level `slash` only some of its v2
    # releases read.
    assert "slash" not in KNOWN_KEYS and harness_of("slash") is None


def test_another_key_gets_no_opencode_sentence(tmp_path):
    from linters import lint_skill

    skill = _keyed(tmp_path, None, fm_extra="tier: gold\n")
    [f] = [f for f in lint_skill(skill).findings if f.rule == "SF112"]
    assert "OpenCode" not in f.message


_HARNESSES = st.sampled_from(["OpenCode", "Codex", "Goose", "Claude Code"])


_AS_READER = ["{verb} in {h}", "{verb}: {h} reads it", "{verb}, which is how {h} v2 decodes it"]
_IN_PASSING = ["{verb}, as the {h} docs show", "{verb} (ask the {h} team)"]


@settings(max_examples=80, deadline=None)
@given(says_frontmatter=st.booleans(), lists_fields=st.booleans(), with_value=st.booleans(),
       harness=st.one_of(st.none(), _HARNESSES), reads=st.sampled_from(_AS_READER + _IN_PASSING),
       denied=st.booleans(), key=st.sampled_from(["slash", "chime", "tier"]))
def test_a_prose_line_documents_a_key_exactly_when_it_says_all_of_it(
        says_frontmatter, lists_fields, with_value, harness, reads, denied, key):
    head = "**SKILL.md frontmatter**:" if says_frontmatter else "**Skill files**:"
    fields = "`name` and `description` on one line each." if lists_fields else "one line each."
    shown = f"`{key}: true`" if with_value else f"`{key}`"
    verb = "is ignored" if denied else "makes the skill a typed command"
    said = reads.format(verb=verb, h=harness) if harness else verb
    doc = f"# Conventions\n\n- {head} {fields} Setting {shown} {said}.\n"
    documented = documenting_line(doc, key) is not None
    assert documented is (says_frontmatter and lists_fields and with_value and harness is not None
                          and reads in _AS_READER and not denied)


def test_a_found_key_is_a_warning_in_the_lint_too(tmp_path):
    skill = _keyed(tmp_path, AGENTS)
    assert [sev for _f, _l, sev in found(skill, "SF112")] == ["warning"]
