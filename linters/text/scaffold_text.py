"""`skillforge new`'s placeholder sentences, and where a text still holds them.

The scaffold (skillforge/authoring/scaffold.py) is built to lint clean once filled in, so
its untouched text is recognised by the sentences it writes (rule SF319, and the subject
that makes SF319 count only in a skill holding them). Matched as written, case and all: a
sentence the author has rewritten no longer matches, and no real skill says these (none of
the shared corpus's skills does). tests/authoring/test_scaffold.py checks that every
placeholder line of a fresh scaffold is found.
"""

from __future__ import annotations

from collections.abc import Iterator

Placeholders = tuple[tuple[str, str], ...]

# (text the scaffold writes, what to write instead).
SKILL_MD_PLACEHOLDERS: Placeholders = (
    ("does and when to use it, in the words users type",
     "what the skill does and when to use it, in the words users type"),
    ("Use when the user asks to ...", "the requests that should bring the skill in"),
    ("One paragraph: what this skill does and the result the user gets",
     "a paragraph on what the skill does and the result the user gets"),
    ("(write the requests in the user's own words)",
     "the requests that call for this skill, worded as users word them"),
    ("The user asks to ...", "the requests that call for this skill, worded as users word them"),
    ("(name the nearby tasks it must not take)", "the nearby tasks this skill must not take"),
    ("Do not use this skill when ...", "the nearby tasks this skill must not take"),
    ("Read the input the user gave and check it is what this skill expects",
     "the skill's real first step"),
    ("Do the work (prefer a script in `scripts/` for anything deterministic)",
     "the steps that do the work (a script in `scripts/` for anything deterministic)"),
    ("Verify the result: say how to check it, and what to do when the check fails",
     "how to check this skill's result and what to do when the check fails"),
    ("Input: a short, realistic request", "a realistic request"),
    ("Output: what the answer looks like", "the answer that request should get"),
    ("What this skill does not handle, and what to do instead",
     "what the skill does not handle, and what to do instead"),
)
# The evals/evals.json template's placeholders, as they appear in the JSON text.
EVALS_PLACEHOLDERS: Placeholders = (
    (' skill to ..."', "a request a user would type that names the skill"),
    ('"A request that needs this skill without naming it ..."',
     "a request that needs the skill without naming it"),
    ('"A nearby request this skill must not take ..."',
     "a nearby request the skill must not take"),
    ('"What a correct answer contains."', "what a correct answer to this case contains"),
)


def holds_placeholders(text: str, table: Placeholders) -> bool:
    """Whether `text` holds any of the placeholders (one pass per placeholder, no split)."""
    return any(frag in text for frag, _hint in table)


def placeholder_lines(text: str, table: Placeholders) -> Iterator[tuple[int, str, str]]:
    """(line number, the line, what to write) for each line holding a placeholder."""
    if not holds_placeholders(text, table):  # the usual case
        return
    for number, line in enumerate(text.splitlines(), start=1):
        for frag, hint in table:
            if frag in line:
                yield number, line, hint
                break
