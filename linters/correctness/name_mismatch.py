"""SF110's finding: `name` is not the folder's name. A plain mismatch is an error; the
category-prefixed naming scheme of a whole category folder (`skills/cloud/setup` named
`cloud-setup`, like its siblings) is a warning (issue 36, holdout9), and so is the mismatch of
a SKILL.md whose description says it is no skill to install (`not_installed.py`), and so is
the frozen copy skill-creator keeps of a skill it improves (`<skill>-workspace/skill-snapshot/`,
issue 36, holdout17): the copy keeps the original's name by design, and harnesses never load
the workspace. So is the placeholder name of a scaffold in a repository's `templates/`
folder (`skill_template.py`, issue 36, holdout22): copied and renamed, never installed
there. So is, for a skill its repository installs only into Claude Code
(`install_places.claude_code_install`: its README or install script says so and names no
other harness's place; issue 36, holdout19), a name that is the folder's name written with
Claude Code's namespace colon (`starwave:design` in `starwave-design/`): Claude Code registers
the skill under its `name`, and SF108 reports the colon itself. The repository's word is
needed, not the skill's place alone: a project skill in `.claude/skills/` named
`knowledge:add-repository` was read as true (holdout15) where its repository installs the same
skills for Codex and Cursor, which a copy of the skill folder cannot show. And so is the
mismatch of a SKILL.md a Claude Code plugin keeps outside the skills folders its manifest names
(`outside_plugin_skills.py`, issue 36, holdout27): no harness looks it up by its folder.
And so is a mismatch the repository's own catalogue of its skills gives (`registry_name.py`,
issue 36, holdout32): a `registry.json` at its top listing the skill's folder under the id
`name`, which the repository's own installer installs it under."""

from __future__ import annotations

import re

from linters.context import LintContext
from linters.correctness.not_installed import not_installed_sentence
from linters.correctness.outside_plugin_skills import outside_reason
from linters.correctness.registry_name import registry_listing
from linters.correctness.skill_template import skill_template
from linters.text.install_places import claude_code_install
from linters.text.paths.siblings import category_prefixed
from linters.text.compiled_regex import rx
from skillforge.models.findings import Finding, Severity

# skill-creator's snapshot of a skill before it is edited (`cp -r <skill-path>
# <workspace>/skill-snapshot/`), the baseline its evals run against.
_SNAPSHOT_FOLDER = rx(r"^skill[-_]snapshot$", re.IGNORECASE)


def name_mismatch(ctx: LintContext, value: str, folder: str, line: int) -> Finding:
    """SF110: `name` differs from the folder's name; a warning when the name is the
    category's scheme (`linters.text.paths.siblings.category_prefixed`)."""
    if category_prefixed(ctx.skill.root, value):
        # `skills/cloud/setup` named `cloud-setup`, as all its category is: installers that
        # copy a skill into a folder named after `name` give it the matching folder.
        return ctx.finding(
            "SF110",
            f"`name` is `{value}`, the category folder `{ctx.skill.root.resolve().parent.name}`"
            f" joined to the folder `{folder}`, as every skill of the category is named; "
            "installers that copy a skill into a folder named after `name` (`npx skills`) "
            "match it, but a harness loading the skill where it is finds the folder name, so "
            f"rename the folder to `{value}`.",
            line=line, severity=Severity.warning,
        )
    if _SNAPSHOT_FOLDER.match(folder):
        return ctx.finding(
            "SF110",
            f"`name` is `{value}` but the folder is `{folder}`, the frozen copy of the skill "
            f"`{value}` that skill-creator keeps in its workspace as the baseline of its evals; "
            "the copy keeps the original's name and no harness loads it from here, but if it is "
            "meant to be installed, rename one so they match.",
            line=line, severity=Severity.warning,
        )
    template = skill_template(ctx.skill.root, value)
    if template is not None:
        # A scaffold under `templates/`: copied, renamed and filled in, never installed here.
        return ctx.finding(
            "SF110",
            f"`name` is `{value}`, a placeholder, and the folder `{folder}` sits in "
            f"`{template}/`: a template to copy when writing a new skill, which no harness "
            "installs from there, and whose copy gets its own name; if it is meant to be "
            "installed, give it a real name and rename one so they match.",
            line=line, severity=Severity.warning,
        )
    said = not_installed_sentence(ctx.skill.description)
    if said is not None:
        # A fixture or a build script's prompt: nobody installs it under its folder's name.
        return ctx.finding(
            "SF110",
            f"`name` is `{value}` but the folder is `{folder}`; the description says this "
            f"SKILL.md is no skill to install (\"{said}\"), so no harness looks it up by its "
            "folder, but if it is ever installed, rename one so they match.",
            line=line, severity=Severity.warning,
        )
    installed = (claude_code_install(ctx.skill.root)
                 if ctx.config.target != "claude-ai" and _namespaced(value, folder) else None)
    if installed is not None:
        return ctx.finding(
            "SF110",
            f"`name` is `{value}`, the folder's name `{folder}` written with Claude Code's "
            "namespace colon. This skill's repository installs it only into Claude Code "
            f"({installed.where()}), which registers the skill under its `name`; other "
            "harnesses look a skill up by its folder and strict validators (the Agent Skills "
            f"spec) want the two equal, so name it `{folder}`.",
            line=line, severity=Severity.warning,
        )
    outside = outside_reason(ctx)
    if outside is not None:  # a plugin's non-skill file: no lookup by folder (holdout27)
        return ctx.finding(
            "SF110",
            f"`name` is `{value}` but the folder is `{folder}`; {outside}. If another tool "
            "installs it as a skill, rename one so they match.",
            line=line, severity=Severity.warning,
        )
    listed = registry_listing(ctx.skill.root, value)
    if listed is not None:  # the repository's own installer names it so (holdout32)
        return ctx.finding(
            "SF110",
            f"`name` is `{value}` but the folder is `{folder}`; the repository's own catalogue "
            f"lists this folder (`{listed.path}`) as `{value}` ({listed.where()}), so the "
            "copy its installer makes has a folder of that name; a harness loading the skill "
            f"where it is finds the folder `{folder}`, so rename the folder to `{value}` to "
            "make both equal.",
            line=line, severity=Severity.warning,
        )
    return ctx.finding(
        "SF110",
        f"`name` is `{value}` but the folder is `{folder}`; rename one so they match, since "
        "harnesses install and look up a skill by its folder name.",
        line=line,
    )


def _namespaced(value: str, folder: str) -> bool:
    """`value` is `folder` with a colon where the folder has a hyphen (`starwave:design` for
    `starwave-design`): the `namespace:skill` form Claude Code shows plugin skills in."""
    return ":" in value and value.replace(":", "-") == folder
