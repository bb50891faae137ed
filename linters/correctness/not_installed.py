"""A SKILL.md whose own description says it is no skill to install (issue 36, holdout14 and
holdout15): a test fixture ("Fixture skill. ... no agent should ever load it outside the
tests"), or a prompt a build script feeds to a headless agent ("Invoked headless by
scripts/scan.sh ... Authoring-time only — not shipped."). Nobody installs it under its
folder's name, so a `name` that differs from its folder (SF110) is a warning there, which
quotes the sentence. Its other findings keep their weight: an unknown key or a broken link is
still wrong in the file.

Only a clause that is the statement itself counts ("Not shipped.", "This skill is not
installed."), or one that names the skill or `it` as what no agent loads: "Lists features
that are not shipped yet" or "Checks what was shipped" describe a skill that works.

One fixture more reads lighter (issue 36, holdout17): the input of a checker of skill
metadata, whose description opens by calling it a fixture and speaks of the metadata it holds
or lacks ("Fixture skill with complete manifest metadata.", "Fixture skill absent from
manifest.yaml."). Its frontmatter is what the test feeds that checker, so an unknown key there
(SF112) is a warning. A fixture of anything else ("Fixture skill. Exists only so the eval
harness has an artifact ...") keeps its unknown keys as errors: they are still wrong in the
file, as above.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx

# A description's sentences, and their clauses (split at a colon, a semicolon or a dash).
_SENTENCE_END = rx(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[-*]\s)")
_CLAUSE_SPLIT = rx(r"[.;:!?](?:\s+|$)|\s+[—–]\s+|\s+-{1,2}\s+|\n")

# A whole clause that says it: "Not shipped", "Never installed", "This skill is not
# published", "Authoring-time only", "Fixture skill", "Test fixture only".
_WHOLE_CLAUSE = rx(
    r"^(?:(?:this\s+(?:skill|file|prompt)|it)\s+is\s+)?(?:not|never)\s+(?:meant\s+to\s+be\s+"
    r"|intended\s+to\s+be\s+|to\s+be\s+)?(?:shipped|installed|published|distributed|released)"
    r"(?:\s+(?:with|in)\s+(?:the\s+)?(?:plugin|package|marketplace|release|skills?))?$"
    r"|^(?:authoring|build|dev|development)[- ]time\s+only$"
    r"|^(?:(?:this\s+(?:skill\s+)?is\s+)?an?\s+)?(?:test\s+)?fixture(?:\s+skill)?(?:\s+only)?$",
    re.IGNORECASE,
)
# Anywhere in a clause, with the skill as its object: "no agent should ever load it outside
# the tests" (`it` ending the clause or limited by "outside", not "load it twice"), "NOT FOR
# any real task", "do not install this skill".
_IN_CLAUSE = rx(
    r"\bno\s+agents?\s+(?:should|must|will)\s+(?:ever\s+)?(?:load|use|invoke|trigger)\s+"
    r"(?:this\s+skill\b|(?:it|this)(?:\s+outside\b|\s*$))"
    r"|\bnot\s+for\s+(?:any\s+)?real\s+(?:tasks?|use|work)\b"
    r"|\bdo\s+not\s+install\s+(?:it|this(?:\s+skill)?)\b",
    re.IGNORECASE,
)
# Markup in and around a clause: `**Not shipped**`, `(authoring-time only)`.
_EMPHASIS = rx(r"[*`]+")
_MARKUP = "_()[]\"' \t"


def not_installed_sentence(description: str | None) -> str | None:
    """The sentence of `description` saying the skill is not one to install (see the module
    docstring), on one line; None if it says no such thing."""
    if not description:
        return None
    for sentence in _SENTENCE_END.split(description):
        for clause in _CLAUSE_SPLIT.split(sentence):
            text = " ".join(_EMPHASIS.sub("", clause).split()).strip(_MARKUP)
            if text and (_WHOLE_CLAUSE.match(text) or _IN_CLAUSE.search(text)):
                return " ".join(sentence.split())
    return None


# A description that opens by naming the skill a fixture: "Fixture skill whose ...", "A test
# fixture for ...", "Skill fixture used by ...". Not "Creates fixtures for ..." (a verb first).
_FIXTURE_HEAD = rx(
    r"^\W*(?:(?:this\s+(?:skill\s+)?is\s+)?an?\s+)?(?:(?:test|sample)\s+)?"
    r"(?:fixture(?:\s+skill)?|skill\s+fixture)\b",
    re.IGNORECASE,
)
# What a metadata checker reads: the skill's manifest entry, frontmatter, keys or version.
_METADATA = rx(
    r"\b(?:manifest(?:\.\w+)?|metadata|front[- ]?matter|version(?:s|ing)?|keys?|fields?|"
    r"schema)\b",
    re.IGNORECASE,
)


def metadata_fixture_sentence(description: str | None) -> str | None:
    """The description's first sentence when it calls the skill a fixture of its own metadata
    (see the module docstring), on one line; None otherwise."""
    if not description:
        return None
    first = _SENTENCE_END.split(description.strip(), maxsplit=1)[0]
    text = _EMPHASIS.sub("", first)
    if _FIXTURE_HEAD.match(text) and _METADATA.search(text):
        return " ".join(first.split())
    return None
