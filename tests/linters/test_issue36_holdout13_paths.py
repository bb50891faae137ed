"""Readings from the thirteenth held-out part of issue 36: paths that are not the skill's.

- SF116: a path the words place inside an artefact the skill analyses ("The APK contains
  `assets/app.bundle`", "`etc/shadow` extracted from the firmware image") is where the file
  sits in that artefact, not a file of the skill;
- SF301: a command over a folder its comment calls the user's ("# from your rule set" over
  `python3 scripts/x.py rules/`) likely runs in the user's repository: a warning;
- SF301: a project skill (`<repo>/.claude/skills/<name>/`) about "this repo" runs from the
  repository's top: a script found there is no finding, one that cannot be checked (no
  `.git` above) a warning naming the assumption, one missing from a checked top an error.

Every skill text here is written for this file; each test failed before its reading, and
each has a twin where the skill's own missing file is still an error.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_REF = {"references/notes.md": "notes\n"}


def test_a_path_the_apk_contains_is_the_apks(tmp_path):
    body = """\
    # Unpacking hybrid apps

    ## When to use

    - The APK contains `assets/app.bundle` or `lib/arm64/libjsc.so`
    - `Payload/App.app/main.bundle` inside the IPA marks the same build
    """
    assert severe(make_skill(tmp_path, body, _REF), "SF116") == []


def test_a_file_extracted_from_a_firmware_image_is_the_images(tmp_path):
    body = """\
    # Router triage

    Read `assets/etc/rc.conf` extracted from the firmware image.

    Inside the JAR: `assets/META-INF/app.properties` names the entry point.
    """
    assert severe(make_skill(tmp_path, body, _REF), "SF116") == []


def test_the_skills_own_archive_or_a_tool_named_after_an_artefact_stays_the_skills(tmp_path):
    body = """\
    # Router triage

    The skill archive contains `references/layout.md`; read it first.

    Run `scripts/unpack.sh` from the firmware toolkit on each sample.

    Extract the APK, then read `references/apk-map.md`.
    """
    assert severe(make_skill(tmp_path, body, _REF), "SF116") == [
        ("SKILL.md", 8, "error"), ("SKILL.md", 10, "error"), ("SKILL.md", 12, "error")]


def test_a_command_over_the_users_folder_is_a_warning(tmp_path):
    body = """\
    # Alert tuning

    ## Coverage

    ```bash
    # Build the coverage layer from your detection set
    python3 scripts/to_layer.py detections/ > layer.json
    ```
    """
    skill = make_skill(tmp_path, body, _REF)
    assert found(skill, "SF301") == [("SKILL.md", 12, "warning")]


def test_a_command_over_a_folder_the_text_does_not_call_the_users_stays_an_error(tmp_path):
    body = """\
    # Alert tuning

    ## Coverage

    ```bash
    # Build the coverage layer from your detection set
    python3 scripts/to_layer.py samples/ > layer.json
    ```

    ```bash
    # Build the coverage layer
    python3 scripts/to_graph.py detections/ > graph.json
    ```
    """
    skill = make_skill(tmp_path, body, _REF)
    assert severe(skill, "SF301") == [("SKILL.md", 12, "error"), ("SKILL.md", 17, "error")]


_PROJECT_BODY = """\
# Adding a playbook

Use when adding a playbook to this repo.

## Check

Before a merge request:

```bash
python3 scripts/check_playbooks.py --all
```
"""


def test_a_project_skill_about_this_repo_runs_from_its_top_a_warning(tmp_path):
    skill = make_skill(tmp_path / "repo" / ".claude" / "skills", _PROJECT_BODY, _REF,
                       name="adding-playbooks")
    assert found(skill, "SF301") == [("SKILL.md", 15, "warning")]


def test_a_project_skill_whose_repo_has_the_script_has_no_finding(tmp_path):
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    (top / "scripts").mkdir()
    (top / "scripts" / "check_playbooks.py").write_text("print()\n", encoding="utf-8")
    skill = make_skill(top / ".agents" / "skills", _PROJECT_BODY, _REF,
                       name="adding-playbooks")
    assert found(skill, "SF301") == []


def test_a_project_skill_whose_checked_repo_lacks_the_script_stays_an_error(tmp_path):
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    skill = make_skill(top / ".claude" / "skills", _PROJECT_BODY, _REF,
                       name="adding-playbooks")
    assert severe(skill, "SF301") == [("SKILL.md", 15, "error")]


def test_a_project_skill_with_its_own_scripts_folder_or_no_repo_words_stays_an_error(tmp_path):
    skills = tmp_path / "repo" / ".claude" / "skills"
    own = make_skill(skills, _PROJECT_BODY, {"scripts/other.py": "print()\n"},
                     name="adding-playbooks")
    assert severe(own, "SF301") == [("SKILL.md", 15, "error")]
    body = _PROJECT_BODY.replace("to this repo", "to a notebook")
    vault = make_skill(skills, body, _REF, name="notebook-playbooks")
    assert severe(vault, "SF301") == [("SKILL.md", 15, "error")]
