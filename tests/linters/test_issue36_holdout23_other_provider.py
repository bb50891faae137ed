"""Issue 36, holdout23: another skill's scripts, named as that skill's or found at run time
(SF116, SF301).

A deck skill builds from a template with the scripts of a document skill it does not ship:
"also requires the `docs-kit:decks` skill (provides `scripts/clean.py`, ...)", then sets
`DECKS_DIR=$(find ...)` and writes "uses `$DECKS_DIR/scripts/map.py`, then
`scripts/unpack.py` -> `scripts/pack.py ...`". The paths are the other skill's: a skill of
that name beside this one is checked, one not found here gets a warning naming the owner or
the base (linters.text.paths.path_owner, linters.text.paths.variable_bases).

Every text here is written for this file; each demoted case was an error before.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from skillforge.models.findings import Severity
from tests.hypothesis_budget import examples
from tests.linters.test_security import make_skill



def _severities(skill, rule: str) -> list[Severity]:
    return [f.severity for f in lint_skill(skill, external=False).findings if f.rule == rule]


_PROVIDES = """\
# Decks

Build decks from scratch, or from a template.

Template mode also requires the `docs-kit:decks` skill (provides
`scripts/unpack.py`, `scripts/clean.py`, `scripts/map.py`).
"""


def test_paths_in_a_provides_parenthesis_after_another_skill_are_a_warning(tmp_path):
    """Before: SF116 error on `scripts/clean.py` and `scripts/map.py`."""
    skill = make_skill(tmp_path, _PROVIDES, name="decks-builder")
    found = lint_skill(skill, external=False).findings
    sf116 = [f for f in found if f.rule == "SF116"]
    assert sf116 and all(f.severity == Severity.warning for f in sf116)
    assert all("`docs-kit:decks`" in f.message for f in sf116)


@pytest.mark.parametrize("sentence", [
    "The `deck-tools` skill ships `scripts/clean.py` for this.",
    "Use these from the `deck-tools` skill: `scripts/unpack.py`, `scripts/clean.py`.",
    "It needs the `decktools` skill (provides `scripts/unpack.py`, `scripts/clean.py`).",
])
def test_other_ways_of_naming_the_provider_are_a_warning(tmp_path, sentence):
    skill = make_skill(tmp_path, f"# Decks\n\n{sentence}\n", name="decks-builder")
    assert _severities(skill, "SF116") and set(_severities(skill, "SF116")) == {Severity.warning}


def test_a_provider_beside_this_skill_without_the_file_is_still_an_error(tmp_path):
    skill = make_skill(tmp_path, "# Decks\n\nThe `deck-tools` skill ships `scripts/clean.py`.\n",
                       name="decks-builder")
    make_skill(tmp_path, "# Deck tools\n\nTools.\n", name="deck-tools")
    assert set(_severities(skill, "SF116")) == {Severity.error}


@pytest.mark.parametrize("body", [
    # The skill's own script, no other owner named.
    "# Decks\n\nRun `scripts/clean.py` on each slide.\n",
    # A provider named in another paragraph.
    "# Decks\n\nThis needs the `docs-kit:decks` skill.\n\nThen run `scripts/clean.py` on it.\n",
    # The subject is this skill, not the one named.
    "# Decks\n\nUnlike the `deck-tools` skill, this one provides `scripts/clean.py`.\n",
])
def test_the_skills_own_missing_script_stays_an_error(tmp_path, body):
    skill = make_skill(tmp_path, body, name="decks-builder")
    assert Severity.error in _severities(skill, "SF116") + _severities(skill, "SF301")


_CHAIN = """\
# Decks

## Template mode

Find the document skill first:

```bash
{assign}
```

The worker uses `{var}/scripts/map.py` to map the template, then edits via
`scripts/unpack.py` -> edit the XML -> `scripts/clean.py` ->
`scripts/pack.py out/ --original template.pptx`. Then check the output.
"""


def test_bare_paths_chained_after_another_folders_variable_are_a_warning(tmp_path):
    """Before: SF301 error on `scripts/pack.py`, SF116 errors on the chain."""
    body = _CHAIN.format(
        assign='DECKS_DIR="$(find ~/.claude/plugins -type d -name decks | head -1)"',
        var="$DECKS_DIR")
    skill = make_skill(tmp_path, body, name="decks-builder")
    found = [f for f in lint_skill(skill, external=False).findings if f.rule in ("SF116", "SF301")]
    assert any(f.rule == "SF301" for f in found)
    assert all(f.severity == Severity.warning and "`$DECKS_DIR/`" in f.message for f in found)


@pytest.mark.parametrize("assign,var", [
    ('SKILL_DIR="$(cd "$(dirname "$0")" && pwd)"', "$SKILL_DIR"),
    ('DECKS_DIR="$(dirname "$0")"', "$DECKS_DIR"),
    ("echo start", "${CLAUDE_SKILL_DIR}"),
])
def test_a_variable_for_the_skills_own_folder_keeps_the_error(tmp_path, assign, var):
    skill = make_skill(tmp_path, _CHAIN.format(assign=assign, var=var), name="decks-builder")
    assert Severity.error in _severities(skill, "SF301") + _severities(skill, "SF116")


@settings(max_examples=examples(25), deadline=None)
@given(name=st.from_regex(r"[A-Z]{2,6}_(?:TOOLS|KIT)_DIR", fullmatch=True),
       script=st.from_regex(r"[a-z]{3,8}", fullmatch=True))
def test_any_other_folders_variable_gives_its_chain_away(name, script):
    from linters.text.paths.variable_bases import under_other_base
    doc = f'{name}="$(find ~ -name x)"\n'
    before = f"Map with `${name}/scripts/map.py`, then `scripts/a.py` -> "
    assert under_other_base(before, f"scripts/{script}.py", doc) == f"${name}/"
    # ...and never a path of another top folder, nor after the skill's own folder.
    assert under_other_base(before, f"references/{script}.md", doc) is None
    assert under_other_base(before.replace(name, "SKILL_DIR"), f"scripts/{script}.py", "") is None
