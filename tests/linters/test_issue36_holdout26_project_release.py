"""Readings from the twenty-sixth held-out part of issue 36: a project skill with its own
`scripts/` that runs a script of the repository it is kept in (SF301, SF116).

A skill in a repository's `.claude/skills/<name>/` runs with the repository's top as its
working folder. A pre-release gate ships its own checker (`scripts/gate_check.py`) and, as
the step after it, names the repository's `./scripts/publish.sh`. When the checked-out
repository holds `scripts/publish.sh` at its top, the run works: a warning that says where
the file is, not an error. Its twins keep the error: a copy (no top to look at), a top
without the script, a skill outside an agent folder, a skill with a script of nearly that
name (its own, misspelt), and a path written from the skill's folder variable.

Every skill text here is written for this file.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_GATE = """\
# Pre-release gate

Checks every package before a version is cut; it comes before `scripts/publish.sh`.

## Run the gate

```bash
python3 scripts/gate_check.py --all
```

## Where it sits in the release

```
/pre-release-gate     <- this skill
    |
./scripts/publish.sh 1.2.3   <- tags and publishes
```
"""
_OWN = {"scripts/gate_check.py": "print('ok')\n"}
_MENTION, _RUN = ("SKILL.md", 8), ("SKILL.md", 21)


def _repo(tmp_path, text=_GATE, where=(".claude", "skills"), files=None, git=True,
          script="scripts/publish.sh"):
    repo = tmp_path / "repo"
    skill = make_skill(repo.joinpath(*where), text, dict(_OWN, **(files or {})),
                       name="pre-release-gate")
    if git:
        (repo / ".git").mkdir(exist_ok=True)
    if script:
        (repo / script).parent.mkdir(parents=True, exist_ok=True)
        (repo / script).write_text("#!/bin/sh\necho publish\n")
    return skill


def _messages(skill, rule):
    return [f.message for f in lint_skill(skill, external=False).findings if f.rule == rule]


def test_the_repositorys_script_at_the_checked_top_is_a_warning(tmp_path):
    skill = _repo(tmp_path)
    assert found(skill, "SF301") == [(*_RUN, "warning")]
    assert found(skill, "SF116") == [(*_MENTION, "warning")]
    for rule in ("SF301", "SF116"):
        assert all("runs from the repository's top, where `scripts/publish.sh` is" in m
                   for m in _messages(skill, rule))


def test_each_agent_folder_reads_the_same(tmp_path):
    for agent in (".agents", ".codex", ".github"):
        skill = _repo(tmp_path / agent, where=(agent, "skills"))
        assert severe(skill, "SF301") == [], agent
        assert severe(skill, "SF116") == [], agent


def test_a_copy_without_the_repositorys_top_keeps_the_errors(tmp_path):
    skill = _repo(tmp_path, git=False, script=None)
    assert severe(skill, "SF301") == [(*_RUN, "error")]
    assert severe(skill, "SF116") == [(*_MENTION, "error")]


def test_a_top_without_the_script_keeps_the_errors(tmp_path):
    skill = _repo(tmp_path, script="scripts/other.sh")
    assert severe(skill, "SF301") == [(*_RUN, "error")]
    assert severe(skill, "SF116") == [(*_MENTION, "error")]


def test_a_skill_outside_an_agent_folder_keeps_the_errors(tmp_path):
    skill = _repo(tmp_path, where=("skills",))
    assert severe(skill, "SF301") == [(*_RUN, "error")]
    assert severe(skill, "SF116") == [(*_MENTION, "error")]


def test_a_script_of_nearly_that_name_makes_it_the_skills_own(tmp_path):
    # `scripts/publish_.sh` beside `gate_check.py`: its own publish script, misspelt.
    for own in ("scripts/publish_.sh", "scripts/Publish.py", "tools/publish.sh"):
        skill = _repo(tmp_path / own.replace("/", "-"), files={own: "echo mine\n"})
        assert severe(skill, "SF301") == [(*_RUN, "error")], own
        assert severe(skill, "SF116") == [(*_MENTION, "error")], own


def test_a_path_written_from_the_skills_folder_variable_keeps_the_errors(tmp_path):
    for var in ("${CLAUDE_SKILL_DIR}", "{baseDir}"):
        text = _GATE.replace("./scripts/publish.sh 1.2.3", f"{var}/scripts/publish.sh 1.2.3")
        skill = _repo(tmp_path / var.strip("${}"), text=text)
        assert severe(skill, "SF116") == [(*_MENTION, "error")], var
        assert severe(skill, "SF301") == [(*_RUN, "error")], var


def test_a_missing_reference_stays_an_error(tmp_path):
    # Only scripts: a reference the agent reads is looked up in the skill.
    text = _GATE + "\nRead `references/policy.md` first.\n"
    skill = _repo(tmp_path, text=text, files={"references/notes.md": "x\n"},
                  script="references/policy.md")
    assert ("SKILL.md", 24, "error") in severe(skill, "SF116")


_NAME = st.from_regex(r"[a-z]{3,8}(?:-[a-z]{3,8})?", fullmatch=True)


@settings(max_examples=examples(40), deadline=None)
@given(name=_NAME, at_top=st.booleans(), copied=st.booleans())
def test_a_missing_script_is_severe_unless_the_checked_top_holds_it(tmp_path_factory, name,
                                                                   at_top, copied):
    """Whatever the script is called: a warning exactly when the repository is on disk and
    holds it at its top; an error otherwise."""
    if name.replace("-", "") in ("gatecheck",):
        return
    tmp = tmp_path_factory.mktemp("gate")
    text = _GATE.replace("publish", name)
    skill = _repo(tmp, text=text, git=not copied,
                  script=f"scripts/{name}.sh" if at_top else None)
    want = "warning" if at_top else "error"
    assert [r[2] for r in found(skill, "SF301")] == [want]
    assert [r[2] for r in found(skill, "SF116")] == [want]
