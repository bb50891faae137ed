"""SF116: a reference file's link written from the skill's root, the way the Agent Skills
spec words file references (`../flag-cleanup/SKILL.md` in `references/checklist.md`, as in
the skill's SKILL.md), that finds a sibling skill from there is a warning naming the path
that finds it from the file's folder, as a link to the skill's own file written from its
root already was. A link that finds nothing from either folder stays an error.

Found on the sixteenth held-out part of issue 36 (read as policy by both readers). Every
skill text here is written for this file; the first test failed before the reading, the
near misses pass before and after.
"""

from __future__ import annotations

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_BODY = """\
# Flag discovery

When a flag is ready to go, hand over to [flag cleanup](../flag-cleanup/SKILL.md).
Check [the checklist](references/checklist.md) first.
"""


def _skills(tmp_path, link: str, sibling: bool = True):
    checklist = f"# Checklist\n\n- [ ] Ready: hand over to [cleanup]({link}).\n"
    skill = make_skill(tmp_path, _BODY, {"references/checklist.md": checklist},
                       name="flag-discovery")
    if sibling:
        make_skill(tmp_path, "# Flag cleanup\n\nRemove the flag.\n", name="flag-cleanup")
    return skill


def test_a_link_written_from_the_skill_root_to_a_sibling_skill_is_a_warning(tmp_path):
    skill = _skills(tmp_path, "../flag-cleanup/SKILL.md")
    assert severe(skill, "SF116") == []
    assert found(skill, "SF116") == [("references/checklist.md", 3, "warning")]


def test_the_same_link_from_the_files_folder_is_no_finding(tmp_path):
    assert found(_skills(tmp_path, "../../flag-cleanup/SKILL.md"), "SF116") == []


def test_a_sibling_that_is_not_there_stays_an_error(tmp_path):
    skill = _skills(tmp_path, "../flag-cleanup/SKILL.md", sibling=False)
    assert ("references/checklist.md", 3, "error") in severe(skill, "SF116")


def test_a_sibling_file_the_sibling_lacks_stays_an_error(tmp_path):
    skill = _skills(tmp_path, "../flag-cleanup/references/steps.md")
    assert severe(skill, "SF116") == [("references/checklist.md", 3, "error")]


def test_a_climb_skill_md_never_uses_stays_an_error(tmp_path):
    """The file climbs one level too few to a sibling SKILL.md does not link: a miscount."""
    skill = _skills(tmp_path, "../flag-cleanup/SKILL.md")
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace("](../flag-cleanup/SKILL.md)", "](../../x.md)"))
    assert ("references/checklist.md", 3, "error") in severe(skill, "SF116")
