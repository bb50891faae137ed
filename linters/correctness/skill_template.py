"""A SKILL.md that is a scaffold to copy when writing a new skill (issue 36, holdout22): it
sits in a repository's `templates/` folder (or `template/`, `_template/`, `skeleton/`,
`scaffolds/`, `boilerplate/`, `skill-templates/`...) and its `name` is a placeholder
(`my-skill-name`, `skill-name`, `your-skill`, `SKILL_NAME`, `<skill-name>`). The repository
installs its skills from elsewhere; the author copies the folder, renames it and fills in the
name, so a `name` that differs from the template's own folder (SF110) is a warning there.

Both signals are needed, and they are these two:

- the folder is what says nothing installs the SKILL.md where it is, which is why the mismatch
  does no harm; a real name under `templates/` that differs from its folder (a skill the
  repository copies into projects under that name) keeps the error;
- the placeholder is what says the mismatch is an unfilled slot, not a misnamed skill;
  `my-skill-name` in an ordinary `skills/` folder keeps the error, even with a placeholder
  description ("One-line summary ... [trigger keywords]"): that is an unfinished skill the
  repository ships, and a placeholder description says nothing about where it is installed.

Only folders above the skill's own count, up to the repository's top (`.git`) and at most
`_TEMPLATE_DEPTH` of them; a skill folder named `template` or `_template` is already read as a
template by `linters.text.placement.unshipped_skill`. The template's other findings keep their
weight: an unknown key or a broken link is wrong in every copy made from it.
"""

from __future__ import annotations

import re
from pathlib import Path

from linters.text.compiled_regex import rx
from linters.text.paths.project_top import folders_up

# `my-skill-name`, `your-skill`, `new-skill`, `example-skill`, `skill-name`, `SKILL_NAME`,
# `my-new-skill`, `skill-template`, `template-skill`, and anything in brackets or braces
# (`<skill-name>`, `{{name}}` quoted, `[name]`). Not `my-great-skill`: a word of the author's.
# Not `linters.text.placement`'s list: that one makes every error a warning wherever the
# skill sits, and reads `your-anything` as a placeholder; here a word of the task
# (`your-pdf-forms`) makes the name real, since only SF110 is softened.
_PLACEHOLDER_NAME = rx(
    r"^(?:(?:my|your|new|example|sample)[-_]){0,2}skill(?:[-_]name)?$"
    r"|^(?:skill[-_])?template(?:[-_]skill)?$"
    r"|^(?:my|your|new)[-_]name$"
    r"|[<>{}\[\]]",
    re.IGNORECASE,
)
_TEMPLATE_FOLDER = rx(
    r"^[._]*(?:[a-z0-9]+[-_])?(?:templates?|skeletons?|scaffolds?|scaffolding|boilerplates?)$",
    re.IGNORECASE,
)
# Folders above the skill's own searched for the template folder: `templates/<t>/`,
# `templates/skills/<t>/`, `templates/.claude/skills/<t>/`.
_TEMPLATE_DEPTH = 3


def placeholder_name(name: str) -> bool:
    """`name` is a scaffold's placeholder (see `_PLACEHOLDER_NAME`)."""
    return _PLACEHOLDER_NAME.search(name.strip()) is not None


def template_folder(root: Path) -> str | None:
    """The template folder above the skill at `root` (`templates`), or None."""
    for folder in folders_up(root.resolve().parent, _TEMPLATE_DEPTH):
        if _TEMPLATE_FOLDER.match(folder.name):
            return folder.name
    return None


def skill_template(root: Path, name: str) -> str | None:
    """The template folder the skill at `root` sits in when its `name` is a placeholder: a
    scaffold to copy, not a skill to install; None otherwise."""
    return template_folder(root) if placeholder_name(name) else None
