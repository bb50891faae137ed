"""Readings from the eighteenth held-out part of issue 36: a project skill whose paths are
written from the repository's top (SF301, SF116).

A skill kept in a repository's own `.claude/skills/<name>/` runs with the repository's top
as its working folder. When its text names files in folders it does not have
(`rota/config/staff.json`, `.claude/skills/other/notes.md`: paths read from that top) and
it has no `scripts/` folder of its own, its `python3 scripts/x.py` is the repository's
script too. With the top on disk (it holds `.git`) the script is looked up there; a copied
skill whose top cannot be checked gets a warning naming the assumption.

Every skill text here is written for this file; the reading failed before it was added, and
each twin (one path from the top, a skill outside an agent folder, a skill with its own
`scripts/`, a checked top without the script) keeps the missing script an error.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_TEMPLATE = {"templates/plan.md": "plan\n"}

_ROTA = """\
# Shift planner

Plan next week's shifts for the shop floor.

1. Read `rota/config/staff.json` and `rota/state/leave.md`.
2. Fetch the logged hours:

   ```bash
   python3 scripts/rota/fetch_hours.py --week next
   ```

3. Write `rota/out/week-plan.md` from `templates/plan.md`.
4. When the manager approves, publish it with `scripts/rota/publish.py`.
"""


def _project(tmp_path, body=_ROTA, files=_TEMPLATE, where=(".claude", "skills")):
    return make_skill(tmp_path.joinpath("repo", *where), body, files, name="shift-planner")


def test_a_project_skill_with_paths_from_the_top_runs_the_repositorys_scripts(tmp_path):
    skill = _project(tmp_path)
    # A copy: the top cannot be checked, so a warning that names the assumption.
    assert found(skill, "SF301") == [("SKILL.md", 14, "warning")]
    assert found(skill, "SF116") == [("SKILL.md", 18, "warning")]


def test_a_checked_top_decides(tmp_path):
    skill = _project(tmp_path)
    (tmp_path / "repo" / ".git").mkdir()
    assert severe(skill, "SF301") == [("SKILL.md", 14, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 18, "error")]
    for name in ("fetch_hours.py", "publish.py"):
        script = tmp_path / "repo" / "scripts" / "rota" / name
        script.parent.mkdir(parents=True, exist_ok=True)
        script.write_text("print('ok')\n")
    assert found(skill, "SF301") == []
    assert severe(skill, "SF116") == []


def test_another_skills_path_from_the_top_counts_too(tmp_path):
    body = _ROTA.replace("`rota/state/leave.md`",
                         "`.claude/skills/payroll/knowledge/rules.md`").replace(
                         "Write `rota/out/week-plan.md`", "Write the plan")
    skill = _project(tmp_path, body)
    assert found(skill, "SF301") == [("SKILL.md", 14, "warning")]


def test_one_path_from_the_top_is_not_enough(tmp_path):
    body = _ROTA.replace(" and `rota/state/leave.md`", "").replace(
        "Write `rota/out/week-plan.md`", "Write the plan")
    skill = _project(tmp_path, body)
    assert severe(skill, "SF301") == [("SKILL.md", 14, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 18, "error")]


def test_a_skill_outside_an_agent_folder_or_with_its_own_scripts_stays_an_error(tmp_path):
    skill = _project(tmp_path / "a", where=("skills",))
    assert severe(skill, "SF301") == [("SKILL.md", 14, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 18, "error")]
    own = {**_TEMPLATE, "scripts/rota/fetch_hour.py": "print('ok')\n"}
    skill = _project(tmp_path / "b", files=own)
    assert severe(skill, "SF301") == [("SKILL.md", 14, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 18, "error")]


def test_a_missing_reference_of_such_a_skill_stays_an_error(tmp_path):
    body = _ROTA.replace("3. Write `rota/out/week-plan.md` from `templates/plan.md`.",
                         "3. Read `references/policy.md`, then write `rota/out/week-plan.md`.")
    skill = _project(tmp_path, body)
    # Only its `scripts/` runs are read from the top: its own missing reference is an error.
    assert found(skill, "SF116") == [("SKILL.md", 17, "error"), ("SKILL.md", 18, "warning")]
