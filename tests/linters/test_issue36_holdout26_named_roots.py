"""Issue 36, holdout26: a root folder the skill names once and then writes without its `$`
(SF116).

A chart skill says "Set `KIT_ROOT = ${CLAUDE_PLUGIN_ROOT}`", reads
`KIT_ROOT/assets/chart.css`, and later says the colours "must match `assets/chart.css`":
the bare path is the short form of the plugin's file, as it is after
`${CLAUDE_PLUGIN_ROOT}/assets/chart.css` (a warning that the copy may lack it), not a
missing file of the skill (linters.text.paths.named_roots).

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


def _sf116(skill) -> list:
    return [f for f in lint_skill(skill, external=False).findings if f.rule == "SF116"]


_NAMED_ROOT = """\
# Charts

1. Set `KIT_ROOT = ${CLAUDE_PLUGIN_ROOT}` (where this plugin is installed).
2. Read `KIT_ROOT/assets/chart.css` in full.

Pick the bar colours so they match `assets/chart.css`.
"""


def test_short_form_of_a_path_under_a_named_plugin_root_is_a_warning(tmp_path):
    """Before: SF116 error on `assets/chart.css`."""
    found = _sf116(make_skill(tmp_path, _NAMED_ROOT, name="bar-charts"))
    assert found and all(f.severity == Severity.warning for f in found)
    assert any("`KIT_ROOT/assets/chart.css`" in f.message for f in found)


@pytest.mark.parametrize("setting", [
    "```bash\nKIT_ROOT=$CLAUDE_PLUGIN_ROOT\n```",
    '```bash\nexport KIT_ROOT="${CLAUDE_PLUGIN_ROOT}"\n```',
    "First, set KIT_ROOT to `$CLAUDE_PLUGIN_ROOT`.",
])
def test_other_ways_of_naming_the_root_are_a_warning(tmp_path, setting):
    body = (f"# Charts\n\n{setting}\n\nOpen KIT_ROOT/assets/chart.css.\n\n"
            "Keep to the palette of `assets/chart.css`.\n")
    found = _sf116(make_skill(tmp_path, body, name="bar-charts"))
    assert found and {f.severity for f in found} == {Severity.warning}


@pytest.mark.parametrize("body", [
    # A word only written in capitals, never set from a variable.
    "# Charts\n\nSee `README/assets/chart.css`, then match `assets/chart.css`.\n",
    # A name never set at all.
    "# Charts\n\nRead `KIT_ROOT/assets/chart.css`, then match `assets/chart.css`.\n",
    # A name set from a command, not a variable.
    "# Charts\n\n```bash\nKIT_ROOT=$(pwd)\n```\n\nRead KIT_ROOT/assets/chart.css, then "
    "match `assets/chart.css`.\n",
    # A name set to the skill's own folder: its paths are the skill's.
    '# Charts\n\n```bash\nSKILL_DIR=$(dirname "$0")\n```\n\n'
    "Read `SKILL_DIR/references/axes.md`, then `references/axes.md`.\n",
    "# Charts\n\nSet `HERE = ${CLAUDE_SKILL_DIR}`. Read `HERE/references/axes.md`, then "
    "`references/axes.md`.\n",
    # A bare path with no rooted twin.
    "# Charts\n\nSet `KIT_ROOT = ${CLAUDE_PLUGIN_ROOT}`. Read `KIT_ROOT/assets/chart.css`, "
    "then match `assets/lines.css`.\n",
])
def test_true_twins_stay_errors(tmp_path, body):
    found = _sf116(make_skill(tmp_path, body, name="bar-charts"))
    assert any(f.severity == Severity.error for f in found)


_NAMES = st.from_regex(r"[A-Z]{2,6}(_[A-Z]{2,5})?", fullmatch=True).filter(
    # Not a name of the skill's own folder (`SKILL_DIR`, `BASE_DIR`), whose paths are its own.
    lambda n: not any(own in n for own in ("SKILL", "BASEDIR", "BASE_DIR")))
_FILES = st.builds("{}/{}.{}".format, st.sampled_from(["assets", "references", "templates"]),
                   st.from_regex(r"[a-z]{3,8}", fullmatch=True),
                   st.sampled_from(["css", "md", "html"]))


@settings(max_examples=examples(60), deadline=None)
@given(name=_NAMES, var=_NAMES, path=_FILES, set_it=st.booleans())
def test_short_form_is_a_warning_only_when_the_name_is_set_from_a_variable(
        tmp_path_factory, name, var, path, set_it):
    setting = f"Set `{name} = ${{{var}}}`.\n\n" if set_it else ""
    body = f"# Charts\n\n{setting}Read `{name}/{path}`.\n\nThen match `{path}`.\n"
    found = [f for f in _sf116(make_skill(tmp_path_factory.mktemp("s"), body, name="bar-charts"))
             if f"`{path}`" in f.message]
    assert found
    assert {f.severity for f in found} == ({Severity.warning} if set_it else {Severity.error})
