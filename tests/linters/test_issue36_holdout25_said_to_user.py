"""A reading from the twenty-fifth held-out part of issue 36: a command in a message the agent
says to the user (SF301).

`Confirm:` then `> "Ledger ready! Add accounts any time with `npx tsx scripts/add.ts`"` gives
the agent words to say; the user runs the command from their own folder. A script the skill
lacks there is a warning, not a broken run of the skill's own script
(linters.reliability.said_to_user). The same command as a step, a blockquoted note, a quoted
command with no sentence around it, or a quotation no verb of saying leads to stays an error.

Every skill text here is written for this file; the first test failed before the reading.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_REF = {"references/notes.md": "notes\n"}


def test_a_command_in_a_confirmation_the_agent_says_is_a_warning(tmp_path):
    body = """\
    # Ledger setup

    Write the settings file, then confirm:

    > "Ledger ready! Accounts can now be added with `npx tsx scripts/add-account.ts`"

    Tell the user: "Imports run nightly; start one by hand with `python3 scripts/import.py --now`."
    """
    skill = make_skill(tmp_path, body, _REF)
    assert severe(skill, "SF301") == []
    assert found(skill, "SF301") == [("SKILL.md", 10, "warning"), ("SKILL.md", 12, "warning")]


def test_the_same_commands_as_steps_or_notes_stay_errors(tmp_path):
    body = """\
    # Ledger setup

    Add the first account:

    `npx tsx scripts/add-account.ts`

    > Run `python3 scripts/import.py --now` before the first report.

    Run: "`bash scripts/rebuild.sh`"

    The output reads "Rebuilt all ledgers with `node scripts/check.js` in one pass".
    """
    assert severe(make_skill(tmp_path, body, _REF), "SF301") == [
        ("SKILL.md", 10, "error"), ("SKILL.md", 12, "error"), ("SKILL.md", 14, "error"),
        ("SKILL.md", 16, "error")]


def test_a_message_whose_script_ships_has_no_finding(tmp_path):
    body = """\
    # Ledger setup

    Confirm:

    > "Ledger ready! Accounts can now be added with `bash scripts/add.sh`"
    """
    files = {**_REF, "scripts/add.sh": "#!/bin/sh\necho ok\n"}
    assert found(make_skill(tmp_path, body, files), "SF301") == []


_LEADS = st.sampled_from(["Confirm:", "Tell the user:", "Reply with:", "Then say:",
                          "Let the user know:"])
_NOT_LEADS = st.sampled_from(["Run:", "Next:", "Example:", "Steps:", "Do this:"])
_WORDS = st.lists(st.sampled_from(["ledger", "ready", "accounts", "can", "now", "be",
                                   "added", "nightly", "import", "done"]),
                  min_size=3, max_size=8).map(" ".join)


@settings(max_examples=examples(40), deadline=None)
@given(lead=_LEADS, other=_NOT_LEADS, words=_WORDS, inline=st.booleans())
def test_only_a_message_after_a_verb_of_saying_is_softened(tmp_path_factory, lead, other,
                                                          words, inline):
    said = f'"{words.capitalize()} with `python3 scripts/go.py`"'
    first = f"{lead} {said}" if inline else f"{lead}\n\n> {said}"
    body = f"# Ledger\n\n{first}\n\n{other} \"{words.capitalize()} with `bash scripts/run.sh`\"\n"
    skill = make_skill(tmp_path_factory.mktemp("said"), body, _REF)
    rows = found(skill, "SF301")
    assert [r[2] for r in rows] == ["warning", "error"]
