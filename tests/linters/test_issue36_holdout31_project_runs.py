"""Readings from the thirty-first held-out part of issue 36: scripts a block names that are
not the skill's (SF301).

- A block whose own comment (or lead-in) opens by placing it in a repository or project it
  names ("# From homelab repo on the host:") runs that place's scripts: not reported, as
  "From the repository root:" was not. Twins stay errors: no comment, "# From this skill's
  folder:", "# In a new project:", "# From the skills repo:".
- A fence that lists files (a layout drawn as a tree, with notes after arrows) runs
  nothing: `scripts/bootstrap-host   ← first-run wrapper` under `roles/...` is one entry of
  the repository's layout. The note after the arrow had made the lone path a run with
  arguments. Twins stay errors: the same line alone in a `bash` fence, and a bare fence of
  two such lines with no folder line (two scripts run in turn).
- A block that runs a test suite in a tests folder the skill lacks (`pytest tests/unit`)
  is the check block of the project the skill works on: its `uv run scripts/lint.py` is
  that project's script, a warning that says so. Twins stay errors: the same scripts in a
  block with no suite (whether or not the skill has a `scripts/` of its own), a suite in a
  `tests/` the skill has, a runner with no tests folder, and a script whose name the skill
  has under another suffix (`scripts/lint.sh`: its own, misspelt).

Every skill text here is written for this file.
"""

from __future__ import annotations


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linters import lint_skill
from tests.linters.rule_findings import fresh_root, found, severe
from tests.linters.test_security import make_skill


def _line(skill, text: str) -> int:
    """The line of SKILL.md that holds `text`."""
    lines = (skill / "SKILL.md").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


# --- a comment that places the block in a named repository ------------------------------

_DNS = """\
# Home DNS

Point the workstation at the lab's resolver.

## Workstation

Run on the host, not inside a container:

```bash
{comment}bash scripts/apply-resolver.sh
```

Then check `resolvectl status`.
"""


def _dns(tmp_path, comment: str, files=None):
    body = _DNS.format(comment=f"{comment}\n" if comment else "")
    return make_skill(tmp_path, body, files, name="home-dns")


def test_a_comment_naming_the_repository_places_the_block_there(tmp_path):
    for i, comment in enumerate(("# From homelab repo on the host:",
                                 "# In the lab-config repository",
                                 "# from the infra checkout, as root")):
        assert found(_dns(tmp_path / str(i), comment), "SF301") == [], comment


def test_a_lead_in_naming_the_repository_places_the_block_there(tmp_path):
    body = _DNS.format(comment="").replace("Run on the host, not inside a container:",
                                           "From the homelab repository, on the host:")
    assert found(make_skill(tmp_path, body, name="home-dns"), "SF301") == []


def test_twins_without_such_a_comment_stay_errors(tmp_path):
    for i, comment in enumerate(("", "# From this skill's folder:", "# In a new project:",
                                 "# From the skills repo:", "# Apply the resolver")):
        skill = _dns(tmp_path / str(i), comment)
        assert severe(skill, "SF301") == [("SKILL.md", _line(skill, "bash scripts/"), "error")], \
            comment


# --- a fence that lists files -------------------------------------------------------------

_LAYOUT = """\
# Node access

Give a new machine SSH keys and a sudoers entry.

## Layout

```
roles/node-access/
  defaults/main.yml     ← key file and sudoers mode
  tasks/
    main.yml            ← includes keys + sudoers
{entry}
playbooks/node-access.yml
inventory/hosts.example ← copy to hosts
```

Run the playbook with `ansible-playbook playbooks/node-access.yml`.
"""


def test_an_annotated_entry_of_a_listing_is_no_run(tmp_path):
    skill = make_skill(tmp_path, _LAYOUT.format(entry="scripts/bootstrap-host   ← first-run wrapper"))
    assert found(skill, "SF301") == []


def test_a_listing_drawn_with_tree_characters_is_no_run(tmp_path):
    body = """\
# Node access

```
infra/
├── roles/node-access/
│   └── tasks/main.yml       # keys + sudoers
|-- scripts/bootstrap-host   <- first-run wrapper
`-- playbooks/node-access.yml
```
"""
    assert found(make_skill(tmp_path, body), "SF301") == []


def test_the_same_entry_as_a_command_stays_an_error(tmp_path):
    body = """\
# Node access

Set up a new node:

```bash
scripts/bootstrap-host   ← first-run wrapper
```
"""
    skill = make_skill(tmp_path / "a", body)
    assert severe(skill, "SF301") == [("SKILL.md", _line(skill, "scripts/bootstrap-host"), "error")]
    # Two scripts in a bare fence, no folder line: run in turn, not a listing.
    two = body.replace("```bash", "```").replace(
        "wrapper\n", "wrapper\nscripts/join-cluster.sh   ← then this\n")
    skill = make_skill(tmp_path / "b", two)
    assert [x[1] for x in severe(skill, "SF301")] == [
        _line(skill, "scripts/bootstrap-host"), _line(skill, "scripts/join-cluster.sh")]


def test_a_listing_with_a_command_in_it_is_commands(tmp_path):
    body = _LAYOUT.format(entry="bash scripts/bootstrap-host --first-run")
    skill = make_skill(tmp_path, body)
    assert severe(skill, "SF301") == [("SKILL.md", _line(skill, "bash scripts/"), "error")]


# --- a block that checks the project with its test suite ---------------------------------

_HOOKS = """\
# Turn hooks

Write hooks that run after each agent turn.

## Testing a hook

Run a hook against a saved history with `python scripts/try_hook.py --hook my_hooks.py:trim`.

### Before you open a pull request

The integration tests live in `tests/integration/hooks/`. Run checks after changes:

```bash
{block}
```
"""
_CHECKS = ("uv run scripts/lint.py --fix", "uv run scripts/typecheck.py", "pytest tests/unit")
_OWN = {"scripts/try_hook.py": "print('ok')\n"}


def _hooks(tmp_path, lines=_CHECKS, files=_OWN):
    return make_skill(tmp_path, _HOOKS.format(block="\n".join(lines)), files, name="turn-hooks")


def test_a_block_with_the_projects_test_suite_is_the_projects_check_block(tmp_path):
    skill = _hooks(tmp_path)
    assert found(skill, "SF301") == [("SKILL.md", _line(skill, "scripts/lint.py"), "warning"),
                                     ("SKILL.md", _line(skill, "scripts/typecheck.py"), "warning")]
    report = "\n".join(f.message for f in lint_skill(skill).findings if f.rule == "SF301")
    assert "its block runs `pytest tests/unit`, a test suite in a `tests/` the skill lacks" in report


def test_the_suite_may_come_first_or_through_a_runner(tmp_path):
    for i, suite in enumerate(("uv run pytest tests/unit -x", "python -m pytest ./tests",
                               "npx jest test/hooks")):
        skill = _hooks(tmp_path / str(i), (suite, *_CHECKS[:2]))
        assert severe(skill, "SF301") == [], suite


def test_twins_stay_errors(tmp_path):
    # No suite in the block, with and without a scripts/ of the skill's own.
    for i, files in enumerate((_OWN, None)):
        skill = _hooks(tmp_path / f"none{i}", _CHECKS[:2], files)
        lines = {x[1] for x in severe(skill, "SF301")}
        assert {_line(skill, "scripts/lint.py"), _line(skill, "scripts/typecheck.py")} <= lines
    # The skill's own tests/: the suite is its own.
    skill = _hooks(tmp_path / "tests", files={**_OWN, "tests/unit/test_trim.py": "pass\n"})
    assert len(severe(skill, "SF301")) == 2
    # A runner with no tests folder says nothing of the project.
    skill = _hooks(tmp_path / "bare", (*_CHECKS[:2], "pytest -q"))
    assert len(severe(skill, "SF301")) == 2
    # The skill has `scripts/lint.sh`: `scripts/lint.py` is its own, misspelt.
    skill = _hooks(tmp_path / "near", files={**_OWN, "scripts/lint.sh": "echo ok\n"})
    assert found(skill, "SF301") == [("SKILL.md", _line(skill, "scripts/lint.py"), "error"),
                                     ("SKILL.md", _line(skill, "scripts/typecheck.py"), "warning")]


def test_the_skills_own_validator_with_no_sign_of_a_project_stays_an_error(tmp_path):
    body = """\
# Deck checker

Check a slide deck before it is sent:

```bash
uv run scripts/validate.py deck.pptx
```
"""
    skill = make_skill(tmp_path, body, _OWN)
    assert severe(skill, "SF301") == [("SKILL.md", _line(skill, "scripts/validate.py"), "error")]


# --- properties ---------------------------------------------------------------------------

_SETTINGS = settings(max_examples=15, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture])
_NAME = st.from_regex(r"[a-z]{3,8}(?:-[a-z]{3,8})?", fullmatch=True)
_RUNNERS = st.sampled_from(["pytest", "uv run pytest", "python -m pytest", "poetry run pytest",
                            "python3 -m pytest -q", "npx jest", "npx vitest run"])
_SUITES = st.sampled_from(["tests", "tests/unit", "./tests/integration", "test/", "spec/models",
                           "__tests__"])



@_SETTINGS
@given(script=_NAME, runner=_RUNNERS, suite=_SUITES, first=st.booleans())
def test_property_a_project_check_block_is_a_warning_and_its_twin_an_error(
        tmp_path, script, runner, suite, first):
    root = fresh_root(tmp_path)
    run, check = f"uv run scripts/{script}.py", f"{runner} {suite}"
    lines = (check, run) if first else (run, check)
    soft = _hooks(root / "soft", lines)
    assert severe(soft, "SF301") == []
    assert [x[2] for x in found(soft, "SF301")] == ["warning"]
    # Twins: no suite in the block; the suite's folder is the skill's own.
    assert len(severe(_hooks(root / "alone", (run,)), "SF301")) == 1
    folder = suite.removeprefix("./").split("/")[0]
    owned = _hooks(root / "owned", lines, {**_OWN, f"{folder}/test_x.py": "pass\n"})
    assert len(severe(owned, "SF301")) == 1


_DRAW = st.sampled_from(["  ", "├── ", "│   └── ", "|-- ", "`-- ", "    "])
_NOTE = st.sampled_from(["", "   ← setup wrapper", "  <- first run", "  # entry point",
                         "  → installs the agent"])


@_SETTINGS
@given(folders=st.lists(_NAME, min_size=1, max_size=3), draw=_DRAW, note=_NOTE, script=_NAME)
def test_property_a_listing_runs_nothing_and_a_command_block_does(
        tmp_path, folders, draw, note, script):
    root = fresh_root(tmp_path)
    entries = [f"{draw}{f}/" for f in folders] + [f"{draw}scripts/{script}{note}"]
    body = "# Layout\n\n```\nrepo/\n" + "\n".join(entries) + "\n```\n"
    assert found(make_skill(root / "listing", body), "SF301") == []
    # Twin: the same script as a command in a shell block stays an error.
    command = f"# Setup\n\n```bash\nbash scripts/{script}.sh --init\n```\n"
    assert len(severe(make_skill(root / "command", command), "SF301")) == 1
