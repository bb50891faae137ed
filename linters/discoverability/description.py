"""The frontmatter description (SF201-SF203, SF205-SF207): can an agent tell from it when
to load the skill?

The description is the only text a harness shows the model before it decides to open a
skill. These rules read its length, its trigger wording, its voice, whether it says more
than the name, its format and whether it is a keyword list. They aim for precision: wording
that a careful author uses ("Use when you have a plan", a list of library names) must not
be reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.text.literal_search import has_any
from linters.text.trigger_words import TRIGGER as _TRIGGER
from linters.registry import check
from skillforge.models.findings import Finding

MIN_DESCRIPTION = 40
# SF207: a comma list this long that is most of the description, or any list this long.
STUFFED_ITEMS = 12
STUFFED_SHARE = 0.5
STUFFED_RUN = 20

_WORD = rx(r"[^\W_][\w'’.+#/-]*")
_SIMPLE_WORD = rx(r"[a-z0-9]+")


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


# SF203. Quoted text is what a user would type ("make me a GIF"), so it is removed first.
_QUOTED = rx(r"\"[^\"\n]*\"|“[^”\n]*”|`[^`\n]*`|'[^'\n]{2,80}'(?=[\s,.;:)]|$)")
_FIRST_PERSON = rx(
    r"(?<![\w/'’])I(?:['’](?:m|ll|ve|d))?(?![\w/'’.-])"
    r"|(?i:\b(?:me|my|myself|we|we['’](?:re|ll|ve)|our|ours|ourselves)\b)"
    r"|(?<![\w.])us\b(?![.-])"
)
# "Phase I", "Type I error": the numeral, not the pronoun.
_ROMAN_ONE_AFTER = _wordset("Phase Type Class Part Chapter Level Tier Stage Grade Schedule War")
_SECOND_PERSON = rx(r"(?i)\b(?:you|your|yours|yourself|you['’](?:re|ll|ve|d))\b")
# A sentence that opens with a condition or an instruction to the agent may say "you":
# "Use when you have a written plan" is imperative, not a second-person description. So may
# the rest of a sentence after "should be used when", "best for", "helpful if" and the like.
_AGENT_CLAUSE = rx(
    r"^\W*(?:(?:also|only|always|then)\s+)?(?:use|trigger|triggers|invoke|activate|apply|call"
    r"|load|read|run|skip|prefer|avoid|do\s+not|don['’]t|never|not\s+for|when|whenever|if"
    r"|unless|before|after|once|for\s+\w+ing)\b",
    re.IGNORECASE,
)
_AGENT_TRIGGER = rx(
    r"\b(?:use[sd]?|invoke[sd]?|trigger(?:s|ed)?|apply|applies|activate[sd]?|load(?:s|ed)?)\b"
    r"|\b(?:useful|helpful|relevant|ideal|best|perfect|suited|suitable|intended|meant"
    r"|applicable|appropriate|recommended|preferred)\s+(?:for|when|if|whenever)\b",
    re.IGNORECASE,
)
_SENTENCE = rx(r"[^.!?;\n]+(?:[.!?;]+|$)")

_STOPWORDS = _wordset(
    """a an the and or of for to in on at by with from into as is are be this that these
    those it its it's use used uses using when whenever skill skills tool tools helper helps
    help any all some your you my our their his her can will via etc e g i.e e.g"""
)

# SF206: Markdown that a harness shows literally (inline code is tolerated: it marks names).
_MARKDOWN = rx(
    r"(?P<bold>(?<![\w*])\*\*[^*\n]+\*\*(?!\w)|(?<!\w)__[^_\n]+__(?!\w))"
    r"|(?P<link>!?\[[^\]\n]+\]\([^)\s]+\))"
    r"|(?P<heading>(?m:^[ \t]*#{1,6}[ \t]+\S))"
    r"|(?P<fence>```)"
)
_MARKUP_SIGNS = ("**", "__", "[", "#", "```")

# SF207.
_KEYWORD_LABEL = rx(
    r"\b(?:key\s?words|tags|search\s+terms|triggers?\s+words)\s*:", re.IGNORECASE
)
_LIST_SPLIT = rx(r"\s*[,;()\[\]]\s*|[.!?]\s+|:\s+|\s+[—–-]\s+|\n")
_LIST_JOINER = rx(r"^(?:and|or|&|etc\.?)\s+", re.IGNORECASE)
_JOINER_FIRST = frozenset("aAoOeE&")  # the first letters _LIST_JOINER can match


def description_text(ctx: LintContext) -> str | None:
    """The description as a harness sees it, or None when the correctness rules own the problem."""
    if not ctx.frontmatter_ok:
        return None
    desc = ctx.skill.description
    return desc if desc and desc.strip() else None


def _excerpt(text: str, start: int, end: int, words: int = 3) -> str:
    """The match with a few whole words either side, for quoting in a message."""
    before = text[:start].split()[-words:]
    after = text[end:].split()[:words]
    snippet = " ".join([*before, text[start:end], *after])
    lead = "…" if len(text[:start].split()) > words else ""
    tail = "…" if len(text[end:].split()) > words else ""
    return lead + snippet + tail


@check("SF201", "SF202", "SF203", "SF205", "SF206", "SF207")
def description_rules(ctx: LintContext) -> Iterator[Finding]:
    """Rules on the frontmatter description: length, trigger, voice, content, format."""
    desc = description_text(ctx)
    if desc is None:
        return
    line = ctx.fm_line("description")
    text = desc.strip()
    if len(text) < MIN_DESCRIPTION:
        yield ctx.finding(
            "SF201",
            f"The description is {len(text)} characters (at least {MIN_DESCRIPTION} needed to "
            "route on); say what the skill does and when to use it, in the words a user would use.",
            line=line,
        )
    if not _TRIGGER.search(text):
        yield ctx.finding(
            "SF202",
            "The description never says when to use the skill; add a sentence such as "
            '"Use when the user asks to ..." naming the requests or files that should load it.',
            line=line,
        )
    yield from _person(ctx, text, line)
    yield from _restates_name(ctx, text, line)
    yield from _format(ctx, text, line)
    yield from _stuffing(ctx, text, line)


def _person(ctx: LintContext, text: str, line: int | None) -> Iterator[Finding]:
    found = _person_word(_QUOTED.sub(lambda m: " " * len(m.group(0)), text))
    if found is None:
        return
    person, start, end = found
    yield ctx.finding(
        "SF203",
        f"The description is written in the {person} person (`{text[start:end]}` in "
        f'"{_excerpt(text, start, end)}"); describe the skill in the third person, e.g. '
        '"Extracts tables from PDFs. Use when the user ...".',
        line=line,
    )


def _person_word(plain: str) -> tuple[str, int, int] | None:
    """("first" | "second", start, end) of the first offending pronoun, quotes blanked out."""
    for m in _FIRST_PERSON.finditer(plain):
        before = plain[: m.start()].split()
        if m.group(0) == "I" and before and before[-1] in _ROMAN_ONE_AFTER:
            continue
        return "first", m.start(), m.end()
    if "you" not in plain.lower():
        return None  # every second-person word has "you" in it
    for sentence in _SENTENCE.finditer(plain):
        clause = sentence.group(0)
        if _AGENT_CLAUSE.match(clause):
            continue
        trigger = _AGENT_TRIGGER.search(clause)
        you = _SECOND_PERSON.search(clause, 0, trigger.start() if trigger else len(clause))
        if you:
            return "second", sentence.start() + you.start(), sentence.start() + you.end()
    return None


def _words(text: str) -> list[str]:
    return _SIMPLE_WORD.findall(text.lower())


def _stem(word: str) -> str:
    # Crude on purpose: "tools"/"tool", "analyzer"/"analyze" must meet; nothing finer matters
    # for "is every description word already in the name?".
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:5]


def _restates_name(ctx: LintContext, text: str, line: int | None) -> Iterator[Finding]:
    name = ctx.skill.name
    if not name:
        return
    name_stems = {_stem(w) for w in _words(name)}
    extra = [w for w in _words(text) if w not in _STOPWORDS and _stem(w) not in name_stems]
    if not extra:
        yield ctx.finding(
            "SF205",
            f"The description only restates the name `{name}`; say what the skill produces, "
            "from what input, and when to use it.",
            line=line,
        )


def _format(ctx: LintContext, text: str, line: int | None) -> Iterator[Finding]:
    if "\n" in text:
        breaks = text.count("\n")
        yield ctx.finding(
            "SF206",
            f"The description contains {breaks} line break{'s' if breaks > 1 else ''}; write it "
            "as one paragraph: a plain string, or a folded `>` block without more-indented lines.",
            line=line,
        )
        return
    # Each kind of markup needs one of these: bold, a link, a heading, a fence.
    m = _MARKDOWN.search(text) if any(s in text for s in _MARKUP_SIGNS) else None
    if m:
        kind = m.lastgroup or "markup"
        what = {
            "bold": "bold text",
            "link": "a Markdown link",
            "heading": "a heading",
            "fence": "a code fence",
        }.get(kind, "Markdown")
        yield ctx.finding(
            "SF206",
            f"The description contains {what} (`{m.group(0).strip()[:40]}`), which harnesses show "
            "literally; write plain prose.",
            line=line,
        )


def _stuffing(ctx: LintContext, text: str, line: int | None) -> Iterator[Finding]:
    label = (
        _KEYWORD_LABEL.search(text)
        if ":" in text and has_any(text, ("key", "tag", "search", "trigger"))
        else None
    )
    runs: list[list[int]] = []
    current: list[int] = []
    for item in _LIST_SPLIT.split(text):
        item = item.strip()
        if item[:1] in _JOINER_FIRST:
            item = _LIST_JOINER.sub("", item)
        n = len(_WORD.findall(item))
        if 1 <= n <= 3:
            current.append(n)
        elif n:
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    lists = [r for r in runs if len(r) >= 5]
    items = sum(len(r) for r in lists)
    list_words = sum(sum(r) for r in lists)
    total = len(_WORD.findall(text)) or 1
    longest = max((len(r) for r in runs), default=0)
    labelled = label is not None and longest >= 5
    if (
        labelled
        or longest >= STUFFED_RUN
        or (items >= STUFFED_ITEMS and list_words / total >= STUFFED_SHARE)
    ):
        yield ctx.finding(
            "SF207",
            f"The description reads as a keyword list ({items} comma-separated terms, "
            f"{round(100 * list_words / total)}% of its words); keep the few terms users really "
            "say and write one or two sentences on what the skill does and when to use it.",
            line=line,
        )
