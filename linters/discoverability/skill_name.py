"""A vague skill name (SF204): `helper`, `utils`, `my-tools` say nothing about the task, and
the name is what an agent and a user see in a list of skills."""

from __future__ import annotations

from collections.abc import Iterator

from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_VAGUE = _wordset(
    "helper helpers help util utils utility utilities tool tools toolkit toolbox misc "
    "miscellaneous stuff common general generic shared core base basic basics lib libs library "
    "default main various other thing things temp tmp assistant manager handler service "
    "services template templates example examples sample samples demo test tests untitled "
    "placeholder foo bar baz new"
)
_NAME_FILLER = _wordset("a an the my our your skill skills agent agents ai and of for")
_NOT_ALNUM = rx(r"[^a-z0-9]+")


@check("SF204")
def vague_name(ctx: LintContext) -> Iterator[Finding]:
    """SF204: a name made only of words like helper, utils, tools."""
    name = ctx.skill.name if ctx.frontmatter_ok else None
    if not name:
        return
    words = [w for w in _NOT_ALNUM.split(name.lower()) if w and not w.isdigit()]
    meaningful = [w for w in words if w not in _NAME_FILLER]
    if all(w in _VAGUE for w in meaningful):
        if not meaningful:
            why = "only filler words"
        elif meaningful == words:
            why = "one generic word" if len(words) == 1 else "only generic words"
        else:
            why = "only " + ", ".join(f"`{w}`" for w in meaningful) + " and filler words"
        yield ctx.finding(
            "SF204",
            f"The name `{name}` says nothing about the task ({why}); name the task or domain "
            "instead, such as `pdf-form-filler` or `csv-insights`.",
            line=ctx.fm_line("name"),
        )
