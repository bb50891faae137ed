"""The role of a text decides a security finding's weight (issue 36).

A security rule finds a pattern (`curl ... | sh`, "ignore previous instructions", `gh auth
token`). This module says what the text does with it, one decision for every rule:

- INSTRUCTION: the agent is told to do it: SKILL.md's body, a document the agent reads, a
  command block introduced as a step to run.
- SHIPPED: code the skill ships (scripts and the other non-Markdown files): it runs as written.
  A `.txt` with fenced blocks is a document in Markdown, read as one
  (`security_context.written_in_markdown`).
- ABOUT: text about the pattern: an example, a quotation, a catalogue of attacks, a "never do
  X", a symptom, defensive code that rejects the pattern or only checks that something exists,
  a record of what was produced (an agent's answer kept under `"agent_output"` in eval
  results, `linters.security.records`), a credential's path named in a printed message.

The first two keep the rule's severity and can fail the gate; ABOUT is reported as `info`,
its message saying why, so an author can still review it. Evidence is read nearest first:
the spot (a negation governing it, a "Bad:" label, a list of conditions it is an item of,
a deny-list under a lead-in that forbids its items, `linters.security.forbidding_lead`,
defensive code in `linters.security.code_evidence`), then what introduces it (a "Run:" lead-in or an
imperative sentence makes it a step under any heading; a lead-in about attacks makes it an
example), then the headings it sits under (a section, or a reference titled, for attacks,
red flags or detection; not SKILL.md's own title, since a security skill's body is still
its instructions). A file's name is never evidence: the same command in the same role
gets the same verdict in every file and every rule.

SF502 (invisible characters), SF503 (hidden comments) and SF511 (the `allowed-tools` grant)
do not ask: text nobody sees, and a policy stated in the frontmatter, have no visible role.
SF502's one exception is an example whose text says what its characters are
(`linters.security.explained_chars`): the reader is told, so it is a warning.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

from linters.security.attack_talk import (
    ATTACK_LINE,
    LEAD_TALK,
    Verdict,
    catalogue_text,
    negated,
    quoted,
    reported_at,
)
from linters.security.block_frame import (
    about_heading,
    block_label,
    detection_record,
    document_content,
    fence_of,
    lead_in,
    names_document,
    negative_example,
    output_sample,
    shell_string,
)
from linters.security.code_evidence import (
    comment_label,
    defensive_check,
    defensive_code,
    detector_cases,
    detector_input,
    existence_check,
    refused_in_test,
)
from linters.security.blocked_commands import named_as_blocked
from linters.security.forbidding_lead import forbidding_lead
from linters.security.guard_inputs import guard_input
from linters.text.compiled_regex import rx
from linters.security.imperative import NEGATION_WORDS, imperative, tells_to_run
from linters.security.offered_options import offered_to_users
from linters.security.printed_hints import message_mention
from linters.security.records import recorded_output
from linters.security.written_files import heredoc_data
from linters.security.table_columns import avoid_column, table_header
from linters.security.security_context import Line, SecurityText, in_inline_code, inline_span
from skillforge.models.findings import Severity


class Role(Enum):
    INSTRUCTION = "instruction"
    SHIPPED = "shipped code"
    ABOUT = "about"


class TextRole(NamedTuple):
    role: Role
    why: str = ""  # for ABOUT: the evidence, worded to follow "reported as info: ..."


_INSTRUCTION = TextRole(Role.INSTRUCTION)
_SHIPPED = TextRole(Role.SHIPPED)
_SAMPLE = TextRole(Role.ABOUT, "the skill's own text names the file as a test sample, not "
                               "to be followed")


def weigh(st: SecurityText, line: Line, start: int, default: Severity, end: int | None = None,
          *, reads: bool = False, secret: bool = False) -> Verdict:
    """The severity of a hit at (line, 0-based `start`): `default` for an instruction or
    shipped code, `info` with the reason for text about the pattern. `reads`: the hit reads
    a value (a credential), so a command whose output is thrown away only checks it exists.
    `secret`: the hit is a secret value, which leaks from a shell variable as from a step."""
    role = role_of(st, line, start, end, reads=reads, secret=secret)
    return Verdict(Severity.info, role.why) if role.role is Role.ABOUT else Verdict(default)


def role_of(st: SecurityText, line: Line, start: int, end: int | None = None, *,
            reads: bool = False, secret: bool = False) -> TextRole:
    """The role of the text at (line, 0-based `start`..`end`) of one file."""
    end = start if end is None else end
    if st.sample:
        return _SAMPLE
    # A key in a record is still leaked; any other pattern there is what was produced.
    why = None if secret else (recorded_output(st, line, start)
                                or detection_record(line, start, end))
    if why:
        return TextRole(Role.ABOUT, why)
    if not st.is_markdown:
        why = _code_evidence(st, line, start, reads)
        return TextRole(Role.ABOUT, why) if why else _SHIPPED
    if st.in_code(line):
        why = (negative_example(st, line) or _code_evidence(st, line, start, reads)
               or sample_string(st, line, start, end) or block_label(st, line)
               or (None if secret else shell_string(st, line, start) or heredoc_data(st, line)))
        if why:
            return TextRole(Role.ABOUT, why)
        step = introduced_as_step(st, line)
        if step is True:
            return _INSTRUCTION
        if step:
            return TextRole(Role.ABOUT, step)
        why = output_sample(st, line) or document_content(st, line)
        if why:
            return TextRole(Role.ABOUT, why)
    else:
        why = _prose_evidence(st, line, start, end) or (
            existence_check(inline_span(line, start)[1])
            if reads and in_inline_code(line, start) else None)
        if why:
            return TextRole(Role.ABOUT, why)
        why = _catalogue_table(st, line)
        if why:
            return TextRole(Role.ABOUT, why)
        if imperative(line, start):
            return _INSTRUCTION
        why = _table_evidence(st, line)
        if why:
            return TextRole(Role.ABOUT, why)
    title = about_heading(st, line)
    if title:
        return TextRole(Role.ABOUT, f'it is under the heading "{title[:50]}"')
    return _INSTRUCTION


# --- the spot in code -----------------------------------------------------------------------


def _code_evidence(st: SecurityText, line: Line, col: int, reads: bool) -> str | None:
    return (defensive_code(st, line, col) or defensive_check(st, line, col)
            or detector_input(line, col) or detector_cases(st, line, col)
            or refused_in_test(st, line, col) or guard_input(st, line, col)
            or (existence_check(st.logical(line).text) if reads else None)
            or (message_mention(st, line, col) if reads else None)
            or comment_label(st, line))


# Languages whose string literals are data: a phrase inside one is a value the sample code
# works on (documents a filter scores, a test input), not a command. Shell is left out: a
# quoted argument there is still run.
_DATA_LANGS = frozenset({"python", "py", "javascript", "js", "typescript", "ts", "jsx", "tsx",
                         "java", "go", "ruby", "rb", "rust", "rs", "csharp", "cs", "kotlin",
                         "swift", "php", "json", "jsonl", "yaml", "yml", "toml"})


def sample_string(st: SecurityText, line: Line, start: int, end: int) -> str | None:
    """Why a phrase in a code block of a programming language is data: it sits inside a
    string literal there (`documents = ["Ignore previous context and ..."]`)."""
    fence = fence_of(st, line)
    if fence is None or fence.lang.lower() not in _DATA_LANGS:
        return None
    if quoted(line, start, end) or line.text[:start].rstrip().endswith(("'", '"')):
        return f"it is a string in a {fence.lang} sample, data for the code"
    return None


# --- what introduces it ---------------------------------------------------------------------

def introduced_as_step(st: SecurityText, line: Line) -> bool | str:
    """Whether the code block holding `line` is introduced as a step to run (True), as an
    example of an attack or a pattern to look for (the lead-in, as evidence), or neither
    (False): the prose line just before it decides."""
    fence = fence_of(st, line)
    if fence is None:
        return False
    lead = lead_in(st, fence)
    if not lead:
        return False
    if (tells_to_run(lead) or _POSITIVE_LABEL.search(lead)) and not NEGATION_WORDS.search(lead) \
            and not names_document(lead):
        return True
    talk = LEAD_TALK.search(_outside_code(lead, 0, 0))
    if talk:
        return f'the line that introduces it talks about "{talk.group(0).strip()}"'
    return False


# A label that presents a block as the way to do it: "✅ **Do this**:", "Good:", "Correct:".
_POSITIVE_LABEL = rx(
    r"^\W*(?:\u2705|\u2714|good|correct|right|recommended|preferred|do\s+this|do\s*:|"
    r"instead)\b|^\W*\u2705", re.IGNORECASE)


# --- the spot in prose ----------------------------------------------------------------------

# "Never silently delete ...", "Do not pipe `curl` into `sh`": a negation in the clause that
# holds the spot, a few words before it. Words that flip "don't" into an instruction
# ("don't forget to", "don't hesitate") do not count.
_FORBIDS = rx(
    r"\b(?:never|don't|do\s+not|dont|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|"
    r"may\s+not|not\s+allowed\s+to|forbidden\s+to|refuse\s+to|no\s+skill\s+may|avoid(?:ing)?|"
    r"instead\s+of|rather\s+than|not\s+to|without)\b"
    # Chinese and Japanese prohibitions ("禁止执行破坏性命令（rm -rf / ...）").
    r"|禁止|不要|切勿|请勿|請勿|严禁|嚴禁|不得|不可|避免|してはいけない|しないで",
    re.IGNORECASE,
)
_NOT_A_PROHIBITION = rx(r"\b(?:hesitate|forget|fail|afraid|wait|stop|worry|mind)\b",
                        re.IGNORECASE)
_CLAUSE_END = rx(r"[,;:.!?()\u2014]|\s-\s|\bbut\b|\bthen\b|\band\b|\bjust\b", re.IGNORECASE)


def forbids(line: Line, start: int) -> str | None:
    """The negation that governs the spot at `start` ("Never run `rm -rf /`"), if any."""
    before = line.text[:start]
    cut = max((m.end() for m in _CLAUSE_END.finditer(before)), default=0)
    clause = before[cut:]
    m = None
    for m in _FORBIDS.finditer(clause):
        pass
    if m is None:
        return None
    after = clause[m.end():]
    if len(after.split()) > 5 or _NOT_A_PROHIBITION.search(after):
        return None
    return m.group(0).strip()


# An inline command as the subject of a sentence that describes it: "`curl ... | bash` is a
# clean installer: it fetches a manifest and verifies a checksum".
_DESCRIBED = rx(r"^`\s*(?:is|was|are|does|did|fetches|downloads|verifies|checks|installs\s+by)\b",
                re.IGNORECASE)


def _prose_evidence(st: SecurityText, line: Line, start: int, end: int) -> str | None:
    negation = forbids(line, start)
    if negation:
        return f'the sentence forbids it ("{negation} ...")'
    column = avoid_column(st, line, start)
    if column:
        return f'it is in the "{column}" column of a table, what not to do'
    blocked = named_as_blocked(st, line, start)
    if blocked:
        return blocked
    if in_inline_code(line, start):
        span_start, span = inline_span(line, start)
        if _DESCRIBED.match(line.text[span_start + len(span):]) and \
                not line.text[:span_start - 1].strip(" -*>0123456789.)"):
            return "the sentence describes the command, it does not run it"
    example = _parenthetical_example(line.text, start)
    if example and not imperative(line, start):
        return f'it is an example in parentheses ("{example}")'
    lead = _list_lead(st, line)
    if lead and (_CONDITION.match(lead) or LEAD_TALK.search(_outside_code(lead, 0, 0))):
        return f'it is an item of a list introduced by "{lead.strip("*_ ")[:40]}"'
    deny_lead = _forbidding_list(st, line) if lead else None
    if deny_lead:
        return (f'it is an item of a list of what must never be done, introduced by '
                f'"{deny_lead.strip("*_ ")[:50]}"')
    shown = quoted(line, start, end) or st.is_table_row(line)
    if shown and negated(line, start):
        return "it is quoted after a warning"
    if reported_at(st, line, start, end):
        return "it quotes what another text says"
    talk = ATTACK_LINE.search(_outside_code(line.text, start, end))
    if talk and not imperative(line, start):
        return f'the sentence talks about it ("{talk.group(0).strip()}")'
    return None


# "(`~/.aws/credentials`, etc.)", "(e.g. `curl ... | sh`)": the spot is one case of a kind
# the sentence talks about, named in a parenthesis that says it is an example.
_EXAMPLE_MARK = rx(r"\b(?:etc|e\.\s?g|for\s+example|for\s+instance|such\s+as|"
                   r"like)\b\.?", re.IGNORECASE)


def _parenthetical_example(text: str, start: int) -> str | None:
    """The example mark of the parenthesis holding 0-based `start`, if it has one."""
    opened = text.rfind("(", 0, start)
    if opened < 0 or text.rfind(")", opened, start) >= 0:
        return None
    closed = text.find(")", start)
    if closed < 0:
        return None
    inner = text[opened + 1 : closed]
    mark = _EXAMPLE_MARK.search(re.sub(r"`[^`]*`", " ", inner))
    return mark.group(0) if mark else None


_LIST_ITEM = rx(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
# A list of conditions ("If the script is about to:", "When a page asks you to:") lists
# what to notice, not what to do.
_CONDITION = rx(r"^\W*(?:if|when|whenever|unless|in\s+case|watch\s+(?:out\s+)?for|"
                r"look\s+(?:out\s+)?for|stop\s+(?:if|when)|signs?\s+that)\b", re.IGNORECASE)


def _list_lead(st: SecurityText, line: Line) -> str | None:
    """The prose line that introduces the list `line` is an item of (None off a list)."""
    lead = _list_lead_line(st, line)
    return lead.text.strip() if lead is not None else None


def _list_lead_line(st: SecurityText, line: Line) -> Line | None:
    if not _LIST_ITEM.match(line.text):
        return None
    cur: Line | None = line
    for _ in range(40):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is None:
            return None
        text = cur.text
        if not text.strip() or _LIST_ITEM.match(text) or text[:1] in " \t":
            continue  # blank lines, other items and their continuation lines
        return None if text.lstrip().startswith(("#", "|", "```", "~~~")) else cur
    return None


def _forbidding_list(st: SecurityText, line: Line) -> str | None:
    """The lead-in of the list `line` is an item of, when it forbids the list's items."""
    lead = _list_lead_line(st, line)
    if lead is None:
        return None
    paragraph = [cur.text for cur in reversed(list(st.run_from(lead, -1, 4)))] + [lead.text]
    return lead.text.strip() if forbidding_lead(paragraph) else None


def _outside_code(text: str, start: int, end: int) -> str:
    """The line's prose without the spot, its inline code and its URLs."""
    text = text[:start] + " " + text[end:]
    if "`" in text:
        text = re.sub(r"`[^`]*`?", " ", text)
    if "://" in text:
        text = re.sub(r"\S+://\S+", " ", text)
    return text


# A column that grades each row: a catalogue of findings, not a list of steps.
_GRADE_COLUMN = rx(r"\|\s*(?:severity|risk(?:\s+level)?|threat\s+level|criticality)\s*\|",
                   re.IGNORECASE)


def _catalogue_table(st: SecurityText, line: Line) -> str | None:
    """A row of a table of patterns to find that says so twice: its header names patterns
    and grades them by severity, or its lead-in talks about attacks or red flags. A verb at
    the start of such a row ("| Install script with curl pipe to bash |") names a pattern,
    it does not tell the agent to run it."""
    header = table_header(st, line)
    if header is None or header.no == line.no or not catalogue_text(header.text):
        return None
    if _GRADE_COLUMN.search(header.text):
        return "it is a row of a table of patterns graded by severity"
    lead = st.neighbour(header, -1)
    while lead is not None and not lead.text.strip():
        lead = st.neighbour(lead, -1)
    if lead is not None and not lead.text.lstrip().startswith(("#", "|", "```", "~~~")):
        talk = LEAD_TALK.search(_outside_code(lead.text, 0, 0))
        if talk:
            return (f'it is a row of a table of patterns introduced as '
                    f'"{talk.group(0).strip()}"')
    return None


def _table_evidence(st: SecurityText, line: Line) -> str | None:
    """A table row whose table has a header naming patterns, indicators or attacks."""
    cur = table_header(st, line)
    if cur is None:
        return None
    header = cur.text
    if catalogue_text(header):
        return "it is a row of a table of patterns"
    return offered_to_users(st, line, cur)
