"""Readings from the twelfth held-out part of issue 36 for SF116: link targets and paths
that name no file of the skill.

- A link target that is one word naming a URL as a slot (`[Open](LINK)`,
  `[pay](<checkout-url>)`) is a message template's slot, not a file (a bare lowercase `url`
  stays a stub to fill in: tests/linters/test_issue36_holdout4_paths.py).
- A link to another skill's SKILL.md or folder, outside this skill, in a sentence that has
  the user install that skill (`npx skills add ... --skill x`), is that skill's file.
- A file whose links to sibling skills climb the same wrong number of levels, where some of
  the skills it names sit beside this one, is written for another layout of those skills
  (a plugin's `skills/` folder): a warning, not a broken instruction.
- A path after a CJK example lead-in ("例:") is an illustration, as after "e.g.".
- A docs site's page pasted as text keeps a zero-width space on a line before each heading
  (its anchor link): its links, and those of the example skills it shows with their code
  fences lost, are the site's, so a missing one is a warning.

Every skill text here is written for this file; each test failed before its reading, and
each has a guard that a really broken reference still fails.
"""

from __future__ import annotations

from pathlib import Path

from tests.linters.rule_findings import found as _found
from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill


def _sibling(root: Path, name: str) -> Path:
    return make_skill(root, "# Sibling\n\nDoes its own job.\n", name=name)


# --- a URL's slot in a template -------------------------------------------------------------

_SLOTS = """\
# Ticket digest

Build the item's address from the board and the ticket number, then reply:

> Ticket **[title]** is ready: [View ticket](TICKET_URL)
> Pay the invoice here: [checkout](<payment-link>)
"""


def test_a_url_slot_in_a_message_template_is_not_a_file(tmp_path):
    assert _found(make_skill(tmp_path, _SLOTS), "SF116") == []


def test_a_missing_file_named_like_a_word_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, _SLOTS + "\nFor the fields, read [the guide](references/"
                       "link-fields.md) and [the notes](NOTES).\n")
    assert _severe(skill, "SF116") == [("SKILL.md", 13, "error"), ("SKILL.md", 13, "error")]


# --- another skill the user installs --------------------------------------------------------

_INSTALL = """\
# Bundler setup

> To move an old config over, install the separate [`bundler-migrate`](../bundler-migrate/SKILL.md)
> skill first: `npx skills add acme/bundler --skill bundler-migrate`.
"""


def test_a_skill_the_user_is_told_to_install_is_not_a_file_of_this_one(tmp_path):
    skill = make_skill(tmp_path / "skills", _INSTALL)
    assert _found(skill, "SF116") == []


def test_a_missing_sibling_skill_without_an_install_sentence_stays_an_error(tmp_path):
    skills = tmp_path / "skills"
    _sibling(skills, "bundler-lint")
    skill = make_skill(skills, _INSTALL + "\n## Related\n\n- [`bundler-lint`](../bundler-lint/"
                       "SKILL.md)\n- [`bundler-cache`](../bundler-cache/SKILL.md)\n")
    assert _severe(skill, "SF116") == [("SKILL.md", 14, "error")]


def test_installing_a_package_does_not_excuse_the_skills_own_file(tmp_path):
    skill = make_skill(tmp_path, "# Bundler\n\nInstall the package, then read "
                       "[the options](references/options.md) for the skill.\n")
    assert _severe(skill, "SF116") == [("SKILL.md", 8, "error")]


# --- sibling skills linked from another layout ----------------------------------------------

_COMPANIONS = """\
# Queue audit

## Companion skills

| Skill | When |
|---|---|
| [`queue-builder`](../../../queue-builder/) | Build a new queue worker |
| [`queue-migrate`](../../../queue-migrate/) | Move workers to the new API |
"""


def test_sibling_links_written_for_another_layout_are_warnings(tmp_path):
    skills = tmp_path / "skills"
    _sibling(skills, "queue-builder")  # beside this skill; queue-migrate is elsewhere
    skill = make_skill(skills, _COMPANIONS)
    assert _found(skill, "SF116") == [("SKILL.md", 12, "warning"), ("SKILL.md", 13, "warning")]


def test_sibling_links_with_no_skill_found_beside_stay_errors(tmp_path):
    # No skill it names is beside this one: a broken relative link, as before.
    skill = make_skill(tmp_path / "skills", _COMPANIONS)
    assert _severe(skill, "SF116") == [("SKILL.md", 12, "error"), ("SKILL.md", 13, "error")]


def test_a_sibling_link_at_the_right_level_that_is_missing_stays_an_error(tmp_path):
    skills = tmp_path / "skills"
    _sibling(skills, "queue-builder")
    skill = make_skill(skills, "# Queue audit\n\n## Related\n\n- [builder](../queue-builder/"
                       "SKILL.md)\n- [migrate](../queue-migrate/SKILL.md)\n")
    assert _severe(skill, "SF116") == [("SKILL.md", 11, "error")]


# --- a worked example after a CJK lead-in ---------------------------------------------------

_WORKED = """\
# アセット解決

候補ディレクトリとファイル名を結合する。
例: 候補 `../assets/` + 参照 `{assets}/style/guide.md` → `../assets/style/guide.md`。
"""


def test_a_path_after_a_cjk_example_lead_in_is_an_illustration(tmp_path):
    assert _severe(make_skill(tmp_path, _WORKED), "SF116") == []


def test_a_cjk_instruction_without_the_lead_in_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, _WORKED + "\n手順は `references/steps.md` を読む。\n")
    assert _severe(skill, "SF116") == [("SKILL.md", 11, "error")]


# --- a web page pasted as text --------------------------------------------------------------

_ZW = "\u200b"
_PASTED = f"""\
Writing skills

Copy page

Skills hold instructions and files.
{_ZW}
Linking files
Link other files from the skill root:
See [the field guide](references/FIELDS.md) for details.
{_ZW}
Patterns
Bad example: too deep

# SKILL.md
See [more.md](more.md)...
{_ZW}
Summary
Keep links one level deep.
"""


def test_links_in_a_pasted_web_page_are_warnings(tmp_path):
    skill = make_skill(tmp_path, "# Skill writing\n\nBackground: `docs/writing.md`.\n",
                       files={"docs/writing.md": _PASTED})
    assert _found(skill, "SF116") == [("docs/writing.md", 9, "warning"),
                                      ("docs/writing.md", 15, "warning")]


def test_a_page_with_one_zero_width_mark_stays_checked(tmp_path):
    text = _PASTED.replace(_ZW + "\n", "", 2)
    skill = make_skill(tmp_path, "# Skill writing\n\nBackground: `docs/writing.md`.\n",
                       files={"docs/writing.md": text})
    assert [x[2] for x in _severe(skill, "SF116")] == ["error", "error"]
