"""SF112 and Hermes Agent (issue 36, holdout18): Hermes documents `author`, `platforms`,
`required_environment_variables` and the older `prerequisites` as SKILL.md frontmatter
(its "Creating Skills" guide), beside its own `metadata.hermes` map. A skill that carries
`metadata.hermes` is written for Hermes, so those keys are a warning naming Hermes, as
another harness's documented keys are; the same keys in a skill with no sign of Hermes stay
errors (readers on earlier parts labelled a top-level `author` true many times).

Every skill text here is written for this file; the Hermes test failed before the reading,
the near miss passes before and after.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_KEYS = """\
author: Sam Writer
platforms: [linux, macos]
prerequisites:
  commands: [curl]
required_environment_variables:
  - name: WEATHER_KEY
"""
_HERMES = "metadata:\n  hermes:\n    tags: [weather]\n"
_BODY = "# Weather\n\nAsk the weather service for today's forecast.\n"


def test_keys_hermes_documents_are_warnings_in_a_hermes_skill(tmp_path):
    skill = make_skill(tmp_path, _BODY, fm_extra=_KEYS + _HERMES, name="weather")
    assert severe(skill, "SF112") == []
    assert [sev for _f, _line, sev in found(skill, "SF112")] == ["warning"] * 4


def test_the_same_keys_without_a_sign_of_hermes_stay_errors(tmp_path):
    skill = make_skill(tmp_path, _BODY, fm_extra=_KEYS + "metadata:\n  owner: sam\n",
                       name="weather")
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"] * 4


def test_a_key_hermes_does_not_document_stays_an_error_in_a_hermes_skill(tmp_path):
    skill = make_skill(tmp_path, _BODY, fm_extra="owner-team: data\n" + _HERMES,
                       name="weather")
    assert [sev for _f, _line, sev in severe(skill, "SF112")] == ["error"]
