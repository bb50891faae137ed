"""SF112 and a key the skill's own repository documents (issue 36, holdout16): a repository
that is a harness (an agent application with a skill loader) documents an extra SKILL.md
key beside name and description, as its own extension. In a checkout of that repository the
key is a warning naming the document; a key a collection documents as its own schema, with
no word that a harness reads it, stays an error, as does the key without the repository.

Every skill and document here is written for this file; the extension tests failed before
the reading, the near misses pass before and after.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_BODY = "# Tide tables\n\nRead the harbour's tide table and give the next high water.\n"
_CREWS = "crews: [navigator, pilot]\n"

_SAMPLE = """\
# Writing skills for Tern

Tern's skill loader reads every `skills/<name>/SKILL.md` and gives it to the agents it names.

```markdown
---
name: tide-tables
description: >
  Give the next high water. Use when the user asks about tides.
crews: [navigator]   # Tern extension: the agents that receive this skill
---
```
"""
_TABLE = """\
# Skill format

| Field | Required | Meaning |
|---|---|---|
| `name` | yes | The skill's identifier. |
| `description` | yes | What it does and when to use it. |
| `crews` | no (read by Tern's loader) | The agents that receive the skill. |
"""
# A collection's own schema: the same sample, no word that anything reads the key.
_SCHEMA = _SAMPLE.replace("# Tern extension: the agents that receive this skill",
                          "# which crews the skill is about")


def _repo_skill(tmp_path, doc_path, doc_text, fm_extra=_CREWS, git=True):
    top = tmp_path / "tern"
    (top / ".git" if git else top).mkdir(parents=True)
    (top / doc_path).parent.mkdir(parents=True, exist_ok=True)
    (top / doc_path).write_text(doc_text, encoding="utf-8")
    return make_skill(top / "skills", _BODY, fm_extra=fm_extra, name="tide-tables")


def test_a_key_the_repository_documents_as_its_extension_is_a_warning(tmp_path):
    skill = _repo_skill(tmp_path, "docs/skills.md", _SAMPLE)
    assert severe(skill, "SF112") == []
    assert [sev for _f, _line, sev in found(skill, "SF112")] == ["warning"]


def test_the_message_names_the_document(tmp_path):
    from linters import lint_skill

    skill = _repo_skill(tmp_path, "docs/skills.md", _SAMPLE)
    [msg] = [f.message for f in lint_skill(skill).findings if f.rule == "SF112"]
    assert "docs/skills.md" in msg and "Tern extension" in msg


def test_a_field_table_at_the_top_that_says_a_loader_reads_it(tmp_path):
    skill = _repo_skill(tmp_path, "SKILLS.md", _TABLE)
    assert severe(skill, "SF112") == []


def test_a_collections_own_schema_stays_an_error(tmp_path):
    skill = _repo_skill(tmp_path, "CONTRIBUTING.md", _SCHEMA)
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"]


def test_a_key_the_document_does_not_name_stays_an_error(tmp_path):
    skill = _repo_skill(tmp_path, "docs/skills.md", _SAMPLE, fm_extra="harbour: Brest\n")
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"]


def test_a_document_above_the_repository_top_does_not_count(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "skills.md").write_text(_SAMPLE, encoding="utf-8")
    top = tmp_path / "tern"
    (top / ".git").mkdir(parents=True)
    skill = make_skill(top / "skills", _BODY, fm_extra=_CREWS, name="tide-tables")
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"]


def test_the_copied_skill_without_its_repository_stays_an_error(tmp_path):
    skill = make_skill(tmp_path / "copy" / "skills", _BODY, fm_extra=_CREWS,
                       name="tide-tables")
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"]


# A document of its own about the skill frontmatter (holdout16's routing key): a section on
# the frontmatter with a sample of the repository's keys alone, and elsewhere in the document
# a sentence that the harness's router reads the key.
_ROUTING = """\
# Crew routing

## Skill frontmatter

Every shared skill declares:

```yaml
crews: navigator
```

## Harness behaviour

- **Pi:** a local router maps `crews` to the configured agents.
"""


def test_a_frontmatter_section_and_a_router_that_reads_the_key(tmp_path):
    skill = _repo_skill(tmp_path, "CREW_ROUTING.md", _ROUTING, fm_extra="crews: navigator\n")
    assert severe(skill, "SF112") == []
    assert [sev for _f, _line, sev in found(skill, "SF112")] == ["warning"]


def test_a_frontmatter_section_without_a_reader_stays_an_error(tmp_path):
    text = _ROUTING.replace("a local router maps `crews` to", "the team reads `crews` for")
    skill = _repo_skill(tmp_path, "CREW_ROUTING.md", text, fm_extra="crews: navigator\n")
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"]


def test_a_repositorys_own_index_that_reads_the_key_stays_an_error(tmp_path):
    # holdout6's readers read keys a repository's own search index reads as true.
    text = _ROUTING.replace("- **Pi:** a local router maps `crews` to the configured agents.",
                            "The skill-router indexer builds its search documents from "
                            "`crews` and the description.")
    skill = _repo_skill(tmp_path, "CREW_ROUTING.md", text, fm_extra="crews: navigator\n")
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"]


def test_a_router_sentence_without_a_frontmatter_sample_stays_an_error(tmp_path):
    text = _ROUTING.replace("## Skill frontmatter", "## Crew list")
    skill = _repo_skill(tmp_path, "CREW_ROUTING.md", text, fm_extra="crews: navigator\n")
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"]
