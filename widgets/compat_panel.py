"""The Lint tab's Compat section: the skill as each agent harness would treat it (SF701-SF707).

One block per harness: its name, a verdict (an error means that harness will not load the
skill) and its findings, the harness's name left out of each message since the block says
it. Read-only; `h` in the Lint tab shows it in place of the findings.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from skillforge.models.findings import Finding, Severity

SEVERITY_STYLE = {Severity.error: "bold red", Severity.warning: "yellow", Severity.info: "cyan"}


def verdict(findings: list[Finding]) -> Text:
    """The harness's line at a glance: its worst finding decides the colour."""
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.severity.value] = counts.get(f.severity.value, 0) + 1
    if counts.get("error"):
        head = Text("will not load it", style="bold red")
    elif counts.get("warning"):
        head = Text("see the warnings", style="yellow")
    elif counts:
        head = Text("nothing blocks it", style="green")
    else:
        head = Text("no finding", style="green")
    tally = ", ".join(f"{n} {sev}" for sev in ("error", "warning", "info") if (n := counts.get(sev)))
    if tally:
        head.append(f" · {tally}", style="dim")
    return head


class CompatPanel(VerticalScroll):
    """Per-harness compatibility findings of the current skill."""

    HELP = """## Compat
How each agent harness would treat this skill, from skillforge's versioned profiles
(Claude Code, Codex, Gemini CLI, opencode, Copilot): where it discovers skills (SF701),
frontmatter keys it ignores (SF702), its name and description limits (SF703, SF704), trigger
words cut off by its skill listing (SF705), plugin layout (SF706) and other installed skills
of the same name (SF707). An error means that harness will not load the skill. Each finding
cites its profile's basis (documented, source, observed or assumed) and version.
`skillforge lint --harness all` prints the same; `[lint] harness` also gates on them.
"""
    DEFAULT_CSS = """
    CompatPanel { height: 1fr; border: round $panel; padding: 0 1; }
    CompatPanel > Static { width: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Compat"
        self.titles: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static(Text("linting…", style="dim italic"), id="compat-body")

    def show(self, findings: list[Finding], titles: dict[str, str]) -> None:
        """`titles`: harness id -> name, in the order to list them."""
        self.titles = titles
        blocks = []
        for harness, title in titles.items():
            own = [f for f in findings if f.code == harness]
            head = Text(title, style="bold")
            head.append("  ")
            head.append_text(verdict(own))
            rows = Table.grid(padding=(0, 1))
            rows.add_column(no_wrap=True)
            rows.add_column(no_wrap=True)
            rows.add_column(ratio=1)
            for f in own:
                message = f.message.removeprefix(f"{title} ")
                rows.add_row(f.rule, Text(f.severity.value, style=SEVERITY_STYLE.get(f.severity, "")),
                             message)
            blocks.extend([head, rows] if own else [head])
        self.query_one("#compat-body", Static).update(Group(*blocks))
