"""What `skillforge trial` shows while it runs: live progress on a terminal (or plain
lines when piped), notes and warnings on stderr, the result on stdout."""

from __future__ import annotations


from rich.live import Live
from rich.markup import escape

from skillforge.cli.common import console
from skillforge.trials.events import TrialEvent
from skillforge.trials.progress import GLYPHS, RunProgress, render_progress
from skillforge.trials.rounds import round_line, stop_line


class Display:
    """Live grid on a terminal; one line per finished trial otherwise; nothing for json."""

    def __init__(self, fmt: str) -> None:
        self.out = console()
        self.err = console(stderr=True)
        self.progress = RunProgress()
        self.live: Live | None = None
        self.lines = fmt == "text" and not self.out.is_terminal
        self.out_text = fmt == "text"
        if fmt == "text" and self.out.is_terminal:
            self.live = Live(console=self.out, refresh_per_second=4, transient=False,
                             get_renderable=lambda: render_progress(self.progress))

    @property
    def notes(self):
        # While the live grid owns the terminal, notes go through its console (above it).
        return self.out if self.live is not None else self.err

    def __call__(self, event: TrialEvent) -> None:
        self.progress.apply(event)
        if event.kind == "run_started":
            total = len(event.keys)
            self.notes.print(f"[dim]run {event.run_id}: {total} trials of {event.skill_name}"
                           f"{' (resumed)' if event.resumed else ''}[/]")
        elif event.kind == "round" and self.live is None and self.out_text:
            self.err.print(escape(round_line(event.result, event.max_attempts)),
                           highlight=False)
            if event.reason is not None:
                self.err.print(escape(stop_line(event.reason, event.result.round,
                                                self._not_needed(event.result.round))),
                               highlight=False)
        elif event.kind == "run_finished" and event.counts.get("reused"):
            reused = event.counts["reused"]
            ran = sum(n for k, n in event.counts.items() if k not in ("skipped", "reused"))
            self.notes.print(f"[dim]{ran} trial(s) run, {reused} reused from earlier runs "
                             "with the same inputs (--fresh runs every trial)[/]")
        elif self.lines and event.kind == "reused":
            case, cond, attempt = event.key
            self.err.print(f"{GLYPHS['reused'][0]} {escape(case)} {cond}#{attempt} reused from "
                           f"run {event.from_run}", highlight=False)
        elif self.lines and event.kind in ("finished", "failed", "cancelled"):
            rec = getattr(event, "record", None)
            case, cond, attempt = event.key
            status = rec.status if rec else "cancelled"
            glyph = GLYPHS.get(status, ("?", ""))[0]
            detail = ""
            if rec is not None:
                detail = f" {rec.wall_s:.1f}s {rec.turns} turns"
                if rec.grader is not None:
                    detail += f" grader {rec.grader:g}"
                if rec.error:
                    detail += f": {rec.error[:200]}"
                if rec.contamination:
                    hit = rec.contamination[0]
                    detail += (f"; contaminated, left out of the lift: request {hit['request']} "
                               f"carried the target skill's {hit['marker']} at {hit['where']}")
            self.err.print(f"{glyph} {escape(case)} {cond}#{attempt} {status}{escape(detail)}",
                           highlight=False)

    def _not_needed(self, done_round: int) -> int:
        return sum(1 for k in self.progress.keys if k[2] > done_round)

    def warn(self, message: str) -> None:
        prefix = "" if message.startswith("WARNING") else "warning: "
        self.notes.print(f"[yellow]{prefix}{escape(message)}[/]")
