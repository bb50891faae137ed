"""Readings from the twelfth held-out part of issue 36. An SF116 path the text places in
another release or archive of the skill, which it says this folder does not hold, is no
file of this skill. Every skill text here is written for this file; the reading's test
failed before it, and its twin, where the release's file is one the agent is sent to,
is still an error. And an inline SF301 command whose own sentence tells the agent not to
use it ("... so do not rely on it in unattended runs") is not a run of the skill's script;
an SF116 path that is one of a signature's files, whose presence identifies a checkout the
skill detects ("accepted only on the full signature (`book.toml` + `scripts/x.py`)"), is
that checkout's; and `./shop.config.json` in a text that says a command "creates
`shop.config.json`" is made in the working folder, not shipped by the skill. What a removed copy "lacked" is
not sent to, and "the `templates/x.yaml` template in this plugin" is the plugin's; a path
given as another named skill's "його" (its, Ukrainian) is that skill's.
"""

from __future__ import annotations

from tests.linters.rule_findings import severe as _severe
from tests.linters.test_security import make_skill

_SCRIPT = {"scripts/run.sh": "echo\n"}  # the skill has a scripts/ folder of its own


def _sf116(tmp_path, body: str) -> list:
    return _severe(make_skill(tmp_path, body, _SCRIPT), "SF116")


def test_a_script_an_archived_release_carries_is_not_here(tmp_path):
    body = """\
    # Indexer

    ## Old version

    The last release that worked is v2.3.1 (see the tags). It carries
    `scripts/indexer.py` and its grammar files. That tag is the record; nothing in this
    folder rebuilds it.
    """
    assert _sf116(tmp_path, body) == []


def test_a_script_a_release_ships_that_the_agent_runs_is_still_missing(tmp_path):
    body = """\
    # Indexer

    ## Running

    The v2.3.1 release ships `scripts/indexer.py`; run it on the project first.
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 10, "error")]


# --- SF301: an inline command its own sentence tells the agent not to use ---


def test_a_command_the_sentence_says_not_to_rely_on_is_not_run(tmp_path):
    body = """\
    # Review setup

    ## Rules

    - `uv run scripts/new_checkout.py` prompts on a terminal, so do not rely on it in
      unattended runs.
    - For unattended runs, call `git worktree add` yourself.
    """
    assert _severe(make_skill(tmp_path, body, _SCRIPT), "SF301") == []


def test_a_command_not_to_run_without_a_token_is_still_missing(tmp_path):
    body = """\
    # Review setup

    ## Rules

    - `uv run scripts/new_checkout.py` needs a token; never run it without one.
    """
    assert _severe(make_skill(tmp_path, body, _SCRIPT), "SF301") == [("SKILL.md", 10, "error")]


# --- SF116: the files of a signature that identifies a checkout the skill detects ---


def test_the_files_of_a_detection_signature_are_the_checkouts(tmp_path):
    body = """\
    # Docs helper

    ## Maintainer mode

    A docs source folder is taken from `DOCS_SRC` or the working folder, and accepted
    only on its full signature (`book.toml` + `scripts/build_index.py` + `src/`).

    A folder counts as the source only if it has the whole **signature**:

    - `book.toml`
    - `scripts/build_index.py`
    """
    assert _sf116(tmp_path, body) == []


def test_a_script_that_checks_a_signature_is_still_missing(tmp_path):
    body = """\
    # Release signing

    Check the signature with `scripts/verify_sig.py` before you publish.
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 8, "error")]


# --- SF116: a file of the working folder the text says a command creates ---


def test_a_config_a_command_creates_in_the_working_folder_is_the_projects(tmp_path):
    body = """\
    # Shop setup

    If `shop.config.json` is already there, read `./shop.config.json` and keep its id.

    Otherwise run `npx shop-cli init` from the project folder. It creates
    `shop.config.json` with the store id; read `./shop.config.json` for it.
    """
    assert _sf116(tmp_path, body) == []


def test_a_config_read_by_default_with_no_maker_is_still_missing(tmp_path):
    body = """\
    # Shop setup

    The `shop` commands read `./shop.config.json` by default; that is all.
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 8, "error")]


# --- SF116: what a removed copy lacked; a file of the plugin the skill is in ---


def test_a_script_a_removed_copy_lacked_is_not_sent_to(tmp_path):
    body = """\
    # Moved

    ## Why this copy went away

    Two copies drifted apart, and this one had: it was stale and lacked the trend
    charts (`scripts/trends.py`, six views) and the weekly digest (`scripts/digest.py`).
    """
    assert _sf116(tmp_path, body) == []


def test_a_script_run_when_a_report_lacks_a_part_is_still_missing(tmp_path):
    body = """\
    # Reports

    If the report lacks a summary, run `scripts/summarise.py` on it.
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 8, "error")]


def test_a_template_in_this_plugin_is_the_plugins(tmp_path):
    body = """\
    # Sandbox

    Apply a template that pins the runtime (see the `templates/box.kata.yaml` template in
    this plugin).
    """
    assert _sf116(tmp_path, body) == []


def test_a_template_in_this_skill_is_still_missing(tmp_path):
    body = """\
    # Sandbox

    Apply a template that pins the runtime (see the `templates/box.kata.yaml` template in
    this skill).
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 8, "error")]


# --- SF116: another skill's file given as "its" in Ukrainian ---


def test_a_file_given_as_another_skills_in_ukrainian_is_not_an_error(tmp_path):
    body = """\
    # Структура

    Кожен висновок — з графіком (хелпери `plots.py` скіла `plan-data-set`, сценарії —
    його `references/charts.md`).
    """
    assert _sf116(tmp_path, body) == []


def test_a_file_given_as_this_skills_in_ukrainian_is_still_missing(tmp_path):
    body = """\
    # Структура

    Кожен висновок — з графіком (сценарії — у `references/charts.md`).
    """
    assert _sf116(tmp_path, body) == [("SKILL.md", 8, "error")]
