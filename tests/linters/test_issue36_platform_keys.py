"""SF112 and a frontmatter block named for a platform the skill declares it is made for
(issue 36, the `test` part's Copilot Cowork skills): `cowork: {category: ..., icon: ...}` in a
skill whose metadata.json says `"platforms": ["Cowork"]` is that platform's settings, a
warning naming the declaration; the same block in a skill that declares no such platform,
a scalar named for the platform, or a block named for another platform stays an error.

Every skill text here is written for this file; the first test failed before the reading.
"""

from __future__ import annotations

import json

import pytest

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_BODY = "# Loom planner\n\nPlan the week's weaving from the orders list.\n"
_BLOCK = "weavehub:\n  category: planning\n  icon: Calendar\n"


def _sidecar(platforms):
    return {"metadata.json": json.dumps({"name": "loom-planner", "platforms": platforms})}


@pytest.mark.parametrize("files, fm_extra", [
    (_sidecar(["WeaveHub", "Studio"]), _BLOCK),
    ({}, _BLOCK + "platforms: [Weave Hub]\n"),
    ({}, _BLOCK.replace("weavehub", "weave-hub") + "metadata:\n  platforms: weave hub, studio\n"),
])
def test_a_block_for_a_declared_platform_is_a_warning(tmp_path, files, fm_extra):
    from linters import lint_skill

    skill = make_skill(tmp_path, _BODY, files, fm_extra=fm_extra, name="loom-planner")
    block = fm_extra.split(":", 1)[0]
    [finding] = [f for f in lint_skill(skill).findings
                 if f.rule == "SF112" and f"`{block}`" in f.message]
    assert finding.severity.value == "warning" and "settings" in finding.message


def test_the_message_names_the_declaration(tmp_path):
    from linters import lint_skill

    skill = make_skill(tmp_path, _BODY, _sidecar(["WeaveHub"]), fm_extra=_BLOCK,
                       name="loom-planner")
    [msg] = [f.message for f in lint_skill(skill).findings if f.rule == "SF112"]
    assert "metadata.json" in msg and "WeaveHub" in msg


def test_no_declared_platform_keeps_the_error(tmp_path):
    skill = make_skill(tmp_path, _BODY, fm_extra=_BLOCK, name="loom-planner")
    assert [sev for _f, _l, sev in severe(skill, "SF112")] == ["error"]


def test_a_block_for_another_platform_keeps_the_error(tmp_path):
    skill = make_skill(tmp_path, _BODY, _sidecar(["Studio"]), fm_extra=_BLOCK,
                       name="loom-planner")
    assert [sev for _f, _l, sev in severe(skill, "SF112")] == ["error"]


def test_a_scalar_named_for_the_platform_keeps_the_error(tmp_path):
    skill = make_skill(tmp_path, _BODY, _sidecar(["WeaveHub"]), fm_extra="weavehub: true\n",
                       name="loom-planner")
    assert [sev for _f, _l, sev in found(skill, "SF112")] == ["error"]
