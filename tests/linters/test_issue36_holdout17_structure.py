"""Issue 36, holdout17: two SKILL.md files that are no skill anyone installs.

- SF112: a fixture of a metadata checker, whose description opens by calling it a fixture and
  speaks of the metadata it holds or lacks ("Fixture skill with a stale manifest version."),
  carries the keys that checker reads: an unknown key there is a warning naming why. A
  fixture of anything else keeps its unknown keys as errors, and so does a skill that only
  talks about fixtures.
- SF110: skill-creator's frozen copy of a skill it improves (`<skill>-workspace/
  skill-snapshot/`) keeps the original's name by design: the mismatch is a warning. Any
  other folder named differently from `name` stays an error.
"""

from __future__ import annotations

from skillforge.models.findings import Severity
from tests.linters.correctness_skill import BODY, lint

_FIXTURE_BODY = "\n# release-notes-fixture\n\nInput of the release checker's tests.\n"


def _unknown_key(tmp_path, description: str, folder: str = "tests/fixtures/checker/stale"):
    name = folder.rsplit("/", 1)[-1]
    fm = f"name: {name}\ndescription: {description}\nreviewed-on: 2026-01-04\n"
    return [f for f in lint(tmp_path, "SF112", fm, _FIXTURE_BODY, folder=folder)
            if "`reviewed-on`" in f.message]


def test_a_fixture_of_a_metadata_checker_has_its_unknown_key_as_a_warning(tmp_path):
    [f] = _unknown_key(tmp_path, "Fixture skill whose manifest entry lists an older version.")
    assert f.severity is Severity.warning
    assert "fixture of its own metadata" in f.message
    assert '"Fixture skill whose manifest entry lists an older version."' in f.message
    assert "`reviewed-on` is what that checker reads" in f.message


def test_other_wordings_of_a_metadata_fixture(tmp_path):
    for i, description in enumerate((
        "A test fixture with complete frontmatter metadata.",
        "Skill fixture missing the schema fields the validator requires.",
        '"**Fixture skill** absent from manifest.yaml."',  # quoted: YAML reads `*` as an alias
    )):
        [f] = _unknown_key(tmp_path / str(i), description)
        assert f.severity is Severity.warning, description


def test_near_miss_a_fixture_of_something_else_keeps_the_error(tmp_path):
    # A fixture, but not of the metadata: its unknown key is still wrong in the file.
    [f] = _unknown_key(tmp_path, "Fixture skill. Exists only so the eval harness has a prompt "
                                 "set to grade.")
    assert f.severity is Severity.error


def test_near_miss_a_skill_about_fixtures_or_manifests_keeps_the_error(tmp_path):
    for i, description in enumerate((
        "Creates test fixtures from a package manifest. Use when writing tests.",
        "Checks that each skill's manifest version matches its changelog.",
    )):
        [f] = _unknown_key(tmp_path / str(i), description, folder="skills/manifest-check")
        assert f.severity is Severity.error, description


def test_a_skill_creator_snapshot_keeps_the_original_name_as_a_warning(tmp_path):
    fm = ("name: weekly-report\ndescription: Writes the weekly status report. Use when the "
          "user asks for the weekly report.\n")
    [f] = lint(tmp_path, "SF110", fm, BODY,
               folder="skills/weekly-report-workspace/skill-snapshot")
    assert f.severity is Severity.warning
    assert "frozen copy of the skill `weekly-report`" in f.message
    assert "skill-creator" in f.message


def test_near_miss_another_folder_named_differently_stays_an_error(tmp_path):
    fm = ("name: weekly-report\ndescription: Writes the weekly status report. Use when the "
          "user asks for the weekly report.\n")
    for i, folder in enumerate(("skills/weekly-report-workspace/report",
                                "skills/snapshot-tools")):
        [f] = lint(tmp_path / str(i), "SF110", fm, BODY, folder=folder)
        assert f.severity is Severity.error, folder
