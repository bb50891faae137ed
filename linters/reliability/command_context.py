"""Is a command in SKILL.md one the skill tells the agent to run with its own scripts? (SF301)

A command naming a script the skill lacks is a broken instruction only when the text
presents it as one. Issue 36 found it wrong 2 times in 3 on skills nobody here had read, for
two reasons besides folder variables (`command_dirs`):

- it is shown as a thing not to do: a block after "Do not run this on production:" or
  "Bad:", a line after a `# Wrong` comment in its block, a command after "NEVER:", the
  commands of a "Don'ts" or "Common mistakes" section;
- it runs in the user's project, which is the agent's working folder: "run the project's
  tests with `./scripts/test.sh`", a block after "From the repository root:", a section
  "Run the project's checks", a block whose comment or lead-in opens by naming the
  repository it runs in ("# From homelab repo on the host:"; holdout 31); or it is a
  checklist item's criterion, "- [ ] `./scripts/test.sh -v` passes", met by the work under
  review;
- its own sentence tells the agent not to use it: "`uv run scripts/setup.py` is
  interactive, so do not rely on it for unattended runs".

Inline code shown as an example ("e.g. `./scripts/x.sh`") is `Paragraph.counter_example`'s
business. These readings run only for a script that is missing, so their cost is paid where
a finding is at stake.
"""

from __future__ import annotations

import re

from linters.reliability.commands import Command
from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import CLAUSE_CUT, Paragraph
from linters.text.sections import section_title
from linters.text.table_cells import cell_at

# In the last clause of a block's lead-in ("Do not run this on production:", "❌ Avoid:");
# only the last clause, so "If it fails, don't retry by hand; run:" still leads to a command.
# Not a reminder that asks for the step ("Don't forget to run:", "Never skip this check:").
_NEGATION = rx(
    r"\b(?:(?:never|don['’]?t|do\s+not|must\s+not|should\s+not|shouldn['’]t)\b"
    r"(?!\s+(?:forget|skip|omit|neglect|miss|overlook)\b)"
    r"|(?:avoid|bad|wrong|incorrect|anti-?pattern)\b)|[✗❌🚫]",
    re.IGNORECASE,
)
_LAST_CLAUSE = rx(r"[.;!?,](?:\s|$)")
# A comment opening with a negation (`# Wrong: deletes the logs`, `# never allow:`), not
# one that merely holds the word (`# don't forget to rotate first`).
_NEGATION_COMMENT = rx(
    r"^#+\s*(?:[✗❌🚫]|(?:never|don['’]?t|do\s+not|avoid|bad|wrong|incorrect)\b"
    r"(?!\s+(?:forget|skip|omit|neglect|miss|overlook)\b))",
    re.IGNORECASE,
)
# Inline code after a bare label: "NEVER: `./scripts/wipe.sh`", "❌ Bad - `...`".
_NEGATION_LABEL = rx(
    r"^\W*(?:never|don['’]?t|do\s+not|avoid|bad|wrong|incorrect|[✗❌🚫])\W*$",
    re.IGNORECASE,
)
# A section of things not to do.
_NOT_TO_DO_HEADING = rx(
    r"^\W*(?:(?:common\s+)?(?:mistakes|pitfalls)\b|don['’]?ts\b|what\s+not\s+to\s+do"
    r"|anti-?patterns?\b|never\b|avoid\b|forbidden\b|prohibited\b|bad\s+(?:examples?|practices?)\b)",
    re.IGNORECASE,
)
# Words that say a path belongs to the user's project: "the project's tests", "in the user's
# repository", "from the repo root", "your codebase", "project-local validators". Not "the
# project" alone nor "the project's dependencies": a skill's `scripts/audit_deps.py` that
# reads "the project's dependencies" is the skill's own.
_PROJECT_OWNED = rx(
    r"\b(?:project|repo|repository|codebase|app|application)['’]s\s+(?:own\s+)?"
    r"(?:tests?|test\s+suite|scripts?|build|checks?|lint\w*|ci|tooling|tools|commands?"
    r"|makefile|tasks?|setup|hooks?)\b"
    r"|\b(?:in|inside|within|from|at)\s+(?:the\s+user['’]s\s+|your\s+|their\s+|the\s+)"
    r"(?:own\s+)?(?:project|repo|repository|codebase|workspace|monorepo)\b"
    r"|\b(?:project|repo|repository)\s+root\b"
    # "Use project-local validators:", "prefer repo-local scripts"
    r"|\b(?:project|repo|repository|workspace)[-\s]local\b"
    r"|\b(?:user['’]s|your)\s+(?:own\s+)?(?:project|repo|repository|codebase)\b",
    re.IGNORECASE,
)
# A comment or lead-in that opens by placing the block in a repository or project it names:
# "# From homelab repo on the host:", "In the api-server repository:" (the words above need "the
# repo", "the project's"). Not a skills repository, which may well be the skill's own, nor
# "in a new project", where the skill's own script may set one up.
_PLACED_IN = rx(
    r"^[#\s]*(?:run\s+(?:this\s+|these\s+|it\s+)?)?(?:from|in|inside|within|at)\s+"
    r"(?:the\s+|your\s+|our\s+|this\s+)?"
    r"(?:(?!(?:skills?|a|an|any|each|every|another|some|new|fresh|empty)\b)[\w.-]+\s+){0,2}"
    r"(?:repo(?:sitory)?|monorepo|checkout|project|codebase)\b",
    re.IGNORECASE,
)
# ...unless the same words say the script is the skill's ("with the bundled script").
_SKILL_OWNED = rx(
    r"\b(?:bundled|(?:this|the)\s+skill['’]s|skill['’]s\s+own|ships?\s+with)\b", re.IGNORECASE
)
# In a section of things not to do, what offers the right way instead: "Don't call `bl`
# directly - always `./scripts/bl`", "Instead, run:".
_RIGHT_WAY = rx(r"\b(?:always|instead|prefer|correct|right)\b", re.IGNORECASE)
# A checklist item opened by a command that it says passes: "- [ ] `./scripts/test.sh -v`
# passes (syntax, imports)" in a review checklist is a criterion for the repository under
# review, not a run of the skill's own script.
_CHECKBOX = rx(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+\[[ xX]\]\s+(?:\*\*|__)?`*$")
_VERDICT = rx(
    r"(?:\*\*|__)?\s+(?:still\s+)?(?:pass(?:es)?|succeeds?|is\s+green|runs?\s+(?:clean(?:ly)?"
    r"|green|without\s+(?:errors?|failures?))|(?:exits?|returns?)\s+(?:with\s+)?(?:0|zero)"
    r"|(?:reports?|shows?|gives?)\s+no\s+(?:errors?|failures?|warnings?|issues?))\b",
    re.IGNORECASE,
)
# After the inline command, its own sentence tells the agent not to use it: "`uv run
# scripts/setup.py` is interactive, so do not rely on it for unattended runs". Not "never
# run it without a token" nor "don't run it twice": those still send the agent to it.
_NOT_TO_USE_IT = rx(
    r"\b(?:never|don['’]?t|do\s+not|must\s+not|should\s+not|shouldn['’]t)\s+(?:rely\s+on"
    r"|use|run|call|invoke|execute|depend\s+on)\s+(?:it|this|that)\b"
    r"(?!\s+(?:without|unless|until|before|after|twice|again|directly|outside|as\s|with\s))",
    re.IGNORECASE,
)
_LEAD_IN_REACH = 3  # prose lines before a fence read as its lead-in
# A table column of settings' values, and one of what to run: what its header calls it.
_VALUE_COLUMN = rx(r"^\W*(?:default(?:\s+values?)?|values?|fallback)\W*$", re.IGNORECASE)
_RUN_COLUMN = rx(r"\b(?:commands?|cmd|run|usage|scripts?|invo(?:ke|cation)|execute|call|how"
                 r"|actions?|steps?)\b",
                 re.IGNORECASE)
# A row naming an environment variable: its first cell is one (`TEMPLATE_DIR`), or the
# header's first column says the rows are variables.
_ENV_NAME = rx(r"^\W*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\W*$")
# ("Environment" alone is not: a table of environments may well say what to run in each.)
_VARIABLES_COLUMN = rx(r"\b(?:variables?|env(?:ironment)?[\s_-]+var(?:iable)?s?)\b",
                       re.IGNORECASE)


def not_the_skills_run(doc: MarkdownDoc, cmd: Command) -> bool:
    """The text shows `cmd` as a thing not to do, or as a run in the user's project."""
    title = section_title(doc, cmd.line)
    if title and _project_owned(title):
        return True
    not_to_do = bool(title and _NOT_TO_DO_HEADING.search(title))
    if cmd.inline:
        return _inline(doc, cmd, not_to_do)
    if _comment_says(doc, cmd):
        return True
    said = lead_in(doc, cmd.block)
    if not_to_do:
        sentence = _last_sentence(said)
        return not _RIGHT_WAY.search(sentence) or bool(_NEGATION.search(_last_clause(said)))
    sentence = _last_sentence(said)
    return bool(_NEGATION.search(_last_clause(said)) or _project_owned(sentence)
                or _placed_in_project(sentence))


def _inline(doc: MarkdownDoc, cmd: Command, not_to_do: bool) -> bool:
    idx = cmd.line - doc.first_line
    if not 0 <= idx < len(doc.lines):
        return False
    if _criterion(doc.lines[idx], cmd.column) or _setting_value(doc, cmd):
        return True
    para = Paragraph(doc, idx)
    offset = para.offset_of(idx, cmd.column)
    start, end = para.sentence(offset)
    before = para.text[start:offset]
    if not_to_do:
        clause = CLAUSE_CUT.split(before)[-1]
        return not _RIGHT_WAY.search(clause) or bool(_NEGATION.search(clause))
    return bool(_project_owned(para.text[start:end]) or _NEGATION_LABEL.match(before)
                or _NOT_TO_USE_IT.search(para.text, offset, end))


def _criterion(line: str, column: int) -> bool:
    """The inline code at `column` of `line` opens a checklist item that says it passes
    (`- [ ] `./scripts/test.sh -v` passes`): a criterion the work under review meets."""
    before, rest = line[:max(column - 1, 0)], line[max(column - 1, 0):].lstrip("`")
    close = rest.find("`")
    return bool(_CHECKBOX.match(before) and close >= 0
                and _VERDICT.match(rest[close:].lstrip("`")))


def _setting_value(doc: MarkdownDoc, cmd: Command) -> bool:
    """The inline command is a table cell that holds a setting's value: its column is a
    "Default" or "Value" one, or its row names an environment variable and its column is
    not one of commands to run."""
    cell = cell_at(doc, cmd.line, cmd.column)
    if cell is None or cell.index == 0:
        return False
    if _VALUE_COLUMN.match(cell.heading):
        return True
    if _RUN_COLUMN.search(cell.heading):
        return False
    return bool(_ENV_NAME.match(cell.row[0])
                or (cell.header and _VARIABLES_COLUMN.search(cell.header[0])))


def _comment_says(doc: MarkdownDoc, cmd: Command) -> bool:
    """The nearest comment above the command in its block, with no blank line between,
    says not to run it or that it runs in the user's project."""
    first = doc.first_line
    for no in range(cmd.line - 1, cmd.block, -1):
        line = doc.lines[no - first].strip() if 0 <= no - first < len(doc.lines) else ""
        if not line:
            return False
        if line.startswith("#") and not line.startswith("#!"):
            return bool(_NEGATION_COMMENT.match(line) or _project_owned(line)
                        or _placed_in_project(line))
    return False


def lead_in(doc: MarkdownDoc, fence_line: int) -> str:
    """The prose right before a block ("Do not run this:", "From the repository root:"), up
    to a blank line, a heading or code ("" if none)."""
    first = doc.first_line
    i = fence_line - first - 1
    while i >= 0 and not doc.lines[i].strip():
        i -= 1
    lines: list[str] = []
    while i >= 0 and len(lines) < _LEAD_IN_REACH:
        line = doc.lines[i].strip()
        if not line or doc.is_code(i + first) or line.startswith("#"):
            break
        lines.append(line)
        i -= 1
    return " ".join(reversed(lines))


def _last_sentence(text: str) -> str:
    return re.split(r"[.!?](?:\s|$)", text.rstrip(".!? "))[-1]


def _last_clause(text: str) -> str:
    return _LAST_CLAUSE.split(text.rstrip(".,;!? "))[-1]


def _project_owned(text: str) -> bool:
    return bool(_PROJECT_OWNED.search(text)) and not _SKILL_OWNED.search(text)


def _placed_in_project(text: str) -> bool:
    """The text opens by saying the block runs in a repository or project it names."""
    return bool(_PLACED_IN.match(text)) and not _SKILL_OWNED.search(text)
