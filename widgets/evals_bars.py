"""The small parts of the Evals tab: the conflict bar, the draft bar and the lint findings."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from skillforge.models.evals import EVALS_PATH, KINDS
from skillforge.models.findings import Finding
from widgets.findings_table import SEVERITY_STYLE

EVALS_RULES = ("SF313", "SF314", "SF315", "SF316")


def evals_findings(findings: list[Finding]) -> list[Finding]:
    """The findings about evaluation assets: rules SF313-SF316 and anything under evals/."""
    return [f for f in findings
            if f.rule in EVALS_RULES or (f.path or "").startswith("evals/")]


class ConflictBar(Horizontal):
    """evals.json changed on disk: take the file's version, keep mine (saving writes it over
    the file), or view the difference first. Mode "changed": noticed while editing; mode
    "save": a save found the file changed (keeping mine then means writing it now)."""

    DEFAULT_CSS = """
    ConflictBar { height: auto; background: $warning-muted; padding: 0 1; display: none; }
    ConflictBar.-shown { display: block; }
    ConflictBar > Static { width: 1fr; }
    ConflictBar > Button { margin-left: 1; width: auto; min-width: 8; }
    ConflictBar.-changed #conflict-overwrite, ConflictBar.-save #conflict-keep { display: none; }
    """

    class Chosen(Message):
        def __init__(self, choice: str) -> None:
            super().__init__()
            self.choice = choice  # "reload", "keep", "overwrite" or "diff"

    def compose(self) -> ComposeResult:
        yield Static(id="conflict-text")
        yield Button("Reload from disk", compact=True, variant="warning", id="conflict-reload")
        yield Button("Keep mine", compact=True, variant="primary", id="conflict-keep")
        yield Button("Overwrite with mine", compact=True, variant="error", id="conflict-overwrite")
        yield Button("View difference", compact=True, id="conflict-diff")

    def show(self, message: str, mode: str = "save") -> None:
        self.query_one("#conflict-text", Static).update(Text(f"⚠ {message}"))
        self.set_class(mode == "changed", "-changed")
        self.set_class(mode != "changed", "-save")
        self.add_class("-shown")

    def hide(self) -> None:
        self.remove_class("-shown")

    @property
    def shown(self) -> bool:
        return self.has_class("-shown")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Chosen((event.button.id or "").removeprefix("conflict-")))


class DraftBar(Horizontal):
    """How many cases of which kinds to draft."""

    DEFAULT_CSS = """
    DraftBar { height: auto; padding: 0 1; background: $boost; display: none; }
    DraftBar.-shown { display: block; }
    DraftBar > Label { margin-right: 1; }
    DraftBar > Input { width: 5; }
    DraftBar > Checkbox { margin-right: 1; width: auto; }
    DraftBar > Button { margin-left: 1; width: auto; min-width: 8; }
    """

    class Submitted(Message):
        def __init__(self, kinds: list[str], count: int) -> None:
            super().__init__()
            self.kinds = kinds
            self.count = count

    def compose(self) -> ComposeResult:
        yield Label("Draft")
        yield Input("2", type="integer", compact=True, id="draft-count")
        yield Label("of each:")
        for kind in KINDS:
            yield Checkbox(kind, True, compact=True, id=f"draft-{kind}")
        yield Button("Draft", compact=True, variant="primary", id="draft-go")
        yield Button("Cancel", compact=True, id="draft-cancel")

    def show(self) -> None:
        self.add_class("-shown")
        self.query_one("#draft-count", Input).focus()

    def hide(self) -> None:
        self.remove_class("-shown")

    def choice(self) -> tuple[list[str], int | None]:
        kinds = [k for k in KINDS if self.query_one(f"#draft-{k}", Checkbox).value]
        try:
            count = int(self.query_one("#draft-count", Input).value)
        except ValueError:
            count = None
        return kinds, count

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._go()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "draft-cancel":
            self.hide()
        else:
            self._go()

    def _go(self) -> None:
        kinds, count = self.choice()
        if not kinds or count is None or not 1 <= count <= 10:
            self.notify("Pick at least one kind and a count from 1 to 10.", severity="warning")
            return
        self.hide()
        self.post_message(self.Submitted(kinds, count))


class EvalFindings(OptionList):
    """Lint findings about the evaluation assets (of the file on disk), live."""

    HELP = """## Lint of the evaluation assets
The lint findings about `evals/evals.json` as saved on disk (rules SF313-SF316: no file,
too few cases, does not validate, names a missing script or file). They update every time
the file changes. **Enter** on a finding with a line selects the case at that line.
"""
    DEFAULT_CSS = """
    EvalFindings { height: auto; max-height: 6; border: round $panel; text-wrap: nowrap; text-overflow: ellipsis; }
    EvalFindings:focus { border: round $accent; }
    """

    class LineChosen(Message):
        def __init__(self, line: int) -> None:
            super().__init__()
            self.line = line

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = f"Lint · {EVALS_PATH} on disk"
        self.findings: list[Finding] = []

    def show(self, findings: list[Finding]) -> None:
        self.findings = evals_findings(findings)
        self.clear_options()
        if not self.findings:
            self.add_option(Option(Text("No lint findings about the evaluation assets.",
                                        style="dim"), disabled=True))
        for f in self.findings:
            label = Text(no_wrap=True, overflow="ellipsis")
            label.append(f"{f.severity.value:8}", style=SEVERITY_STYLE.get(f.severity, ""))
            label.append(f"{f.rule} ", style="bold")
            if f.line:
                label.append(f"line {f.line}: ", style="dim")
            label.append(f.message)
            self.add_option(Option(label))
        if self.findings:
            self.highlighted = 0
        self.border_subtitle = f"{len(self.findings)}"

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.findings):
            line = self.findings[event.option_index].line
            if line:
                self.post_message(self.LineChosen(line))
