"""`skillforge lsp`: the Language Server Protocol over stdio, for editors."""

from __future__ import annotations

import click

from skillforge.lsp import DEBOUNCE_MS


@click.command("lsp")
@click.option("--stdio", is_flag=True,
              help="Talk over standard input/output: the only transport, and the default "
                   "(accepted because some editors always pass it).")
@click.option("--debounce", "debounce_ms", type=click.IntRange(0, 10_000), default=DEBOUNCE_MS,
              show_default=True, metavar="MS",
              help="Wait this long after an edit before linting the unsaved text.")
def lsp(stdio: bool, debounce_ms: int) -> None:
    """Serve lint findings to an editor over the Language Server Protocol (stdio).

    \b
    Diagnostics for SKILL.md, references and scripts as you type (the unsaved text is
    linted), with rule ids, severities and `skillforge lint --explain RULE`; quick fixes
    for the findings that have one (safe ones preferred); hovers on a rule id or a
    frontmatter key. skillforge.toml and `skillforge: disable SFxxx` comments apply as in
    `skillforge lint`. The editor starts it; the README's "In your editor" shows how.
    """
    from skillforge.lsp.handlers import serve

    serve(debounce_ms)
