"""The top bar: skill name, score and grade, security status, and the configured model."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from skillforge.models.findings import LintReport, Severity

GRADE_STYLE = {"A": "bold green", "B": "green", "C": "yellow", "D": "dark_orange", "F": "bold red"}


class SkillHeader(Static):
    """One line: what skill this is and how it stands."""

    HELP = """## Header
The skill's name, its structural **score and grade** (A-F), its **security** score, and
whether it passes the lint **gate**. The right side shows the configured LLM provider.
"""
    DEFAULT_CSS = """
    SkillHeader {
        dock: top;
        height: 1;
        background: $primary-background;
        color: $text;
        padding: 0 1;
    }
    """

    title: reactive[str] = reactive("skillforge")
    report: reactive[LintReport | None] = reactive(None)
    status: reactive[str] = reactive("")

    def render(self) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        if self.size.width >= 100:  # narrower: the skill and its verdict need the room
            t.append("skillforge ", style="bold")
            t.append("· ", style="dim")
        t.append(self.title, style="bold")
        r = self.report
        if r is not None:
            t.append("  score ", style="dim")
            t.append(f"{r.score:g} {r.grade}", style=GRADE_STYLE.get(r.grade, ""))
            high = sum(1 for f in r.findings if f.severity in (Severity.critical, Severity.high))
            t.append("  security ", style="dim")
            if r.security_score == 100:
                t.append("100 ok", style="green")
            else:
                t.append(f"{r.security_score}", style="red" if high else "yellow")
                if high:
                    t.append(f" ({high} critical/high)", style="red")
            t.append("  gate ", style="dim")
            t.append("PASS" if r.passed_gate else "FAIL", style="bold green" if r.passed_gate else "bold red")
            if r.scripts_pending:
                t.append("  scripts…", style="dim italic")
        status = self._fitting_status(self.size.width - 2 - t.cell_len - 3)
        if status:
            t.append("   " + status, style="dim")
        return t

    def _fitting_status(self, room: int) -> str:
        """The provider status, shortened to `room` cells where it can be said in less: the
        server's URL goes first, then the provider's name or the parenthesis; never cut
        mid-word ("" when even the shortest form does not fit)."""
        status = self.status
        if not status or not self.size.width:
            return status
        short = status.split(" @ ", 1)[0]
        candidates = [status, short, short.split(" · ", 1)[-1], status.split(" (", 1)[0]]
        return next((c for c in candidates if len(c) <= room), "")
