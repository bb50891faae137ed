"""`skillforge evals convert PATH --to FORMAT -o OUT`: eval cases from one runner's format to
another's, saying per case and field what could not be carried over (skillforge.evalformats).

Exit codes: 0 written (losses are listed, not errors), 2 PATH unreadable in any format or OUT
not empty.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from skillforge.evalformats.convert import convert
from skillforge.evalformats.registry import FORMATS, WRITABLE


@click.command("convert")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--to", "to", required=True, type=click.Choice(list(WRITABLE)),
              help="The format to write.")
@click.option("-o", "--output", "out", required=True, type=click.Path(path_type=Path),
              help="Folder to write into (an evals.json path for the JSON formats); must not "
                   "hold files of its own.")
@click.option("--from", "source", type=click.Choice(list(FORMATS)), default=None,
              help="The format of PATH (default: detected).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format; json prints exactly one document.")
def convert_cmd(path: Path, to: str, out: Path, source: str | None, fmt: str) -> None:
    """Write the eval cases at PATH in another runner's format, and list what could not be
    carried over.

    \b
    PATH: a skill folder, an evals.json (skillforge, skill-creator or NVIDIA SkillEvaluator),
    a waza or vally eval.yaml (or a vally experiment file), Claude Code plugin-eval case
    folders (evals/<case>/ with prompt.md or case.yaml), or Harbor task folders.
    --to: cc-plugin-eval (OUT/<case>/prompt.md, graders/*.md, case.yaml + fixture.sh when
    the case has a setup script), waza (OUT/eval.yaml, OUT/tasks/*.yaml), vally
    (OUT/eval.yaml), skill-creator / nvidia / skillforge (OUT/evals.json).
    """
    if out.exists() and (out.is_file() or any(out.iterdir())):
        click.echo(f"skillforge evals convert: {out} already exists and is not empty; choose "
                   "a new folder (nothing was written)", err=True)
        sys.exit(2)
    conv = convert(path, to, out, source_fmt=source)
    if fmt == "json":
        click.echo(json.dumps({
            "source": str(path), "source_format": conv.source_fmt, "target_format": to,
            "output": str(out), "cases": conv.cases, "ok": conv.ok,
            "issues": [i.model_dump() for i in conv.issues],
            "not_carried": [{"case": x.case_id, "field": x.field, "reason": x.reason}
                            for x in sorted(set(conv.losses))]}, indent=2))
    else:
        for issue in conv.issues:
            where = f"{issue.pointer}: " if issue.pointer and issue.pointer not in issue.message \
                else ""
            click.echo(f"error: {where}{issue.message}", err=True)
        if conv.ok:
            click.echo(f"{conv.cases} case(s) from {conv.source_fmt} written as {to} to {out}")
            losses = sorted(set(conv.losses))
            if losses:
                click.echo(f"Not carried over ({len(losses)}):")
                for loss in losses:
                    click.echo(f"  {loss.line()}")
            else:
                click.echo("Everything was carried over.")
    sys.exit(0 if conv.ok else 2)
