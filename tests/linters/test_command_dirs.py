"""SF301 follows where a command runs (issue 14): `cd` and folder variables in the same code
block, prose examples and counter-examples, and a nested skill running its enclosing skill's
scripts. Each case is a real-looking skill whose command was once reported as a missing
script although the file is where the command runs, or is not the skill's at all.
"""

from __future__ import annotations

from tests.linters.reliability_skill import fired, make_skill

CHECK_SH = {"scripts/check.sh": "#!/bin/sh\necho ok\n", "scripts/run.sh": "#!/bin/sh\necho run\n"}


def test_a_cd_into_the_users_project_moves_relative_paths_out_of_the_skill(tmp_path):
    skill = make_skill(tmp_path, """
        # Project checks

        ```bash
        cd ~/work/proj
        ./scripts/check.sh --all
        python3 tools/lint_changed.py
        ```

        Or in one line: `cd "$PROJECT_DIR" && ./scripts/release.sh --dry-run`.
    """, name="project-checks")
    assert fired(skill, "SF301") == []


def test_before_the_cd_and_in_the_next_block_paths_are_the_skills_again(tmp_path):
    skill = make_skill(tmp_path, """
        # Project checks

        ```bash
        ./scripts/prepare.sh
        cd ~/work/proj
        ./scripts/check.sh --all
        ```

        ```bash
        ./scripts/report.sh
        ```
    """, name="project-checks")
    assert sorted(f.line for f in fired(skill, "SF301")) == [9, 15]


def test_a_cd_into_the_skill_folder_keeps_paths_the_skills(tmp_path):
    skill = make_skill(tmp_path, """
        # Project checks

        ```bash
        cd ~/.claude/skills/project-checks
        ./scripts/check.sh
        ./scripts/missing.sh
        cd scripts && ./run.sh && ./gone.sh
        ```
    """, CHECK_SH, name="project-checks")
    found = fired(skill, "SF301")
    assert ["scripts/missing.sh" in f.message for f in found] == [True, False]
    assert "scripts/gone.sh" in found[1].message


def test_a_variable_set_to_the_skills_scripts_folder(tmp_path):
    skill = make_skill(tmp_path, """
        # Log triage

        ```bash
        SKILL_DIR="$HOME/.claude/skills/log-triage/scripts"
        bash "$SKILL_DIR/run.sh" /var/log/app.log
        bash "$SKILL_DIR/summarise.sh"
        ```
    """, {"scripts/run.sh": "#!/bin/sh\necho run\n"}, name="log-triage")
    [f] = fired(skill, "SF301")
    assert "scripts/summarise.sh" in f.message


def test_a_variable_set_elsewhere_is_not_the_skills(tmp_path):
    skill = make_skill(tmp_path, """
        # Log triage

        ```bash
        TOOLS_DIR="$(git rev-parse --show-toplevel)/tools"
        bash "$TOOLS_DIR/rotate.sh"
        SKILL_DIR=/opt/acme/log-triage
        bash "$SKILL_DIR/run.sh"
        ```
    """, name="log-triage")
    assert fired(skill, "SF301") == []


def test_prose_counter_examples_are_left_alone(tmp_path):
    skill = make_skill(tmp_path, """
        # Deploy

        1. Run `./scripts/check.sh` before every deploy.
        2. Never include tokens on the command line, e.g. `./scripts/deploy.sh --token abc123`.
        3. Don't run `./scripts/migrate.sh` on production by hand.
        4. Don't call `deploy` directly - always `./scripts/deploy_wrapper.sh`.
    """, CHECK_SH, name="deploy")
    [f] = fired(skill, "SF301")
    assert f.line == 11 and "scripts/deploy_wrapper.sh" in f.message


def test_a_nested_skill_runs_its_enclosing_skills_scripts(tmp_path):
    outer = make_skill(tmp_path, "# Video\n\nRun `uv run scripts/render_shot.py`.\n",
                       {"scripts/render_shot.py": "print('ok')\n"}, name="video")
    inner = make_skill(outer / "references", """
        # Video cast

        ```bash
        uv run scripts/render_shot.py --shot S01-001
        uv run scripts/not_anywhere.py
        ```
    """, name="video-cast")
    [f] = fired(inner, "SF301")
    assert "scripts/not_anywhere.py" in f.message
