"""Readings from the thirty-first held-out part of issue 36: a path the text describes, not
one it sends the agent to (SF116).

- A skill of a plugin describes the plugin's own script, which it writes bare: the subject
  of what it does, named with a word for what it is ("The helper `scripts/x.sh` never
  writes the block"), or the agent of a participle ("values ... read via
  `scripts/x.sh`", "computed by `scripts/x.py`"). With the script at the plugin's root in a
  checkout, a warning naming it; in a copy that kept only the plugin's skills and manifest,
  a warning when another skill of the plugin gives the same file from
  `${CLAUDE_PLUGIN_ROOT}`.
- A row of a table relating the skill to others says what another component uses ("|
  `tools:simplifier` | ... Uses `references/checklist.md`. |"): that component's file.

Twins keep the error: the script at no plugin root, a sentence that also tells the agent to
run or open it, a document rather than a source, a copy whose plugin keeps other files of
its own, the same row headed by this skill or by no name, a cell that tells the agent to
read the file, and a plain "Read `references/x.md`".

Every skill text here is written for this file.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.linters.rule_findings import fresh_root, found, severe
from tests.linters.test_security import make_skill

_REF = {"references/notes.md": "notes\n"}
_SCRIPTS = ("scripts/ledger-init.sh", "scripts/ledger-config.sh", "scripts/ledger_sum.py")


def _write(path: Path, text: str = "x\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _plugin(tmp_path: Path, body: str, shipped: tuple[str, ...] = _SCRIPTS,
            name: str = "journal") -> Path:
    """A skill of the plugin `plugins/ledger/` of a marketplace checkout, with the plugin's
    manifest and the files it ships at its root."""
    plugin = tmp_path / "market" / "plugins" / "ledger"
    _write(plugin / ".claude-plugin" / "plugin.json", '{"name": "ledger"}\n')
    for rel in shipped:
        _write(plugin / rel)
    return make_skill(plugin / "skills", body, _REF, name=name)


# Line 10 (the skill's body starts on line 6): the descriptive sentence.
_HELPER = """\
# Journal

Read `references/notes.md` first.

{sentence}
"""

_DESCRIBED = (
    "The helper `scripts/ledger-init.sh` never writes the lock file; it only warns when the "
    "folder is shared.",
    "Values live in the ledger config cascade (`defaults < ~/.ledger/config`, read via "
    "`scripts/ledger-config.sh`), not in this skill.",
    "Every total is computed by `scripts/ledger_sum.py` before the report is drawn.",
    "The bundled script `scripts/ledger-config.sh` always merges the user's file last.",
)


def _helper(sentence: str) -> str:
    return _HELPER.format(sentence=sentence)


def test_the_plugins_script_described_is_a_warning_in_a_checkout(tmp_path):
    for i, sentence in enumerate(_DESCRIBED):
        skill = _plugin(tmp_path / str(i), _helper(sentence))
        assert found(skill, "SF116") == [("SKILL.md", 10, "warning")], sentence


def test_the_warning_says_where_the_plugin_has_it(tmp_path):
    from linters import lint_skill

    skill = _plugin(tmp_path, _helper(_DESCRIBED[0]))
    (message,) = [f.message for f in lint_skill(skill, external=False).findings
                  if f.rule == "SF116"]
    assert "cites it as the source of what it describes" in message
    assert "`../../scripts/ledger-init.sh` from the skill" in message


def test_a_described_script_no_plugin_root_has_stays_an_error(tmp_path):
    for i, sentence in enumerate(_DESCRIBED):
        skill = _plugin(tmp_path / str(i), _helper(sentence), shipped=())
        assert severe(skill, "SF116") == [("SKILL.md", 10, "error")], sentence
        alone = make_skill(tmp_path / f"alone{i}", _helper(sentence), _REF, name="journal")
        assert severe(alone, "SF116") == [("SKILL.md", 10, "error")], sentence


_SENT_TO_IT = (
    "The helper `scripts/ledger-init.sh` never writes the lock file; run it after setup.",
    "Read the values via `scripts/ledger-config.sh` before you start.",
    "Open `scripts/ledger-config.sh` and set the key.",
    "To load the values, use the output read via `scripts/ledger-config.sh`.",
    "Make sure that `scripts/ledger-init.sh` writes the lock file.",
    "Verify: the helper `scripts/ledger-init.sh` prints the folder it made.",
)


def test_a_sentence_that_sends_the_agent_to_the_script_stays_an_error(tmp_path):
    for i, sentence in enumerate(_SENT_TO_IT):
        skill = _plugin(tmp_path / str(i), _helper(sentence))
        assert severe(skill, "SF116") == [("SKILL.md", 10, "error")], sentence


def test_a_document_described_so_stays_an_error(tmp_path):
    sentence = "The guide `references/ledger.md` never covers the lock file."
    skill = _plugin(tmp_path, _helper(sentence), shipped=("references/ledger.md",))
    assert severe(skill, "SF116") == [("SKILL.md", 10, "error")]


_RUNS = """\
# Journal

Read `references/notes.md` first.

1. Build each entry via the helper `scripts/ledger-init.sh <name>` (it creates the folder).
"""


def test_running_the_bare_plugin_script_stays_an_sf301_error(tmp_path):
    skill = _plugin(tmp_path, _RUNS)
    assert severe(skill, "SF301") == [("SKILL.md", 10, "error")]


# --- a copy that kept only the plugin's skills and manifest ---------------------------------

_TOTALS = """\
# Totals

```bash
"${CLAUDE_PLUGIN_ROOT}/scripts/ledger-config.sh" get totals.currency
```
"""


def _copied_plugin(tmp_path: Path, body: str, witness: str | None = _TOTALS,
                   extra: tuple[str, ...] = ()) -> Path:
    """A skill of a plugin copied as its skills and manifest only (`extra`: other files of
    the plugin's own, which a checkout of a plugin lacking the script would hold)."""
    plugin = tmp_path / "copy" / "plugins" / "ledger"
    _write(plugin / ".claude-plugin" / "plugin.json", '{"name": "ledger"}\n')
    for rel in extra:
        _write(plugin / rel)
    if witness is not None:
        make_skill(plugin / "skills", witness, name="totals")
    return make_skill(plugin / "skills", body, _REF, name="journal")


def test_a_copy_whose_other_skill_roots_the_script_is_a_warning(tmp_path):
    skill = _copied_plugin(tmp_path, _helper(_DESCRIBED[1]))
    assert found(skill, "SF116") == [("SKILL.md", 10, "warning")]


def test_a_copy_without_that_witness_or_with_files_of_its_own_stays_an_error(tmp_path):
    # No other skill gives the file from the plugin's root.
    skill = _copied_plugin(tmp_path / "a", _helper(_DESCRIBED[1]), witness=None)
    assert severe(skill, "SF116") == [("SKILL.md", 10, "error")]
    # The plugin's folder holds files of its own: a checkout whose root lacks the script.
    skill = _copied_plugin(tmp_path / "b", _helper(_DESCRIBED[1]), extra=("README.md",))
    assert severe(skill, "SF116") == [("SKILL.md", 10, "error")]
    # The witness roots the script, but the sentence sends the agent to it.
    skill = _copied_plugin(tmp_path / "c", _helper(_SENT_TO_IT[2]))
    assert severe(skill, "SF116") == [("SKILL.md", 10, "error")]


# --- a table row about another component ------------------------------------------------------

_RELATED = """\
# Journal

Read `references/notes.md` first.

## Relationship to other skills

| Skill | Relationship |
|-------|--------------|
| {head} | Spawned after the close. {cell} |
| `ledger:export` | Invoked for the CSV step. |
"""

_USES = "Uses `references/audit-checklist.md` and `references/sampling.md`."


def _related(head: str = "`ledger:auditor`", cell: str = _USES) -> str:
    return _RELATED.format(head=head, cell=cell)


def test_a_row_saying_what_another_agent_uses_is_a_warning(tmp_path):
    skill = make_skill(tmp_path, _related(), _REF, name="journal")
    assert found(skill, "SF116") == [("SKILL.md", 14, "warning"), ("SKILL.md", 14, "warning")]
    # In a checkout of the plugin, with the files at its root, the same.
    skill = _plugin(tmp_path / "p", _related(),
                    shipped=("references/audit-checklist.md", "references/sampling.md"))
    assert found(skill, "SF116") == [("SKILL.md", 14, "warning"), ("SKILL.md", 14, "warning")]


def test_the_same_row_about_this_skill_or_telling_the_agent_stays_an_error(tmp_path):
    for i, (head, cell) in enumerate((
            ("`journal`", _USES),  # this skill's own row
            ("`ledger:auditor` (this skill)", _USES),
            ("This skill", _USES),  # no name in code
            ("`ledger:auditor`", "Read `references/audit-checklist.md` and "
                                 "`references/sampling.md` before spawning it."),
            ("`ledger:auditor`", "Details in `references/audit-checklist.md` and "
                                 "`references/sampling.md`."),
    )):
        skill = make_skill(tmp_path / str(i), _related(head, cell), _REF, name="journal")
        assert severe(skill, "SF116") == [("SKILL.md", 14, "error")] * 2, (head, cell)


def test_a_plain_instruction_to_read_the_file_stays_an_error(tmp_path):
    body = _related() + "\nRead `references/audit-checklist.md` before each close.\n"
    skill = make_skill(tmp_path, body, _REF, name="journal")
    assert severe(skill, "SF116") == [("SKILL.md", 17, "error")]


def test_a_row_about_a_skill_beside_it_that_lacks_the_file_stays_an_error(tmp_path):
    make_skill(tmp_path, "# Auditor\n\nAudit the ledger.\n", name="auditor")
    skill = make_skill(tmp_path, _related(), _REF, name="journal")
    assert severe(skill, "SF116") == [("SKILL.md", 14, "error")] * 2


# --- properties ------------------------------------------------------------------------------

_SETTINGS = settings(max_examples=15, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture])



_NOUNS = st.sampled_from(["The helper", "The script", "The bundled hook", "Our loader", "",
                          "This wrapper"])
_ADVERBS = st.sampled_from(["", "never ", "always ", "only ", "also ", "already "])
_DOES = st.sampled_from(["writes the lock file", "creates the folder", "prints the totals",
                         "refuses a shared folder", "merges the user's file last"])
_PARTICIPLES = st.sampled_from(["read via", "computed by", "implemented in", "handled by",
                                "resolved through", "loaded via", "written in"])
_SCRIPT = st.sampled_from(_SCRIPTS)


def _subject(noun: str, script: str, adverb: str, does: str) -> str:
    lead = f"{noun} `{script}`" if noun else f"`{script}`"
    return f"{lead} {adverb}{does} when the folder is shared."


@_SETTINGS
@given(noun=_NOUNS, script=_SCRIPT, adverb=_ADVERBS, does=_DOES)
def test_property_a_plugin_script_described_as_the_subject_is_soft(tmp_path, noun, script,
                                                                  adverb, does):
    skill = _plugin(fresh_root(tmp_path, "h"), _helper(_subject(noun, script, adverb, does)))
    assert severe(skill, "SF116") == []


@_SETTINGS
@given(noun=_NOUNS, script=_SCRIPT, adverb=_ADVERBS, does=_DOES,
       order=st.sampled_from(["; run it after setup", "; then open it", ". You must run it"]))
def test_property_the_same_subject_sent_to_be_run_or_missing_stays_severe(
        tmp_path, noun, script, adverb, does, order):
    sentence = _subject(noun, script, adverb, does).removesuffix(".")
    if order.startswith(". "):
        # A second sentence with the instruction names the script itself.
        sentence = f"Run `{script}` now; {sentence[0].lower()}{sentence[1:]}."
    else:
        sentence = f"{sentence}{order}."
    assert severe(_plugin(fresh_root(tmp_path, "h"), _helper(sentence)), "SF116") == [
        ("SKILL.md", 10, "error")]
    root = fresh_root(tmp_path, "h")
    subject = _subject(noun, script, adverb, does)
    assert severe(_plugin(root, _helper(subject), shipped=()), "SF116") == [
        ("SKILL.md", 10, "error")]


@_SETTINGS
@given(participle=_PARTICIPLES, script=_SCRIPT)
def test_property_a_plugin_script_as_the_agent_of_a_participle_is_soft(tmp_path, participle,
                                                                      script):
    sentence = f"The ledger's defaults are {participle} `{script}`, not set in this skill."
    assert severe(_plugin(fresh_root(tmp_path, "h"), _helper(sentence)), "SF116") == []
    # Told to do it: the error stays.
    told = f"Check that the defaults are {participle} `{script}`."
    assert severe(_plugin(fresh_root(tmp_path, "h"), _helper(told)), "SF116") == [
        ("SKILL.md", 10, "error")]


_VERBS = st.sampled_from(["Uses", "Reads", "Loads", "Also consults", "Follows", "Relies on",
                          "Applies"])
_HEADS = st.sampled_from(["`ledger:auditor`", "`close-checker`", "**`ledger:sampler`**",
                          "`reviewer` agent", "`ledger:auditor` (Opus)"])
_DOCS = st.sampled_from(["references/audit-checklist.md", "references/sampling-rules.md",
                         "assets/scorecard.md", "references/deps/evaluation.md"])


@_SETTINGS
@given(verb=_VERBS, head=_HEADS, doc=_DOCS)
def test_property_a_row_about_another_component_is_soft(tmp_path, verb, head, doc):
    body = _related(head, f"{verb} `{doc}` for its pass.")
    assert severe(make_skill(fresh_root(tmp_path, "h"), body, _REF, name="journal"), "SF116") == []


@_SETTINGS
@given(instruction=st.sampled_from(["Read", "See", "Open", "Load", "Check", "Consult",
                                    "Use", "Then read"]),
       head=_HEADS, doc=_DOCS)
def test_property_a_row_telling_the_agent_to_read_stays_severe(tmp_path, instruction, head,
                                                               doc):
    body = _related(head, f"{instruction} `{doc}` for its pass.")
    assert severe(make_skill(fresh_root(tmp_path, "h"), body, _REF, name="journal"), "SF116") == [
        ("SKILL.md", 14, "error")]
