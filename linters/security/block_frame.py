"""The frame of a fenced block in Markdown: what its lead-in, its opening comment and the
headings over it say about every line in it (for `linters.security.text_role`).

A block is framed as a negative example ("Bad:", "# Examples that trigger the red line", a
deny-list's "Never run any of these:" in `linters.security.forbidding_lead`), as
a sample of the skill's output (a report under "## Output Format"), or not at all; the
caller decides the role from that and from the spot itself.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from linters.security.attack_talk import ABOUT_HEADING, COMMENT, NEGATIVE_LABEL, POLICY_EXAMPLES
from linters.security.forbidding_lead import forbidding_lead
from linters.security.imperative import tells_to_run
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx


def negative_example(st: SecurityText, line: Line) -> str | None:
    """Why a line of a fenced code block is a negative example or a symptom: the label just
    before the block ("Bad:", "Don't do this:", "What an attacker writes:", "Symptom:")."""
    doc = st.doc
    if doc is None:
        return None
    fence = fence_of(st, line)
    if fence is None:
        return None
    lead = lead_in(st, fence)
    if lead and NEGATIVE_LABEL.search(lead.strip("*_> ")):
        return f'it is a negative example, after "{lead.strip("*_ ")[:40]}"'
    if lead and forbidding_lead(_lead_paragraph(st, fence)):
        return f'its block is introduced as what must never be done ("{lead.strip("*_ ")[:50]}")'
    return None


def block_label(st: SecurityText, line: Line) -> str | None:
    """Why a line of a fenced block is an example: the comment opening the block, above
    `line`, labels every command under it as a negative example or as what a policy blocks
    ("# Examples that trigger the red line", "# These should be blocked"). Only the comments
    before the block's first command count."""
    doc = st.doc
    fence = fence_of(st, line) if doc is not None else None
    if doc is None or fence is None:
        return None
    for no in range(fence.start + 1, line.no):
        text = doc.lines[no - doc.first_line].strip()
        if not text:
            continue
        comment = COMMENT.match(text)
        if comment is None or text.startswith("#!"):
            return None
        label = comment.group(1).strip()
        if NEGATIVE_LABEL.search(label) or POLICY_EXAMPLES.search(label) or forbidding_lead([label]):
            return f'the comment that opens its block says "{label[:40]}"'
    return None


# Untyped or prose blocks: what the agent writes (a report, a reply), not what it runs.
_DOC_LANGS = frozenset({"", "text", "txt", "plain", "plaintext", "markdown", "md"})
# A heading or lead-in that starts by presenting a block as the shape of the skill's output:
# "## Output Format", "### 4. Example Output", "Report template:". Not a bare "Report" ("##
# Report the results" is a step), nor "output" later on ("Check the output of:").
_OUTPUT_SAMPLE = rx(
    r"^\W*(?:\d+(?:\.\d+)*[.)]?\s+)?(?:"
    r"(?:(?:example|sample|expected)\s+)?output(?:\s+(?:format|template|example|sample|structure))?"
    r"|(?:report|finding|response|summary)\s+(?:format|template|structure|example|sample)"
    r"|(?:example|sample)\s+(?:reports?|findings?|responses?))\b",
    re.IGNORECASE,
)


# A lead-in that shows what something looks like: "A finding line looks like:", "The
# report will look like this:". The block is a specimen to recognise, not text to follow.
_LOOKS_LIKE = rx(r"\b(?:looks?|will\s+look|should\s+look)\s+like(?:\s+this)?\s*:\W*$",
                 re.IGNORECASE)


def output_sample(st: SecurityText, line: Line) -> str | None:
    """Why a line of an untyped, text or Markdown block is a sample of the skill's output
    (a report with its steps to reproduce, a findings table): the block's lead-in or the
    nearest heading names an output format or an example report."""
    fence = fence_of(st, line)
    if fence is None or fence.lang.lower() not in _DOC_LANGS:
        return None
    lead = lead_in(st, fence)
    if lead and any(tells_to_run(c) for c in re.split(r"[,;:]\s+|[.!?]\s+", lead)):
        return None  # "Before you answer, run:" makes it a step under any heading
    if lead and _LOOKS_LIKE.search(lead):
        return f'it is a specimen, after "{lead.strip("*_ ")[:40]}"'
    chain = heading_chain(st, line)
    for text in (lead, chain[-1] if chain else None):
        if text and _OUTPUT_SAMPLE.search(text.lstrip("#").strip("*_ ")):
            return f'it is a sample of the output, under "{text.strip("#*_ ")[:40]}"'
    return None


# A finding record of a scanner's report: `[CRITICAL] Line 15: "Ignore previous ..."`. What
# it quotes is what was detected, not text to follow.
_DETECTION = rx(r"^\s*(?:[-*]\s+)?\[(?:critical|high|medium|low|warn(?:ing)?|error|block(?:ed)?|"
                r"detected|alert|flagged|suspicious)\]\s", re.IGNORECASE)


# A line labelled as a sample of what a search or scan matches: "Sample hit: `12: ...`",
# "Example match:", "命中样例：" (sample hits), "检出示例：", "ヒット例：". What it quotes
# was found, not said to the agent.
_HIT_LABEL = rx(
    r"^\s*(?:[-*]\s+)?(?:\*\*|__)?\s*(?:(?:sample|example)\s+(?:hits?|matches?|"
    r"detections?)|(?:hit|match)\s+(?:samples?|examples?)|"
    r"命中(?:样例|示例|例)|(?:样例|示例)命中|(?:检出|匹配)(?:样例|示例)|"
    r"ヒット例|検出例|マッチ例)\s*(?:\*\*|__)?\s*[:：]",
    re.IGNORECASE)


def detection_record(line: Line, start: int, end: int) -> str | None:
    """Why the span `start`..`end` of `line` is a quoted detection: the line is a finding
    record opening with a severity tag, and the span sits inside a quotation on it; or the
    line is labelled as a sample hit of a search and the span sits in its quoted code."""
    text = line.text
    label = _HIT_LABEL.match(text)
    if label and label.end() <= start and text[:start].count("`") % 2 == 1 \
            and "`" in text[end:]:
        return (f'it is quoted as a sample hit of a search ("{label.group(0).strip(" -*_")}"), '
                "what a check finds")
    if not _DETECTION.match(text):
        return None
    before, after = text[:start], text[end:]
    if before.count('"') % 2 == 1 and '"' in after or (
            before.rfind("\u201c") > before.rfind("\u201d") and "\u201d" in after):
        return "it is the quoted text of a finding in a scan report"
    return None


def fence_of(st: SecurityText, line: Line):
    doc = st.doc
    if doc is None:
        return None
    starts = [f.start for f in doc.fences]
    i = bisect_right(starts, line.no) - 1
    if i < 0:
        return None
    fence = doc.fences[i]
    if fence.end is not None and line.no > fence.end:
        return None
    return fence


def lead_in(st: SecurityText, fence) -> str | None:
    """The short prose line just before a fenced block (blank lines skipped), if any."""
    doc = st.doc
    assert doc is not None
    for no in range(fence.start - 1, max(doc.first_line - 1, fence.start - 4), -1):
        text = doc.lines[no - doc.first_line].strip()
        if not text:
            continue
        if text.startswith("#") or doc.is_code(no) or len(text.split()) > 20:
            return None
        return text
    return None


def _lead_paragraph(st: SecurityText, fence) -> list[str]:
    """The lines before a fenced block up to its lead-in, nearest last: the lead-in's
    paragraph for `forbidding_lead`, which keeps only the lines of that paragraph."""
    doc = st.doc
    assert doc is not None
    no = fence.start - 1
    while no >= doc.first_line and not doc.lines[no - doc.first_line].strip():
        no -= 1
    first = max(doc.first_line, no - 4)
    return [doc.lines[i - doc.first_line] for i in range(first, no + 1)]


def heading_chain(st: SecurityText, line: Line) -> list[str]:
    """The headings a line sits under, outermost first (the nearest of each level); SKILL.md's
    own title is left out, since a skill about security still instructs in its body."""
    doc = st.doc
    if doc is None:
        return []
    chain: list[tuple[int, str]] = []
    for i, h in enumerate(doc.headings):
        if h.line > line.no:
            break
        if i == 0 and h.level == 1 and st.path == "SKILL.md":
            continue
        while chain and chain[-1][0] >= h.level:
            chain.pop()
        chain.append((h.level, h.text))
    return [text for _level, text in chain]


# A shell block's variable assignment with a quoted value: `input="foo; rm -rf /"`.
_SHELL_LANGS = frozenset({"bash", "sh", "shell", "zsh", "ksh"})
_ASSIGN = rx(r"^\s*(?:(?:export|local|readonly|declare(?:\s+-\w+)?)\s+)?([A-Za-z_]\w*)=(['\"])")


def shell_string(st: SecurityText, line: Line, start: int) -> str | None:
    """Why a hit in a shell block is data: it sits in the quoted value of a variable the
    block assigns and never runs (`input="x; rm -rf /"` then `grep "$input" f`, a
    demonstration of quoting). Not when the value holds a command substitution, or the
    block runs the variable (`eval`, `sh -c "$v"`, `$v` as the command)."""
    fence = fence_of(st, line)
    if fence is None or fence.lang.lower() not in _SHELL_LANGS:
        return None
    m = _ASSIGN.match(line.text)
    if m is None or start < m.end():
        return None
    close = line.text.find(m.group(2), m.end())
    value = line.text[m.end() : close if close >= 0 else len(line.text)]
    if close < start or "$(" in value or "`" in value:
        return None
    name = re.escape(m.group(1))
    runs = re.compile(
        rf"\beval\b.*\${{?{name}\b|^\s*[\"']?\${{?{name}\b|\b-c\s+[\"']?\${{?{name}\b"
        rf"|\${{?{name}\b.*\|\s*(?:ba|z|k)?sh\b|\bsource\s+<\(.*\${{?{name}\b"
    )
    if any(runs.search(text) for text in fence.body):
        return None
    return f"it is the value of `{m.group(1)}`, a string the block never runs"


# A block of a document the agent writes for people (the project's README), not a step it
# runs: "## Install instructions in `.env.example` / README", "Add this section to the
# README:", "README template:".
_DOCUMENT = r"(?:README|CONTRIBUTING|INSTALL)(?:\.md)?\b"
_DOC_CONTENT = rx(
    r"\b(?:instructions?|sections?|snippets?|templates?|text|content|excerpts?)\s+"
    r"(?:in|for|of|from)\s+(?:the\s+|your\s+|a\s+)?(?:project'?s?\s+)?"
    rf"(?:`?[\w.-]+`?\s*(?:/|,|or|and)\s*)*`?{_DOCUMENT}"
    r"|\b(?:add|append|put|include|write|paste|copy)\s+(?:(?:(?:a|an|the|this|that)\s+)?"
    r"(?:\w+\s+){0,2}(?:section|block|snippet|paragraph|text|lines?)|this|these|it|"
    r"the\s+following)?\s*"
    rf"(?:to|in|into)\s+(?:the\s+|your\s+|a\s+)?(?:project'?s?\s+)?`?{_DOCUMENT}"
    rf"|{_DOCUMENT}`?\s+(?:sections?|templates?|snippets?|excerpts?|contents?)\b",
    re.IGNORECASE,
)


def names_document(text: str) -> bool:
    """`text` (a lead-in) places the block in a document for people ("Add this section to
    the README:"): a verb like "add" there writes, it does not run."""
    return _DOC_CONTENT.search(text) is not None


def document_content(st: SecurityText, line: Line) -> str | None:
    """Why a block is text of a document the agent writes for people to read (its lead-in
    or its own heading says so), or None. The caller has ruled out a lead-in that tells the
    agent to run it."""
    fence = fence_of(st, line)
    if fence is None:
        return None
    chain = heading_chain(st, line)
    for text in (lead_in(st, fence), chain[-1] if chain else None):
        m = _DOC_CONTENT.search(text or "")
        if m:
            return (f'it is text of a document for people ("{m.group(0).strip("`")[:40]}"), '
                    "not a step the agent runs")
    return None


def about_heading(st: SecurityText, line: Line) -> str | None:
    """The nearest heading over the line that puts it in a catalogue of attacks, red flags,
    detection patterns or warnings; None when every heading is neutral."""
    for title in reversed(heading_chain(st, line)):
        if ABOUT_HEADING.search(title):
            return title
    return None
