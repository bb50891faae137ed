"""Issue 36, holdout32: two SKILL.md files without frontmatter whose SF102 was misjudged.

1. A first paragraph that only names the skill. Where Claude Code alone reads a skill, a
   missing frontmatter is a warning quoting the first paragraph, which Claude Code takes as
   the description (holdout30). When that paragraph is only the skill's name (one code span,
   one word with no stop, or what stands under a `## Skill Name` heading), Claude Code has
   nothing to route on, and the finding stays an error that says so. Twins keep the warning:
   the first paragraph is a sentence, even under a name heading or one word long with a stop.
2. A project's own plugin documented as SKILL.md. A folder that is a Python package
   (`__init__.py`) holding a manifest with a name and a description (`skill.yaml`,
   `skill.json`, `plugin.yaml`) is an extension of the application's own "skills" system: its
   SKILL.md without frontmatter is a warning saying so. Twins keep the error: the manifest
   without `__init__.py`, `__init__.py` without a manifest, a manifest with no description or
   that does not parse, and `--target claude-ai`.

Every repository, document and skill here is written for this file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linters.context import LintContext
from linters.correctness.plugin_layout import missing_frontmatter
from linters.correctness.project_plugin import project_plugin
from skillforge.models.findings import Severity
from skillforge.models.lint_config import LintConfig
from skillforge.models.skill import load_skill
from tests.hypothesis_budget import examples
from tests.linters.correctness_skill import checkout, findings, write_skill

# --- 1. a first paragraph that only names the skill -----------------------------------------

INSTALL_SCRIPT = """\
#!/usr/bin/env bash
# Builds the playbooks, then tells the user where the skills go.
set -euo pipefail
make -C playbooks
echo "Done. Install: cp -r skills/* ~/.claude/skills/"
"""


def _kit(tmp_path: Path, text: str) -> Path:
    """A checkout whose install script copies its skills into Claude Code alone."""
    return checkout(tmp_path / "harbor-kit", {"scripts/install.sh": INSTALL_SCRIPT},
                    "skills/port-survey", text)


def _with_first(paragraph: str, heading: str = "## Skill Name") -> str:
    return (f"# ⚓ HARBOR PORT SURVEY SKILL\n\n{heading}\n\n{paragraph}\n\n## Purpose\n\n"
            "Surveys a host's open ports and the services behind them before a test.\n\n"
            "## Steps\n\n1. Confirm the scope.\n")


@pytest.mark.parametrize("paragraph", [
    "`harbor-port-survey`", "harbor-port-survey", "**harbor-port-survey**", "`/port-survey`",
])
def test_a_first_paragraph_that_is_only_a_name_keeps_the_error(tmp_path, paragraph):
    [f] = findings(_kit(tmp_path, _with_first(paragraph)), "SF102")
    assert f.severity is Severity.error
    assert f'first paragraph (line 5: "{paragraph}") only names the skill' in f.message
    assert "no description to route on" in f.message


@pytest.mark.parametrize("heading", ["## Skill Name", "## Name", "### 🔖 ID", "## Skill ID:"])
def test_words_under_a_name_heading_are_a_name(tmp_path, heading):
    [f] = findings(_kit(tmp_path, _with_first("Harbor Port Survey", heading)), "SF102")
    assert f.severity is Severity.error and "only names the skill" in f.message


@pytest.mark.parametrize(("heading", "paragraph"), [
    ("## Purpose", "Surveys a host's open ports before a test."),
    ("## Skill Name", "Harbor Port Survey maps a host's open ports."),  # a sentence
    ("## Overview", "Port surveys"),  # a few words, but under no name heading
    ("## Purpose", "Surveys."),  # one word, with a stop: a sentence
])
def test_a_paragraph_that_says_something_keeps_the_warning(tmp_path, heading, paragraph):
    [f] = findings(_kit(tmp_path, _with_first(paragraph, heading)), "SF102")
    assert f.severity is Severity.warning
    assert f'first paragraph (line 5: "{paragraph}")' in f.message


def test_a_name_heading_further_up_does_not_name_a_later_paragraph(tmp_path):
    text = "# Port survey\n\n## Name\n\n- harbor-port-survey\n\nPort surveys\n"
    [f] = findings(_kit(tmp_path, text), "SF102")
    assert f.severity is Severity.warning  # a list stands between the heading and the words


def test_without_the_install_script_the_error_is_the_same(tmp_path):
    root = checkout(tmp_path / "bare", {}, "skills/port-survey", _with_first("`x-y`"))
    [f] = findings(root, "SF102")
    assert f.severity is Severity.error and "only names the skill" in f.message


_NAME = st.from_regex(r"[a-z]{2,8}(?:-[a-z]{2,8}){0,3}", fullmatch=True)
_SENTENCE = st.lists(st.from_regex(r"[a-z]{2,8}", fullmatch=True), min_size=1, max_size=8).map(
    lambda ws: " ".join(ws).capitalize() + ".")
_FIRST = st.one_of(
    st.tuples(st.just(True), _NAME.map(lambda n: f"`{n}`")),
    st.tuples(st.just(True), _NAME),
    st.tuples(st.just(True), _NAME.map(lambda n: f"**{n}**")),
    st.tuples(st.just(False), _SENTENCE),
)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=_FIRST, heading=st.sampled_from(["## Skill Name", "## Purpose", "## Overview"]))
def test_an_error_exactly_when_the_first_paragraph_is_a_bare_name(tmp_path_factory, first,
                                                                    heading):
    only_a_name, paragraph = first
    root = _kit(tmp_path_factory.mktemp("kit"), _with_first(paragraph, heading))
    [f] = findings(root, "SF102")
    assert (f.severity is Severity.error) is only_a_name, paragraph
    assert ("only names the skill" in f.message) is only_a_name
    assert f'(line 5: "{paragraph}")' in f.message


# --- 2. a plugin of the project's own skills system -----------------------------------------

MANIFEST_YAML = """\
name: pinger
version: 0.3.0
description: Checks that hosts answer ICMP echo requests
config:
  required: [PINGER_TIMEOUT]
actions:
  - name: ping_host
    description: Ping one host
"""
PLUGIN_DOC = """\
# Pinger Skill

Checks that hosts answer, for the runbook engine.

## Actions

| Action | Description |
|--------|-------------|
| `ping_host` | Ping one host |

## Usage

```python
from skills.pinger import PingerSkill
```
"""
PACKAGE = {"__init__.py": "from .actions import PingerSkill\n",
           "actions.py": "class PingerSkill:\n    pass\n",
           "tests/test_actions.py": "def test_nothing():\n    pass\n"}


def _plugin(tmp_path: Path, files: dict[str, str]) -> Path:
    return write_skill(tmp_path / "beacon/skills/pinger", PLUGIN_DOC, files)


@pytest.mark.parametrize(("manifest", "text"), [
    ("skill.yaml", MANIFEST_YAML),
    ("skill.json", json.dumps({"name": "pinger", "description": "Checks hosts answer ICMP."})),
    ("plugin.yaml", "name: pinger\ndescription: Checks hosts answer ICMP.\n"),
])
def test_a_python_package_with_its_manifest_is_the_projects_plugin(tmp_path, manifest, text):
    [f] = findings(_plugin(tmp_path, {**PACKAGE, manifest: text}), "SF102")
    assert f.severity is Severity.warning and f.line == 1
    assert f"Python package (`__init__.py`) whose `{manifest}` gives the name" in f.message
    assert "plugin of the project's own \"skills\" system" in f.message
    assert "If agents are to load it as a skill too" in f.message


@pytest.mark.parametrize("files", [
    {"skill.yaml": MANIFEST_YAML},  # a manifest beside an agent skill, no package
    {"skill.json": json.dumps({"name": "pinger", "description": "Pings."})},
    PACKAGE,  # a skill shipping a Python helper, no manifest
    {**PACKAGE, "skill.yaml": "name: pinger\nversion: 0.3.0\n"},  # no description
    {**PACKAGE, "skill.yaml": "name: pinger\ndescription: [unclosed\n"},  # does not parse
    {**PACKAGE, "skill.yaml": "- pinger\n- Checks hosts.\n"},  # not a mapping
    {**PACKAGE, "skill.json": "{\"name\": \"pinger\", \"description\": \"\"}"},  # empty
    {**PACKAGE, "manifest.yaml": MANIFEST_YAML},  # a name no such system is known to read
])
def test_the_twins_keep_the_error(tmp_path, files):
    root = _plugin(tmp_path, files)
    assert project_plugin(root) is None
    [f] = findings(root, "SF102")
    assert f.severity is Severity.error and "plugin" not in f.message


def test_the_upload_target_keeps_the_error(tmp_path):
    root = _plugin(tmp_path, {**PACKAGE, "skill.yaml": MANIFEST_YAML})
    f = missing_frontmatter(LintContext(load_skill(root), LintConfig(target="claude-ai")))
    assert f.severity is Severity.error


def test_a_package_skill_with_frontmatter_has_no_finding(tmp_path):
    text = ("---\nname: pinger\ndescription: Checks that hosts answer ICMP. Use when a runbook "
            "asks whether a host is up.\n---\n" + PLUGIN_DOC)
    root = write_skill(tmp_path / "pinger", text, {**PACKAGE, "skill.yaml": MANIFEST_YAML})
    assert findings(root, "SF102") == []


_MANIFEST = st.sampled_from([
    (None, None, False),
    ("skill.yaml", MANIFEST_YAML, True),
    ("skill.yml", "name: pinger\ndescription: Pings hosts.\n", True),
    ("skill.json", json.dumps({"name": "pinger", "description": "Pings hosts."}), True),
    ("skill.yaml", "name: pinger\n", False),
    ("skill.json", "{not json", False),
    ("plugin.yml", "description: Pings hosts.\n", False),
])


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(package=st.booleans(), manifest=_MANIFEST)
def test_a_warning_exactly_for_a_package_with_a_named_described_manifest(tmp_path_factory,
                                                                          package, manifest):
    name, text, complete = manifest
    files = dict(PACKAGE) if package else {"actions.py": PACKAGE["actions.py"]}
    if name is not None:
        files[name] = text
    root = _plugin(tmp_path_factory.mktemp("p"), files)
    [f] = findings(root, "SF102")
    assert (f.severity is Severity.warning) is (package and complete)
