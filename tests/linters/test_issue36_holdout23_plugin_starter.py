"""Issue 36, holdout23: a starter skill's link to the connectors map of the plugin it will be
copied into (SF116).

A Cowork plugin keeps `CONNECTORS.md` at its root to map the `~~category` placeholders its
skills write to the tools connected; its skills link it as `../../CONNECTORS.md`. A plugin
builder keeps starter skills of that shape outside any plugin and copies them into the one it
generates. When such a skill sits in no plugin (no `.claude-plugin/plugin.json` above it), the
missing map is a warning that says the skill is a starter (linters.text.paths.plugin_starter).
Twins keep the error: a real plugin without its map, a skill without placeholders (or with
strikethrough only), another missing file, a link that climbs one level.

Every skill text here is written for this file; the starter case was an SF116 error before.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from linters.text.paths.plugin_starter import uses_placeholders
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found
from tests.linters.test_security import make_skill

_DIGEST = """\
# Post the weekly digest

> Placeholders you don't recognise, or which tools are connected: see [the map]({link}).

## Steps
1. Gather this week's closed items from {tracker}.
2. Post a five-line summary to {chat}, in the team's channel.
3. If nothing is connected, ask the user to paste the items instead.
"""
_LINE = 8  # the link's line: after four lines of front matter, a blank, the title, a blank


def _body(link="../../CONNECTORS.md", tracker="`~~project tracker`", chat="~~chat"):
    return _DIGEST.format(link=link, tracker=tracker, chat=chat)


def _starter(tmp_path, body=None, plugin_json=False, under=("builder", "starters", "skills")):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    skills = repo.joinpath(*under)
    if plugin_json:
        (skills.parent / ".claude-plugin").mkdir(parents=True)
        (skills.parent / ".claude-plugin" / "plugin.json").write_text('{"name": "digest"}\n')
    return make_skill(skills, body if body is not None else _body(), name="weekly-digest")


def _message(skill):
    return next(f.message for f in lint_skill(skill, external=False).findings
                if f.rule == "SF116")


def test_a_starter_outside_any_plugin_links_the_map_of_its_future_plugin(tmp_path):
    skill = _starter(tmp_path)
    assert found(skill, "SF116") == [("SKILL.md", _LINE, "warning")]
    assert "a starter written for the plugin it is copied into" in _message(skill)


def test_a_link_from_a_reference_file_climbing_to_the_same_place_is_read_so_too(tmp_path):
    skill = _starter(tmp_path, body="# Weekly digest\n\nSee [steps](references/steps.md).\n")
    (skill / "references").mkdir()
    (skill / "references" / "steps.md").write_text(
        _body(link="../../../CONNECTORS.md"), encoding="utf-8")
    assert found(skill, "SF116") == [("references/steps.md", 3, "warning")]


# --- twins that keep the error ------------------------------------------------------------


def test_a_real_plugin_without_its_connectors_map_keeps_the_error(tmp_path):
    skill = _starter(tmp_path, plugin_json=True)
    assert found(skill, "SF116") == [("SKILL.md", _LINE, "error")]


def test_a_skill_in_a_plugins_folder_without_a_manifest_keeps_the_error(tmp_path):
    skill = _starter(tmp_path, under=("plugins", "digest", "skills"))
    assert found(skill, "SF116") == [("SKILL.md", _LINE, "error")]


def test_a_skill_without_placeholders_keeps_the_error(tmp_path):
    skill = _starter(tmp_path, body=_body(tracker="the issue tracker", chat="Slack"))
    assert found(skill, "SF116") == [("SKILL.md", _LINE, "error")]


def test_strikethrough_is_no_placeholder(tmp_path):
    skill = _starter(tmp_path, body=_body(tracker="Jira ~~and Trello~~", chat="Slack"))
    assert found(skill, "SF116") == [("SKILL.md", _LINE, "error")]


def test_another_missing_file_of_the_plugin_root_keeps_the_error(tmp_path):
    skill = _starter(tmp_path, body=_body(link="../../GLOSSARY.md"))
    assert found(skill, "SF116") == [("SKILL.md", _LINE, "error")]


def test_a_link_climbing_one_level_keeps_the_error(tmp_path):
    skill = _starter(tmp_path, body=_body(link="../CONNECTORS.md"))
    assert found(skill, "SF116") == [("SKILL.md", _LINE, "error")]


# --- the placeholder reading, in general --------------------------------------------------

_CATEGORY = st.from_regex(r"[A-Za-z][a-z]{1,10}( [a-z]{2,10})?", fullmatch=True)
_AROUND = st.sampled_from(["Post to {} now.", "Check `{}` first.", "- {}", "({}) is used"])


@settings(max_examples=examples(60))
@given(category=_CATEGORY, around=_AROUND)
def test_a_placeholder_is_read_and_strikethrough_is_not(category, around):
    assert uses_placeholders(around.format(f"~~{category}"))
    assert not uses_placeholders(around.format(f"~~{category}~~"))
