"""`skillforge import FILE...`: agent traces into the run store as ATIF trajectories.

`import` is a click group whose default is the file import, so both
`skillforge import FILE...` and subcommands such as `skillforge import harbor JOB_DIR`
(added with `import_group.add_command`) work. A file literally named like a subcommand is
imported with `./NAME`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from sessions.atif import AtifError
from sessions.importers import (
    FORMATS,
    ImportResult,
    TraceImportError,
    detect_format,
    import_path,
    trace_files,
)
from sessions.store import RunStore, TrajectoryRecord, import_id
from skillforge.trajectory import facts as facts
from skillforge.cli.common import settings_for, shown_path
from skillforge.cli.lazy import LazyCommand, LazyGroup


class _FilesByDefault(LazyGroup):
    """`skillforge import PATH...` runs the hidden `files` command; named subcommands win."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.list_commands(ctx) and args[0] not in ("-h", "--help")):
            args = ["files", *args]
        return super().parse_args(ctx, args)


# The Harbor importer (and its trial models) loads only for `skillforge import harbor`.
HARBOR = LazyCommand("skillforge.cli.import_harbor:harbor", "Import a Harbor job folder "
                     "(jobs/<job name>) as a run: trials, trajectories, rewards.")
PLUGIN_EVAL = LazyCommand("skillforge.cli.import_plugin_eval:plugin_eval", "Import a "
                          "`claude plugin eval` result as a run: grades, cost, traces.")


@click.group("import", cls=_FilesByDefault,
             lazy_commands={"harbor": HARBOR, "plugin-eval": PLUGIN_EVAL},
             context_settings={"help_option_names": ["-h", "--help"]})
def import_group() -> None:
    """Import agent traces into the run store as ATIF trajectories.

    \b
    skillforge import FILE_OR_FOLDER... [--format json] [--state-dir DIR]
        Claude Code and Codex .jsonl session logs, ATIF .json (Harbor's
        agent/trajectory.json), Gemini CLI chats, OpenCode storage folders, or folders
        holding any of these. Prints per trace its format, steps, tool calls, tokens,
        skills activated and skipped lines.

    \b
    Options of the file import:
      --format [text|json]   json prints exactly one document
      --state-dir DIR        run store folder (default .skillforge in the launch directory)
      --trace-format NAME    read every file as this format instead of detecting it

    \b
    skillforge import harbor JOB_DIR         a Harbor job as a run
    skillforge import plugin-eval PATH       a `claude plugin eval` result as a run

    Exit codes: 0 everything imported, 1 some file could not be imported, 2 usage errors.
    """


def _resolve_state_dir(state_dir: str | None) -> Path:
    if state_dir:
        return Path(state_dir)
    return Path(settings_for(None).state_dir)


def _expand(paths: tuple[str, ...]) -> tuple[list[Path], list[str], list[dict[str, str]]]:
    """(trace paths to import, non-trace files seen in folders, folders with no trace)."""
    todo: list[Path] = []
    not_traces: list[str] = []
    failed: list[dict[str, str]] = []
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise click.UsageError(f"{p}: no such file or folder")
        if path.is_file() or detect_format(path) == "opencode":
            todo.append(path)
            continue
        found = [f for f in trace_files(path) if detect_format(f) is not None]
        not_traces += [shown_path(f) for f in trace_files(path) if f not in found]
        if not found:
            failed.append({"source": shown_path(path), "error": f"{p}: no traces found in this "
                           "folder (looked for .jsonl/.json session logs and OpenCode storage)"})
        todo += found
    return todo, not_traces, failed


def _entry(result: ImportResult, rec: TrajectoryRecord, replaced: bool) -> dict[str, Any]:
    traj = result.trajectory
    totals = traj.totals()
    outcomes = facts.call_outcomes(traj)
    return {
        "source": shown_path(Path(result.source)),
        "format": result.format,
        "id": rec.id,
        "path": shown_path(rec.path),
        "replaced": replaced,
        "session_id": traj.session_id,
        "agent": traj.agent.name,
        "model": traj.agent.model_name,
        "steps": len(traj.steps),
        "tool_calls": len(outcomes),
        "tool_errors": sum(1 for o in outcomes if o.error),
        "tokens": {"in": totals.total_prompt_tokens, "out": totals.total_completion_tokens,
                   "cached": totals.total_cached_tokens},
        "cost_usd": totals.total_cost_usd,
        "activations": [{"skill": a.skill_name, "how": a.how, "step_id": a.step_id}
                        for a in facts.skill_activations(traj)],
        "script_runs": [{"skill": r.skill_name, "script": r.script, "step_id": r.step_id,
                         "exit_code": r.exit_code, "ok": r.ok} for r in facts.script_runs(traj)],
        "skipped": {"count": result.skipped.count, "reasons": result.skipped.reasons,
                    "examples": [e.model_dump() for e in result.skipped.examples]},
        "warnings": result.warnings,
        "ignored": result.ignored,
    }


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:,}"


def _entry_lines(e: dict[str, Any]) -> list[str]:
    again = " (re-imported, replaced)" if e["replaced"] else ""
    tokens = e["tokens"]
    cost = f" · cost ${e['cost_usd']:.4f}" if e["cost_usd"] is not None else ""
    lines = [
        (f"{click.style('imported', fg='green')} {e['source']} ({e['format']}) -> "
         f"{e['path']}{again}"),
        (f"  steps {e['steps']} · tool calls {e['tool_calls']} ({e['tool_errors']} with errors) "
         f"· tokens in {_num(tokens['in'])} / out {_num(tokens['out'])} / cached "
         f"{_num(tokens['cached'])}{cost}"),
    ]
    acts = dict.fromkeys(f"{a['skill']} ({a['how']}, step {a['step_id']})"
                         for a in e["activations"])
    lines.append(f"  skills activated: {', '.join(acts) if acts else 'none'}")
    if e["script_runs"]:
        runs = ", ".join(f"{r['skill']}/{r['script']} ({'ok' if r['ok'] else 'failed'})"
                         for r in e["script_runs"])
        lines.append(f"  skill scripts run: {runs}")
    skipped = e["skipped"]
    if skipped["count"]:
        where: dict[str, list[int]] = {}
        for ex in skipped["examples"]:
            if ex["line"] is not None:
                where.setdefault(ex["reason"], []).append(ex["line"])
        parts = []
        for reason, n in skipped["reasons"].items():
            at = f" (line {', '.join(map(str, where[reason][:5]))})" if reason in where else ""
            parts.append(f"{reason} x{n}{at}")
        lines.append(f"  skipped {skipped['count']}: " + "; ".join(parts))
    lines += [f"  warning: {w}" for w in e["warnings"]]
    return lines


@import_group.command("files", hidden=True)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format; json prints exactly one document.")
@click.option("--state-dir", type=click.Path(file_okay=False),
              help="Run store folder (default .skillforge in the launch directory).")
@click.option("--trace-format", type=click.Choice(FORMATS), default=None,
              help="Read every file as this format instead of detecting it.")
@click.pass_context
def import_files(ctx: click.Context, paths: tuple[str, ...], fmt: str, state_dir: str | None,
                 trace_format: str | None) -> None:
    """Import trace files or folders (see `skillforge import --help`)."""
    if not paths:
        raise click.UsageError(ctx=ctx.parent, message="give at least one FILE or FOLDER: a Claude Code or Codex "
                               ".jsonl log, an ATIF or Gemini CLI .json file, or an OpenCode "
                               "storage folder")
    todo, not_traces, failed = _expand(paths)
    imported: list[dict[str, Any]] = []
    with RunStore(_resolve_state_dir(state_dir)) as store:
        for path in todo:
            try:
                results = import_path(path, trace_format)
            except (TraceImportError, AtifError, OSError) as exc:
                failed.append({"source": shown_path(path), "error": str(exc)})
                if fmt == "text":
                    click.echo(f"{click.style('failed', fg='red')}   {exc}", err=True)
                continue
            for result in results:
                replaced = store.trajectory(import_id(result)) is not None
                entry = _entry(result, store.record_import(result), replaced)
                imported.append(entry)
                if fmt == "text":
                    for line in _entry_lines(entry):
                        click.echo(line)
        state = shown_path(store.state_dir)
    if fmt == "json":
        click.echo(json.dumps({"state_dir": state, "imported": imported, "failed": failed,
                               "not_traces": not_traces}, indent=2, ensure_ascii=False))
    else:
        for f in failed:
            if not any(f["source"] == shown_path(p) for p in todo):
                click.echo(f"{click.style('failed', fg='red')}   {f['error']}", err=True)
        click.echo(f"{len(imported)} imported into {state}, {len(failed)} failed"
                   + (f", {len(not_traces)} non-trace file(s) ignored" if not_traces else ""))
    sys.exit(1 if failed else 0)
