"""Where a skill or a file sits says whether an agent is meant to follow it (issue 36).

A broken path or a misnamed skill is an error when an agent loads the skill and follows the
file. Some folders hold text no agent follows as written, and their errors are warnings
(still reported, never a gate failure on their own):

- a skill that is a template (its `name` is a placeholder such as `your-skill-name`, or its
  folder is `template`, `_template`, `template-skill`...) or an archived copy (under
  `backups/`, `archive/`, `deprecated/`, `deleted-*`), or a checker's fixture whose
  description calls it deliberately broken ("A deliberately unresolved router."): nobody
  installs it as it is;
- inside a skill, a file that is itself a template, an example or a sample
  (`templates/x.md`, `rules/_template.md`, `review-examples.md`: placeholder links, links
  relative to where the copy will live, or
  belonging to the example), vendored third-party text (`vendor/`,
  `third_party/`: its links point into its own repository), or a test fixture (`tests/`,
  `fixtures/`: broken on purpose, for a checker to find), or the author's task list
  (`TODO.md`, `todo.kb/`, `backlog/`: plans and work done, not instructions).

- a copy of a third-party document, credited at its top ("> Source: [art-of-readme](https://
  github.com/...)", "Adapted from ..."): its relative links point into the original's
  repository.

Script lint's errors in a function body of code under `assets/` or `templates/` are warnings
too: such code is handed over as output material, and a snippet that calls a stub to show a
flaw is not a crash of the skill (an error at module level, which breaks its import, stays).

Security findings are never softened this way: a payload in a template is still a payload.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from linters.text.compiled_regex import rx
from skillforge.models.skill import Skill

# A `name` nobody would ship: the scaffold's placeholder.
_PLACEHOLDER_NAME = rx(
    r"^(?:your[-_].*|my[-_]skill|skill[-_]name|example[-_]skill|sample[-_]skill|template"
    r"|new[-_]skill)$|[<>{}\[\]]",
    re.IGNORECASE,
)
# A description that calls the skill itself deliberately broken ("A deliberately unresolved
# router."): a checker's test fixture, broken on purpose. Only as the description's subject:
# "Finds deliberately broken links" describes a skill that works.
_FIXTURE_DESCRIPTION = rx(
    r"^\s*(?:(?:this\s+(?:skill\s+)?is\s+)?an?|this\s+skill\s+is)\s+(?:deliberately|intentionally"
    r"|purposely|purposefully)\s+(?:broken|unresolved|unresolvable|invalid|malformed|faulty"
    r"|failing|bad|wrong|incomplete|misconfigured)\b",
    re.IGNORECASE,
)
_TEMPLATE_FOLDER = rx(r"^_*(?:skill[-_])?templates?(?:[-_]skill)?$", re.IGNORECASE)
_ARCHIVE_FOLDER = rx(
    r"^(?:backups?|archived?|archives|deprecated|old[-_]skills|deleted(?:[-_].*)?)$",
    re.IGNORECASE,
)
# How far above the skill an archive folder is looked for (a repository's own layout:
# `backups/deleted-skills-2026/julien-x`, `skills/archive/x`).
_ARCHIVE_DEPTH = 3

_REFERENCE_ONLY_DIRS = {
    "vendor": "vendored third-party text",
    "vendored": "vendored third-party text",
    "third_party": "vendored third-party text",
    "third-party": "vendored third-party text",
    "node_modules": "vendored third-party text",
    "tests": "a test fixture",
    "test": "a test fixture",
    "fixtures": "a test fixture",
    "__fixtures__": "a test fixture",
    "templates": "a template",
    "template": "a template",
}
# `review-examples.md`, `readme-example-full.md`, `sample-output.md`. Not "template" in a
# name: docs mirrors hold pages about templates (`from-template.md`, `create-templates.md`).
_EXAMPLE_NAME = rx(r"(?:^|[-_.])(?:examples?|samples?)(?:[-_.]|$)", re.IGNORECASE)
# A file that is the template itself, by its whole name: `rules/_template.md`,
# `TEMPLATE.md` (the page a new rule is copied from, `[Link](url)` and all). Not a page about
# templates (`from-template.md`): only the bare word counts.
_TEMPLATE_FILE = rx(r"^_*templates?$", re.IGNORECASE)


def unshipped_skill(skill: Skill) -> str | None:
    """Why no agent loads this skill as it is (a template, an archived copy, a fixture its
    own description calls deliberately broken), or None."""
    name = skill.name or ""
    if name and _PLACEHOLDER_NAME.search(name):
        return f"the skill is a template (its name `{name}` is a placeholder)"
    m = _FIXTURE_DESCRIPTION.match(skill.description or "")
    if m:
        return f"the skill is a test fixture (its description: \"{m.group(0).strip()}\")"
    parts = skill.root.parts
    if parts and _TEMPLATE_FOLDER.match(parts[-1]):
        return f"the skill is a template (its folder is `{parts[-1]}`)"
    for part in parts[-1 - _ARCHIVE_DEPTH:-1]:
        if _ARCHIVE_FOLDER.match(part):
            return f"the skill is an archived copy (under `{part}/`)"
    return None


def reference_only_file(path: str) -> str | None:
    """Why the file at skill-relative `path` is not text the agent follows as written: a
    template, example or sample, vendored text or a test fixture; None for SKILL.md and
    the skill's own references."""
    p = PurePosixPath(path)
    if path == "SKILL.md":
        return None
    for part in p.parts[:-1]:
        why = _REFERENCE_ONLY_DIRS.get(part.lower())
        if why:
            return why
    if _EXAMPLE_NAME.search(p.stem):
        return "a template or example file"
    if _TEMPLATE_FILE.match(p.stem):
        return "a template for writing new files, whose links are placeholders"
    if any(_TASK_LIST.match(part) for part in p.parts):
        return ("the author's task list (to-do, backlog), whose paths record plans and work "
                "done, not files to follow")
    if _EVALUATION_NAME.match(p.stem):
        return ("an evaluation report of the skill, whose paths record what it had, lacks "
                "or might add")
    return None


# `TODO.md`, `.claude/todo.kb/2025-01-02-001-x.md`, `backlog/`: the author's task list; its
# items propose files not written yet or record work done on another skill's file.
_TASK_LIST = rx(r"^(?:to-?dos?|backlog)(?:\.(?:md|kb|d|txt))?$", re.IGNORECASE)


# `EVAL.md`, `evaluation-report.md`: a reviewer's report on the skill (scores, revision
# history, gaps to close), written for its maintainers; no agent follows it.
_EVALUATION_NAME = rx(r"^(?:evals?|evaluation)(?:[-_](?:report|results?|notes))?$",
                      re.IGNORECASE)


# The credit line of a copied document, among its first lines: "> Source: [x](https://...)",
# "Adapted from https://...", "Copied verbatim from [the guide](https://...)".
_CREDIT = rx(
    r"^\W{0,4}(?:\*\*)?(?:source|original|originally\s+(?:from|published\s+(?:at|in))"
    r"|adapted\s+from|copied\s+(?:verbatim\s+)?from|mirrored\s+from|taken\s+from"
    r"|reproduced\s+from)\b[^\n]{0,40}?(?:https?://|\]\(https?://)",
    re.IGNORECASE | re.MULTILINE,
)
_OPENING_CHARS = 600


def copied_document(text: str) -> bool:
    """The file opens by crediting where it was copied from (see the module docstring)."""
    return _CREDIT.search(text[:_OPENING_CHARS]) is not None


# A docs site's page copied from the browser keeps, on a line of its own before each heading,
# the zero-width space of the heading's anchor link: a few such lines mark a pasted page,
# whose links (and the example skills it shows, their code fences lost) are the site's.
_ZERO_WIDTH_LINE = rx(r"^[ \t]*\u200b[ \t]*$", re.MULTILINE)
_PASTED_MARKS = 3


def pasted_web_page(text: str) -> bool:
    """The file is a web page pasted as text (see above)."""
    return "\u200b" in text and len(_ZERO_WIDTH_LINE.findall(text)) >= _PASTED_MARKS


# A file whose opening presents it as a template to copy and adapt: its title ends with
# "Template" or its first paragraph says "this template" / "this file is a template", and the
# opening tells the reader to copy, adapt or customise it ("# Workflow Checklist Template /
# This template demonstrates ... Copy and adapt these checklists to your needs"). Its links
# are for the adapted copy. Not "# Email templates" listing the skill's own template files:
# no singular self-description.
_SELF_TEMPLATE = rx(
    r"^\s{0,3}#[^\n]*\btemplate\W*$"
    r"|\bthis\s+template\b"
    r"|\b(?:this|the\s+present)\s+(?:file|document|page|checklist|guide)\s+is\s+an?\s+"
    r"(?:[\w-]+\s+){0,2}template\b",
    re.IGNORECASE | re.MULTILINE,
)
_ADAPT = rx(r"\b(?:copy|adapt|customi[sz]e|tailor|fill\s+(?:it\s+)?(?:in|out))\b",
            re.IGNORECASE)


def template_document(text: str) -> bool:
    """The file's title and first paragraph present it as a template to copy and adapt."""
    opening = _opening(text)
    return bool(_SELF_TEMPLATE.search(opening) and _ADAPT.search(opening))


# A `{placeholder}` of a document template ("# {Library Name}", "[{License}](LICENSE)",
# "npm install {package-name}"): braces around a short name, standing alone, not an
# attribute's value (`src={splitClip}`), a URL's path parameter (`/keys/{id}`), a template
# engine's `{{x}}` or `${x}`.
_PLACEHOLDER = rx(r"(?<![{$\w=/])\{([A-Za-z][\w .,'-]{0,40})\}(?![}/])")
_FENCE = rx(r"^\s{0,3}(?:```|~~~)")
_CODE_SPAN = rx(r"`[^`\n]*`")
# Distinct placeholders that make a file a template: in the labelled corpus no file with a
# broken link labelled true has more than two; the README templates of a review skill have
# eleven to sixteen.
_TEMPLATE_PLACEHOLDERS = 5


def placeholder_template(text: str) -> bool:
    """The file's prose (outside code and HTML/JSX lines) holds several distinct
    `{placeholder}` names: a document template to fill in, whose links are the filled-in
    document's."""
    if "{" not in text:
        return False
    names: set[str] = set()
    in_fence = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or line.lstrip().startswith("<") or "{" not in line:
            continue
        names.update(m.group(1) for m in _PLACEHOLDER.finditer(_CODE_SPAN.sub("", line)))
        if len(names) >= _TEMPLATE_PLACEHOLDERS:
            return True
    return False


def _opening(text: str) -> str:
    """The title and the first paragraph after it (within the first characters)."""
    head = text[:_OPENING_CHARS].lstrip()
    if head.startswith("---"):  # front matter: skip it
        end = head.find("\n---", 3)
        head = head[end + 4:].lstrip() if end >= 0 else head
    blocks = [b for b in head.split("\n\n") if b.strip()]
    return "\n\n".join(blocks[:2])


def aside_file(path: str, text: str | None) -> str | None:
    """Why the file at `path` holding `text` is not text the agent follows as written: by
    its place or name (`reference_only_file`), or by its opening (a credited copy, a
    template to adapt); None for SKILL.md and the skill's own references."""
    why = reference_only_file(path)
    if why is not None or path == "SKILL.md" or not text:
        return why
    if copied_document(text):
        return "a copy of a third-party document (credited at its top)"
    if pasted_web_page(text):
        return ("a web page pasted as text (its headings' zero-width anchor marks kept), whose "
                "links and example files are the site's")
    if template_document(text):
        return ("a template to copy and adapt (so its opening says), whose links are for "
                "the adapted copy")
    if placeholder_template(text):
        return ("a document template full of `{placeholders}`, whose links are for the "
                "document filled in from it, in the user's project")
    return None


# Code the skill hands over rather than runs: sample and template files, often written to
# show a flaw ("VULNERABLE: ..." in an OWASP skill's assets/examples/).
# `assets/` is, in the Agent Skills spec, what goes into the output (templates, data);
# `examples/` may be code the agent is meant to reuse, so its errors stay errors.
_SAMPLE_CODE_DIRS = frozenset({"assets", "templates", "template"})


# A script named as a counter-example (`bad-bash.sh`, `vulnerable_login.py`, `script-bad.sh`)
# holds its flaws on purpose: a validator's or a reviewer's sample input, not code to run.
# Only the name's first or last word counts: `test_broken_pipe.py` is a test.
_COUNTER_EXAMPLE = rx(
    r"^(?:bad|broken|buggy|wrong|vulnerable|insecure|unsafe|anti[-_]?pattern)(?:[-_.]|$)"
    r"|[-_.](?:bad|buggy|vulnerable|insecure|unsafe|anti[-_]?pattern)$",
    re.IGNORECASE,
)


def sample_code(path: str) -> str | None:
    """Why a script at skill-relative `path` is sample code, not code the skill runs."""
    p = PurePosixPath(path)
    parts = p.parts
    if len(parts) > 1 and parts[0].lower() in _SAMPLE_CODE_DIRS:
        return f"it is sample code under {parts[0]}/, which the skill hands over, not runs"
    if len(parts) > 1 and parts[-2].lower() != "scripts" and _COUNTER_EXAMPLE.search(p.stem):
        return f"its name `{p.name}` marks it as a deliberately flawed sample"
    return None
