"""Does the text present a path as a file of the skill to read or run? (SF116's judgement.)

A path written in a skill is not always a reference to one of its files. It may illustrate
("e.g. `scripts/x.py`", "use forward slashes (`reference/guide.md`)"), name something the
agent will write ("save the summary to `./test-report.md`"), a file of the user's project
("read the test command from `./package.json`"), a file a clause says was deleted, or an
entry of an index marked "(coming soon)". Only a path that remains after these is a promise
that the file exists. The judgement reads the sentence (or list item, or table row) around
the path, the label line before its paragraph and the headings above it; it runs only for
paths that do not resolve, so its cost is paid where a finding is at stake. No heading
hides a path: a changelog's entries are judged like any other text, and
`sections.changelog_entry` only tells the rule to soften what it finds there.
"""

from __future__ import annotations

import bisect
import re

from linters.text.compiled_regex import rx
from linters.text.literal_search import finditer_at_words
from linters.text.markdown import MarkdownDoc
from linters.text.paths.matches_before import MatchesBefore
from linters.text.sections import section_title

# Words that make a path an illustration rather than a reference: "e.g. `scripts/x.py`",
# "A `references/schema.md` file would be helpful", "If `references/x.md` does not exist",
# "✗ Avoid: `scripts\\helper.py`". Checked in the sentence before the path...
_HEDGE_BEFORE = rx(
    r"\be\.g\.|\beg\b|\bexamples?\b|\bfor instance\b|\bsuch as\b|\blike\b|\bavoid\b|\bbad\b"
    r"|\bgood\b|\bwrong\b|\binstead of\b|\brather than\b|[✓✗❌✅]|\bcreate[sd]?\b|\bgenerate[sd]?\b"
    r"|\bwrites?\b|\bsaves?\b|\bstore[sd]?\b|\badd(?:s|ed)?\b|\bnew\b|\byour\b|['’]s\W*$"
    r"|สร้าง"  # Thai "create" (Thai writes no spaces between words: no \b)
    r"|例[:：]|例えば|例如|예[:：]|예시"  # CJK "example:", "for example" (no \b either)
    # the form of a path, not a path: "use forward slashes (`reference/guide.md`)"
    r"|\b(?:forward\s+)?slash(?:es)?\b|\bbackslash(?:es)?\b|\bpath\s+(?:style|format|syntax)\b",
    re.IGNORECASE,
)
# ...and anywhere in the sentence.
_HEDGE_ANYWHERE = rx(
    r"\b(?:would|could|might)\b|\boptional(?:ly)?\b|\bif any\b"
    r"|\b(?:if|when|whether)\b(?:[^.;!?]|\.(?=\S)){0,100}?"
    r"\b(?:exists?|present|available|missing)\b"
    # an index entry for a file not written yet
    r"|\bcoming\s+soon\b|\bnot\s+yet\s+(?:written|available|added|created)\b|\bplanned\b"
    r"|\bto\s+be\s+(?:added|written|created)\b|\bTBD\b|\bwork\s+in\s+progress\b"
    # a file promised for later: "(added when the next block lands)", "will be added"
    r"|\b(?:added|written|created|shipped)\s+(?:when|once)\b[^.;]{0,60}?"
    r"\b(?:lands?|ships?|is|are|gets?|comes?|arrives?|exists?)\b"
    r"|\bwill\s+be\s+(?:added|written|created|shipped)\b",
    re.IGNORECASE,
)
# The sentence opens by telling the agent to put something on record in the file, an output:
# "Document rules in `references/custom_rules.md`", "5. Record the decision to `x.md`".
# The imperative only, from the sentence's start: "the rules documented in `x.md`" reads.
_RECORD_IN = rx(
    r"[ \t\n]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?\W{0,4}(?:document|record|log|note\s+down|"
    r"write\s+down|jot\s+down|keep\s+track\s+of)\s+(?!that\b|how\b|what\b|where\b)"
    r"[^.;:`\n]{0,60}?\b(?:in|to|into)\s+`?$",
    re.IGNORECASE,
)
# Before a Markdown link: it shows the link format rather than pointing somewhere.
_LINK_EXAMPLE = rx(
    r"\be\.g\.|\bfor (?:example|instance)\b|\bsuch as\b|\blike (?:this|so)\b"
    r"|\b(?:link|path)\s+(?:format|syntax|style)\b|\bformat(?:ted)?\s+(?:like|as)\b|[✓✗❌✅]",
    re.IGNORECASE,
)
# Before inline code in its clause: the command is an example or a thing not to do.
_COUNTER_EXAMPLE = rx(
    r"\be\.g\.|\beg\b|\bfor (?:example|instance)\b|\bsuch as\b|\blike\b|\bnever\b"
    r"|\bdon'?t\b|\bdo not\b|\bmust not\b|\bavoid\b|\binstead of\b|\brather than\b"
    r"|\bbad\b|\bwrong\b|[✗❌]",
    re.IGNORECASE,
)
# In the clause of the path: the file is gone ("removed `scripts/old.py`").
_REMOVED = rx(
    r"\b(?:removed|deleted|dropped|retired|renamed|deprecated|obsolete|superseded|"
    r"no\s+longer|moved\s+(?:to|into)|merged\s+into"
    r"|(?:was|were|is|are)\s+not\s+(?:present|included|available|provided|shipped|copied))\b",
    re.IGNORECASE,
)
# Anywhere in the path's sentence: "...; that file was not present in the source folder".
_FILE_ABSENT = rx(
    r"\b(?:(?:that|this|the|which)\s+file|it|that|which)\s+(?:was|is)\s+(?:not\s+(?:present|included|"
    r"available|provided|shipped|copied)|missing|absent)\b",
    re.IGNORECASE,
)
# What ends a clause inside a sentence.
CLAUSE_CUT = rx(r"[;,()\u2013\u2014:]|\s-\s")
# `./x` is relative to the working directory, which is the user's project when the skill
# runs: a file of the skill only when the sentence sends the agent to read it.
_READ_VERB = rx(
    r"\b(?:see|read|refer(?:\s+to)?|consult|open|load|follow|details?|documented|described|"
    r"explained|defined|listed|covered|reference|guide|instructions)\b",
    re.IGNORECASE,
)
_PROJECT_WORDS = rx(
    r"\b(?:project|repo(?:sitory)?|codebase|workspace|working\s+directory|current\s+directory|"
    r"cwd|user'?s|app'?s)\b",
    re.IGNORECASE,
)
# A list item or table row that starts with the path and describes it: an index of files.
_INDEX_BEFORE = rx(r"^[ \t]*(?:[-*+]|\d{1,9}[.)]|\|)[ \t]*(?:\*\*|__)?`?$")
_INDEX_AFTER = rx(r"^`?(?:\*\*|__)?[ \t]*(?:[-\u2013\u2014:|(]|$)")
# ...unless the section lists what the skill produces.
_OUTPUT_HEADING = rx(
    r"\b(?:outputs?|results?|deliverables?|artifacts?|artefacts?|generated|produces|creates|"
    r"writes)\b",
    re.IGNORECASE,
)
# Files every project has and no skill ships: `./package.json` is the user's.
PROJECT_FILES = frozenset({
    "package.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock", "pyproject.toml",
    "setup.py", "setup.cfg", "requirements.txt", "poetry.lock", "uv.lock", "cargo.toml",
    "cargo.lock", "go.mod", "go.sum", "gemfile", "pom.xml", "build.gradle", "tsconfig.json",
    "makefile", "dockerfile", "docker-compose.yml", "docker-compose.yaml", ".env",
    ".gitignore", "tox.ini", "pytest.ini", ".eslintrc.json", "vite.config.ts",
})
# A label line such as "**Example:**" shortly before: what follows illustrates.
_EXAMPLE_LABEL = rx(r"^\W*(?:examples?|e\.g\.)\b", re.IGNORECASE)
_SENTENCE_END = rx(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](?=\s)")
_ITEM_START = rx(r"^[ \t]*(?:[-*+]|\d{1,9}[.)]|\|)", re.MULTILINE)
# A code span: a backtick run, then text up to the same run; never across a blank line.
# (Tried only at backticks: its leading look-behind made `re` try every position.)
INLINE_CODE = rx(r"(?<!`)(`+)(?!`)((?:[^`\n]|\n(?![ \t]*\n))+?)(?<!`)\1(?!`)")


def hedged(line: str, start: int) -> bool:
    """The path at `start` of `line` is an example, an option or something to create."""
    return bool(_HEDGE_BEFORE.search(line, 0, start) or _HEDGE_ANYWHERE.search(line))


def line_col(text: str, offset: int) -> tuple[int, int]:
    """0-based line index and 1-based column of an offset."""
    return text.count("\n", 0, offset), offset - text.rfind("\n", 0, offset)

_LIST_OPEN = rx(r"^\s*(?:[-*+]|\d{1,9}[.)])\s")


class Paragraph:
    """Consecutive prose lines around a path candidate, with their inline code spans."""

    def __init__(self, doc: MarkdownDoc, idx: int) -> None:
        lines, first = doc.lines, doc.first_line

        def prose(i: int) -> bool:
            return 0 <= i < len(lines) and bool(lines[i].strip()) and not doc.is_code(i + first)

        self.first = self.last = idx
        while prose(self.first - 1):
            self.first -= 1
        while prose(self.last + 1):
            self.last += 1
        self.lines = lines[self.first:self.last + 1]
        self.text = "\n".join(self.lines)
        self.offsets = [0]
        for ln in self.lines[:-1]:
            self.offsets.append(self.offsets[-1] + len(ln) + 1)
        self.spans = [(m.start(), m.end(), m.group(2))
                      for m in finditer_at_words(INLINE_CODE, self.text, ("`",))]
        self._bounds: list[int] | None = None
        self._example_label: bool | None = None
        self._with_lead: str | None = None
        self._doc = doc
        # Per sentence: a long list item with many paths is read once, not once per path.
        self._anywhere: dict[int, bool] = {}
        # Per (pattern, where its search starts): see `MatchesBefore`.
        self._before: dict[tuple[int, int], MatchesBefore] = {}
        self._cuts: dict[int, list[int]] = {}
        self._clause_hits: dict[tuple[int, int, int], bool] = {}

    def span_at(self, offset: int) -> tuple[int, int, str] | None:
        i = bisect.bisect_right(self.spans, (offset, 1 << 62)) - 1
        if i >= 0 and self.spans[i][0] <= offset < self.spans[i][1]:
            return self.spans[i]
        return None

    def sentence(self, offset: int) -> tuple[int, int]:
        """Start and end offsets of the sentence (or list item, or table row) at `offset`."""
        if self._bounds is None:
            cuts = {0, len(self.text)}
            cuts.update(m.end() for m in _SENTENCE_END.finditer(self.text))
            for m in _ITEM_START.finditer(self.text):
                cuts.add(m.start())
                if m.group(0).strip() == "|":  # a table row ends with its line
                    end = self.text.find("\n", m.start())
                    cuts.add(len(self.text) if end < 0 else end)
            self._bounds = sorted(cuts)
        i = bisect.bisect_right(self._bounds, offset)
        return self._bounds[i - 1], self._bounds[min(i, len(self._bounds) - 1)]

    def offset_of(self, line_idx: int, col: int) -> int:
        """Offset in the paragraph of a document line index and 1-based column."""
        return self.offsets[line_idx - self.first] + col - 1

    def hedged(self, offset: int) -> bool:
        """The path at `offset` is an example, an option, something to create or not ours."""
        start, end = self.sentence(offset)
        if self._found_before(_HEDGE_BEFORE, start, end, offset):
            return True
        if self._hedged_anywhere(start, end):
            return True
        if _RECORD_IN.match(self.text, start, offset):
            return True
        return self.after_example_label()

    def _hedged_anywhere(self, start: int, end: int) -> bool:
        found = self._anywhere.get(start)
        if found is None:
            sentence = self.text[start:end]
            found = bool(_HEDGE_ANYWHERE.search(sentence) or OTHER_ROOT_VAR.search(sentence))
            self._anywhere[start] = found
        return found

    def link_example(self, offset: int) -> bool:
        """The Markdown link at `offset` shows a link format ("for example [x](y.md)") or an
        entry not written yet ("(coming soon)")."""
        start, end = self.sentence(offset)
        return (self._found_before(_LINK_EXAMPLE, start, end, offset)
                or self._hedged_anywhere(start, end))

    def said_before(self, rx: re.Pattern[str], offset: int) -> bool:
        """`rx` is found in the sentence at `offset`, before `offset` (the sentence's matches
        found once, not searched again for each path)."""
        start, end = self.sentence(offset)
        return self._found_before(rx, start, end, offset)

    def sentence_has(self, rx: re.Pattern[str], offset: int) -> bool:
        """`rx` is found in the sentence at `offset` (searched once per sentence)."""
        return self._clause_has(rx, *self.sentence(offset))

    def removed(self, offset: int) -> bool:
        """The clause holding the path says the file is gone ("removed `scripts/old.py`")."""
        start, end = self.sentence(offset)
        cuts = self._clause_cuts(start, end)
        i = bisect.bisect_right(cuts, offset)
        return (self._clause_has(_REMOVED, cuts[i - 1], cuts[min(i, len(cuts) - 1)])
                or self._clause_has(_FILE_ABSENT, start, end))

    def counter_example(self, offset: int) -> bool:
        """The inline command at `offset` is shown as an example or as a thing not to do
        ("never include secrets, e.g. `./scripts/deploy.sh --token ...`")."""
        start, end = self.sentence(offset)
        # Only the clause the command is in: in "don't call `bl` directly - always
        # `./scripts/bl`" the second command is the instruction. (A cut ends where it ends
        # whatever follows it, so the sentence's cuts that end by `offset` are the ones a
        # search up to `offset` finds.)
        cuts = self._clause_cuts(start, end)
        cut = max(start, cuts[bisect.bisect_right(cuts, offset, 1, len(cuts) - 1) - 1])
        return self._found_before(_COUNTER_EXAMPLE, cut, end, offset)

    def sends_to_read(self, offset: int, end_of_path: int) -> bool:
        """The sentence sends the agent to read the file (or lists it in an index of the
        skill's files), and not in the user's project nor among what the skill produces."""
        start, end = self.sentence(offset)
        if self._clause_has(_PROJECT_WORDS, start, end):
            return False
        if self._found_before(_READ_VERB, start, end, offset):
            return True
        index = (_INDEX_BEFORE.match(self.text[start:offset])
                 and _INDEX_AFTER.match(self.text[end_of_path:end]))
        if not index:
            return False
        line_no = self.first + self.text.count("\n", 0, offset) + self._doc.first_line
        title = section_title(self._doc, line_no)
        return not (title and _OUTPUT_HEADING.search(title))

    # --- searches shared by the paths of one sentence ------------------------------------
    # A paragraph may hold thousands of paths (generated indexes): each sentence and clause
    # is searched once, not once per path in it.

    def _clause_cuts(self, start: int, end: int) -> list[int]:
        """start, the ends of the clause cuts in the sentence, end."""
        cuts = self._cuts.get(start)
        if cuts is None:
            cuts = [start, *(m.end() for m in CLAUSE_CUT.finditer(self.text, start, end)), end]
            self._cuts[start] = cuts
        return cuts

    def _clause_has(self, rx: re.Pattern[str], start: int, end: int) -> bool:
        key = (id(rx), start, end)
        found = self._clause_hits.get(key)
        if found is None:
            found = self._clause_hits[key] = rx.search(self.text, start, end) is not None
        return found

    def _found_before(self, rx: re.Pattern[str], start: int, end: int, offset: int) -> bool:
        """`rx.search(self.text, start, offset)` found something."""
        key = (id(rx), start)
        before = self._before.get(key)
        if before is None:
            before = self._before[key] = MatchesBefore(rx, self.text, start, end)
        return before.found(offset)

    def after_example_label(self) -> bool:
        if self._example_label is None:
            self._example_label = False
            doc, first = self._doc, self._doc.first_line
            for i in range(self.first - 1, max(-1, self.first - 13), -1):
                line = doc.lines[i]
                # a heading ends the search; a code block's lines are passed over, so that
                # a `# Example:` comment in one labels that block, not the text after it
                if doc.is_code(i + first):
                    continue
                if line.lstrip().startswith("#"):
                    break
                if _EXAMPLE_LABEL.match(line) and len(line.split()) <= 12:
                    self._example_label = True
                    break
        return self._example_label

    def with_lead_in(self) -> str:
        """The paragraph's text, after the lead-in of a list it opens ("These `other-skill`
        surfaces change together:", the line just above, across one blank line): the
        words that say whose files the list's paths are."""
        if self._with_lead is None:
            self._with_lead = self.text
            lines, i = self._doc.lines, self.first - 1
            if i >= 1 and not lines[i].strip():
                i -= 1
            if _LIST_OPEN.match(self.lines[0]) and i >= 0 \
                    and lines[i].rstrip().endswith(":") \
                    and not self._doc.is_code(i + self._doc.first_line):
                self._with_lead = lines[i] + "\n" + self.text
        return self._with_lead

    def where(self, offset: int) -> tuple[int, int, str]:
        """Line index in the document, 1-based column and the line's text of an offset."""
        i = bisect.bisect_right(self.offsets, offset) - 1  # as line_col(self.text, offset)
        return self.first + i, offset - self.offsets[i] + 1, self.lines[i]


# A variable rooted somewhere else (`${CLAUDE_PLUGIN_ROOT}/scripts/x.py`): bare paths on the
# same line are probably relative to it, not to the skill.
OTHER_ROOT_VAR = rx(r"\$\{?[A-Za-z_]+\}?/")


def paragraph_of(doc: MarkdownDoc, idx: int, paragraphs: dict[int, Paragraph]) -> Paragraph:
    """The paragraph holding line `idx` of `doc`, read once for all its lines (`paragraphs`
    keeps each line's paragraph for the next question)."""
    para = paragraphs.get(idx)
    if para is None:
        para = Paragraph(doc, idx)
        for i in range(para.first, para.last + 1):
            paragraphs[i] = para
    return para


def without_dot_slash(path: str) -> str:
    """`path` without its leading `./` (any number of them): `././x/y` -> `x/y`."""
    while path.startswith("./"):
        path = path[2:]
    return path


def cwd_relative(path: str, top_exists: bool) -> bool:
    """`./x` outside the skill's folders: relative to the working directory (the user's
    project), unless the skill has its first component."""
    if not path.startswith("./"):
        return False
    rest = without_dot_slash(path)
    top = rest.split("/", 1)[0]
    return not top_exists and top not in ("scripts", "references", "reference", "assets",
                                          "templates")


def project_file(path: str) -> bool:
    """A file every project has (`./package.json`), named at the top of the working folder."""
    rest = path[2:] if path.startswith("./") else path
    return "/" not in rest and rest.lower() in PROJECT_FILES
