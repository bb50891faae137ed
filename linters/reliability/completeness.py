"""What the body should contain (SF309, SF310, SF317): an example, a way to verify the
result, and the skill's limitations.

An agent imitates examples far more reliably than it follows descriptions, stops at "done"
unless told how to check, and forces a skill where it does not fit unless told its limits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.text.literal_search import any_match, has_any, search_at_words, search_lowered
from linters.reliability.reachability import mentions, skill_md_words
from linters.registry import check
from linters.subjects import has_numbered_steps, has_workflow
from skillforge.models.findings import Finding

_EXAMPLE_HEADING = rx(
    r"\b(?:examples?|samples?|demo|walkthrough|worked|quick\s?start|tutorial|usage)\b",
    re.IGNORECASE,
)
_EXAMPLE_PROSE = rx(
    r"\bfor\s+(?:example|instance)\b|\be\.\s?g\.|\bexamples?\s*(?:\d+\s*)?[:(]|\bexample\s+(?:usage|"
    r"prompt|request|input|output|call|command|session|query|workflow)|\bsample\s+(?:input|output|prompt|request)",
    re.IGNORECASE,
)
_IO_PAIR = rx(
    r"\b(?:input|before|user)\b[^\n]*:.*?\n(?:.*\n){0,15}?[^\n]*\b(?:output|after|result|response)\b[^\n]*:",
    re.IGNORECASE,
)
# The words every match of the regex above starts with (see linters.text.literal_search).
_EXAMPLE_PROSE_STARTS = ("for", "e.", "example", "sample")
_IO_PAIR_STARTS = ("input", "before", "user")


@check("SF309")
def no_example(ctx: LintContext) -> Iterator[Finding]:
    """An agent imitates examples far more reliably than it follows descriptions."""
    body = ctx.skill.body
    if not body.strip() or any_match(_EXAMPLE_HEADING, ctx.heading_texts, ctx.heading_lows):
        return
    if search_at_words(_EXAMPLE_PROSE, ctx.body.prose, _EXAMPLE_PROSE_STARTS, ctx.body.prose_low):
        return
    if search_at_words(_IO_PAIR, body, _IO_PAIR_STARTS, ctx.body_low):
        return
    if any("example" in f.path.lower() for f in ctx.skill.files if f.kind != "eval"):
        return
    yield ctx.finding(
        "SF309",
        "SKILL.md has no example; add an \"## Example\" section with a realistic request and "
        "the commands or output it should lead to.",
        line=ctx.skill.body_start_line,
    )


_VERIFY = rx(
    r"\b(?:verif\w*|validat\w*|check\w*|test\w*|confirm\w*|assert\w*|compar\w*|ensure\w*|"
    r"make\s+sure|sanity|inspect\w*|expected\s+(?:output|result)|should\s+(?:now\s+)?(?:see|print|show|return|output))",
    re.IGNORECASE,
)
_STEPS_HEADING = rx(r"workflow|steps|procedure|process", re.IGNORECASE)
_ORDERED_ITEM = rx(r"\s{0,3}\d+[.)]\s+\S")


def _lays_out_steps(ctx: LintContext) -> bool:
    """Stricter than the `workflow` subject: a "How to use" section that only points at
    reference files has nothing to verify; numbered steps or a Workflow heading do."""
    return any_match(_STEPS_HEADING, ctx.heading_texts, ctx.heading_lows) or has_numbered_steps(ctx)


@check("SF310")
def no_verification(ctx: LintContext) -> Iterator[Finding]:
    """A workflow says how the agent knows it worked, or the agent stops at "done"."""
    if (
        not has_workflow(ctx)
        or not _lays_out_steps(ctx)
        or search_lowered(_VERIFY, ctx.skill.body, ctx.body_low)
    ):
        return
    line = next((h.line for h in ctx.body.headings if _STEPS_HEADING.search(h.text)), None)
    if line is None:
        line = next((no for no, ln in ctx.body.prose_lines() if _ORDERED_ITEM.match(ln)),
                    ctx.skill.body_start_line)
    yield ctx.finding(
        "SF310",
        "The workflow never says how to check the result; add a final step that verifies it "
        "(run the tests, validate the output file, compare with the expected numbers) and "
        "what to do if the check fails.",
        line=line,
    )


_LIMITS_HEADING = rx(
    r"\b(?:limitations?|limits|caveats?|known\s+(?:issues|limitations|problems|bugs)|troubleshoot\w*|"
    r"when\s+not\s+to|not\s+(?:for|suitable|supported)|do\s+not\s+use|don'?t\s+use|don'?ts|avoid|"
    r"pitfalls?|gotchas?|common\s+(?:mistakes|errors|issues|problems|failures|rationalizations)|"
    r"anti-?patterns?|edge\s+cases?|failure\s+modes?|constraints?|out\s+of\s+scope|non-?goals|red\s+flags|"
    r"warnings?|mistakes|rationalizations|important\s+notes|error\s+handling|errors|fails?|failures?|faq|"
    r"scope|boundaries|what\s+(?:this\s+skill|it)\s+(?:does\s+not|doesn'?t|can'?t|cannot))\b",
    re.IGNORECASE,
)
_LIMITS_LABEL = rx(
    r"^\s*(?:[-*]\s+)?\*\*[^*]{0,40}?(?:limitations?|caveats?|known issues|gotchas?|pitfalls?|"
    r"when not to use)[^*]{0,20}\*\*",
    re.IGNORECASE | re.MULTILINE,
)
# Every label the regex above accepts holds one of these.
_LIMITS_LABEL_WORDS = ("limitation", "caveat", "known issues", "gotcha", "pitfall", "when not to use")
_LIMITS_FILE = rx(
    r"limitation|troubleshoot|pitfall|gotcha|known[-_]issue|faq|caveat", re.IGNORECASE
)


@check("SF317")
def no_limitations(ctx: LintContext) -> Iterator[Finding]:
    """Known limits keep an agent from forcing the skill where it does not fit."""
    if not ctx.skill.body.strip():
        return
    if any_match(_LIMITS_HEADING, ctx.heading_texts, ctx.heading_lows):
        return
    prose = ctx.body.prose
    low = ctx.body.prose_low
    if has_any(prose, _LIMITS_LABEL_WORDS, low) and search_lowered(_LIMITS_LABEL, prose, low):
        return
    words = skill_md_words(ctx)
    if any(_LIMITS_FILE.search(f.name) and mentions(words, f) for f in ctx.skill.files):
        return
    yield ctx.finding(
        "SF317",
        "SKILL.md has no section on limitations or troubleshooting; add one (\"## Limitations\" "
        "or \"## Troubleshooting\") listing what the skill cannot do and the usual failures "
        "with their fixes.",
        line=ctx.skill.body_start_line,
    )

