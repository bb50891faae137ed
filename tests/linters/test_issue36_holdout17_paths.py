"""Readings from the seventeenth held-out part of issue 36: paths a skill names that are not
files it ships (SF116, SF301), each a warning that names the assumption, never silenced:

- the user's own local file: a `.env` (where a project keeps its secrets, never committed),
  or a path the words at it keep out of git or on the user's machine ("(gitignored, lives
  on his machine)"), or say the user provides ("if the user provides `assets/logo.png`",
  in Vietnamese "nếu user cung cấp");
- a project skill (`<repo>/.claude/skills/<name>/`) about "this project" (in Vietnamese
  "dự án này", "của dự án") runs from the repository's top, as one about "this repo" does;
  a link of a project skill that climbs to the repository's top (`../../../docs/x.md`)
  names the repository's file, which a copied skill cannot check;
- a helper shared by a collection's skills: a script run with this skill's own name
  (`scripts/check_prereqs.sh release-notes`), or a `scripts/` helper of a skill whose text
  says shared files are synced into the skills' install root.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin where the skill's own missing file is still an error.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_REF = {"references/notes.md": "notes\n"}

# --- the user's own local files ---------------------------------------------------------

_GITIGNORED = """\
# Reading list

Read `references/notes.md` first.

## For Dana

Dana's reading log is in `references/dana-reading-log.xlsx` (gitignored, lives on her
machine). Load it when she asks for her history.
"""


def test_a_file_the_text_keeps_out_of_git_is_a_warning(tmp_path):
    skill = make_skill(tmp_path, _GITIGNORED, _REF, name="reading-list")
    assert found(skill, "SF116") == [("SKILL.md", 12, "warning")]


def test_the_same_file_without_those_words_stays_an_error(tmp_path):
    body = _GITIGNORED.replace("(gitignored, lives on her\nmachine)", "(one sheet per year)")
    skill = make_skill(tmp_path, body, _REF, name="reading-list")
    assert severe(skill, "SF116") == [("SKILL.md", 12, "error")]


_ENV_LINK = """\
# Query the warehouse

Read `references/notes.md` first.

| Setting | Value |
|---|---|
| Credentials | `DB_HOST/DB_USER/DB_PASSWORD` in [`warehouse/.env`](../../warehouse/.env) |
| Config template | [`warehouse/.env.example`](../../warehouse/.env.example) |
"""


def test_a_missing_env_file_is_the_users_secrets_file(tmp_path):
    skill = make_skill(tmp_path / "team" / "skills", _ENV_LINK, _REF, name="warehouse-query")
    # `.env` is the user's own secrets file: a warning; the committed template stays an error.
    assert found(skill, "SF116") == [("SKILL.md", 12, "warning"), ("SKILL.md", 13, "error")]


_USER_LOGO = """\
# Monthly report

Read `references/notes.md` first.

| Don't | Do instead |
|---|---|
| Embed images other than the logo | The brand logo (if the user provides `assets/brand-logo.png`) is allowed. Charts stay pure HTML |
| Use another palette | The palette of `assets/report-theme.css` |
"""


def test_a_file_the_user_provides_is_a_warning(tmp_path):
    skill = make_skill(tmp_path, _USER_LOGO, _REF, name="monthly-report")
    # The skill's own stylesheet, named without such words, is still an error.
    assert found(skill, "SF116") == [("SKILL.md", 12, "warning"), ("SKILL.md", 13, "error")]


def test_a_file_the_user_provides_in_vietnamese(tmp_path):
    body = _USER_LOGO.replace("if the user provides", "nếu user cung cấp")
    skill = make_skill(tmp_path, body, _REF, name="monthly-report")
    assert found(skill, "SF116") == [("SKILL.md", 12, "warning"), ("SKILL.md", 13, "error")]


def test_user_words_that_do_not_govern_the_path_keep_the_error(tmp_path):
    body = _USER_LOGO.replace("The brand logo (if the user provides `assets/brand-logo.png`)",
                              "If the user provides a name, the logo `assets/brand-logo.png`")
    skill = make_skill(tmp_path, body, _REF, name="monthly-report")
    assert severe(skill, "SF116") == [("SKILL.md", 12, "error"), ("SKILL.md", 13, "error")]


# --- project skills ---------------------------------------------------------------------

_PROJECT_VI = """\
# Kiểm tra số liệu

Đọc `references/notes.md` trước.

Kiến trúc dự án này đã gom số liệu vào bảng tổng hợp.

| Nguồn | File |
|---|---|
| Từ điển | [`data/glossary.md`](data/glossary.md) |
"""


def test_a_project_skill_about_this_project_in_vietnamese_runs_from_the_top(tmp_path):
    agent = tmp_path / "repo" / ".claude" / "skills"
    skill = make_skill(agent, _PROJECT_VI, _REF, name="kiem-tra")
    assert found(skill, "SF116") == [("SKILL.md", 14, "warning")]
    # With the repository's top on disk the file is looked up there.
    (tmp_path / "repo" / ".git").mkdir()
    assert severe(skill, "SF116") == [("SKILL.md", 14, "error")]
    (tmp_path / "repo" / "data").mkdir()
    (tmp_path / "repo" / "data" / "glossary.md").write_text("terms\n")
    assert severe(skill, "SF116") == []  # a warning: "it is at the repository's top"


def test_a_project_skill_about_this_project_in_english(tmp_path):
    body = _PROJECT_VI.replace("Kiến trúc dự án này đã gom số liệu vào bảng tổng hợp.",
                               "The tables of this project are denormalised already.")
    skill = make_skill(tmp_path / "repo" / ".claude" / "skills", body, _REF, name="kiem-tra")
    assert found(skill, "SF116") == [("SKILL.md", 14, "warning")]


def test_a_project_skill_without_project_words_stays_an_error(tmp_path):
    body = _PROJECT_VI.replace("Kiến trúc dự án này đã gom", "Kiến trúc đã gom")
    skill = make_skill(tmp_path / "repo" / ".claude" / "skills", body, _REF, name="kiem-tra")
    assert severe(skill, "SF116") == [("SKILL.md", 14, "error")]
    # Nor does "this project" lift a skill that is not kept in a repository's agent folder.
    body = _PROJECT_VI.replace("Kiến trúc dự án này đã gom số liệu vào bảng tổng hợp.",
                               "The tables of this project are denormalised already.")
    skill = make_skill(tmp_path / "repo" / "skills", body, _REF, name="kiem-tra")
    assert severe(skill, "SF116") == [("SKILL.md", 14, "error")]


_CLIMB = """\
# Release notes

Read `references/notes.md` first.

The per-team mapping is in [the team README](../../../teams/core/README.md).
The agent folder's index is [the index](../../INDEX.md).
"""


def test_a_project_skills_link_to_the_repositorys_top_is_a_warning_in_a_copy(tmp_path):
    skill = make_skill(tmp_path / "repo" / ".claude" / "skills", _CLIMB, _REF,
                       name="release-notes")
    # `../../../teams/...` names the repository's top, which a copy cannot check; the link
    # that climbs only into `.claude/` names no file of the repository's top: an error.
    assert found(skill, "SF116") == [("SKILL.md", 10, "warning"), ("SKILL.md", 11, "error")]
    (tmp_path / "repo" / ".git").mkdir()
    assert severe(skill, "SF116") == [("SKILL.md", 10, "error"), ("SKILL.md", 11, "error")]
    # Words of "this project" do not read the short climb from the repository's top either.
    body = _CLIMB.replace("first.", "first. It documents this project's releases.")
    skill = make_skill(tmp_path / "copy" / ".claude" / "skills", body, _REF,
                       name="release-notes")
    assert found(skill, "SF116") == [("SKILL.md", 10, "warning"), ("SKILL.md", 11, "error")]


def test_the_same_climb_outside_an_agent_folder_stays_an_error(tmp_path):
    skill = make_skill(tmp_path / "repo" / "tools" / "skills", _CLIMB, _REF,
                       name="release-notes")
    assert severe(skill, "SF116") == [("SKILL.md", 10, "error"), ("SKILL.md", 11, "error")]


# --- helpers shared by a collection's skills --------------------------------------------

_OWN_NAME = """\
# Release notes

Read `references/notes.md` first.

## Validation

- Before drafting, run **`scripts/check_prereqs.sh release-notes`**.
- Then run **`scripts/render_notes.sh draft`**.
"""


def test_a_script_given_this_skills_own_name_is_a_shared_helper(tmp_path):
    core = tmp_path / "repo" / "skills" / "core"
    skill = make_skill(core, _OWN_NAME, _REF, name="release-notes")
    # The helper given the skill's name is shared; the skill's own renderer stays an error.
    assert found(skill, "SF301") == [("SKILL.md", 12, "warning"), ("SKILL.md", 13, "error")]


_SYNCED = """\
# Ticket triage

Read `references/notes.md` first.

Resolve the tracker with the synced **`TRACKER-ACCESS.md`** (shared files are synced into
the skills install root next to every skill).

1. Run **`scripts/tracker_config.py --env`** to find the runtime defaults file.
2. Use **`scripts/resolve_paths.py`** when you need absolute paths.
3. Scaffold the defaults from **`templates/tracker.env.example`**.
"""


def test_a_helper_of_a_skill_that_says_shared_files_are_synced_beside_it(tmp_path):
    core = tmp_path / "repo" / "skills" / "core"
    skill = make_skill(core, _SYNCED, _REF, name="ticket-triage")
    assert found(skill, "SF301") == [("SKILL.md", 13, "warning")]
    # A `scripts/` helper mentioned is the same; a missing template stays an error.
    assert found(skill, "SF116") == [("SKILL.md", 14, "warning"), ("SKILL.md", 15, "error")]


def test_the_same_helpers_without_synced_words_stay_errors(tmp_path):
    body = _SYNCED.replace("with the synced **`TRACKER-ACCESS.md`** (shared files are synced "
                           "into\nthe skills install root next to every skill)",
                           "with **`TRACKER-ACCESS.md`**")
    core = tmp_path / "repo" / "skills" / "core"
    skill = make_skill(core, body, _REF, name="ticket-triage")
    assert severe(skill, "SF301") == [("SKILL.md", 12, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 13, "error"), ("SKILL.md", 14, "error")]
