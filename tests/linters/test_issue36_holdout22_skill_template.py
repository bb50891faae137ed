"""Issue 36, holdout22: a scaffold to copy when writing a new skill (SF110).

A repository keeps `templates/project-skill-template/SKILL.md` with `name: my-skill-name`
beside its `skills/` collection; its README installs `skills/*/` only, and an author copies
the template, renames the folder and fills in the name. The placeholder differs from the
template's folder by design: a warning that says so (linters.correctness.skill_template).

Both signals are needed: a template folder above the skill and a placeholder name. A real
name under `templates/` that differs from its folder, and `my-skill-name` in an ordinary
`skills/` folder (with a real or a placeholder description), keep the error. The template's
other findings keep their weight.

Every skill text here is written for this file; the demoted cases failed before the reading
(SF110 error).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from linters.correctness.skill_template import placeholder_name
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found

_PLACEHOLDER_DESCRIPTION = (
    "One-line summary of what the skill does. Use when [trigger keywords — verbs, contexts, "
    "phrases users type]."
)
_REAL_DESCRIPTION = (
    "Fills PDF forms from a CSV of field values. Use when the user asks to fill, batch-fill "
    "or pre-populate PDF forms."
)
_BODY = """\
# Skill Name

> Start from this file when adding a skill; see the authoring guide in the README.

One or two sentences on what the skill is for.

## Steps

1. First step.
2. Second step.
"""


def _skill(repo: Path, where: str, name: str, description: str = _PLACEHOLDER_DESCRIPTION,
           extra: str = "", body: str = _BODY) -> Path:
    root = repo / where
    root.mkdir(parents=True)
    (root / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n{body}", encoding="utf-8")
    return root


def _repo(tmp_path: Path) -> Path:
    """A repository with an installed skill beside its templates folder."""
    repo = tmp_path / "ops-skills"
    _skill(repo, "skills/pdf-forms", "pdf-forms", _REAL_DESCRIPTION)
    (repo / "README.md").write_text("Install: `cp -r skills/* ~/.claude/skills/`\n")
    return repo


def test_a_placeholder_name_in_a_templates_folder_is_a_warning_that_says_why(tmp_path):
    root = _skill(_repo(tmp_path), "templates/project-skill-template", "my-skill-name")
    report = lint_skill(root)
    assert found(root, "SF110") == [("SKILL.md", 2, "warning")]
    (msg,) = [f.message for f in report.findings if f.rule == "SF110"]
    assert "placeholder" in msg and "`templates/`" in msg and "template to copy" in msg
    assert report.passed_gate


_TEMPLATE_FOLDERS = [
    "templates/starter", "template/new-skill", "_template/starter", "skeleton/skill",
    "scaffolds/basic", "boilerplate/skill", "skill-templates/minimal",
    "templates/skills/starter", "templates/.claude/skills/starter",
]


@pytest.mark.parametrize("folder", _TEMPLATE_FOLDERS)
@pytest.mark.parametrize("name", ["my-skill-name", "my-new-skill", "example-skill-name",
                                  "New-Skill-Name"])
def test_template_folders_and_placeholder_names(tmp_path, folder, name):
    root = _skill(_repo(tmp_path), folder, name)
    assert found(root, "SF110") == [("SKILL.md", 2, "warning")]


@pytest.mark.parametrize("folder", _TEMPLATE_FOLDERS[:3])
@pytest.mark.parametrize("name", ["your-skill-name", "skill-name", "SKILL_NAME",
                                  '"<skill-name>"'])
def test_names_already_read_as_a_template_anywhere_stay_warnings(tmp_path, folder, name):
    """These placeholders make the whole skill a template wherever it sits
    (linters.text.placement.unshipped_skill); here SF110 says why in its own words."""
    root = _skill(_repo(tmp_path), folder, name)
    assert found(root, "SF110") == [("SKILL.md", 2, "warning")]
    (msg,) = [f.message for f in lint_skill(root).findings if f.rule == "SF110"]
    assert "template to copy" in msg


def test_a_real_name_in_a_templates_folder_stays_an_error(tmp_path):
    """A skill the repository copies into projects under its name: the mismatch is real."""
    root = _skill(_repo(tmp_path), "templates/project-skill-template", "weekly-report")
    assert found(root, "SF110") == [("SKILL.md", 2, "error")]


@pytest.mark.parametrize("description", [_REAL_DESCRIPTION, _PLACEHOLDER_DESCRIPTION])
def test_a_placeholder_name_in_an_installed_folder_stays_an_error(tmp_path, description):
    """`skills/` is installed: an unfinished skill that ships, whatever its description."""
    root = _skill(_repo(tmp_path), "skills/invoice-export", "my-skill-name", description)
    assert found(root, "SF110") == [("SKILL.md", 2, "error")]


def test_a_templates_folder_too_far_above_does_not_count(tmp_path):
    root = _skill(tmp_path / "templates" / "a" / "b" / "c", "skills/starter", "my-skill-name")
    assert found(root, "SF110") == [("SKILL.md", 2, "error")]


def test_the_templates_other_findings_keep_their_weight(tmp_path):
    """An unknown key, a name SF108 rejects and a broken link are wrong in every copy."""
    body = _BODY + "\nSee [the checklist](references/checklist.md).\n"
    root = _skill(_repo(tmp_path), "templates/project-skill-template", "My-Skill-Name",
                  extra="owner-team: platform\n", body=body)
    assert found(root, "SF110") == [("SKILL.md", 2, "warning")]
    assert found(root, "SF108") == [("SKILL.md", 2, "error")]
    assert [s for _, _, s in found(root, "SF112")] == ["error"]
    assert [s for _, _, s in found(root, "SF116")] == ["error"]
    assert not lint_skill(root).passed_gate


_WORDS = st.sampled_from(["pdf", "forms", "deploy", "audit", "k8s", "invoice", "report", "sql",
                          "release", "notes", "ops", "db", "helm", "review", "lint"])


@settings(max_examples=examples(300), deadline=None)
@given(words=st.lists(_WORDS, min_size=1, max_size=3),
       prefix=st.sampled_from(["", "my-", "your-", "new-"]))
def test_a_name_with_a_word_of_the_task_is_no_placeholder(words, prefix):
    """Any word naming the task makes the name real (`my-pdf-forms`, `new-deploy-skill`)."""
    assert not placeholder_name(prefix + "-".join(words))
    assert not placeholder_name(prefix + "-".join(words) + "-skill")


@settings(max_examples=examples(200), deadline=None)
@given(first=st.sampled_from(["", "my-", "your-", "new-", "example-", "sample-", "my-new-"]),
       last=st.sampled_from(["", "-name"]), upper=st.booleans(), sep=st.sampled_from("-_"))
def test_skill_with_only_placeholder_words_is_a_placeholder(first, last, upper, sep):
    name = (first + "skill" + last).replace("-", sep)
    assert placeholder_name(name.upper() if upper else name)
