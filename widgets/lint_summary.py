"""Score, grade, a bar per category, security score and the gate verdict."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from skillforge.models.findings import STRUCTURAL_CATEGORIES, LintReport

GRADE_STYLE = {"A": "bold green", "B": "green", "C": "yellow", "D": "dark_orange", "F": "bold red"}


def bar(value: float, full: float, width: int) -> Text:
    filled = round(width * value / full) if full else 0
    style = "green" if value >= 0.9 * full else ("yellow" if value >= 0.7 * full else "red")
    return Text("█" * filled, style=style) + Text("░" * (width - filled), style="dim")


class LintSummary(Static):
    """The lint verdict at a glance."""

    HELP = """## Lint summary
**Score** (0-100) is 25 points per structural category (correctness, discoverability,
reliability, efficiency), counted per rule, weighted by severity. **Grade**: A >= 90,
B >= 80, C >= 70, D >= 60. **Security** starts at 100 and loses 40/20/10/3 per
critical/high/medium/low finding. The **gate** fails on a score under the threshold, an
error finding, or a critical/high security finding.
"""
    DEFAULT_CSS = """
    LintSummary { height: 6; padding: 0 1; border: round $panel; }
    """

    report: reactive[LintReport | None] = reactive(None, layout=True)
    # Set when the lint itself failed (a bug): shown instead of "linting…" forever.
    error: reactive[str | None] = reactive(None, layout=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Lint"

    def render(self) -> Table | Text:
        r = self.report
        if self.error and r is None:
            return Text(f"lint failed: {self.error}", style="red")
        if r is None:
            return Text("linting…", style="dim italic")
        # The categories take what their names and a bar need; the verdict gets the rest,
        # on more lines when narrow, so no word is cut at 80 columns with the sidebar shown.
        content = max(0, self.size.width - 4)
        narrow = content < 60
        width = max(4, min(12, content - (28 if narrow else 49)))
        grid = Table.grid(padding=(0, 2), expand=True)
        grid.add_column(ratio=1)
        grid.add_column()
        left = Table.grid()
        left.add_column(no_wrap=True, overflow="ellipsis")
        line = Text()
        line.append("score ", style="dim")
        line.append(f"{r.score:g} {r.grade}", style=GRADE_STYLE.get(r.grade, "bold"))
        security = Text("security ", style="dim")
        security.append(str(r.security_score),
                        style="green" if r.security_score == 100 else "red")
        if narrow:
            left.add_row(line)
            left.add_row(security)
        else:
            left.add_row(line + Text("  ") + security)
        gate = Text("gate ", style="dim")
        if r.passed_gate:
            gate.append("PASS", style="bold green")
        else:
            gate.append("FAIL ", style="bold red")
            gate.append("; ".join(r.gate_reasons), style="red")
        left.add_row(gate)
        counts = r.counts()
        tally = Text(style="dim")
        for sev in ("critical", "error", "high", "warning", "medium", "low", "info"):
            if counts.get(sev):
                tally.append(f"{counts[sev]} {sev}  ")
        if not counts:
            tally = Text("no findings", style="green")
        if r.scripts_pending:
            tally.append("  ruff/shellcheck running…", style="dim italic")
        left.add_row(tally)
        right = Table.grid(padding=(0, 1))
        right.add_column(no_wrap=True, style="dim")
        right.add_column(no_wrap=True)
        right.add_column(no_wrap=True, justify="right")
        for cat in STRUCTURAL_CATEGORIES:
            c = r.categories.get(cat.value)
            if c is not None:
                right.add_row(cat.value, bar(c.score, 25.0, width), f"{c.score:4.1f}")
        grid.add_row(left, right)
        return grid
