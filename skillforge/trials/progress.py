"""The live state of a trial run, built from its events, and its Rich rendering.

Pure: events in, a grid (case x condition x attempt) and running totals out. The CLI's
live display and the TUI's trials grid both keep a `RunProgress` and render it with
`progress_table` / `totals_line`. Events are read by their `kind` and attributes only, so
anything shaped like skillforge.trials.events works.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from skillforge.trials.rounds import round_texts

Key = tuple[str, str, int]

GLYPHS: dict[str, tuple[str, str]] = {
    "queued": ("·", "dim"),
    "running": ("▶", "bold cyan"),
    "ok": ("✓", "bold green"),
    "error": ("✗", "bold red"),
    "timeout": ("⏱", "bold yellow"),
    "cancelled": ("⊘", "magenta"),
    "skipped": ("↷", "green"),
    "reused": ("↺", "green"),
    "not_needed": ("–", "dim"),  # --until-decided stopped before this round
}
CONDITION_SHORT = {"with_skill": "with", "baseline": "base", "self_generated": "self",
                   "skill_mode": "skill"}
SHORT_PART_CHARS = 12
FAILED = ("error", "timeout")
FAILURE_KEYS_SHOWN = 2  # trial names per reason; "and n more" says the rest


def short_condition(condition: str) -> str:
    """A grid column's name: `with`, `base`, ...; `−workflow`, `−summarize.py`, `−descr.` for
    `without:<part>` (the section's slug or the file's name, cut to 12 characters)."""
    if condition in CONDITION_SHORT:
        return CONDITION_SHORT[condition]
    if not condition.startswith("without:"):
        return condition
    part = condition[len("without:"):]
    name = {"description": "descr."}.get(part) or part.split(":", 1)[-1].rsplit("/", 1)[-1]
    if len(name) > SHORT_PART_CHARS:
        name = name[: SHORT_PART_CHARS - 1] + "…"
    return "−" + name


@dataclass
class Cell:
    """One trial's state as the grid shows it."""

    status: str = "queued"
    phase: str = ""
    turn: int = 0
    summary: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None
    grader: float | None = None
    wall_s: float | None = None
    error: str | None = None
    started: float | None = None
    reused_from: str | None = None  # the earlier run whose trial this one is


@dataclass
class RunProgress:
    """Everything the live grid needs, updated by `apply(event)`."""

    run_id: str = ""
    skill_name: str = ""
    keys: list[Key] = field(default_factory=list)
    cells: dict[Key, Cell] = field(default_factory=dict)
    status: str = "running"
    error: str | None = None
    stop_reason: str | None = None  # status stopped: why (the cost cap)
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    # --until-decided: each round's state (skillforge.trials.rounds.RoundDone), the stop.
    rounds: list[Any] = field(default_factory=list)

    # --- events ---------------------------------------------------------------------------
    def apply(self, event: Any) -> None:
        """Update the state from one event (unknown kinds are ignored)."""
        kind = getattr(event, "kind", None)
        key = getattr(event, "key", None)
        if kind == "run_started":
            self.run_id, self.skill_name = event.run_id, event.skill_name
            self.keys = [tuple(k) for k in event.keys]  # type: ignore[misc]
            self.cells = {k: Cell() for k in self.keys}
            self.started, self.ended, self.status = time.monotonic(), None, "running"
            self.rounds = []
            return
        if kind == "round":
            self.rounds.append(event)
            return
        if kind == "run_finished":
            self.status, self.error, self.ended = event.status, event.error, time.monotonic()
            self.stop_reason = getattr(event, "stop_reason", None)
            for cell in self.cells.values():
                if cell.status in ("queued", "running"):
                    cell.status = "cancelled"
            return
        if key is None:
            return
        key = tuple(key)
        cell = self.cells.get(key)
        if cell is None:
            self.keys.append(key)
            cell = self.cells[key] = Cell()
        if kind in ("queued", "not_needed"):
            cell.status = kind
        elif kind == "skipped":
            cell.status = "skipped"
            self._take_record(cell, getattr(event, "record", None))
        elif kind == "reused":
            # Spent by an earlier run: the grade shows, the tokens and cost do not count here.
            cell.status, cell.reused_from = "reused", event.from_run
            cell.grader, cell.error = event.record.grader, event.record.error
        elif kind == "started":
            cell.status, cell.started = "running", time.monotonic()
        elif kind == "phase":
            cell.phase = event.phase
        elif kind == "step":
            cell.turn, cell.summary = event.turn, event.summary
            cell.tokens_in, cell.tokens_out = event.tokens_in, event.tokens_out
            cell.cost_usd = event.cost_usd
        elif kind in ("finished", "failed", "cancelled"):
            record = getattr(event, "record", None)
            cell.status = record.status if record is not None else "cancelled"
            self._take_record(cell, record)

    @staticmethod
    def _take_record(cell: Cell, record: Any) -> None:
        if record is None:
            return
        cell.tokens_in, cell.tokens_out = record.tokens_in, record.tokens_out
        cell.cost_usd, cell.grader = record.cost_usd, record.grader
        cell.wall_s, cell.error, cell.turn = record.wall_s, record.error, record.turns

    # --- views ----------------------------------------------------------------------------
    def case_ids(self) -> list[str]:
        return list(dict.fromkeys(k[0] for k in self.keys))

    def columns(self) -> list[tuple[str, int]]:
        """(condition, attempt) pairs in a stable order: conditions first, then attempts."""
        conds = list(dict.fromkeys(k[1] for k in self.keys))
        attempts = sorted({k[2] for k in self.keys})
        return [(c, a) for c in conds for a in attempts if any(
            k[1] == c and k[2] == a for k in self.keys)]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for cell in self.cells.values():
            out[cell.status] = out.get(cell.status, 0) + 1
        return out

    def totals(self) -> dict[str, Any]:
        cells = list(self.cells.values())
        costs = [c.cost_usd for c in cells if c.cost_usd is not None]
        end = self.ended if self.ended is not None else time.monotonic()
        return {
            "trials": len(cells),
            "done": sum(1 for c in cells if c.status not in ("queued", "running")),
            "tokens_in": sum(c.tokens_in for c in cells),
            "tokens_out": sum(c.tokens_out for c in cells),
            "cost_usd": round(sum(costs), 6) if costs else None,
            "elapsed_s": round(end - self.started, 1),
        }

    def reused(self) -> dict[str, int]:
        """{earlier run: trials of this run reused from it}."""
        out: dict[str, int] = {}
        for cell in self.cells.values():
            if cell.status == "reused" and cell.reused_from:
                out[cell.reused_from] = out.get(cell.reused_from, 0) + 1
        return out

    def running(self) -> list[tuple[Key, Cell]]:
        return [(k, c) for k, c in self.cells.items() if c.status == "running"]

    def failed(self) -> list[tuple[Key, str, str | None]]:
        """(key, status, error) of the trials that ended in error or timeout."""
        return [(k, c.status, c.error) for k, c in self.cells.items()
                if c.status in FAILED]


def cell_text(cell: Cell) -> Text:
    """A grid cell: the status glyph, plus the turn while running or the grader reward."""
    glyph, style = GLYPHS.get(cell.status, ("?", ""))
    text = Text(glyph, style=style)
    if cell.status == "running" and cell.turn:
        text.append(f"{cell.turn}", style="cyan")
    elif cell.grader is not None and cell.status in ("ok", "skipped", "reused"):
        text.append(f"{cell.grader:.2g}", style="green" if cell.grader >= 1 else "yellow")
    return text


def progress_table(progress: RunProgress) -> Table:
    """The grid: one row per case, one column per condition and attempt."""
    table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("case", no_wrap=True, overflow="ellipsis", max_width=28)
    cols = progress.columns()
    for cond, attempt in cols:
        table.add_column(f"{short_condition(cond)}#{attempt}", justify="center",
                         no_wrap=True)
    for case in progress.case_ids():
        row: list[Any] = [case]
        for cond, attempt in cols:
            cell = progress.cells.get((case, cond, attempt))
            row.append(cell_text(cell) if cell else Text(""))
        table.add_row(*row)
    return table


def totals_line(progress: RunProgress) -> Text:
    """done/total, tokens, cost and elapsed time, plus a tally by status."""
    t = progress.totals()
    line = Text()
    line.append(f"{t['done']}/{t['trials']} trials", style="bold")
    counts = progress.counts()
    for status in ("ok", "error", "timeout", "cancelled", "skipped", "reused", "not_needed"):
        if counts.get(status):
            glyph, style = GLYPHS[status]
            line.append(f"  {glyph} {counts[status]}", style=style)
    line.append(f"   tokens {t['tokens_in']:,} in / {t['tokens_out']:,} out", style="dim")
    cost = "unknown" if t["cost_usd"] is None else f"${t['cost_usd']:.4f}"
    line.append(f"   cost {cost}   {t['elapsed_s']:.0f} s", style="dim")
    return line


def reuse_lines(progress: RunProgress, limit: int = 3) -> list[Text]:
    """Which trials were not run because an earlier run's had the same inputs."""
    runs = sorted(progress.reused().items(), key=lambda item: (-item[1], item[0]))
    glyph, style = GLYPHS["reused"]
    out = [Text(f"{glyph} {n} trial{'s' if n != 1 else ''} reused from run {run} "
                "(same inputs; --fresh runs them again)", style=style)
           for run, n in runs[:limit]]
    if len(runs) > limit:
        out.append(Text(f"  (and {len(runs) - limit} other run(s))", style="dim"))
    return out


def running_lines(progress: RunProgress, limit: int = 6) -> list[Text]:
    """What the running trials are doing now (their latest step)."""
    out = []
    for (case, cond, attempt), cell in progress.running()[:limit]:
        line = Text(f"{case} {short_condition(cond)}#{attempt}", style="cyan",
                    no_wrap=True, overflow="ellipsis")
        what = cell.summary or cell.phase or "starting"
        line.append(f"  turn {cell.turn}: " if cell.turn else "  ", style="dim")
        line.append(what)
        out.append(line)
    return out


def failure_lines(failed: Sequence[tuple[Key, str, str | None]], limit: int = 3) -> list[Text]:
    """Why trials failed: one line per distinct reason (the error's first line), naming
    the trials it struck, in the order they failed. A glyph alone (✗) says nothing."""
    groups: dict[tuple[str, str], list[Key]] = {}
    for key, status, error in failed:
        lines = (error or "").strip().splitlines()
        reason = lines[0] if lines else "timed out" if status == "timeout" else \
            "no reason was recorded"
        groups.setdefault((status, reason), []).append(key)
    out = []
    for (status, reason), keys in list(groups.items())[:limit]:
        glyph, style = GLYPHS.get(status, GLYPHS["error"])
        names = ", ".join(f"{c} {short_condition(cond)}#{a}"
                          for c, cond, a in keys[:FAILURE_KEYS_SHOWN])
        if len(keys) > FAILURE_KEYS_SHOWN:
            names += f" and {len(keys) - FAILURE_KEYS_SHOWN} more"
        line = Text(f"{glyph} ", style=style)
        line.append(names, style=style.replace("bold ", ""))
        line.append(f": {reason}")
        out.append(line)
    if len(groups) > limit:
        out.append(Text(f"  (and {len(groups) - limit} other reason(s))", style="dim"))
    return out


def render_progress(progress: RunProgress) -> Group:
    """The whole live view: title, grid, totals and the running trials' current steps."""
    title = Text()
    title.append(progress.skill_name or "trials", style="bold")
    if progress.run_id:
        title.append(f"  run {progress.run_id}", style="dim")
    parts: list[Any] = [title, progress_table(progress), totals_line(progress)]
    parts += reuse_lines(progress) + running_lines(progress) + round_texts(progress)
    return Group(*parts)
